// @section loop
/// One statement of a loop the optimiser summarised, for
/// [`Board::run_loop`], in the order control goes round the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `name;drow,dcol` (§4.4): its success goes on round the loop, its
    /// failure leaves it.
    Move(Name, i64, i64),
    // @section loop_slide: loop slide
    /// `name;drow,dcol?itself`, a slide loop ([`Board::slide`]): its
    /// moves go on until one fails, and that failure goes on round the
    /// loop.
    Slide(Name, i64, i64),
    // @end loop_slide
    // @section loop_nothing: loop
    /// `^` (§4.5): goes on round the loop.
    Nothing,
    // @end loop_nothing
}

/// Where [`Board::run_loop`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopEnd {
    /// Statements run (each run of a slide loop's statement is one).
    pub executed: u64,
    /// The member whose move failed (`left`), or the one to run next
    /// (the budget is spent).
    pub at: usize,
    /// Whether member `at`'s move failed: control leaves the loop.
    pub left: bool,
}

/// A round of a loop as it began, for [`Board::skip_rounds`]: fixed
/// arrays (a loop has at most [`MAX_LOOP`] members), so that running a
/// loop allocates nothing.
struct Round {
    /// Statements run before it.
    executed: u64,
    /// Live pieces when it began.
    live: u64,
    /// The pieces the loop names: the first `npieces`.
    pieces: [LoopPiece; MAX_LOOP],
    npieces: usize,
    /// The squares its slides looked at: the first `nlooked`.
    looked: [Segment; MAX_LOOP],
    nlooked: usize,
    /// A slide looked at squares not followed ([`Segment::of_slide`]).
    blind: bool,
}

impl Round {
    fn pieces(&self) -> &[LoopPiece] {
        self.pieces.get(..self.npieces).unwrap_or(&[])
    }

    fn looked(&self) -> &[Segment] {
        self.looked.get(..self.nlooked).unwrap_or(&[])
    }

    // @section loop_slide
    /// Records the squares a slide of the round looked at (one slide a
    /// member, so there is room; else the round is blind).
    fn look(&mut self, seg: Segment) {
        match self.looked.get_mut(self.nlooked) {
            Some(slot) => {
                *slot = seg;
                self.nlooked += 1;
            }
            None => self.blind = true,
        }
    }
    // @end loop_slide
}

const NO_PIECE: LoopPiece = LoopPiece {
    slot: NIL,
    row: 0,
    col: 0,
    by: None,
    order: 0,
};

const NO_SEGMENT: Segment = Segment {
    from: (0, 0),
    dir: (0, 0),
    len: 0,
};

/// A piece named by a loop, where a round began.
#[derive(Clone, Copy)]
struct LoopPiece {
    slot: u32,
    row: i64,
    col: i64,
    /// The step of the member that moves it; `None` for a slid piece.
    by: Option<(i64, i64)>,
    /// Its member's place in the round (0 = first).
    order: usize,
}

/// The squares from + u·dir for 0 ≤ u ≤ len: those a slide loop's run
/// looked at (where it began, the squares it entered, and the one it
/// could not move to).
#[derive(Clone, Copy)]
struct Segment {
    from: (i128, i128),
    dir: (i128, i128),
    len: i128,
}

impl Segment {
    // @section loop_slide
    /// The squares a slide loop's run of `made` moves by `v` from `from`
    /// looked at, when `v` is one square along a line or a knight's jump
    /// (the landing squares: no square lies between); `None` for any
    /// other step (its squares are not followed: no round is skipped).
    fn of_slide(from: (i64, i64), v: (i64, i64), made: u64) -> Option<Segment> {
        let unit = v != (0, 0) && v.0.unsigned_abs() <= 1 && v.1.unsigned_abs() <= 1;
        let jump = matches!((v.0.unsigned_abs(), v.1.unsigned_abs()), (1, 2) | (2, 1));
        (unit || jump).then(|| Segment {
            from: (from.0 as i128, from.1 as i128),
            dir: (v.0 as i128, v.1 as i128),
            len: made as i128 + 1,
        })
    }
    // @end loop_slide

    /// The least s ≥ −1 with at + s·v on this segment, if any; `v` is a
    /// unit step or a knight's jump.
    fn first_meeting(&self, at: (i64, i64), v: (i64, i64)) -> Option<i128> {
        let (vr, vc) = (v.0 as i128, v.1 as i128);
        let (wr, wc) = self.dir;
        let (dr, dc) = (self.from.0 - at.0 as i128, self.from.1 - at.1 as i128);
        let cross = vr * wc - vc * wr;
        if cross != 0 {
            // s·v − u·w = d, by Cramer's rule.
            let (sn, un) = (dr * wc - dc * wr, dr * vc - dc * vr);
            if sn % cross != 0 || un % cross != 0 {
                return None;
            }
            let (s, u) = (sn / cross, un / cross);
            return (s >= -1 && (0..=self.len).contains(&u)).then_some(s);
        }
        // Parallel steps (unit steps or jumps: v = ±w).
        if dr * wc - dc * wr != 0 {
            return None;
        }
        // On the segment's line: d = k·w (w is a unit step or a jump).
        let k = if wr != 0 { dr / wr } else { dc / wc };
        if (dr, dc) != (k * wr, k * wc) {
            return None;
        }
        // s·a = k + u for u in 0..=len, where v = a·w.
        let (lo, hi) = if (vr, vc) == (wr, wc) {
            (k, k + self.len)
        } else {
            (-k - self.len, -k)
        };
        let s = lo.max(-1);
        (s <= hi).then_some(s)
    }
}

/// A square (row, col), or a step (drow, dcol).
type Pair = (i64, i64);

/// The first round t ≥ 1 in which a piece on `a` stepping by `v` each
/// round would land on a piece on `b` stepping by `w`, which steps
/// `after` (1) or before (0) it in the round; `None` if never.
fn collision(a: Pair, v: Pair, b: Pair, w: Pair, after: u8) -> Option<u64> {
    let late = i128::from(after);
    // a + t·v = b + (t − late)·w  ⇔  d + t·e = 0.
    let d = (
        a.0 as i128 - b.0 as i128 + late * w.0 as i128,
        a.1 as i128 - b.1 as i128 + late * w.1 as i128,
    );
    let e = (v.0 as i128 - w.0 as i128, v.1 as i128 - w.1 as i128);
    let mut t: Option<i128> = None;
    for (dk, ek) in [(d.0, e.0), (d.1, e.1)] {
        if ek == 0 {
            if dk != 0 {
                return None;
            }
        } else {
            if dk % ek != 0 {
                return None;
            }
            let tk = -dk / ek;
            if t.is_some_and(|t| t != tk) {
                return None;
            }
            t = Some(tk);
        }
    }
    match t {
        // e = 0: the same square every round, or never.
        None => Some(1),
        Some(t) if t >= 1 => u64::try_from(t).ok(),
        Some(_) => None,
    }
}
// @end loop
