//! The debugger (`Program::debugger`, `common::debug`), the playground's:
//! for every InfChessPro and Finvara example and test program, run in
//! slices of varying sizes with breakpoints on varying lines,
//!
//! - its steps, output and outcome are those of the recorded run
//!   (`Program::record`, itself checked against `icp2c run --trace` in
//!   `watch.rs`): stopping and resuming changes nothing;
//! - it stops before every step whose line holds a breakpoint, and only
//!   there, and a Continue from a breakpoint leaves its line;
//! - its updates, applied as a view applies them (appending, or replacing
//!   the history with the board before it), give the recorded steps and
//!   boards, also when more steps ran than the history keeps;
//! - a runtime error is reported at the line of the step that failed.

use icp2c::Outcome;
use icp2c::common::debug::{Pause, Update};
use icp2c::common::watch::{Content, Recording, Step};
use icp2c::driver::{self, Language, Program};
use icp2c::lang::RunOptions;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

/// The steps a test runs at most.
const BUDGET: u64 = 2_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every example and test program of a language, checked, with its
/// input (`watch.rs`'s list).
fn programs(ext: &str) -> Vec<(String, Program, Vec<u8>)> {
    super::watch::programs(ext)
        .into_iter()
        .map(|(path, input)| {
            let source = std::fs::read_to_string(&path).unwrap();
            let program = driver::check(Language::from_path(&path), &source)
                .unwrap_or_else(|e| panic!("{} rejected: {e:?}", path.display()))
                .program;
            (path.display().to_string(), program, input)
        })
        .collect()
}

/// A writer into a buffer the test can read while the debugger holds it.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A view's history: the board before its first step, and its steps.
struct View {
    start: BTreeMap<(i64, i64), Content>,
    steps: Vec<Step>,
    first: u64,
}

impl View {
    fn apply(&mut self, update: Update, keep: usize) {
        match update.start {
            Some(start) => {
                self.start = start.into_iter().map(|(r, c, x)| ((r, c), x)).collect();
                self.steps = update.steps;
                self.first = update.first;
            }
            None => {
                assert_eq!(
                    update.first,
                    self.first + self.steps.len() as u64,
                    "an update follows the last"
                );
                self.steps.extend(update.steps);
            }
        }
        // The view keeps what the debugger keeps: older steps fold into
        // the board before the first.
        while self.steps.len() > keep {
            let step = self.steps.remove(0);
            for change in &step.changes {
                put(&mut self.start, change.row, change.col, &change.after);
            }
            self.first += 1;
        }
    }
}

fn put(board: &mut BTreeMap<(i64, i64), Content>, row: i64, col: i64, content: &Content) {
    if *content == Content::Empty {
        board.remove(&(row, col));
    } else {
        board.insert((row, col), content.clone());
    }
}

/// The recorded board before step `n` (0-based) of `recording`.
fn board_before(recording: &Recording, n: usize) -> BTreeMap<(i64, i64), Content> {
    let mut board: BTreeMap<_, _> = recording
        .start
        .iter()
        .map(|(r, c, x)| ((*r, *c), x.clone()))
        .collect();
    for step in &recording.steps[..n] {
        for change in &step.changes {
            put(&mut board, change.row, change.col, &change.after);
        }
    }
    board
}

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

fn debug_like_a_user(name: &str, program: &Program, input: &[u8], keep: usize, seed: u64) {
    let options = RunOptions {
        max_steps: Some(BUDGET),
        ..RunOptions::default()
    };
    let recording = program.record(&mut &input[..], &options).unwrap();
    let output = Shared::default();
    let mut debugger = program
        .debugger(Box::new(input), Box::new(output.clone()), &options, keep)
        .unwrap();
    let lines: Vec<usize> = recording.steps.iter().map(|s| s.line).collect();
    let mut rng = Rng(seed);
    let mut breakpoints = BTreeSet::new();
    for _ in 0..3 {
        if let Some(&line) = lines.get(rng.below(lines.len() as u64) as usize) {
            breakpoints.insert(line);
        }
    }
    let mut view = View {
        start: BTreeMap::new(),
        steps: Vec::new(),
        first: 0,
    };
    let mut leave = false;
    loop {
        let ran = debugger.ran();
        if ran >= BUDGET {
            break;
        }
        let most = (1 + rng.below(600)).min(BUDGET - ran);
        let pause = debugger.advance(most, &breakpoints, leave);
        let ran = debugger.ran() as usize;
        let update = debugger.update();
        if view.steps.is_empty() && view.first == 0 && update.start.is_none() {
            view.start = recording
                .start
                .iter()
                .map(|(r, c, x)| ((*r, *c), x.clone()))
                .collect();
        }
        view.apply(update, keep);
        // The view holds the last steps, and the board before them, as
        // recorded.
        assert_eq!(
            view.first as usize + view.steps.len(),
            ran,
            "{name}: steps seen"
        );
        assert_eq!(
            view.steps[..],
            recording.steps[view.first as usize..ran],
            "{name}: the steps"
        );
        assert_eq!(
            view.start,
            board_before(&recording, view.first as usize),
            "{name}: the board before the history"
        );
        // What it wrote so far is what the recording says.
        let written = output.0.borrow().len();
        let want = if ran == 0 {
            0
        } else {
            recording.steps[ran - 1].output
        };
        match pause {
            Pause::Ended => {
                let ended = debugger.ended().unwrap();
                assert_eq!(ended.outcome, recording.outcome, "{name}: outcome");
                assert_eq!(ran, recording.steps.len(), "{name}: every step ran");
                assert_eq!(*output.0.borrow(), recording.output, "{name}: output");
                assert_eq!(
                    debugger.end_line(),
                    recording.end,
                    "{name}: the closing line"
                );
                if matches!(ended.outcome, Outcome::RuntimeError(_)) {
                    assert!(ended.line.is_some(), "{name}: a runtime error has its line");
                }
                assert_eq!(debugger.next_line(), None);
                return;
            }
            Pause::Breakpoint => {
                let next = debugger.next_line().unwrap();
                assert!(
                    breakpoints.contains(&next),
                    "{name}: stopped at {next}, no breakpoint"
                );
                assert_eq!(lines[ran], next, "{name}: the next step's line");
                assert_eq!(written, want, "{name}: output at a breakpoint");
                leave = true;
            }
            Pause::Slice => {
                assert_eq!(written, want, "{name}: output after a slice");
                leave = false;
            }
        }
    }
    assert_eq!(
        recording.outcome,
        Outcome::StepLimit(BUDGET),
        "{name}: it stopped only at the budget"
    );
}

#[test]
fn the_debugger_runs_every_program_as_the_recording_does_stopped_anywhere() {
    for ext in ["icp", "fin"] {
        for (i, (name, program, input)) in programs(ext).iter().enumerate() {
            // A history shorter than many runs, or one longer than all.
            let keep = if i % 2 == 0 { 7 } else { 50_000 };
            debug_like_a_user(name, program, input, keep, i as u64 + 1);
        }
    }
}

#[test]
fn a_breakpoint_stops_before_its_line_every_time_it_is_reached() {
    let source = std::fs::read_to_string(root().join("examples/multiply.icp")).unwrap();
    let program = driver::check(Language::InfChessPro, &source)
        .unwrap()
        .program;
    let input = std::fs::read(root().join("examples/multiply.in")).unwrap();
    let options = RunOptions::default();
    let recording = program.record(&mut &input[..], &options).unwrap();
    let line = recording.steps[recording.steps.len() / 2].line;
    let expected = recording.steps.iter().filter(|s| s.line == line).count();
    let mut debugger = program
        .debugger(
            Box::new(&input[..]),
            Box::new(std::io::sink()),
            &options,
            100,
        )
        .unwrap();
    let breakpoints = BTreeSet::from([line]);
    let mut stops = 0;
    let mut leave = false;
    while debugger.advance(u64::MAX, &breakpoints, leave) == Pause::Breakpoint {
        assert_eq!(debugger.next_line(), Some(line));
        assert_eq!(recording.steps[debugger.ran() as usize].line, line);
        stops += 1;
        leave = true;
    }
    assert_eq!(stops, expected, "one stop for each time line {line} runs");
    assert_eq!(debugger.ended().unwrap().outcome, Outcome::Halted);
}

#[test]
fn a_runtime_error_is_reported_at_the_line_that_failed() {
    // §8: a jump to a label read from input that names no statement.
    let source = "1. x=K0,0\n2. ^?*\n3. %x\n";
    let program = driver::check(Language::InfChessPro, source)
        .unwrap()
        .program;
    let mut debugger = program
        .debugger(
            Box::new(&b"99\n"[..]),
            Box::new(std::io::sink()),
            &RunOptions::default(),
            10,
        )
        .unwrap();
    assert_eq!(
        debugger.advance(u64::MAX, &BTreeSet::new(), false),
        Pause::Ended
    );
    let ended = debugger.ended().unwrap();
    assert!(
        matches!(ended.outcome, Outcome::RuntimeError(_)),
        "{ended:?}"
    );
    assert_eq!(ended.line, Some(2));
}

#[test]
fn cheg_has_no_board_to_debug() {
    let source = std::fs::read_to_string(root().join("examples/krk.cheg")).unwrap();
    let program = driver::check(Language::Cheg, &source).unwrap().program;
    assert!(
        program
            .debugger(
                Box::new(&b""[..]),
                Box::new(std::io::sink()),
                &RunOptions::default(),
                10
            )
            .is_none()
    );
}
