//! Lowers a notation (§2.1) to a path program for one colour on one board
//! (format: `crate::lang::finvara::runtime::board`). Everything that does not depend
//! on the position is decided here: the jump vectors of each leap with its
//! direction filter turned for the colour (black sees the board rotated by
//! 180°), vectors that can never land on this board dropped, ranks turned
//! into absolute rows.
//!
//! Repetition (§2.1): `` A` `` loops freely. `A*` loops too, but every leap
//! and every `{…}` choice inside A (also inside nested `*`, but not inside
//! a nested `` ` ``) gets a register: the first repetition sets it, the
//! later ones reuse it, so every repetition jumps by the vectors of the
//! first. The outermost such `*` forgets its registers when it is entered
//! and when it is left. A kind numbers its registers after those of
//! every kind it refers to, so that a program and the programs it calls
//! never share one.
//!
//! References (`"s"`): outside the body of a `*`, a `CALL` of kind s's own
//! program, so a notation costs its own size however its references chain
//! (the runtime shares the work of a call among the paths that make it).
//! Inside the body of a `*`, each reference is a copy of s's notation with
//! registers of its own (every repetition repeats the vectors of the first
//! at each copy): those copies are counted against
//! `validate::MAX_COPIED_UNITS`.
//!
//! The walk over the notation's units keeps an explicit stack of what is
//! left to do, so any nesting depth is fine.

use super::ast::{Dir, Node, NodeId, Notation};
use super::ir::Colour;
use crate::lang::finvara::runtime::board::*;

/// The path program of kind `this` (an index into `kinds`) for `colour`,
/// its registers numbered from `first_reg` (after those of the kinds it
/// refers to). `code[0]` is the number of registers its searches need.
pub fn lower(
    kinds: &[(char, &Notation)],
    this: usize,
    colour: Colour,
    width: usize,
    height: usize,
    first_reg: i32,
) -> Vec<i32> {
    lower_with(kinds, this, colour, width, height, first_reg, true)
}

/// [`lower`], with `share` false copying every reference instead of
/// calling it (a self-contained program: what icp2c lowered before
/// references were shared; tests compare the two).
pub fn lower_with(
    kinds: &[(char, &Notation)],
    this: usize,
    colour: Colour,
    width: usize,
    height: usize,
    first_reg: i32,
    share: bool,
) -> Vec<i32> {
    let mut e = Emitter {
        code: vec![0],
        nregs: first_reg,
        colour,
        width: width as i64,
        height: height as i64,
        kinds,
        share,
        exits: Vec::new(),
    };
    let notation = kinds[this].1;
    e.seq(notation, &notation.top, false);
    e.code.push(OP_END);
    e.code[0] = e.nregs;
    e.code
}

/// The jump vectors of the leap `(a,b|dir)` for `colour`, as (column
/// delta, row delta), sorted, duplicates removed (§2.1), keeping only
/// those that can land on a `width` × `height` board.
pub fn vectors(
    a: u64,
    b: u64,
    dir: Option<Dir>,
    colour: Colour,
    width: i64,
    height: i64,
) -> Vec<(i32, i32)> {
    let fits = |dx: u64, dy: u64| (dx as u128) < width as u128 && (dy as u128) < height as u128;
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        if !fits(x, y) {
            continue;
        }
        let (x, y) = (x as i32, y as i32);
        for sx in [-1, 1] {
            for sy in [-1, 1] {
                // (dx, dy) in the player's frame.
                let (dx, dy) = (sx * x, sy * y);
                let keep = match dir {
                    None => true,
                    Some(Dir::Forward) => dy > 0,
                    Some(Dir::Backward) => dy < 0,
                    Some(Dir::Right) => dx > 0,
                    Some(Dir::Left) => dx < 0,
                };
                if keep {
                    out.push(match colour {
                        Colour::White => (dx, dy),
                        Colour::Black => (-dx, -dy),
                    });
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Absolute rows `lo..=hi` of the ranks `lo..=hi` in `colour`'s count
/// (§2.1): rank 1 is the player's own first row, -1 the opponent's.
pub fn rank_rows(lo: i64, hi: i64, colour: Colour, height: i64) -> (i32, i32) {
    let own = |r: i64| -> i64 {
        if r < 0 {
            r.saturating_add(height).saturating_add(1)
        } else {
            r
        }
    };
    let (a, b) = (own(lo), own(hi));
    let (a, b) = (a.min(b), a.max(b));
    let (a, b) = match colour {
        Colour::White => (a, b),
        Colour::Black => (
            height.saturating_add(1).saturating_sub(b),
            height.saturating_add(1).saturating_sub(a),
        ),
    };
    let clamp = |v: i64| v.clamp(-1, height + 2) as i32;
    (clamp(a), clamp(b))
}

struct Emitter<'a> {
    code: Vec<i32>,
    nregs: i32,
    colour: Colour,
    width: i64,
    height: i64,
    kinds: &'a [(char, &'a Notation)],
    share: bool,
    /// Per `{…}`: where its choices' `JUMP`s to its end are.
    exits: Vec<Vec<usize>>,
}

/// What is left to do, innermost last.
enum Task<'a> {
    /// Lower a unit of a notation; `fixed`: inside a `*` (and not inside
    /// a nearer `` ` ``).
    Unit(&'a Notation, NodeId, bool),
    /// Write one instruction word.
    Word(i32),
    /// Point `code[at]` here.
    Here(usize),
    /// The end of a choice of the `{…}` with these exits: jump to its end.
    Exit(usize),
    /// The end of the `{…}` with these exits.
    EndChoice(usize),
    /// The end of a repetition (see `Node::Repeat` in `unit`).
    EndRepeat {
        owner: bool,
        reset: usize,
        first: i32,
        head: i32,
    },
}

impl<'a> Emitter<'a> {
    fn pc(&self) -> i32 {
        self.code.len() as i32
    }

    fn reg(&mut self, fixed: bool, choices: usize) -> i32 {
        if fixed && choices > 1 {
            self.nregs += 1;
            self.nregs - 1
        } else {
            -1
        }
    }

    /// Lowers the units `units` of `notation` in order.
    fn seq(&mut self, notation: &'a Notation, units: &[NodeId], fixed: bool) {
        let mut tasks: Vec<Task<'a>> = Vec::new();
        push_units(&mut tasks, notation, units, fixed);
        while let Some(task) = tasks.pop() {
            match task {
                Task::Unit(notation, id, fixed) => self.unit(notation, id, fixed, &mut tasks),
                Task::Word(w) => self.code.push(w),
                Task::Here(at) => self.code[at] = self.pc(),
                Task::Exit(choice) => {
                    self.code.extend([OP_JUMP, 0]);
                    self.exits[choice].push(self.code.len() - 1);
                }
                Task::EndChoice(choice) => {
                    let end = self.pc();
                    for &x in &self.exits[choice] {
                        self.code[x] = end;
                    }
                }
                Task::EndRepeat {
                    owner,
                    reset,
                    first,
                    head,
                } => {
                    self.code.extend([OP_JUMP, head]);
                    let end = self.pc();
                    self.code[head as usize + 3] = end;
                    if owner {
                        let count = self.nregs - first;
                        self.code[reset + 2] = count;
                        if count > 0 {
                            // Forget them on the way out too: nothing reads them
                            // any more, and states that differ only there are
                            // the same state.
                            self.code.extend([OP_RESET, first, count]);
                        }
                    }
                }
            }
        }
    }

    /// Writes what unit `id` does first and pushes the rest as tasks.
    fn unit(&mut self, notation: &'a Notation, id: NodeId, fixed: bool, tasks: &mut Vec<Task<'a>>) {
        match &notation.nodes[id] {
            Node::Leap { a, b, dir, .. } => {
                let v = vectors(*a, *b, *dir, self.colour, self.width, self.height);
                let reg = self.reg(fixed, v.len());
                self.code.extend([OP_LEAP, reg, v.len() as i32]);
                for (dx, dy) in v {
                    self.code.extend([dx, dy]);
                }
            }
            Node::Choice(items) => {
                let reg = self.reg(fixed, items.len());
                self.code.extend([OP_FORK, reg, items.len() as i32]);
                let targets = self.code.len();
                self.code.extend(std::iter::repeat_n(0, items.len()));
                let choice = self.exits.len();
                self.exits.push(Vec::new());
                // Each choice: its target here, its units, a jump to the end
                // (but the last's).
                tasks.push(Task::EndChoice(choice));
                for (i, item) in items.iter().enumerate().rev() {
                    if i + 1 < items.len() {
                        tasks.push(Task::Exit(choice));
                    }
                    push_units(tasks, notation, item, fixed);
                    tasks.push(Task::Here(targets + i));
                }
            }
            Node::Group(body) => push_units(tasks, notation, body, fixed),
            Node::Capture(body) => {
                tasks.push(Task::Word(OP_ENEMY));
                push_units(tasks, notation, body, fixed);
            }
            Node::Quiet(body) => {
                tasks.push(Task::Word(OP_EMPTY));
                push_units(tasks, notation, body, fixed);
            }
            Node::Rank {
                body,
                negated,
                lo,
                hi,
                ..
            } => {
                let (lo, hi) = rank_rows(*lo, *hi, self.colour, self.height);
                self.code
                    .extend([if *negated { OP_NOT_RANK } else { OP_RANK }, lo, hi, 0]);
                tasks.push(Task::Here(self.code.len() - 1));
                push_units(tasks, notation, body, fixed);
            }
            Node::PromoteAny(_) => self.code.push(OP_PROMOTE_ANY),
            Node::PromoteTo(list) => {
                let mut ks: Vec<i32> = Vec::new();
                for (s, _) in list {
                    let k = self
                        .kinds
                        .iter()
                        .position(|(c, _)| c == s)
                        .map(|k| k as i32);
                    match k {
                        Some(k) if !ks.contains(&k) => ks.push(k),
                        _ => {}
                    }
                }
                self.code.extend([OP_PROMOTE, ks.len() as i32]);
                self.code.extend(ks);
            }
            Node::Take(_) => self.code.push(OP_TAKE),
            Node::Like(s, _) => {
                if let Some(k) = self.kinds.iter().position(|(c, _)| c == s) {
                    if self.share && !fixed {
                        self.code.extend([OP_CALL, k as i32]);
                    } else {
                        let other = self.kinds[k].1;
                        push_units(tasks, other, &other.top, fixed);
                    }
                }
            }
            Node::Repeat { body, fixed: star } => {
                let owner = *star && !fixed;
                let reset = self.code.len();
                if owner {
                    self.code.extend([OP_RESET, self.nregs, 0]);
                }
                let first = self.nregs;
                let head = self.pc();
                self.code.extend([OP_FORK, -1, 2, 0, head + 5]);
                tasks.push(Task::EndRepeat {
                    owner,
                    reset,
                    first,
                    head,
                });
                tasks.push(Task::Unit(notation, *body, *star));
            }
        }
    }
}

/// Pushes `units` so that they are lowered in order.
fn push_units<'a>(
    tasks: &mut Vec<Task<'a>>,
    notation: &'a Notation,
    units: &[NodeId],
    fixed: bool,
) {
    tasks.extend(
        units
            .iter()
            .rev()
            .map(|&id| Task::Unit(notation, id, fixed)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_has_eight_vectors_and_rook_four() {
        assert_eq!(vectors(1, 2, None, Colour::White, 8, 8).len(), 8);
        assert_eq!(vectors(1, 0, None, Colour::White, 8, 8).len(), 4);
        assert_eq!(vectors(1, 1, None, Colour::White, 8, 8).len(), 4);
        assert_eq!(vectors(0, 0, None, Colour::White, 8, 8), vec![(0, 0)]);
    }

    #[test]
    fn directions_turn_for_black() {
        assert_eq!(
            vectors(1, 0, Some(Dir::Forward), Colour::White, 8, 8),
            vec![(0, 1)]
        );
        assert_eq!(
            vectors(1, 0, Some(Dir::Forward), Colour::Black, 8, 8),
            vec![(0, -1)]
        );
        assert_eq!(
            vectors(1, 0, Some(Dir::Right), Colour::White, 8, 8),
            vec![(1, 0)]
        );
        assert_eq!(
            vectors(1, 0, Some(Dir::Right), Colour::Black, 8, 8),
            vec![(-1, 0)]
        );
        assert_eq!(
            vectors(1, 1, Some(Dir::Forward), Colour::White, 8, 8),
            vec![(-1, 1), (1, 1)]
        );
        assert!(vectors(0, 0, Some(Dir::Forward), Colour::White, 8, 8).is_empty());
    }

    #[test]
    fn ranks_count_from_each_side() {
        assert_eq!(rank_rows(2, 2, Colour::White, 8), (2, 2));
        assert_eq!(rank_rows(2, 2, Colour::Black, 8), (7, 7));
        assert_eq!(rank_rows(-1, -1, Colour::White, 8), (8, 8));
        assert_eq!(rank_rows(-1, -1, Colour::Black, 8), (1, 1));
        assert_eq!(rank_rows(9, 12, Colour::White, 12), (9, 12));
        assert_eq!(rank_rows(-2, 2, Colour::White, 8), (2, 7));
    }

    #[test]
    fn huge_leaps_never_land() {
        assert!(vectors(u64::MAX, 1, None, Colour::White, 8, 8).is_empty());
    }
}
