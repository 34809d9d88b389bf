//! A run recorded step by step, for a board view that steps forwards and
//! backwards through it (the playground's): the board at the start, then
//! for every step the statement or move that ran, its `--trace` line, the
//! squares it changed (what each held before and after) and how much
//! output the program had written by then.
//!
//! A step is what `--max-steps` counts: an InfChessPro statement executed,
//! a Finvara move executed. A recorded run is the traced run, not
//! optimised: it shows every statement, as `icp2c run --trace` does, and
//! its trace lines are that command's lines. Its output and outcome are
//! those of `icp2c run --max-steps N`.
//!
//! Changes rather than whole boards: a step changes a few squares, so a
//! recording costs memory in proportion to its steps, and a view replays
//! changes forwards (`after`) or backwards (`before`).

use crate::Outcome;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

/// A piece as a board view draws it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its colour.
    pub side: Side,
    /// Its kind's letter, lower case: InfChessPro's chess kinds
    /// `k q r b n p` (§3), or a Finvara kind's own symbol (§2).
    pub symbol: char,
    /// InfChessPro: its name (§2), which several pieces may share;
    /// Finvara pieces have none (empty).
    pub name: String,
}

/// What a square holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Content {
    /// Nothing.
    Empty,
    /// A Finvara hole (`##`, §3, §4): pieces that step on it fall in.
    Hole,
    /// A piece.
    Piece(Piece),
}

/// One square's change in a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The square's row: InfChessPro's row as the program writes it (§3,
    /// white moves towards higher rows); Finvara's 1-based row, 1 being
    /// the row the program names `a` (drawn at the bottom, §3).
    pub row: i64,
    /// The square's column: InfChessPro's as written; Finvara's 1-based.
    pub col: i64,
    /// What the square held before the step.
    pub before: Content,
    /// What it holds after.
    pub after: Content,
}

/// The shape of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// InfChessPro's unbounded board: every (row, col) of 64-bit integers.
    Unbounded,
    /// Finvara's grid of `width` columns and `height` rows (both at least
    /// 1), rows and columns numbered from 1.
    Grid {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
}

/// The top of a Finvara stack (§5.2) after a step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StackTop {
    /// How many numbers the stack holds.
    pub depth: usize,
    /// Its top numbers, bottom to top: the last [`STACK_TOP`] at most.
    pub top: Vec<i64>,
}

/// How many numbers of a stack a step records ([`StackTop::top`]).
pub const STACK_TOP: usize = 16;

/// One recorded step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The 1-based source line of the statement or move that ran.
    pub line: usize,
    /// Its `icp2c run --trace` line, without the newline.
    pub trace: String,
    /// The squares it changed, each once, in (row, col) order.
    pub changes: Vec<Change>,
    /// How many bytes of standard output the program had written when the
    /// step ended (a prefix of [`Recording::output`]).
    pub output: usize,
    /// Finvara: white's and black's stacks after the step.
    pub stacks: Option<[StackTop; 2]>,
}

/// A whole recorded run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recording {
    /// The board's shape.
    pub shape: Shape,
    /// Every square that holds something at the start (pieces, Finvara's
    /// holes), in (row, col) order; every other square is empty.
    pub start: Vec<(i64, i64, Content)>,
    /// The steps, in the order they ran.
    pub steps: Vec<Step>,
    /// The trace's closing line, when the language writes one after the
    /// steps (Finvara: how the game ended, `end: …`), without the newline.
    pub end: Option<String>,
    /// Everything the program wrote on standard output.
    pub output: Vec<u8>,
    /// How the run ended, as `icp2c run --max-steps N` reports it.
    pub outcome: Outcome,
}

/// The changes between two boards, each given as its non-empty squares
/// sorted by (row, col) with no square twice, their contents in any form
/// `content` turns into a [`Content`]: one [`Change`] per square whose
/// content differs, in (row, col) order. Costs one step per square of
/// either list.
pub fn diff<T: PartialEq>(
    before: &[(i64, i64, T)],
    after: &[(i64, i64, T)],
    content: impl Fn(&T) -> Content,
) -> Vec<Change> {
    use std::cmp::Ordering;
    let mut changes = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < before.len() || j < after.len() {
        let order = match (before.get(i), after.get(j)) {
            (Some((r, c, _)), Some((s, d, _))) => (r, c).cmp(&(s, d)),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        let (row, col, was, now) = match order {
            Ordering::Less => {
                let (r, c, x) = &before[i];
                i += 1;
                (*r, *c, content(x), Content::Empty)
            }
            Ordering::Greater => {
                let (r, c, y) = &after[j];
                j += 1;
                (*r, *c, Content::Empty, content(y))
            }
            Ordering::Equal => {
                let ((r, c, x), (_, _, y)) = (&before[i], &after[j]);
                i += 1;
                j += 1;
                if x == y {
                    continue;
                }
                (*r, *c, content(x), content(y))
            }
        };
        changes.push(Change {
            row,
            col,
            before: was,
            after: now,
        });
    }
    changes
}

/// The top of a stack, `stack` bottom first.
pub fn stack_top(stack: &[i64]) -> StackTop {
    StackTop {
        depth: stack.len(),
        top: stack[stack.len().saturating_sub(STACK_TOP)..].to_vec(),
    }
}

/// A writer that passes everything to `inner` and counts the bytes it
/// took in `written`, shared, so that a recorder can see how much a program
/// has written while the interpreter holds the writer ([`Step::output`]).
pub struct Counted<W> {
    /// Where the bytes go.
    pub inner: W,
    /// How many bytes `inner` has taken so far.
    pub written: std::rc::Rc<std::cell::Cell<usize>>,
}

impl<W: std::io::Write> std::io::Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written.set(self.written.get() + n);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(symbol: char, name: &str) -> Content {
        Content::Piece(Piece {
            side: Side::White,
            symbol,
            name: name.to_string(),
        })
    }

    #[test]
    fn diff_names_each_changed_square_once_in_order() {
        let before = vec![
            (0, 0, piece('r', "a")),
            (0, 5, piece('k', "k")),
            (2, 1, Content::Hole),
        ];
        let after = vec![
            (0, 1, piece('r', "a")),
            (0, 5, piece('k', "k")),
            (2, 1, Content::Hole),
        ];
        let changes = diff(&before, &after, Content::clone);
        assert_eq!(
            changes,
            vec![
                Change {
                    row: 0,
                    col: 0,
                    before: piece('r', "a"),
                    after: Content::Empty
                },
                Change {
                    row: 0,
                    col: 1,
                    before: Content::Empty,
                    after: piece('r', "a")
                },
            ]
        );
    }

    #[test]
    fn diff_sees_a_capture_as_one_square_changing_hands() {
        let before = vec![(1, 1, piece('q', "x")), (4, 4, piece('p', "y"))];
        let after = vec![(4, 4, piece('q', "x"))];
        let changes = diff(&before, &after, Content::clone);
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[1].before, piece('p', "y"));
        assert_eq!(changes[1].after, piece('q', "x"));
        assert!(diff(&after, &after, Content::clone).is_empty());
    }

    #[test]
    fn stack_top_keeps_the_last_numbers() {
        let stack: Vec<i64> = (0..40).collect();
        let top = stack_top(&stack);
        assert_eq!(top.depth, 40);
        assert_eq!(top.top.len(), STACK_TOP);
        assert_eq!(top.top.last(), Some(&39));
        assert_eq!(stack_top(&[]), StackTop::default());
    }
}
