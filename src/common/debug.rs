//! A program run under a debugger (the playground's): it runs a step at a
//! time, as `icp2c run --trace` runs it (not optimised, so that every step
//! is a statement or move as written), stops before a statement on a
//! breakpoint's line, and keeps the last steps it ran so that a board view
//! can step back through them.
//!
//! A language runs its program through a [`Stepper`]; the [`Debugger`]
//! around it is the same for every language: breakpoints, the history, the
//! board after each step (kept from the steps' own changes, so that it
//! costs one step per changed square, never one per square of the board),
//! and what a view has not been sent yet ([`Debugger::update`]).

use super::watch::{Change, Content, Shape, Step};
use crate::Outcome;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A program that runs one step at a time.
pub trait Stepper {
    /// Runs the next step (an InfChessPro statement, a Finvara move),
    /// appending its record to `steps` (none for a step that ends in a
    /// runtime error). Returns how the run ended when it has (this step
    /// was the last, or failed, or there was none left), else `None`.
    fn step(&mut self, steps: &mut Vec<Step>) -> Option<Outcome>;

    /// The 1-based source line of the step that runs next; `None` when
    /// none does.
    fn next_line(&self) -> Option<usize>;

    /// The trace's closing line, once written (Finvara's `end: …`).
    fn end_line(&self) -> Option<String> {
        None
    }
}

impl<T: Stepper + ?Sized> Stepper for Box<T> {
    fn step(&mut self, steps: &mut Vec<Step>) -> Option<Outcome> {
        (**self).step(steps)
    }
    fn next_line(&self) -> Option<usize> {
        (**self).next_line()
    }
    fn end_line(&self) -> Option<String> {
        (**self).end_line()
    }
}

/// Why [`Debugger::advance`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pause {
    /// The next step's line holds a breakpoint.
    Breakpoint,
    /// It ran as many steps as it was asked to.
    Slice,
    /// The program has ended ([`Debugger::ended`]).
    Ended,
}

/// How a debugged run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// As `icp2c run` reports it.
    pub outcome: Outcome,
    /// For a runtime error, the 1-based line of the step that failed.
    pub line: Option<usize>,
}

/// The steps a view has not seen yet ([`Debugger::update`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    /// `Some`: the view's history is replaced, and this is the board
    /// before `steps` (every square that holds something, in (row, col)
    /// order); `None`: `steps` follow the ones sent before.
    pub start: Option<Vec<(i64, i64, Content)>>,
    /// The steps, oldest first.
    pub steps: Vec<Step>,
    /// How many steps had run before the first of `steps`.
    pub first: u64,
}

/// A program under a debugger: a [`Stepper`] with breakpoints and a
/// history of its last steps.
pub struct Debugger<S> {
    stepper: S,
    shape: Shape,
    /// What every occupied square holds after the last step.
    board: BTreeMap<(i64, i64), Content>,
    history: VecDeque<Step>,
    keep: usize,
    /// How many of the history's last steps no update has carried; more
    /// than the history holds when some were dropped unsent.
    unsent: u64,
    ran: u64,
    ended: Option<Ended>,
    scratch: Vec<Step>,
}

impl<S: Stepper> Debugger<S> {
    /// `stepper` before its first step on a board of `shape` holding
    /// `start` (its occupied squares), keeping the last `keep` steps (at
    /// least 1).
    pub fn new(stepper: S, shape: Shape, start: Vec<(i64, i64, Content)>, keep: usize) -> Self {
        Debugger {
            stepper,
            shape,
            board: start.into_iter().map(|(r, c, x)| ((r, c), x)).collect(),
            history: VecDeque::new(),
            keep: keep.max(1),
            unsent: 0,
            ran: 0,
            ended: None,
            scratch: Vec::new(),
        }
    }

    /// Runs at most `most` steps, stopping before a step whose line is in
    /// `breakpoints` — but for the first when `leave` (a Continue from a
    /// breakpoint leaves its line) — or when the program ends.
    pub fn advance(&mut self, most: u64, breakpoints: &BTreeSet<usize>, leave: bool) -> Pause {
        for n in 0..most {
            if self.ended.is_some() {
                return Pause::Ended;
            }
            let line = self.stepper.next_line();
            if (n > 0 || !leave) && line.is_some_and(|l| breakpoints.contains(&l)) {
                return Pause::Breakpoint;
            }
            let ended = self.stepper.step(&mut self.scratch);
            for step in std::mem::take(&mut self.scratch) {
                self.ran += 1;
                for change in &step.changes {
                    set(&mut self.board, change, true);
                }
                if self.history.len() == self.keep {
                    self.history.pop_front();
                }
                self.history.push_back(step);
                self.unsent += 1;
            }
            if let Some(outcome) = ended {
                let line = matches!(outcome, Outcome::RuntimeError(_))
                    .then_some(line)
                    .flatten();
                self.ended = Some(Ended { outcome, line });
                return Pause::Ended;
            }
        }
        if self.ended.is_some() {
            Pause::Ended
        } else {
            Pause::Slice
        }
    }

    /// The steps run since the last update: appended to what the view
    /// has, or, when more ran than the history keeps, the whole history
    /// with the board before it.
    pub fn update(&mut self) -> Update {
        let kept = self.history.len() as u64;
        let update = if self.unsent <= kept {
            let skip = (kept - self.unsent) as usize;
            Update {
                start: None,
                steps: self.history.iter().skip(skip).cloned().collect(),
                first: self.ran - self.unsent,
            }
        } else {
            let mut board = self.board.clone();
            for step in self.history.iter().rev() {
                for change in &step.changes {
                    set(&mut board, change, false);
                }
            }
            Update {
                start: Some(board.into_iter().map(|((r, c), x)| (r, c, x)).collect()),
                steps: self.history.iter().cloned().collect(),
                first: self.ran - kept,
            }
        };
        self.unsent = 0;
        update
    }

    /// What the board holds after the last step: its occupied squares, in
    /// (row, col) order.
    pub fn board(&self) -> Vec<(i64, i64, Content)> {
        self.board
            .iter()
            .map(|(&(r, c), x)| (r, c, x.clone()))
            .collect()
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How many steps have run.
    pub fn ran(&self) -> u64 {
        self.ran
    }

    /// The line of the step that runs next, `None` once the run has ended.
    pub fn next_line(&self) -> Option<usize> {
        match self.ended {
            Some(_) => None,
            None => self.stepper.next_line(),
        }
    }

    /// How the run ended, once it has.
    pub fn ended(&self) -> Option<&Ended> {
        self.ended.as_ref()
    }

    /// The trace's closing line, once written (Finvara's `end: …`).
    pub fn end_line(&self) -> Option<String> {
        self.stepper.end_line()
    }
}

/// Puts a change's content after (`forwards`) or before it on `board`.
fn set(board: &mut BTreeMap<(i64, i64), Content>, change: &Change, forwards: bool) {
    let content = if forwards {
        &change.after
    } else {
        &change.before
    };
    match content {
        Content::Empty => board.remove(&(change.row, change.col)),
        other => board.insert((change.row, change.col), other.clone()),
    };
}
