// @section rays: move steps at
// ---------------------------------------------------------------------------
// Line indices
// ---------------------------------------------------------------------------

/// The four kinds of line a ray runs along; the index of `Board::lines`.
const ROWS: usize = 0;
const COLS: usize = 1;
const DIAGONALS: usize = 2;
const ANTI_DIAGONALS: usize = 3;

/// The line kind of a ray direction (each component −1, 0 or 1, not both 0).
#[inline]
fn line_of(dr: i64, dc: i64) -> usize {
    if dr == 0 {
        ROWS
    } else if dc == 0 {
        COLS
    } else if dr == dc {
        DIAGONALS
    } else {
        ANTI_DIAGONALS
    }
}

/// The (key, position) of a square in a line index: rows (row, col),
/// columns (col, row), diagonals (row − col, row), anti-diagonals
/// (row + col, row).
///
/// The diagonal keys need 65 bits; they are kept modulo 2^64 instead. Two
/// diagonals then share a key (d and d − 2^64), but their rows are disjoint
/// ranges, so a query over the rows of an in-range ray (every ray is cut at
/// the i64 edge) only ever meets squares of its own diagonal.
#[inline]
fn line_key(line: usize, row: i64, col: i64) -> (u64, i64) {
    match line {
        ROWS => (row as u64, col),
        COLS => (col as u64, row),
        DIAGONALS => (row.wrapping_sub(col) as u64, row),
        _ => (row.wrapping_add(col) as u64, row),
    }
}

/// The multiply-shift hasher of line keys (deterministic, no random seed).
#[derive(Clone, Copy, Debug, Default)]
struct LineHasher(u64);

impl Hasher for LineHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 32)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// Up to this many pieces, a line keeps its positions in a sorted vector
/// (binary search; an insertion or removal moves at most this many words);
/// beyond, in an ordered set. A set shrinking to half of it goes back.
const FEW: usize = 32;

/// The positions of the pieces on one line, ascending: most lines hold one
/// piece, kept inline; a few go to a sorted vector, many to an ordered set.
/// O(log k) per operation for k pieces (amortised: the vector's bounded
/// shifts and the conversions are O(FEW)).
#[derive(Clone, Debug)]
enum Line {
    One(i64),
    Few(Vec<i64>),
    Many(BTreeSet<i64>),
}

/// The index of one line kind: line key -> the positions on that line. A
/// line without pieces has no entry, so a query about it is one hash
/// look-up; one with k pieces answers in O(log k), whatever the number of
/// pieces elsewhere and whatever the distance.
#[derive(Clone, Debug, Default)]
struct LineIndex {
    lines: HashMap<u64, Line, BuildHasherDefault<LineHasher>>,
}

impl LineIndex {
    /// Adds position `pos` (absent) to line `key`. O(log k).
    fn insert(&mut self, key: u64, pos: i64) {
        let line = match self.lines.get_mut(&key) {
            None => {
                self.lines.insert(key, Line::One(pos));
                return;
            }
            Some(line) => line,
        };
        match line {
            Line::One(p) => {
                let (a, b) = if *p < pos { (*p, pos) } else { (pos, *p) };
                *line = Line::Few(vec![a, b]);
            }
            Line::Few(v) if v.len() < FEW => {
                let i = v.partition_point(|&x| x < pos);
                v.insert(i, pos);
            }
            Line::Few(v) => {
                let mut set: BTreeSet<i64> = v.iter().copied().collect();
                set.insert(pos);
                *line = Line::Many(set);
            }
            Line::Many(set) => {
                set.insert(pos);
            }
        }
    }

    /// Removes position `pos` from line `key`; an emptied line loses its
    /// entry. O(log k).
    fn remove(&mut self, key: u64, pos: i64) {
        let line = match self.lines.get_mut(&key) {
            None => return,
            Some(line) => line,
        };
        let shrunk = match line {
            Line::One(p) => {
                if *p == pos {
                    self.lines.remove(&key);
                }
                return;
            }
            Line::Few(v) => {
                if let Ok(i) = v.binary_search(&pos) {
                    v.remove(i);
                }
                match v.as_slice() {
                    [only] => Some(Line::One(*only)),
                    _ => None,
                }
            }
            Line::Many(set) => {
                set.remove(&pos);
                (set.len() <= FEW / 2).then(|| Line::Few(set.iter().copied().collect()))
            }
        };
        if let Some(smaller) = shrunk {
            *line = smaller;
        }
    }

    /// Moves position `from` of line `key` to `to`, when no position of the
    /// line lies between them (a legal step or slide along the line): the
    /// order is unchanged. O(log k), in place unless the line is large.
    fn shift(&mut self, key: u64, from: i64, to: i64) {
        match self.lines.get_mut(&key) {
            Some(Line::One(p)) => *p = to,
            Some(Line::Few(v)) => {
                if let Some(x) = v.binary_search(&from).ok().and_then(|i| v.get_mut(i)) {
                    *x = to;
                }
            }
            Some(Line::Many(set)) => {
                set.remove(&from);
                set.insert(to);
            }
            None => {}
        }
    }

    /// The nearest position of line `key` strictly beyond `pos`, towards
    /// larger positions if `up`, else smaller. O(1) or O(log k).
    #[inline]
    fn next(&self, key: u64, pos: i64, up: bool) -> Option<i64> {
        match self.lines.get(&key)? {
            Line::One(p) => (if up { *p > pos } else { *p < pos }).then_some(*p),
            Line::Few(v) => {
                if up {
                    v.get(v.partition_point(|&x| x <= pos)).copied()
                } else {
                    let i = v.partition_point(|&x| x < pos);
                    i.checked_sub(1).and_then(|j| v.get(j)).copied()
                }
            }
            Line::Many(set) => {
                if up {
                    set.range((std::ops::Bound::Excluded(pos), std::ops::Bound::Unbounded))
                        .next()
                        .copied()
                } else {
                    set.range(..pos).next_back().copied()
                }
            }
        }
    }
}

// @end rays

// @section steps
/// How many steps from coordinate `x` in direction `d` stay inside i64.
#[inline]
fn edge_steps(x: i64, d: i64) -> u64 {
    if d > 0 {
        i64::MAX.abs_diff(x)
    } else if d < 0 {
        x.abs_diff(i64::MIN)
    } else {
        u64::MAX
    }
}
// @end steps
