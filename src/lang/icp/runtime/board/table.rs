// @section squares
/// The deterministic hash of a square (runtime-design.md): row and col
/// times odd constants, xored; the table takes its top bits.
#[inline]
fn square_hash(row: i64, col: i64) -> u64 {
    (row as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (col as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// One entry of the occupancy table; `slot == NIL` marks an empty entry.
#[derive(Clone, Copy, Debug)]
struct Entry {
    row: i64,
    col: i64,
    slot: u32,
}

const VACANT: Entry = Entry {
    row: 0,
    col: 0,
    slot: NIL,
};

/// Occupancy, square -> piece slot: open addressing with linear probing and
/// backward-shift deletion, a power-of-two size, at most half full, never
/// shrinking. O(1) expected per operation.
#[derive(Clone, Debug)]
struct SquareTable {
    entries: Vec<Entry>,
    /// 64 − log2(entries.len()); 63 while the table is unallocated.
    shift: u32,
    len: usize,
}

impl SquareTable {
    fn new() -> SquareTable {
        SquareTable {
            entries: Vec::new(),
            shift: 63,
            len: 0,
        }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.entries.len().wrapping_sub(1)
    }

    #[inline]
    fn home(&self, row: i64, col: i64) -> usize {
        (square_hash(row, col) >> self.shift) as usize & self.mask()
    }

    // @section get
    /// The slot of the piece on (row, col), if any.
    #[inline]
    fn get(&self, row: i64, col: i64) -> Option<u32> {
        self.find(row, col).0
    }
    // @end get

    /// The slot on (row, col), if any, and the index where the probe
    /// stopped: the square's entry, or the first empty entry of its probe
    /// run (where [`SquareTable::put_at`] may store it). O(1) expected.
    #[inline]
    fn find(&self, row: i64, col: i64) -> (Option<u32>, usize) {
        let mask = self.mask();
        let mut i = self.home(row, col);
        loop {
            match self.entries.get(i) {
                Some(e) if e.slot == NIL => return (None, i),
                Some(e) if e.row == row && e.col == col => return (Some(e.slot), i),
                Some(_) => i = (i + 1) & mask,
                None => return (None, usize::MAX),
            }
        }
    }

    /// Stores (row, col) -> slot in entry `i`, the first empty entry of its
    /// probe run ([`SquareTable::find`], the table unchanged since).
    #[inline]
    fn put_at(&mut self, i: usize, row: i64, col: i64, slot: u32) {
        if let Some(e) = self.entries.get_mut(i) {
            *e = Entry { row, col, slot };
            self.len += 1;
        }
    }

    // @section squares_grow: squares die
    /// Makes room for one more entry. Fails only when memory is exhausted.
    fn reserve_one(&mut self) -> Result<(), Fault> {
        if self.len.saturating_add(1).saturating_mul(2) <= self.entries.len() {
            return Ok(());
        }
        let new_len = match self.entries.len() {
            0 => 16,
            n => n.checked_mul(2).ok_or(Fault::OutOfMemory)?,
        };
        let mut grown: Vec<Entry> = Vec::new();
        grown
            .try_reserve_exact(new_len)
            .map_err(|_| Fault::OutOfMemory)?;
        grown.resize(new_len, VACANT);
        let old = std::mem::replace(&mut self.entries, grown);
        self.shift = 64 - new_len.trailing_zeros();
        self.len = 0;
        for e in old {
            if e.slot != NIL {
                self.insert_new(e.row, e.col, e.slot);
            }
        }
        Ok(())
    }

    /// Inserts a square known to be absent; the table has room.
    fn insert_new(&mut self, row: i64, col: i64, slot: u32) {
        let (_, i) = self.find(row, col);
        self.put_at(i, row, col, slot);
    }
    // @end squares_grow

    // @section move
    /// Empties (row, col), shifting later entries of its probe run back.
    #[inline]
    fn remove(&mut self, row: i64, col: i64) {
        let mask = self.mask();
        let mut hole = self.home(row, col);
        loop {
            match self.entries.get(hole) {
                Some(e) if e.slot == NIL => return,
                Some(e) if e.row == row && e.col == col => break,
                Some(_) => hole = (hole + 1) & mask,
                None => return,
            }
        }
        let mut j = (hole + 1) & mask;
        loop {
            let e = match self.entries.get(j) {
                Some(e) if e.slot != NIL => *e,
                _ => break,
            };
            let ideal = self.home(e.row, e.col);
            // `e` may fill the hole iff the hole lies on its probe run,
            // i.e. cyclically within [ideal, j).
            if (j.wrapping_sub(ideal) & mask) >= (j.wrapping_sub(hole) & mask) {
                if let Some(h) = self.entries.get_mut(hole) {
                    *h = e;
                }
                hole = j;
            }
            j = (j + 1) & mask;
        }
        if let Some(h) = self.entries.get_mut(hole) {
            *h = VACANT;
        }
        self.len = self.len.saturating_sub(1);
    }
    // @end move
}
// @end squares
