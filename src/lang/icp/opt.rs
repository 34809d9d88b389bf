//! The InfChessPro optimiser (issue 13): plain functions from IR to IR
//! that summarise loop idioms into operations the interpreter and both
//! runtimes execute in one go, leaving the program in exactly the state
//! stepping would (the same squares, captures, output, end of input, and
//! `--max-steps` count). `-O0` (`--no-opt`) skips it.
//!
//! - Slide loops, `L. name;dr,dc?L` with literal offsets: a statement
//!   that moves a named piece and jumps back to itself on success becomes
//!   [`Command::Slide`] (its success target stays itself, unused; control
//!   leaves by its failure target). The runtime's `slide` runs such a loop
//!   in one ray query per piece met when one piece has the name, its
//!   colour has no king, and the step is one square along a line or a
//!   knight's jump; else step by step, as before.
//! - Loops of statements ([`Command::Loop`]), found by [`loops`]: up to
//!   [`MAX_LOOP`] statements, each a move by literal offsets whose success
//!   goes on round the loop and whose failure leaves it, a `^`, or a slide
//!   loop whose failure goes on round it; at least one move. Transfer
//!   loops (`A. a;0,-1!B` / `A+1. b;0,1?A`, or closed by a `^?A`) and
//!   counter's outer loop (`x;0,1?6` / `x;0,-1?7` / `m;0,-1?6`) are such
//!   loops. The runtime's `run_loop` runs a round step by step, then as
//!   many identical rounds as it can prove in one go (see
//!   `docs/infchesspro.md`, "The optimiser").
//! - Neither is made where its fast path can never apply: when every
//!   colour its names' pieces can have surely has a live king there
//!   ([`kings_surely_live`]), the runtime would step anyway (§7 rule 4),
//!   so the statements stay as they are and the program carries no code
//!   for the fast path. Nor where the pieces its names can have
//!   ([`Placed`]) never take one: a slide whose name has no kind that
//!   slides by its step (a rook, bishop or queen's unit step along its
//!   lines, a pawn's push, a knight's jump), a loop with a move whose name
//!   has none.

use super::ir::{
    Action, Colour, Command, LoopMember, MAX_LOOP, NameId, PieceKind, Program, Target, Value,
};

/// `program` with every slide loop and every loop of statements
/// summarised.
pub fn optimise(mut program: Program) -> Program {
    let kings = kings_surely_live(&program);
    let colours = name_colours(&program);
    let placed = Placed::of(&program);
    let fast = |name: NameId, drow: i64, dcol: i64| {
        let (line, knight) = placed.slide_paths(name, drow, dcol);
        line || knight
    };
    // Whether the moves of `name` at statement `i` always test check: every
    // colour its pieces can have has a king there (a name never placed
    // keeps its summary).
    let steps = |i: usize, name: NameId| {
        let c = colours.get(name as usize).copied().unwrap_or(0);
        c != 0 && kings.get(i).is_some_and(|&k| k & c == c)
    };
    let found: Vec<Vec<LoopMember>> = loops(&program)
        .into_iter()
        .filter(|members| {
            members.iter().all(|m| match m.action {
                Action::Move { name, drow, dcol } => {
                    !steps(m.statement, name) && fast(name, drow, dcol)
                }
                Action::Slide { name, .. } => !steps(m.statement, name),
                Action::Nothing => true,
            })
        })
        .collect();
    for (i, s) in program.statements.iter_mut().enumerate() {
        if let Command::MoveNameBy {
            name,
            drow: Value::Lit(drow),
            dcol: Value::Lit(dcol),
        } = s.command
            && s.inputs == 0
            && s.on_success == Some(Target::Statement(i))
            && !steps(i, name)
            && fast(name, drow, dcol)
        {
            s.command = Command::Slide { name, drow, dcol };
        }
    }
    for members in found {
        for (start, m) in members.iter().enumerate() {
            if let Some(s) = program.statements.get_mut(m.statement) {
                s.command = Command::Loop {
                    members: members.clone(),
                    start,
                };
            }
        }
    }
    program
}

/// What statement `i` is as a loop member, and where control goes on
/// round the loop from it: `None` for a statement that cannot be one.
fn member(program: &Program, i: usize) -> Option<(Action, usize)> {
    let s = program.statements.get(i)?;
    if s.inputs != 0 {
        return None;
    }
    let to = |t: Option<Target>| program.goes_to(i, t);
    match s.command {
        Command::MoveNameBy {
            name,
            drow: Value::Lit(drow),
            dcol: Value::Lit(dcol),
        } => {
            if s.on_success == Some(Target::Statement(i)) {
                Some((Action::Slide { name, drow, dcol }, to(s.on_failure)?))
            } else {
                Some((Action::Move { name, drow, dcol }, to(s.on_success)?))
            }
        }
        Command::Nothing => Some((Action::Nothing, to(s.on_success)?)),
        _ => None,
    }
}

/// Every loop of statements in `program` (see the module doc), each with
/// its members in the order control goes round them, starting from the
/// first in file order. A statement is in at most one loop: the way on
/// round from each statement is unique.
pub fn loops(program: &Program) -> Vec<Vec<LoopMember>> {
    let statements = &program.statements;
    let mut found = Vec::new();
    for first in 0..statements.len() {
        let mut members: Vec<LoopMember> = Vec::new();
        let mut at = first;
        let closed = loop {
            let Some((action, next)) = member(program, at) else {
                break false;
            };
            members.push(LoopMember {
                statement: at,
                action,
            });
            if next == first {
                break true;
            }
            // Found from its first statement in file order only; a path
            // that meets a member again (not the first) is no loop of it.
            if next < first
                || members.len() == MAX_LOOP
                || members.iter().any(|m| m.statement == next)
            {
                break false;
            }
            at = next;
        };
        // One member alone is a slide loop (or `^?itself`), not a loop
        // of statements. A move's failure must leave the loop; one move
        // at least, or nothing ever leaves.
        let leaves = |m: &LoopMember| {
            program
                .goes_to(m.statement, statements[m.statement].on_failure)
                .is_some_and(|exit| !members.iter().any(|o| o.statement == exit))
        };
        let moves: Vec<&LoopMember> = members
            .iter()
            .filter(|m| matches!(m.action, Action::Move { .. }))
            .collect();
        if closed && members.len() > 1 && !moves.is_empty() && moves.iter().all(|m| leaves(m)) {
            found.push(members);
        }
    }
    found
}

/// The pieces a program's places can put on its board: per name and
/// colour (white 0, black 1), its kinds as bits (bit k for the runtime's
/// kind k: king 0, queen 1, rook 2, bishop 3, knight 4, pawn 5).
#[derive(Clone, Debug, Default)]
pub struct Placed {
    names: Vec<[u8; 2]>,
}

/// The kind bits of [`Placed`].
pub const KING: u8 = 1;
/// Queens.
pub const QUEEN: u8 = 2;
/// Rooks.
pub const ROOK: u8 = 4;
/// Bishops.
pub const BISHOP: u8 = 8;
/// Knights.
pub const KNIGHT: u8 = 16;
/// Pawns.
pub const PAWN: u8 = 32;

impl Placed {
    /// What `program`'s place commands can put on the board.
    pub fn of(program: &Program) -> Placed {
        let mut names = vec![[0u8; 2]; program.names.len()];
        for s in &program.statements {
            if let Command::Place {
                name, colour, kind, ..
            } = s.command
                && let Some(n) = names.get_mut(name as usize)
            {
                let bit = match kind {
                    PieceKind::King => KING,
                    PieceKind::Queen => QUEEN,
                    PieceKind::Rook => ROOK,
                    PieceKind::Bishop => BISHOP,
                    PieceKind::Knight => KNIGHT,
                    PieceKind::Pawn => PAWN,
                };
                n[usize::from(colour == Colour::Black)] |= bit;
            }
        }
        Placed { names }
    }

    /// The kinds of `name` per colour.
    pub fn name(&self, name: NameId) -> [u8; 2] {
        self.names.get(name as usize).copied().unwrap_or([0, 0])
    }

    /// The kinds of every name, per colour.
    pub fn all(&self) -> [u8; 2] {
        self.names
            .iter()
            .fold([0, 0], |a, n| [a[0] | n[0], a[1] | n[1]])
    }

    /// Which fast paths of the runtime's slide (and of a loop's rounds) a
    /// piece of `name` stepping by (drow, dcol) can take: along a line (a
    /// rook, bishop or queen's unit step along one of its lines, a pawn's
    /// push), and a knight's jumps.
    pub fn slide_paths(&self, name: NameId, drow: i64, dcol: i64) -> (bool, bool) {
        let n = self.name(name);
        let unit = (drow, dcol) != (0, 0) && drow.unsigned_abs() <= 1 && dcol.unsigned_abs() <= 1;
        let straight = drow == 0 || dcol == 0;
        let along = |kinds: u8| {
            let lines = if straight {
                ROOK | QUEEN
            } else {
                BISHOP | QUEEN
            };
            unit && kinds & lines != 0
        };
        let push = |colour: usize| n[colour] & PAWN != 0 && dcol == 0 && drow == [1, -1][colour];
        let line = along(n[0] | n[1]) || push(0) || push(1);
        let jump = matches!((drow.unsigned_abs(), dcol.unsigned_abs()), (1, 2) | (2, 1));
        (line, jump && (n[0] | n[1]) & KNIGHT != 0)
    }
}

/// A colour as a bit of [`kings_surely_live`]'s facts.
fn colour_bit(colour: Colour) -> u8 {
    match colour {
        Colour::White => 1,
        Colour::Black => 2,
    }
}

/// Per name, the colours (bits) its places give its pieces.
fn name_colours(program: &Program) -> Vec<u8> {
    let mut colours = vec![0u8; program.names.len()];
    for s in &program.statements {
        if let Command::Place { name, colour, .. } = s.command
            && let Some(c) = colours.get_mut(name as usize)
        {
            *c |= colour_bit(colour);
        }
    }
    colours
}

/// The board is surely empty (a fact of [`kings_surely_live`]).
const EMPTY: u8 = 4;

/// Per statement of the unoptimised `program`, the colours (bits 1
/// white, 2 black) that surely have a live king whenever it starts: on
/// every way there, a king of that colour was placed and no piece of the
/// other colour has moved since (only such a move can capture it). A
/// forward analysis over the statements' jumps (a `*` jump may go to any
/// statement), each fact kept only where every way in keeps it; a place
/// cannot fail on a surely empty board unless its input ends.
pub fn kings_surely_live(program: &Program) -> Vec<u8> {
    let statements = &program.statements;
    let n = statements.len();
    let colours = name_colours(program);
    let mover = |name: NameId| colours.get(name as usize).copied().unwrap_or(0);
    // Facts on entry (all three bits: no way in found yet).
    let mut facts = vec![7u8; n];
    let mut anywhere = 7u8;
    let mut work: Vec<usize> = Vec::new();
    if n > 0 {
        facts[0] = EMPTY;
        work.push(0);
    }
    while let Some(i) = work.pop() {
        let s = &statements[i];
        let x = facts[i];
        let (success, failure) = match s.command {
            Command::Place { colour, kind, .. } => {
                let king = if kind == PieceKind::King {
                    colour_bit(colour)
                } else {
                    0
                };
                let fails = if x & EMPTY != 0 && s.inputs == 0 {
                    7
                } else {
                    x
                };
                ((x & !EMPTY) | king, fails)
            }
            Command::MoveSquares { .. } => (x & EMPTY, x & EMPTY),
            Command::MoveNameTo { name, .. }
            | Command::MoveNameBy { name, .. }
            | Command::Slide { name, .. } => {
                // A white piece's move may capture a black king, and so on.
                let m = mover(name);
                let lost = ((m & 1) << 1) | ((m & 2) >> 1);
                (x & !lost, x & !lost)
            }
            Command::Loop { .. } => (x & EMPTY, x & EMPTY),
            Command::Nothing | Command::Text(_) | Command::Count(_) => (x, x),
        };
        for (target, out) in [(s.on_success, success), (s.on_failure, failure)] {
            match program.goes_to(i, target) {
                Some(j) if j < n => {
                    if facts[j] & out != facts[j] {
                        facts[j] &= out;
                        work.push(j);
                    }
                }
                Some(_) => {}
                None => {
                    if anywhere & out != anywhere {
                        anywhere &= out;
                        for (j, f) in facts.iter_mut().enumerate() {
                            if *f & anywhere != *f {
                                *f &= anywhere;
                                work.push(j);
                            }
                        }
                    }
                }
            }
        }
    }
    facts.iter().map(|f| f & 3).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(source: &str) -> Vec<Command> {
        let program = crate::lang::icp::check(source).unwrap().program;
        optimise(program)
            .statements
            .into_iter()
            .map(|s| s.command)
            .collect()
    }

    #[test]
    fn slide_loops_and_nothing_else() {
        let c =
            commands("1. x=R0,0\n2. x;0,1?2\n3. x;0,-1?3\n4. x;*,1?4\n5. x;0,1?1\n6. x;0,1!6\n");
        assert_eq!(
            c[1],
            Command::Slide {
                name: 0,
                drow: 0,
                dcol: 1
            }
        );
        assert_eq!(
            c[2],
            Command::Slide {
                name: 0,
                drow: 0,
                dcol: -1
            }
        );
        // Read offsets, a jump elsewhere, a failure jump to itself: kept.
        assert!(matches!(c[3], Command::MoveNameBy { .. }));
        assert!(matches!(c[4], Command::MoveNameBy { .. }));
        assert!(matches!(c[5], Command::MoveNameBy { .. }));
    }

    #[test]
    fn no_summary_where_a_king_of_the_movers_colour_is_surely_live() {
        let slides = |source: &str| {
            commands(source)
                .iter()
                .filter(|c| matches!(c, Command::Slide { .. }))
                .count()
        };
        let beer = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/beer.icp"),
        )
        .unwrap();
        assert_eq!(slides(&beer), 0);
        assert_eq!(slides("1. k=K0,0\n2. x=R5,5\n3. x;0,1?3\n"), 0);
        // No king yet, or one a black move may have taken, or a place that
        // may have failed: the slide is summarised.
        assert_eq!(slides("1. x=R5,5\n2. x;0,1?2\n3. k=K0,0\n"), 1);
        assert_eq!(
            slides("1. k=K0,0\n2. e=r9,9\n3. e;0,1\n4. x=R5,5\n5. x;0,1?5\n"),
            1
        );
        assert_eq!(slides("1. a=P0,0\n2. k=K0,0\n3. x=R5,5\n4. x;0,1?4\n"), 1);
        assert_eq!(slides("1. k=K*,0\n2. x=R5,5\n3. x;0,1?3\n"), 1);
        // A `*` jump may come from before the king was placed.
        assert_eq!(slides("1. x=R5,5\n2. ^?*\n3. k=K0,0\n4. x;0,1?4\n"), 1);
        // A name of both colours, one without a king.
        assert_eq!(slides("1. k=K0,0\n2. x=R5,5\n3. x=r7,7\n4. x;0,1?4\n"), 1);
        assert_eq!(
            kings_surely_live(
                &crate::lang::icp::check("1. k=K0,0\n2. q=k1,5!4\n3. ^\n4. ^\n")
                    .unwrap()
                    .program
            ),
            [0, 1, 3, 1]
        );
    }

    #[test]
    fn a_slide_only_where_a_kind_of_its_name_can_take_a_fast_path() {
        let slides = |source: &str| {
            commands(source)
                .iter()
                .filter(|c| matches!(c, Command::Slide { .. }))
                .count()
        };
        for (source, made) in [
            ("1. x=R0,0\n2. x;1,1?2\n", 0),
            ("1. x=B0,0\n2. x;1,1?2\n", 1),
            ("1. x=Q0,0\n2. x;0,2?2\n", 0),
            ("1. x=K0,0\n2. x;0,1?2\n", 0),
            ("1. x=N0,0\n2. x;1,2?2\n", 1),
            ("1. x=N0,0\n2. x;1,1?2\n", 0),
            ("1. x=P0,0\n2. x;1,0?2\n", 1),
            ("1. x=P0,0\n2. x;-1,0?2\n", 0),
            ("1. x=p0,0\n2. x;-1,0?2\n", 1),
            ("1. x;0,1?1\n", 0),
        ] {
            assert_eq!(slides(source), made, "{source}");
        }
        let p = crate::lang::icp::check("1. x=K0,0\n2. y=n1,1\n3. x=p4,4\n")
            .unwrap()
            .program;
        let placed = Placed::of(&p);
        assert_eq!(placed.all(), [KING, KNIGHT | PAWN]);
        assert_eq!(placed.name(0), [KING, PAWN]);
        assert_eq!(placed.slide_paths(0, -1, 0), (true, false));
        assert_eq!(placed.slide_paths(1, 2, -1), (false, true));
    }
}
