//! Property tests of the InfChessPro optimiser (issue 13): it changes
//! nothing but speed. Programs are built from a list of idioms and
//! rendered to source text, so that proptest shrinks a failing program to
//! a small one: a cast of one piece per name (so the fast paths apply),
//! blockers of every kind and colour (kings among them, or not), pinned
//! pieces, far pieces and the i64 edge, registers against walls, slide
//! loops for every kind and step (pawn pushes and diagonals, knight
//! jumps), transfer loops of 2 or 3 statements in every arrangement of
//! `?`, `!` and `^` that closes a cycle, entered at any member, counter's
//! nested loop, `*` operands with inputs that end early, and probes that
//! print where pieces ended.
//!
//! - Optimised and stepped (`without_optimiser`) interpretation agree on
//!   the outcome (the `--max-steps` count included) and the output, under
//!   several step budgets and inputs cut short, and with no budget when
//!   stepping halts.
//! - Generated C and Rust (optimised) agree with the stepped interpreter
//!   on halting programs, byte for byte and to the exit status.
//! - One hand-written program per idiom, its output written here.
//!
//! The RNG is seeded (the same programs every run) and no failure file
//! is written. `ICP2C_OPT_CASES` sets how many programs the interpreter
//! property tries (default 200), `ICP2C_OPT_BUILT` how many go through C
//! and Rust (default 16).

use crate::support;

use icp2c::Outcome;
use icp2c::driver::{self, Language, Program};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::fmt::Write as _;
use std::time::Duration;
use support::Ran;
use support::batch::build_rust_batch;
use support::batch::{Prog, interpret};

// ---------------------------------------------------------------------------
// Program specs

/// `a`-`d`: the cast, one piece each; `x`, `y`: registers; `s`, `m`:
/// counter's slider and round register; `w`: walls, caps and blockers
/// (never moved by name).
const NAMES: [&str; 9] = ["a", "b", "c", "d", "x", "y", "s", "m", "w"];
const X: usize = 4;
const S: usize = 6;
const M: usize = 7;
const W: usize = 8;
const FAR: i64 = 1_000_000_000_000;
/// A probe's name: the one the loop before it moves.
const SAME: usize = usize::MAX;
/// Names from here on are `f0`, `f1`, …: fresh pieces of a scene, one
/// piece each.
const FRESH: usize = 100;

fn nm(name: usize) -> String {
    match NAMES.get(name) {
        Some(n) => n.to_string(),
        None => format!("f{}", name - FRESH),
    }
}

/// An integer operand: a literal or `*` (one input read).
#[derive(Clone, Copy, Debug)]
enum Num {
    Lit(i64),
    Star,
}

impl Num {
    fn text(self) -> String {
        match self {
            Num::Lit(n) => n.to_string(),
            Num::Star => "*".into(),
        }
    }
}

/// A move's offset: the k-th natural step of the kind of the piece last
/// placed with the name (a pawn's push first, then its diagonals), or a
/// given one.
#[derive(Clone, Copy, Debug)]
enum Step {
    Natural(usize),
    Raw((i64, i64)),
}

const ORTH: [(i64, i64); 4] = [(0, -1), (0, 1), (1, 0), (-1, 0)];
const DIAG: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const UNITS: [(i64, i64); 8] = [
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];
/// Steps no fast path takes.
const ODD: [(i64, i64); 4] = [(0, 2), (2, 2), (0, 0), (3, -3)];

fn natural_steps(letter: Option<char>) -> &'static [(i64, i64)] {
    match letter {
        Some('R' | 'r') => &ORTH,
        Some('B' | 'b') => &DIAG,
        Some('N' | 'n') => &KNIGHT,
        Some('P') => &[(1, 0), (1, 1), (1, -1)],
        Some('p') => &[(-1, 0), (-1, 1), (-1, -1)],
        _ => &UNITS,
    }
}

/// One piece placed.
#[derive(Clone, Debug)]
struct Place {
    name: usize,
    letter: char,
    row: Num,
    col: Num,
}

/// What is printed after a loop, from which where pieces ended shows.
#[derive(Clone, Debug)]
enum Probe {
    /// An absolute move of `name` to (row, col): whether it went, with
    /// `?Y` (failure falling through) or `!N` (success falling through).
    To {
        name: usize,
        row: i64,
        col: i64,
        on_failure: bool,
    },
    /// Up to `n` moves of `name` by `step`, unrolled, `"name step` after
    /// each that succeeds: the distance to what stops it, in unary.
    Scan { name: usize, step: Step, n: usize },
}

/// Where a transfer member's failure goes.
#[derive(Clone, Copy, Debug)]
enum Leave {
    /// `!E` to one of the cycle's two exit blocks (each prints which).
    Exit(usize),
    /// Nowhere written: the next line of the file (out of the cycle when
    /// the member is laid out last, else into another member).
    Fall,
}

/// A statement of a cycle. Its success goes to the next member.
#[derive(Clone, Debug)]
enum Member {
    /// `name;dr,dc`, failure per `leave`.
    Move {
        name: usize,
        step: Step,
        leave: Leave,
    },
    /// `^`.
    Nothing,
    /// `name;dr,dc?self`, its failure continuing the cycle.
    Slide { name: usize, step: Step },
    /// `name;*,dc` or `name;dr,*`: reads input every round, its failure
    /// (end of input included) per `leave`.
    Read {
        name: usize,
        step: Step,
        row_read: bool,
        leave: Leave,
    },
}

/// A slide's own piece and what stops it: pieces `w` on its ray at the
/// given distances, maybe a king of its colour next to it.
#[derive(Clone, Debug)]
struct Scene {
    letter: char,
    at: (i64, i64),
    stops: Vec<(i64, char)>,
    king: Option<(i64, i64)>,
}

/// A register of a transfer's scene: a fresh piece on (line, value), a
/// wall `w` on (line, -1).
#[derive(Clone, Debug)]
struct Reg {
    letter: char,
    line: i64,
    value: Num,
    wall: char,
}

/// A cycle of 2-3 members, laid out in the order of `keys` (ascending),
/// entered at member `entry`.
#[derive(Clone, Debug)]
struct Cycle {
    members: Vec<Member>,
    keys: [u8; 3],
    entry: usize,
    /// Per member: write the success target even when it is the next
    /// line; write `!U?T` rather than `?T!U`.
    explicit: [bool; 3],
    swap: [bool; 3],
    /// When not empty, each name the members move is a fresh register
    /// (the k-th name the k-th of these, cyclically).
    regs: Vec<Reg>,
    probe: Probe,
}

#[derive(Clone, Debug)]
enum Idiom {
    /// A piece with any name.
    Place(Place),
    /// A king, a piece of its colour on a line from it and an enemy
    /// slider behind: the piece is pinned.
    Pin {
        origin: (i64, i64),
        dir: (i64, i64),
        near: i64,
        far: i64,
        white: bool,
        name: usize,
        letter: char,
        queen: bool,
    },
    /// A register: `name` on (line, value) and a wall `w` on (line, -1)
    /// (transposed: rows for columns).
    Register {
        name: usize,
        letter: char,
        line: i64,
        value: Num,
        wall: char,
        transpose: bool,
    },
    /// `L. name;dr,dc?L`, then a probe; with a scene, `name` is a fresh
    /// piece placed for it.
    Slide {
        name: usize,
        step: Step,
        scene: Option<Scene>,
        probe: Probe,
    },
    /// A transfer loop, then a probe.
    Transfer(Cycle),
    /// counter.icp's nested loop: `s` slides right to a cap and back to a
    /// wall each round, the register `m` counts the rounds down; `cycle`
    /// gives the layout (its members are replaced by those three, its
    /// first member's `leave` kept).
    Counter {
        s_letter: char,
        cap_letter: char,
        wall_letter: char,
        row: i64,
        width: Num,
        rounds: Num,
        transpose: bool,
        cycle: Cycle,
    },
    Probe(Probe),
}

/// A program and its input.
#[derive(Clone, Debug)]
struct Spec {
    /// Named `a`, `b`, `c`, `d` in order.
    cast: Vec<(char, Num, Num)>,
    /// Named `w`.
    blockers: Vec<(char, i64, i64)>,
    idioms: Vec<Idiom>,
    input: Vec<i64>,
}

// ---------------------------------------------------------------------------
// Rendering: statements with symbolic targets, labels given at the end.

enum Tok {
    S(String),
    /// The label of a symbol.
    L(usize),
}

fn s(text: impl Into<String>) -> Tok {
    Tok::S(text.into())
}

#[derive(Default)]
struct Asm {
    lines: Vec<Vec<Tok>>,
    /// The line each symbol labels.
    syms: Vec<Option<usize>>,
    /// The letter of the piece last placed with each name.
    letters: std::collections::HashMap<usize, char>,
    /// Fresh names given so far.
    fresh: usize,
}

impl Asm {
    fn sym(&mut self) -> usize {
        self.syms.push(None);
        self.syms.len() - 1
    }

    /// `sym` labels the next line.
    fn here(&mut self, sym: usize) {
        self.syms[sym] = Some(self.lines.len());
    }

    fn line(&mut self, toks: Vec<Tok>) {
        self.lines.push(toks);
    }

    fn text(&mut self, s: impl Into<String>) {
        self.line(vec![Tok::S(s.into())]);
    }

    fn fresh(&mut self) -> usize {
        self.fresh += 1;
        FRESH + self.fresh - 1
    }

    fn place(&mut self, name: usize, letter: char, row: Num, col: Num) {
        self.letters.insert(name, letter);
        self.text(format!(
            "{}={letter}{},{}",
            nm(name),
            row.text(),
            col.text()
        ));
    }

    fn step(&self, name: usize, step: Step) -> (i64, i64) {
        match step {
            Step::Natural(k) => {
                let steps = natural_steps(self.letters.get(&name).copied());
                steps[k % steps.len()]
            }
            Step::Raw(v) => v,
        }
    }

    /// `p`, `SAME` standing for `subject`.
    fn probe(&mut self, p: &Probe, subject: usize) {
        let the = |name: usize| if name == SAME { subject } else { name };
        match *p {
            Probe::To {
                name,
                row,
                col,
                on_failure,
            } => {
                let name = nm(the(name));
                let (other, count) = (self.sym(), self.sym());
                let go = format!("{name},{row},{col}");
                let went = format!("\"{name} to {row},{col}");
                let stayed = format!("\"{name} not to {row},{col}");
                let (suffix, first, second) = if on_failure {
                    ("!", went, stayed)
                } else {
                    ("?", stayed, went)
                };
                self.line(vec![s(go + suffix), Tok::L(other)]);
                self.text(first);
                self.line(vec![s("^?"), Tok::L(count)]);
                self.here(other);
                self.text(second);
                self.here(count);
                self.text(format!("%{name}"));
            }
            Probe::Scan { name, step, n } => {
                let name = the(name);
                let v = self.step(name, step);
                let stopped = self.sym();
                for _ in 0..n {
                    self.line(vec![
                        s(format!("{};{},{}!", nm(name), v.0, v.1)),
                        Tok::L(stopped),
                    ]);
                    self.text(format!("\"{} step", nm(name)));
                }
                self.here(stopped);
                self.text(format!("%{}", nm(name)));
            }
        }
    }

    fn cycle(&mut self, c: &Cycle) {
        let mut c = c.clone();
        if !c.regs.is_empty() {
            let mut given: Vec<(usize, usize)> = Vec::new();
            for m in &mut c.members {
                let (Member::Move { name, .. }
                | Member::Slide { name, .. }
                | Member::Read { name, .. }) = m
                else {
                    continue;
                };
                *name = match given.iter().find(|(old, _)| old == name) {
                    Some(&(_, new)) => new,
                    None => {
                        let r = c.regs[given.len() % c.regs.len()].clone();
                        let new = self.fresh();
                        self.place(W, r.wall, Num::Lit(r.line), Num::Lit(-1));
                        self.place(new, r.letter, Num::Lit(r.line), r.value);
                        given.push((*name, new));
                        new
                    }
                };
            }
        }
        let c = &c;
        let n = c.members.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (c.keys[i], i));
        let start: Vec<usize> = (0..n).map(|_| self.sym()).collect();
        let exits = [self.sym(), self.sym()];
        let done = self.sym();
        let entry = c.entry % n;
        if order[0] != entry {
            self.line(vec![s("^?"), Tok::L(start[entry])]);
        }
        for (slot, &i) in order.iter().enumerate() {
            let next = (i + 1) % n;
            let below = order.get(slot + 1).copied();
            let leave = |l: &Leave| match l {
                Leave::Exit(k) => Some(exits[k % 2]),
                Leave::Fall => None,
            };
            // The command, its success target (a member), its failure
            // target (a symbol).
            let (body, success, failure) = match &c.members[i] {
                Member::Move {
                    name,
                    step,
                    leave: l,
                } => {
                    let (dr, dc) = self.step(*name, *step);
                    (format!("{};{dr},{dc}", nm(*name)), next, leave(l))
                }
                Member::Nothing => ("^".to_string(), next, None),
                Member::Slide { name, step } => {
                    let (dr, dc) = self.step(*name, *step);
                    let fail = (below != Some(next)).then_some(start[next]);
                    (format!("{};{dr},{dc}", nm(*name)), i, fail)
                }
                Member::Read {
                    name,
                    step,
                    row_read,
                    leave: l,
                } => {
                    let (dr, dc) = self.step(*name, *step);
                    let v = if *row_read {
                        format!("*,{dc}")
                    } else {
                        format!("{dr},*")
                    };
                    (format!("{};{v}", nm(*name)), next, leave(l))
                }
            };
            let success = (success == i || below != Some(success) || c.explicit[i])
                .then(|| vec![s("?"), Tok::L(start[success])]);
            let failure = failure.map(|f| vec![s("!"), Tok::L(f)]);
            let (first, second) = if c.swap[i] {
                (failure, success)
            } else {
                (success, failure)
            };
            self.here(start[i]);
            let mut toks = vec![s(body)];
            toks.extend(first.into_iter().flatten());
            toks.extend(second.into_iter().flatten());
            self.line(toks);
        }
        self.text("\"fell out");
        self.line(vec![s("^?"), Tok::L(done)]);
        for (k, &e) in exits.iter().enumerate() {
            self.here(e);
            self.text(format!("\"exit {k}"));
            self.line(vec![s("^?"), Tok::L(done)]);
        }
        self.here(done);
        let subject = c.members.iter().find_map(|m| match m {
            Member::Move { name, .. } | Member::Slide { name, .. } | Member::Read { name, .. } => {
                Some(*name)
            }
            Member::Nothing => None,
        });
        self.probe(&c.probe, subject.unwrap_or(0));
    }

    fn finish(self) -> String {
        let label = |line: usize| 10 * (line as i64 + 1);
        let mut out = String::new();
        for (i, toks) in self.lines.iter().enumerate() {
            write!(out, "{}. ", label(i)).unwrap();
            for t in toks {
                match t {
                    Tok::S(s) => out.push_str(s),
                    Tok::L(sym) => {
                        let line = self.syms[*sym].expect("every symbol is placed");
                        write!(out, "{}", label(line)).unwrap();
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}

impl Spec {
    fn source(&self) -> String {
        let mut asm = Asm::default();
        for (i, &(letter, row, col)) in self.cast.iter().enumerate() {
            asm.place(i % 4, letter, row, col);
        }
        for &(letter, row, col) in &self.blockers {
            asm.place(W, letter, Num::Lit(row), Num::Lit(col));
        }
        for idiom in &self.idioms {
            match idiom {
                Idiom::Place(p) => asm.place(p.name, p.letter, p.row, p.col),
                Idiom::Pin {
                    origin,
                    dir,
                    near,
                    far,
                    white,
                    name,
                    letter,
                    queen,
                } => {
                    let at = |k: i64| {
                        (
                            Num::Lit(origin.0 + k * dir.0),
                            Num::Lit(origin.1 + k * dir.1),
                        )
                    };
                    let ours = |c: char| {
                        if *white {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        }
                    };
                    let theirs = |c: char| {
                        if *white {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    };
                    let diagonal = dir.0 != 0 && dir.1 != 0;
                    let attacker = match (queen, diagonal) {
                        (true, _) => 'q',
                        (false, true) => 'b',
                        (false, false) => 'r',
                    };
                    let (r, c) = at(0);
                    asm.place(W, ours('k'), r, c);
                    let (r, c) = at(*near);
                    asm.place(*name, ours(*letter), r, c);
                    let (r, c) = at(near + far);
                    asm.place(W, theirs(attacker), r, c);
                }
                Idiom::Register {
                    name,
                    letter,
                    line,
                    value,
                    wall,
                    transpose,
                } => {
                    let line = Num::Lit(*line);
                    let (piece, wall_at) = if *transpose {
                        ((*value, line), (Num::Lit(-1), line))
                    } else {
                        ((line, *value), (line, Num::Lit(-1)))
                    };
                    asm.place(W, *wall, wall_at.0, wall_at.1);
                    asm.place(*name, *letter, piece.0, piece.1);
                }
                Idiom::Slide {
                    name,
                    step,
                    scene,
                    probe,
                } => {
                    let mut name = *name;
                    if let Some(scene) = scene {
                        name = asm.fresh();
                        let (r, c) = scene.at;
                        asm.place(name, scene.letter, Num::Lit(r), Num::Lit(c));
                        let (dr, dc) = asm.step(name, *step);
                        for &(k, letter) in &scene.stops {
                            let (r, c) = (r + k * dr, c + k * dc);
                            asm.place(W, letter, Num::Lit(r), Num::Lit(c));
                        }
                        if let Some((kr, kc)) = scene.king {
                            let king = if scene.letter.is_ascii_uppercase() {
                                'K'
                            } else {
                                'k'
                            };
                            asm.place(W, king, Num::Lit(r + kr), Num::Lit(c + kc));
                        }
                    }
                    let name = &name;
                    let (dr, dc) = asm.step(*name, *step);
                    let l = asm.sym();
                    asm.here(l);
                    asm.line(vec![s(format!("{};{dr},{dc}?", nm(*name))), Tok::L(l)]);
                    asm.probe(probe, *name);
                }
                Idiom::Transfer(c) => asm.cycle(c),
                Idiom::Counter {
                    s_letter,
                    cap_letter,
                    wall_letter,
                    row,
                    width,
                    rounds,
                    transpose,
                    cycle,
                } => {
                    let sq = |r: Num, c: Num| if *transpose { (c, r) } else { (r, c) };
                    let v = |d: i64| Step::Raw(if *transpose { (d, 0) } else { (0, d) });
                    let (r0, r1) = (Num::Lit(*row), Num::Lit(row + 1));
                    for r in [r0, r1] {
                        let (r, c) = sq(r, Num::Lit(-1));
                        asm.place(W, *wall_letter, r, c);
                    }
                    let (r, c) = sq(r0, Num::Lit(0));
                    asm.place(S, *s_letter, r, c);
                    let (r, c) = sq(r1, *rounds);
                    asm.place(M, 'R', r, c);
                    let (r, c) = sq(r0, *width);
                    asm.place(W, *cap_letter, r, c);
                    let leave = match cycle.members.first() {
                        Some(Member::Move { leave, .. } | Member::Read { leave, .. }) => *leave,
                        _ => Leave::Fall,
                    };
                    let mut cycle = cycle.clone();
                    cycle.members = vec![
                        Member::Slide {
                            name: S,
                            step: v(1),
                        },
                        Member::Slide {
                            name: S,
                            step: v(-1),
                        },
                        Member::Move {
                            name: M,
                            step: v(-1),
                            leave,
                        },
                    ];
                    asm.cycle(&cycle);
                }
                Idiom::Probe(p) => asm.probe(p, 0),
            }
        }
        for name in NAMES {
            asm.text(format!("%{name}"));
        }
        asm.text("\"end");
        asm.finish()
    }

    fn input(&self) -> Vec<u8> {
        let mut text = String::new();
        for n in &self.input {
            write!(text, "{n} ").unwrap();
        }
        text.into_bytes()
    }
}

// ---------------------------------------------------------------------------
// Strategies. Alternatives are listed simplest first: proptest shrinks
// towards the first.

/// A name an idiom moves: mostly the cast's and the registers'.
fn mover() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 0..4usize, 3 => X..X + 2, 1 => S..S + 2]
}

fn letter() -> impl Strategy<Value = char> {
    prop::sample::select("RQBNPrqbnpKk".chars().collect::<Vec<_>>())
}

fn blocker_letter() -> impl Strategy<Value = char> {
    prop_oneof![
        10 => prop::sample::select("PpRrNnBbQq".chars().collect::<Vec<_>>()),
        1 => prop::sample::select(vec!['K', 'k']),
    ]
}

fn num() -> impl Strategy<Value = Num> {
    prop_oneof![
        16 => (-3i64..=3).prop_map(Num::Lit),
        1 => (-2i64..=2).prop_map(|k| Num::Lit(FAR + k)),
        1 => (-2i64..=2).prop_map(|k| Num::Lit(-FAR + k)),
        1 => (0i64..=2).prop_map(|k| Num::Lit(i64::MAX - k)),
        1 => (0i64..=2).prop_map(|k| Num::Lit(i64::MIN + k)),
        2 => Just(Num::Star),
    ]
}

/// A small count, or `*`.
fn small() -> impl Strategy<Value = Num> {
    prop_oneof![6 => (0i64..=4).prop_map(Num::Lit), 1 => Just(Num::Star)]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => (0usize..8).prop_map(Step::Natural),
        2 => prop::sample::select(UNITS.to_vec()).prop_map(Step::Raw),
        1 => prop::sample::select(KNIGHT.to_vec()).prop_map(Step::Raw),
        1 => prop::sample::select(ODD.to_vec()).prop_map(Step::Raw),
    ]
}

fn probe() -> impl Strategy<Value = Probe> {
    let name = || prop_oneof![3 => Just(SAME), 1 => mover()];
    prop_oneof![
        (name(), step(), 1usize..=4).prop_map(|(name, step, n)| Probe::Scan { name, step, n }),
        (name(), -4i64..=4, -2i64..=5, any::<bool>()).prop_map(|(name, row, col, on_failure)| {
            Probe::To {
                name,
                row,
                col,
                on_failure,
            }
        }),
    ]
}

fn leave() -> impl Strategy<Value = Leave> {
    prop_oneof![(0usize..2).prop_map(Leave::Exit), Just(Leave::Fall)]
}

fn member() -> impl Strategy<Value = Member> {
    prop_oneof![
        8 => (mover(), step(), leave())
            .prop_map(|(name, step, leave)| Member::Move { name, step, leave }),
        2 => Just(Member::Nothing),
        3 => (mover(), step()).prop_map(|(name, step)| Member::Slide { name, step }),
        2 => (mover(), step(), any::<bool>(), leave()).prop_map(
            |(name, step, row_read, leave)| Member::Read {
                name,
                step,
                row_read,
                leave,
            }
        ),
    ]
}

fn reg() -> impl Strategy<Value = Reg> {
    (
        prop::sample::select(vec!['R', 'Q', 'r', 'q', 'K', 'k', 'B']),
        prop_oneof![3 => 10i64..=13, 1 => 0i64..=3],
        small(),
        prop::sample::select(vec!['P', 'p', 'N', 'n']),
    )
        .prop_map(|(letter, line, value, wall)| Reg {
            letter,
            line,
            value,
            wall,
        })
}

fn cycle() -> impl Strategy<Value = Cycle> {
    (
        prop::collection::vec(member(), 2..=3),
        [0u8..3, 0u8..3, 0u8..3],
        0usize..3,
        any::<[bool; 3]>(),
        any::<[bool; 3]>(),
        prop_oneof![
            1 => Just(Vec::new()),
            2 => prop::collection::vec(reg(), 1..=3),
        ],
        probe(),
    )
        .prop_map(
            |(members, keys, entry, explicit, swap, regs, probe)| Cycle {
                members,
                keys,
                entry,
                explicit,
                swap,
                regs,
                probe,
            },
        )
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        letter().prop_filter("kings are not moved", |l| !matches!(l, 'K' | 'k')),
        (-3i64..=3, -3i64..=3),
        prop::collection::vec(
            (prop_oneof![3 => 1i64..=2, 1 => 3i64..=5], blocker_letter()),
            0..=3,
        ),
        prop::option::weighted(0.25, (-1i64..=1, -1i64..=1)),
    )
        .prop_map(|(letter, at, stops, king)| Scene {
            letter,
            at,
            stops,
            king,
        })
}

fn idiom() -> impl Strategy<Value = Idiom> {
    let place = ((0..M + 1), letter(), num(), num()).prop_map(|(name, letter, row, col)| {
        Idiom::Place(Place {
            name,
            letter,
            row,
            col,
        })
    });
    let pin = (
        (-2i64..=2, -2i64..=2),
        prop::sample::select(UNITS.to_vec()),
        1i64..=2,
        1i64..=3,
        any::<bool>(),
        mover(),
        prop::sample::select(vec!['r', 'q', 'b', 'n', 'p']),
        any::<bool>(),
    )
        .prop_map(
            |(origin, dir, near, far, white, name, letter, queen)| Idiom::Pin {
                origin,
                dir,
                near,
                far,
                white,
                name,
                letter,
                queen,
            },
        );
    let register = (
        X..X + 2,
        prop::sample::select(vec!['R', 'Q', 'r', 'q', 'K', 'k', 'B']),
        0i64..=3,
        small(),
        prop::sample::select(vec!['P', 'p', 'N', 'n']),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            |(name, letter, line, value, wall, transpose)| Idiom::Register {
                name,
                letter,
                line,
                value,
                wall,
                transpose,
            },
        );
    let slide = (
        mover(),
        step(),
        prop::option::weighted(0.6, scene()),
        probe(),
    )
        .prop_map(|(name, step, scene, probe)| Idiom::Slide {
            name,
            step,
            scene,
            probe,
        });
    let counter = (
        prop::sample::select(vec!['R', 'Q', 'r', 'K', 'B', 'N']),
        prop::sample::select(vec!['P', 'p', 'k', 'K']),
        prop::sample::select(vec!['P', 'p']),
        4i64..=6,
        small(),
        small(),
        prop::bool::weighted(0.2),
        cycle(),
    )
        .prop_map(
            |(s_letter, cap_letter, wall_letter, row, width, rounds, transpose, cycle)| {
                Idiom::Counter {
                    s_letter,
                    cap_letter,
                    wall_letter,
                    row,
                    width,
                    rounds,
                    transpose,
                    cycle,
                }
            },
        );
    prop_oneof![
        6 => slide,
        6 => cycle().prop_map(Idiom::Transfer),
        4 => register,
        2 => counter,
        2 => place,
        2 => pin,
        1 => probe().prop_map(Idiom::Probe),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::collection::vec((letter(), num(), num()), 1..=4),
        prop::collection::vec((blocker_letter(), -4i64..=4, -4i64..=4), 0..8),
        prop::collection::vec(idiom(), 1..10),
        prop::collection::vec(
            prop_oneof![6 => -1i64..=4, 1 => Just(FAR), 1 => Just(i64::MIN)],
            0..8,
        ),
    )
        .prop_map(|(cast, blockers, idioms, input)| Spec {
            cast,
            blockers,
            idioms,
            input,
        })
}

// ---------------------------------------------------------------------------
// Running

fn check(source: &str) -> Program {
    driver::check(Language::InfChessPro, source)
        .unwrap_or_else(|e| panic!("invalid program {e:?}:\n{source}"))
        .program
}

fn run(program: &Program, input: &[u8], max_steps: Option<u64>) -> (Outcome, Vec<u8>) {
    let mut out = Vec::new();
    let outcome = program.run(&mut &input[..], &mut out, max_steps);
    (outcome, out)
}

/// The step budgets every program is run under.
const BUDGETS: [u64; 7] = [1, 2, 3, 7, 40, 300, 5_000];
/// Most statements a stepped run may take to count as halting.
const HALTS_WITHIN: u64 = 50_000;

fn env_count(var: &str, default: u32) -> u32 {
    std::env::var(var)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        // A failure that hangs costs seconds per try.
        max_shrink_time: 180_000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

fn shown_ran(ran: &Ran) -> String {
    format!(
        "exit {} {:?} {:?}",
        ran.status,
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    )
}

fn shown(run: &(Outcome, Vec<u8>)) -> String {
    format!("{:?} {:?}", run.0, String::from_utf8_lossy(&run.1))
}

/// The input cut to `len` bytes at a blank (end of input comes early).
fn inputs(full: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![full.to_vec()];
    let blanks: Vec<usize> = (0..full.len()).filter(|&i| full[i] == b' ').collect();
    if let Some(&mid) = blanks.get(blanks.len() / 2) {
        out.push(full[..mid].to_vec());
    }
    if !full.is_empty() {
        out.push(Vec::new());
    }
    out
}

/// How many statements the optimiser summarises.
fn summarised(source: &str) -> usize {
    let ir = icp2c::lang::icp::check(source).unwrap().program;
    let optimised = icp2c::lang::icp::opt::optimise(ir.clone());
    ir.statements
        .iter()
        .zip(&optimised.statements)
        .filter(|(a, b)| a != b)
        .count()
}

fn interpreters_agree(spec: &Spec) -> Result<(), TestCaseError> {
    let source = spec.source();
    let optimised = check(&source);
    let stepped = check(&source).without_optimiser();
    for input in inputs(&spec.input()) {
        let shown_input = String::from_utf8_lossy(&input);
        for budget in BUDGETS {
            let a = run(&optimised, &input, Some(budget));
            let b = run(&stepped, &input, Some(budget));
            prop_assert!(
                a == b,
                "--max-steps {budget}, input {shown_input:?}:\n{source}\noptimised: {}\nstepped:   {}",
                shown(&a),
                shown(&b)
            );
        }
        let b = run(&stepped, &input, Some(HALTS_WITHIN));
        if let Outcome::StepLimit(_) = b.0 {
            continue;
        }
        // The budget exactly used, then no budget at all.
        let steps = match run(&stepped, &input, Some(1)).0 {
            Outcome::StepLimit(_) => {
                let mut lo = 1;
                let mut hi = HALTS_WITHIN;
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    match run(&stepped, &input, Some(mid)).0 {
                        Outcome::StepLimit(_) => lo = mid + 1,
                        _ => hi = mid,
                    }
                }
                lo
            }
            _ => 1,
        };
        for budget in [steps, steps.saturating_sub(1).max(1)] {
            let a = run(&optimised, &input, Some(budget));
            let b = run(&stepped, &input, Some(budget));
            prop_assert!(
                a == b,
                "--max-steps {budget} (stepping halts after {steps}), input {shown_input:?}:\n{source}\noptimised: {}\nstepped:   {}",
                shown(&a),
                shown(&b)
            );
        }
        // No budget at all, through `icp2c run` (killed if it runs on).
        let want = interpret(&stepped, &input, HALTS_WITHIN).expect("it halts");
        let got = cli_run(&source, &input, Duration::from_secs(5));
        prop_assert!(
            got.as_ref() == Some(&want),
            "icp2c run without --max-steps, input {shown_input:?}:\n{source}\noptimised: {}\nstepped:   {}",
            got.as_ref()
                .map_or("still running after 5 s".into(), shown_ran),
            shown_ran(&want),
        );
    }
    Ok(())
}

#[test]
#[ignore = "slow (12 s): steps hundreds of programs in the debug interpreter; .ci/run runs it"]
fn optimised_and_stepped_interpretation_agree() {
    let mut runner = runner(env_count("ICP2C_OPT_CASES", 200));
    let counted = std::cell::Cell::new((0usize, 0usize));
    let result = runner.run(&spec(), |spec| {
        let source = spec.source();
        let (s, h) = counted.get();
        let halts = matches!(
            run(&check(&source), &spec.input(), Some(HALTS_WITHIN)).0,
            Outcome::Halted
        );
        counted.set((s + summarised(&source), h + usize::from(halts)));
        interpreters_agree(&spec)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (summaries, halting) = counted.get();
    eprintln!("{summaries} statements summarised; {halting} programs halt");
    assert!(summaries > 0 && halting > 0);
}

// ---------------------------------------------------------------------------
// Generated C and Rust

/// Runs `command` with `input` on standard input; `None` if it had not
/// ended after `limit` (then it is killed).
fn run_limited(mut command: std::process::Command, input: &[u8], limit: Duration) -> Option<Ran> {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name);
    std::fs::write(file("in"), input).unwrap();
    let mut child = command
        .stdin(std::fs::File::open(file("in")).unwrap())
        .stdout(std::fs::File::create(file("out")).unwrap())
        .stderr(std::fs::File::create(file("err")).unwrap())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Some(Ran {
        status: status.code().unwrap_or(-1),
        stdout: std::fs::read(file("out")).unwrap(),
        stderr: std::fs::read(file("err")).unwrap(),
    })
}

/// `icp2c run` (optimised) on `source`, given up after `limit`. Its
/// standard error keeps only what the program printed there (the last
/// line, a runtime error's), not the compiler's warnings before it.
fn cli_run(source: &str, input: &[u8], limit: Duration) -> Option<Ran> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.icp");
    std::fs::write(&path, source).unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_icp2c"));
    command.arg("run").arg(&path);
    let mut ran = run_limited(command, input, limit)?;
    let text = String::from_utf8_lossy(&ran.stderr).into_owned();
    ran.stderr = match (ran.status, text.lines().last()) {
        (1, Some(line)) => format!("{line}\n").into_bytes(),
        _ => Vec::new(),
    };
    Some(ran)
}

/// A generated executable's run (with `args`), given up after 20 s: a
/// program that halts when interpreted must halt compiled too.
fn run_built(exe: &std::path::Path, args: &[&str], input: &[u8]) -> Ran {
    let mut command = std::process::Command::new(exe);
    command.args(args);
    run_limited(command, input, Duration::from_secs(20)).unwrap_or_else(|| Ran {
        status: -1,
        stdout: Vec::new(),
        stderr: b"still running after 20 s: killed".to_vec(),
    })
}

/// What a program's generated code must do: the stepped interpreter's
/// run when stepping halts within [`HALTS_WITHIN`] statements, else that
/// of `icp2c run` (optimised) when it ends within a second (far pieces
/// and the i64 edge met in one go; the first property ties the
/// optimised interpreter to stepping). `None` when neither ends.
fn reference(spec: &Spec) -> Option<(Ran, &'static str)> {
    let source = spec.source();
    let input = spec.input();
    if let Some(ran) = interpret(&check(&source).without_optimiser(), &input, HALTS_WITHIN) {
        return Some((ran, "stepping"));
    }
    // Without --max-steps the interpreter spends no budget, however many
    // statements its summarised loops count (slides to the i64 edge and
    // back count 2^63 each): it runs on as the generated code does.
    cli_run(&source, &input, Duration::from_secs(1)).map(|ran| (ran, "icp2c run"))
}

/// A program, its input, and what its generated code must do.
struct Built {
    source: String,
    input: Vec<u8>,
    want: Ran,
    reference: &'static str,
}

impl Built {
    fn new(spec: &Spec) -> Option<Built> {
        let (want, reference) = reference(spec)?;
        Some(Built {
            source: spec.source(),
            input: spec.input(),
            want,
            reference,
        })
    }
}

/// Builds every program's C and all their Rust (optimised, the Rust as
/// one executable), those of `targets`, and runs them; for each program,
/// how they differ from its reference run.
fn built_runs_agree(cases: &[Built], targets: &[&str]) -> Vec<Option<String>> {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let progs: Vec<Prog> = cases
        .iter()
        .enumerate()
        .map(|(i, case)| Prog {
            name: format!("prop{i} (against {})", case.reference),
            lang: Language::InfChessPro,
            source: case.source.clone(),
            input: case.input.clone(),
        })
        .collect();
    let checked: Vec<Program> = cases.iter().map(|c| check(&c.source)).collect();
    let members: Vec<_> = checked
        .iter()
        .enumerate()
        .map(|(i, c)| (c, format!("prop{i}.icp")))
        .collect();
    let jobs: Vec<usize> = (0..=cases.len()).collect();
    let built = support::parallel(&jobs, |&j| {
        if !targets.contains(&if j == 0 { "rust" } else { "c" }) {
            Err(String::new())
        } else if j == 0 {
            build_rust_batch(&members, dir, "props")
        } else {
            let (program, file_name) = &members[j - 1];
            let c = program.emit_c(file_name);
            support::build_c(&c, dir, &format!("c{}", j - 1), &["-O0"])
        }
    });
    let (rust, c) = built.split_first().unwrap();
    let indexes: Vec<usize> = (0..cases.len()).collect();
    support::parallel(&indexes, |&i| {
        let (p, case) = (&progs[i], &cases[i]);
        let mut failures = Vec::new();
        for (target, exe) in [("c", &c[i]), ("rust", rust)] {
            if !targets.contains(&target) {
                continue;
            }
            match exe {
                Err(e) => failures.push(format!("{target} build: {e}")),
                Ok(exe) => {
                    let got = if target == "c" {
                        run_built(exe, &[], &p.input)
                    } else {
                        run_built(exe, &[&i.to_string()], &p.input)
                    };
                    if let Some(m) = support::batch::compare(p, target, &got, &case.want) {
                        failures.push(m);
                    }
                }
            }
        }
        (!failures.is_empty()).then(|| failures.join("\n\n"))
    })
}

#[test]
#[ignore = "slow (27 s): runs programs that may not end for a second each; .ci/run runs it"]
fn generated_c_and_rust_agree_with_the_interpreter() {
    let wanted = env_count("ICP2C_OPT_BUILT", 16) as usize;
    let mut runner = runner(1);
    let strategy = spec();
    let (mut trees, mut cases) = (Vec::new(), Vec::new());
    let mut tries = 0;
    let mut stepped = 0;
    while cases.len() < wanted {
        tries += 1;
        assert!(tries < 100 * wanted.max(1), "too few programs halt");
        let tree = strategy.new_tree(&mut runner).unwrap();
        let spec = tree.current();
        // Programs the optimiser changes and that halt (else the
        // generated code would run on).
        if summarised(&spec.source()) == 0 {
            continue;
        }
        if let Some(case) = Built::new(&spec) {
            stepped += usize::from(case.reference == "stepping");
            cases.push(case);
            trees.push(tree);
        }
    }
    eprintln!(
        "{} programs, {stepped} of them against stepping",
        cases.len()
    );
    assert!(stepped * 2 >= wanted, "too few programs halt when stepped");
    let results = built_runs_agree(&cases, &["c", "rust"]);
    let Some(first) = results.iter().position(Option::is_some) else {
        return;
    };
    // Shrink the first failing program, building it alone each time for
    // the target that failed (C builds in a fraction of a second, Rust in
    // seconds: at most 40 tries).
    let mut tree = trees.swap_remove(first);
    let mut failure = results[first].clone().unwrap();
    let target = if failure.contains("[c]") || failure.starts_with("c build") {
        "c"
    } else {
        "rust"
    };
    let mut fails = |spec: &Spec| {
        let Some(case) = Built::new(spec) else {
            return false;
        };
        match built_runs_agree(&[case], &[target]).pop().flatten() {
            Some(f) => {
                failure = f;
                true
            }
            None => false,
        }
    };
    let mut failing = true;
    for _ in 0..40 {
        let moved = if failing {
            tree.simplify()
        } else {
            tree.complicate()
        };
        if !moved {
            break;
        }
        failing = fails(&tree.current());
    }
    panic!(
        "{} of {} programs differ; the first, shrunk:\n{failure}",
        results.iter().flatten().count(),
        results.len()
    );
}

// ---------------------------------------------------------------------------
// One program per idiom, by hand

/// A hand-written program and what it prints (its lines indented, as
/// §1 allows).
struct ByHand {
    what: &'static str,
    source: &'static str,
    input: &'static str,
    output: &'static str,
}

const BY_HAND: &[ByHand] = &[
    ByHand {
        what: "a rook's slide: a capture, then its own pawn stops it",
        source: r#"
            1. r=R0,0
            2. w=p0,3
            3. w=P0,6
            4. r;0,1?4
            5. %w
            6. r,9,5?9
            7. "rook not in column 5
            8. ^?10
            9. "rook in column 5
            10. "end
        "#,
        input: "",
        output: "1\nrook in column 5\nend\n",
    },
    ByHand {
        what: "a queen's diagonal slide",
        source: r#"
            1. q=Q0,0
            2. w=b4,4
            3. w=P7,7
            4. q;1,1?4
            5. %w
            6. q,6,-3?9
            7. "queen not on row 6
            8. ^?10
            9. "queen on row 6
            10. "end
        "#,
        input: "",
        output: "1\nqueen on row 6\nend\n",
    },
    ByHand {
        what: "a black bishop's slide down-left",
        source: r#"
            1. b=b0,0
            2. w=N-3,-3
            3. w=p-5,-5
            4. b;-1,-1?4
            5. %w
            6. b,-6,-2?9
            7. "bishop not on -4,-4
            8. ^?10
            9. "bishop on -4,-4
            10. "end
        "#,
        input: "",
        output: "1\nbishop on -4,-4\nend\n",
    },
    ByHand {
        what: "a pawn's push, blocked, then its diagonal, capturing",
        source: r#"
            1. p=P0,0
            2. w=r5,0
            3. w=n5,1
            4. w=b6,2
            5. p;1,0?5
            6. p;1,1?6
            7. %w
            8. p;1,0!10
            9. "pawn pushed to 7,2
            10. p,8,2?12
            11. "pawn not pushed to 8,2
            12. "end
        "#,
        input: "",
        output: "1\npawn pushed to 7,2\nend\n",
    },
    ByHand {
        what: "a knight's jumps: a capture, then its own knight",
        source: r#"
            1. n=N0,0
            2. w=p3,6
            3. w=N5,10
            4. n;1,2?4
            5. %w
            6. n,6,9?9
            7. "knight not on 4,8
            8. ^?10
            9. "knight on 4,8
            10. "end
        "#,
        input: "",
        output: "1\nknight on 4,8\nend\n",
    },
    ByHand {
        what: "a 2-statement transfer",
        source: r#"
            # y += x, x = 0
            1. w=P0,-1
            2. x=R0,3
            3. y=R1,0
            4. x;0,-1!6
            5. y;0,1?4
            6. y,7,3?9
            7. "y not 3
            8. ^?10
            9. "y is 3
            10. x,7,0?13
            11. "x not 0
            12. ^?14
            13. "x is 0
            14. "end
        "#,
        input: "",
        output: "y is 3\nx is 0\nend\n",
    },
    ByHand {
        what: "a 3-statement transfer entered at its second member",
        source: r#"
            # y += x, z += x, x = 0; entered at its second member
            1. w=P0,-1
            2. x=R0,2
            3. y=R1,0
            4. z=R2,5
            5. ^?7
            6. x;0,-1!9
            7. y;0,1
            8. z;0,1?6
            9. y,7,3?12
            10. "y not 3
            11. ^?13
            12. "y is 3
            13. z,7,8?16
            14. "z not 8
            15. ^?17
            16. "z is 8
            17. "end
        "#,
        input: "",
        output: "y is 3\nz is 8\nend\n",
    },
    ByHand {
        what: "a transfer closed by ^",
        source: r#"
            # closed by ^: x = 0, y += x; failures leave by two exits
            1. w=P0,-1
            2. x=R0,4
            3. y=R1,0
            4. x;0,-1!8
            5. y;0,1!10
            6. ^?4
            7. ^?11
            8. "x ran out
            9. ^?11
            10. "y blocked
            11. y,7,4?14
            12. "y not 4
            13. ^?15
            14. "y is 4
            15. "end
        "#,
        input: "",
        output: "x ran out\ny is 4\nend\n",
    },
    ByHand {
        what: "counter.icp's nested loop",
        source: r#"
            1. wall=P0,-1
            2. wall=P1,-1
            3. x=R0,0
            4. m=R1,*
            5. cap=P0,*
            6. x;0,1?6
            7. x;0,-1?7
            8. m;0,-1?6
            9. %m
            10. m,5,0?13
            11. "m not 0
            12. ^?14
            13. "m is 0
            14. "done
        "#,
        input: "2 3",
        output: "1\nm is 0\ndone\n",
    },
    ByHand {
        what: "a transfer capturing on the way",
        source: r#"
            # y captures a black pawn on its way
            1. w=P0,-1
            2. x=R0,4
            3. y=R1,0
            4. w=p1,2
            5. x;0,-1!7
            6. y;0,1?5
            7. %w
            8. y,7,4?11
            9. "y not 4
            10. ^?12
            11. "y is 4
            12. "end
        "#,
        input: "",
        output: "1\ny is 4\nend\n",
    },
    ByHand {
        what: "a transfer whose pieces block each other",
        source: r#"
            # x and y on one row move towards each other until they meet
            1. x=R0,5
            2. y=R0,0
            3. x;0,-1!5
            4. y;0,1?3
            5. x,7,3?8
            6. "x not 3
            7. ^?9
            8. "x is 3
            9. y,7,2?12
            10. "y not 2
            11. ^?13
            12. "y is 2
            13. "end
        "#,
        input: "",
        output: "x is 3\ny is 2\nend\n",
    },
    ByHand {
        what: "a transfer with a king of the movers' colour",
        source: r#"
            # a white king: y is pinned by the black rook, the first y move fails
            1. w=P0,-1
            2. x=R0,3
            3. y=R1,0
            4. k=K2,0
            5. w=r-5,0
            6. x;0,-1!8
            7. y;0,1?6
            8. x,7,2?11
            9. "x not 2
            10. ^?12
            11. "x is 2
            12. y,1,1?15
            13. "y pinned
            14. ^?16
            15. "y moved
            16. "end
        "#,
        input: "",
        output: "x is 2\ny pinned\nend\n",
    },
    ByHand {
        what: "a transfer reading input until its end",
        source: r#"
            # y moves by what it reads; end of input ends the loop
            1. w=P0,-1
            2. x=R0,5
            3. y=R1,0
            4. x;0,-1!9
            5. y;0,*?4
            6. "end of input
            7. x,7,1?11
            8. "x not 1
            9. "x ran out
            10. ^?12
            11. "x is 1
            12. y,7,4?15
            13. "y not 4
            14. ^?16
            15. "y is 4
            16. "end
        "#,
        input: "1 1 2",
        output: "end of input\nx is 1\ny is 4\nend\n",
    },
];

#[test]
fn each_idiom_by_hand() {
    let want = |idiom: &ByHand| (Outcome::Halted, idiom.output.as_bytes().to_vec());
    for idiom in BY_HAND {
        let input = idiom.input.as_bytes();
        let optimised = check(idiom.source);
        let stepped = check(idiom.source).without_optimiser();
        for (how, program) in [("optimised", &optimised), ("stepped", &stepped)] {
            let got = run(program, input, None);
            assert!(
                got == want(idiom),
                "{} ({how}): {}\n{}",
                idiom.what,
                shown(&got),
                idiom.source
            );
        }
        for budget in BUDGETS {
            let a = run(&optimised, input, Some(budget));
            let b = run(&stepped, input, Some(budget));
            assert!(
                a == b,
                "{}, --max-steps {budget}: optimised {}, stepped {}",
                idiom.what,
                shown(&a),
                shown(&b)
            );
        }
    }
    let cases: Vec<Built> = BY_HAND
        .iter()
        .map(|idiom| Built {
            source: idiom.source.to_string(),
            input: idiom.input.as_bytes().to_vec(),
            want: Ran {
                status: 0,
                stdout: idiom.output.as_bytes().to_vec(),
                stderr: Vec::new(),
            },
            reference: "the output written here",
        })
        .collect();
    let failures: Vec<String> = built_runs_agree(&cases, &["c", "rust"])
        .into_iter()
        .flatten()
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// 10^15 rounds of a transfer, y += x: quick only because the optimiser
/// summarises transfer loops (stepping would take days).
#[test]
fn a_transfer_of_ten_to_the_fifteen_finishes() {
    let source = "\
1. w=P0,-1
2. x=R0,1000000000000000
3. y=R1,0
4. x;0,-1!6
5. y;0,1?4
6. y,7,1000000000000000?9
7. \"y is not 10^15
8. ^?10
9. \"y is 10^15
10. x,7,0?13
11. \"x is not 0
12. ^?14
13. \"x is 0
14. %y
";
    let got = run(&check(source), b"", None);
    assert_eq!(
        (got.0, String::from_utf8_lossy(&got.1).into_owned()),
        (Outcome::Halted, "y is 10^15\nx is 0\n1\n".to_string())
    );
}
