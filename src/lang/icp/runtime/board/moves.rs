// @section board
// @end board

// @section pieces: board squares
/// One slot of the piece table. A dead slot's name is `NIL`; it is on the
/// free list through `next`.
#[derive(Clone, Copy, Debug)]
struct Piece {
    row: i64,
    col: i64,
    name: Name,
    /// Name list links (older piece = `next`); free list link when dead.
    prev: u32,
    next: u32,
    // @section king
    /// Position in its roster (`Board::roster`).
    roster_at: u32,
    // @end king
    /// [`Colour`] and [`Kind`] as numbers.
    colour: u8,
    kind: u8,
}
// @end pieces

// @section move: board pieces squares
/// A move s -> t as a legality test sees it, the board untouched: s empty,
/// t holding the mover.
#[derive(Clone, Copy, Debug)]
struct Overlay {
    sr: i64,
    sc: i64,
    tr: i64,
    tc: i64,
    // @section at
    mover: u32,
    // @end at
}
// @end move

// @section board
/// The infinite board of §3 (squares: every pair of i64) with its
/// pieces, and the commands of §4.1 to §4.4 and §4.7. A name outside
/// `0..names` ([`Board::new`]) has no pieces: it counts 0, its moves and
/// places fail.
#[derive(Clone, Debug)]
pub struct Board {
    /// Per name (`0..names`): its live pieces (§4.7).
    name_counts: Vec<u64>,
    // @section pieces
    /// Per name: its newest live piece, the head of its list (older pieces
    /// follow through `Piece::next`); `NIL` for none.
    heads: Vec<u32>,
    pieces: Vec<Piece>,
    free: u32,
    // @end pieces
    // @section squares
    squares: SquareTable,
    // @end squares
    // @section runs
    live: u64,
    // @end runs
    // @section king
    /// Live kings per colour (swap-remove on capture).
    kings: [Vec<u32>; 2],
    // @end king
    // @section check_sliders
    /// Live rooks, bishops and queens per colour.
    sliders: [Vec<u32>; 2],
    // @end check_sliders
    // @section check
    /// Live pieces per colour and kind.
    counts: [[u64; 6]; 2],
    // @end check
    // @section rays
    /// Line indices (rows, cols, diagonals, anti-diagonals), `None` until
    /// first needed.
    lines: [Option<LineIndex>; 4],
    any_line: bool,
    // @end rays
}

impl Board {
    /// An empty board for a program with `names` interned names.
    pub fn new(names: usize) -> Board {
        Board {
            name_counts: vec![0; names],
            // @section pieces
            heads: vec![NIL; names],
            pieces: Vec::new(),
            free: NIL,
            // @end pieces
            // @section squares
            squares: SquareTable::new(),
            // @end squares
            // @section runs
            live: 0,
            // @end runs
            // @section king
            kings: [Vec::new(), Vec::new()],
            // @end king
            // @section check_sliders
            sliders: [Vec::new(), Vec::new()],
            // @end check_sliders
            // @section check
            counts: [[0; 6]; 2],
            // @end check
            // @section rays
            lines: [None, None, None, None],
            any_line: false,
            // @end rays
        }
    }

    // @section interpreter
    /// The number of interned names this board was made for.
    pub fn names(&self) -> usize {
        self.name_counts.len()
    }

    /// The number of live pieces on the board, of every name and colour.
    pub fn live_pieces(&self) -> u64 {
        self.live
    }
    // @end interpreter

    // @section place: board pieces squares squares_grow move heads get
    /// §4.1 Place: puts a new piece (colour, kind, name) on (row, col).
    ///
    /// `Ok(false)` (nothing changes) if the square is occupied. Check does
    /// not matter. The new piece is its name's newest (§3 serial order).
    /// Errors: [`Fault::OutOfMemory`] (§8), the board unchanged.
    pub fn place(
        &mut self,
        name: Name,
        colour: Colour,
        kind: Kind,
        row: i64,
        col: i64,
    ) -> Result<bool, Fault> {
        let name_at = name as usize;
        if name_at >= self.name_counts.len() || self.squares.get(row, col).is_some() {
            return Ok(false);
        }
        // Reserve everything first so that a memory fault changes nothing.
        self.squares.reserve_one()?;
        let (colour, kind) = (colour as u8, kind as u8);
        // @section king
        let mut roster_at = NIL;
        if let Some(roster) = self.roster(colour, kind) {
            roster.try_reserve(1).map_err(|_| Fault::OutOfMemory)?;
            roster_at = u32::try_from(roster.len()).map_err(|_| Fault::OutOfMemory)?;
        }
        // @end king
        let old_head = self.head_of(name);
        let piece = Piece {
            row,
            col,
            name,
            prev: NIL,
            next: old_head,
            // @section king
            roster_at,
            // @end king
            colour,
            kind,
        };
        let slot = if self.free != NIL {
            let slot = self.free;
            match self.pieces.get_mut(slot as usize) {
                Some(p) => {
                    self.free = p.next;
                    *p = piece;
                }
                None => return Err(Fault::OutOfMemory),
            }
            slot
        } else {
            if self.pieces.len() >= MAX_SLOTS {
                return Err(Fault::OutOfMemory);
            }
            self.pieces.try_reserve(1).map_err(|_| Fault::OutOfMemory)?;
            self.pieces.push(piece);
            (self.pieces.len() - 1) as u32
        };
        // Mutations below cannot fail.
        if let Some(p) = self.pieces.get_mut(old_head as usize) {
            p.prev = slot;
        }
        if let Some(head) = self.heads.get_mut(name_at) {
            *head = slot;
        }
        if let Some(count) = self.name_counts.get_mut(name_at) {
            *count += 1;
        }
        // @section king
        if let Some(roster) = self.roster(colour, kind) {
            roster.push(slot);
        }
        // @end king
        // @section check
        self.counts[colour as usize][kind as usize] += 1;
        // @end check
        // @section runs
        self.live += 1;
        // @end runs
        self.squares.insert_new(row, col, slot);
        // @section rays
        if self.any_line {
            self.index_insert(row, col);
        }
        // @end rays
        Ok(true)
    }
    // @end place

    // @section occupy: board squares squares_grow get
    /// §4.1 Place, in a program that moves no piece: colour and kind then
    /// change nothing, so the square is only marked occupied (no piece
    /// slot, `OCCUPIED`) and the name counted. As [`Board::place`]:
    /// `Ok(true)` if placed, `Ok(false)` if the square is occupied or the
    /// name is outside `0..names`; [`Fault::OutOfMemory`] (§8) when the
    /// table cannot grow. A board is used with `place` or with `occupy`,
    /// never both.
    pub fn occupy(&mut self, name: Name, row: i64, col: i64) -> Result<bool, Fault> {
        let name_at = name as usize;
        if name_at >= self.name_counts.len() || self.squares.get(row, col).is_some() {
            return Ok(false);
        }
        self.squares.reserve_one()?;
        self.squares.insert_new(row, col, OCCUPIED);
        if let Some(count) = self.name_counts.get_mut(name_at) {
            *count += 1;
        }
        Ok(true)
    }
    // @end occupy

    // @section move_squares: move get
    /// §4.2 Move by squares: moves the piece on (r1, c1), of either colour,
    /// to (r2, c2) if the move is legal (§7), capturing what stands there.
    ///
    /// `Ok(false)` if (r1, c1) is empty or the move is illegal; nothing
    /// changes then. Never returns an error today (moves allocate nothing
    /// fallible); the `Result` keeps every command's shape alike.
    pub fn move_squares(&mut self, r1: i64, c1: i64, r2: i64, c2: i64) -> Result<bool, Fault> {
        match self.squares.get(r1, c1) {
            Some(slot) => Ok(self.try_move(slot, r2, c2)),
            None => Ok(false),
        }
    }
    // @end move_squares

    // @section move_name_to: move heads
    /// §4.3 Move by name, absolute: the live pieces called `name` are tried
    /// newest first; the first whose move to (row, col) is legal (§7) moves.
    ///
    /// `Ok(false)` if none can (or none exists); nothing changes then.
    /// Never returns an error today (see [`Board::move_squares`]).
    pub fn move_name_to(&mut self, name: Name, row: i64, col: i64) -> Result<bool, Fault> {
        let mut slot = self.head_of(name);
        while let Some(p) = self.pieces.get(slot as usize) {
            let next = p.next;
            if self.try_move(slot, row, col) {
                return Ok(true);
            }
            slot = next;
        }
        Ok(false)
    }
    // @end move_name_to

    // @section move_name_by: move heads
    /// §4.4 Move by name, relative: as §4.3, each candidate on (r, c)
    /// aiming at (r + drow, c + dcol); one whose target leaves i64 cannot
    /// move. `Ok(false)` (nothing changes) if none can. Never an error.
    #[inline]
    pub fn move_name_by(&mut self, name: Name, drow: i64, dcol: i64) -> Result<bool, Fault> {
        let mut slot = self.head_of(name);
        while let Some(p) = self.pieces.get(slot as usize) {
            let next = p.next;
            let target = p.row.checked_add(drow).zip(p.col.checked_add(dcol));
            if target.is_some_and(|(tr, tc)| self.try_move(slot, tr, tc)) {
                return Ok(true);
            }
            slot = next;
        }
        Ok(false)
    }
    // @end move_name_by

    // @section slide: move move_name_by
    /// §4.4 again and again: a slide loop (`L. name;dr,dc?L`), summarised
    /// by the optimiser. Moves the pieces called `name` by
    /// (drow, dcol) exactly as that many [`Board::move_name_by`] calls
    /// would, until one fails or `most` have succeeded; returns how many
    /// succeeded. When one piece has the name, its colour has no king
    /// (§7 rule 4 cannot apply) and the step is one square along a line
    /// (a rook, bishop or queen, or a pawn's push), a run of steps costs
    /// one ray query (O(log k)) per piece it meets, whatever the distance;
    /// else each step is made as `move_name_by` makes it.
    #[inline]
    pub fn slide(&mut self, name: Name, drow: i64, dcol: i64, most: u64) -> Result<u64, Fault> {
        // @section slide_fast
        if let Some((made, _)) = self.slide_run(name, drow, dcol, most) {
            return Ok(made);
        }
        // @end slide_fast
        // Step by step, as the loop itself would (its cost, no more).
        let mut moves = 0u64;
        while moves < most && self.move_name_by(name, drow, dcol)? {
            moves += 1;
        }
        Ok(moves)
    }

    // @end slide

    // @section slide_fast: slide runs steps
    /// [`Board::slide`]'s fast path: `None` when it does not apply; else
    /// the moves made (at most `most`: fewer only when the next one fails)
    /// and whether the next one fails.
    #[inline(never)]
    fn slide_run(&mut self, name: Name, dr: i64, dc: i64, most: u64) -> Option<(u64, bool)> {
        let slot = self.alone(name).filter(|_| most > 0)?;
        let p = *self.pieces.get(slot as usize)?;
        // @section king
        if !self.kings.get(p.colour as usize)?.is_empty() {
            return None;
        }
        // @end king
        // @section slide_knight
        let jump = matches!((dr.unsigned_abs(), dc.unsigned_abs()), (1, 2) | (2, 1));
        if p.kind == KNIGHT && jump {
            return (self.live <= KNIGHT_SCAN).then(|| self.knight_run(slot, (dr, dc), most));
        }
        // @end slide_knight
        // @section slide_line
        if (dr, dc) != (0, 0) && dr.unsigned_abs() <= 1 && dc.unsigned_abs() <= 1 {
            return self.line_run(slot, p, (dr, dc), most);
        }
        // @end slide_line
        None
    }

    /// Moves piece `slot` from `from` by `k` steps of `dir` in one go,
    /// capturing what stands on the target (the caller knows the squares
    /// between are empty and the move legal).
    fn relocate(&mut self, slot: u32, from: (i64, i64), k: u64, dir: (i64, i64)) {
        if k == 0 {
            return;
        }
        let step = |x: i64, d: i64| (x as i128 + d as i128 * k as i128) as i64;
        let (tr, tc) = (step(from.0, dir.0), step(from.1, dir.1));
        let (captured, free_at) = self.squares.find(tr, tc);
        let ov = Overlay {
            sr: from.0,
            sc: from.1,
            tr,
            tc,
            // @section at
            mover: slot,
            // @end at
        };
        self.perform(slot, &ov, captured, free_at);
    }
    // @end slide_fast

    // @section slide_line: slide_fast rays
    /// A slide along a line (one piece of the name, no king of its colour,
    /// a unit step along a line of the piece: a rook, bishop or queen, or
    /// a pawn's push): one ray query (O(log k)) per piece it meets,
    /// whatever the distance. `None` when the step fits none of its lines.
    fn line_run(
        &mut self,
        slot: u32,
        p: Piece,
        (dr, dc): (i64, i64),
        most: u64,
    ) -> Option<(u64, bool)> {
        let (fits, push) = match p.kind {
            // @section pawn
            PAWN => (dc == 0 && dr == 1 - 2 * i64::from(p.colour), true),
            // @end pawn
            // @section sliders
            kind if lines_of(kind) != 0 => {
                let line = if dr == 0 || dc == 0 { 1 } else { 2 };
                (lines_of(kind) & line != 0, false)
            }
            // @end sliders
            _ => (false, false),
        };
        if !fits {
            return None;
        }
        let mut moves = 0u64;
        while moves < most {
            let q = *self.pieces.get(slot as usize)?;
            let (r, c) = (q.row, q.col);
            let left = most - moves;
            let ov = Overlay {
                sr: r,
                sc: c,
                tr: r,
                tc: c,
                // @section at
                mover: slot,
                // @end at
            };
            let edge = edge_steps(r, dr).min(edge_steps(c, dc));
            let hit = self.first_on_ray((r, c), (dr, dc), left, &ov);
            let Some(h) = hit.and_then(|h| self.pieces.get(h as usize).copied()) else {
                // Nothing within reach: run to it, or to the i64 edge.
                let k = left.min(edge);
                self.relocate(slot, (r, c), k, (dr, dc));
                moves += k;
                if k < left {
                    return Some((moves, true));
                }
                continue;
            };
            let k = h.row.abs_diff(r).max(h.col.abs_diff(c));
            if h.colour != p.colour && !push {
                // Empty squares, then the capture: k moves.
                self.relocate(slot, (r, c), k, (dr, dc));
                moves += k;
            } else {
                // Blocked just before it (own piece, or any piece in a push).
                self.relocate(slot, (r, c), k - 1, (dr, dc));
                return Some((moves + k - 1, true));
            }
        }
        Some((moves, false))
    }
    // @end slide_line

    // @section slide_knight: slide_fast runs knight steps knight_scan
    /// A knight's slide (no king of its colour): its squares are s + k·v,
    /// on no line the indices know, so the pieces on them are found by
    /// looking at every piece (at most [`KNIGHT_SCAN`]); the moves made
    /// (at most `most`) and whether the next one fails.
    fn knight_run(&mut self, slot: u32, (dr, dc): (i64, i64), most: u64) -> (u64, bool) {
        let Some(p) = self.pieces.get(slot as usize).copied() else {
            return (0, true);
        };
        let (r, c) = (p.row, p.col);
        // How many jumps stay inside i64.
        let reach =
            (edge_steps(r, dr) / dr.unsigned_abs()).min(edge_steps(c, dc) / dc.unsigned_abs());
        let limit = most.min(reach);
        // The pieces on the ray, by jump count: own ones stop it.
        let mut on: Vec<(u64, bool)> = self
            .pieces
            .iter()
            .filter(|q| q.name != NIL)
            .filter_map(|q| {
                let (er, ec) = (q.row as i128 - r as i128, q.col as i128 - c as i128);
                let k = er / dr as i128;
                let on_ray = k > 0 && er % dr as i128 == 0 && ec == k * dc as i128;
                on_ray.then_some((k as u64, q.colour == p.colour))
            })
            .collect();
        on.sort_unstable();
        // Jumps made so far, and where they left the knight.
        let mut at = 0u64;
        let here = |at: u64| {
            let step = |x: i64, d: i64| (x as i128 + d as i128 * at as i128) as i64;
            (step(r, dr), step(c, dc))
        };
        for (k, own) in on {
            if k > limit {
                break;
            }
            if own {
                self.relocate(slot, here(at), k - 1 - at, (dr, dc));
                return (k - 1, true);
            }
            // The jumps before it land on empty squares; this one takes it.
            self.relocate(slot, here(at), k - at, (dr, dc));
            at = k;
        }
        self.relocate(slot, here(at), limit - at, (dr, dc));
        (limit, limit < most)
    }

    // @end slide_knight

    // @section loop: move move_name_by runs rays steps knight_scan
    /// A loop of statements summarised by the optimiser: runs
    /// `steps` round from member `start` exactly as that many statements
    /// would run, until a [`Step::Move`] fails (`left`: control leaves by
    /// that member's failure target) or `most` statements have run (an
    /// execution of a slide loop's statement is one, its failed one
    /// included).
    ///
    /// Each round is run step by step (slides by [`Board::slide`]); after
    /// a round, as many further rounds as can be proven identical to it
    /// are made in one go: every piece the loop names is alone with its
    /// name and of a colour with no king, the round captured nothing, the
    /// slid pieces ended where they began and each moved piece one step
    /// on (one square along a line of its kind, a pawn's push or a
    /// knight's jump), and no moved piece comes onto a square a slide of
    /// the round looked at, onto another piece, or onto the square of a
    /// moved piece in its way. Costs O(log k) per such run of rounds,
    /// whatever their number. Never fails: moves allocate nothing.
    pub fn run_loop(&mut self, steps: &[Step], start: usize, most: u64) -> LoopEnd {
        let mut executed = 0u64;
        let mut at = start;
        let mut round: Option<Round> = None;
        loop {
            if at == start {
                if let Some(r) = round.take() {
                    executed += self.skip_rounds(&r, executed, most);
                }
                round = self.begin_round(steps, start, executed);
            }
            let Some(&step) = steps.get(at) else {
                // No such member: nothing to run (the optimiser makes none).
                return LoopEnd {
                    executed,
                    at,
                    left: true,
                };
            };
            if executed >= most {
                return LoopEnd {
                    executed,
                    at,
                    left: false,
                };
            }
            match step {
                // @section loop_nothing
                Step::Nothing => executed += 1,
                // @end loop_nothing
                // @section loop_slide
                Step::Slide(name, dr, dc) => {
                    let from = self.pieces.get(self.head_of(name) as usize);
                    let from = from.map(|p| (p.row, p.col));
                    let left = most - executed;
                    let made = self.slide(name, dr, dc, left).unwrap_or(0);
                    if made >= left {
                        return LoopEnd {
                            executed: most,
                            at,
                            left: false,
                        };
                    }
                    executed += made + 1;
                    if let Some(r) = round.as_mut() {
                        match from.and_then(|from| Segment::of_slide(from, (dr, dc), made)) {
                            Some(seg) => r.look(seg),
                            None => r.blind = true,
                        }
                    }
                }
                // @end loop_slide
                Step::Move(name, dr, dc) => {
                    executed += 1;
                    if !matches!(self.move_name_by(name, dr, dc), Ok(true)) {
                        return LoopEnd {
                            executed,
                            at,
                            left: true,
                        };
                    }
                }
            }
            at = if at + 1 < steps.len() { at + 1 } else { 0 };
        }
    }

    /// [`Board::run_loop`] with no budget, for generated programs: the
    /// member whose move failed (control leaves by its failure target).
    /// A loop that never ends never returns, as the statements would not.
    #[inline(never)]
    pub fn loop_exit(&mut self, steps: &[Step], start: usize) -> usize {
        let mut at = start;
        loop {
            let end = self.run_loop(steps, at, u64::MAX);
            if end.left {
                return end.at;
            }
            at = end.at;
        }
    }

    /// The state a round of a loop starts from, when its rounds may be
    /// skipped ([`Board::skip_rounds`]): `None` when a name of the loop has
    /// not exactly one piece, a piece is of a colour with a king, or a
    /// piece is moved by two members or moved and slid.
    fn begin_round(&self, steps: &[Step], start: usize, executed: u64) -> Option<Round> {
        let mut r = Round {
            executed,
            live: self.live,
            pieces: [NO_PIECE; MAX_LOOP],
            npieces: 0,
            looked: [NO_SEGMENT; MAX_LOOP],
            nlooked: 0,
            blind: false,
        };
        let j = steps.len();
        if j > MAX_LOOP {
            return None;
        }
        for order in 0..j {
            let (name, by) = match steps.get((start + order) % j)? {
                Step::Move(name, dr, dc) => (*name, Some((*dr, *dc))),
                // @section loop_slide
                Step::Slide(name, _, _) => (*name, None),
                // @end loop_slide
                // @section loop_nothing
                Step::Nothing => continue,
                // @end loop_nothing
            };
            let slot = self.alone(name)?;
            let p = self.pieces.get(slot as usize)?;
            // @section king
            if !self.kings.get(p.colour as usize)?.is_empty() {
                return None;
            }
            // @end king
            if let Some(seen) = r.pieces().iter().find(|q| q.slot == slot) {
                if by.is_some() || seen.by.is_some() {
                    return None;
                }
                continue;
            }
            if by.is_some_and(|v| !self.steps_freely(p, v)) {
                return None;
            }
            // At most one piece a member, and at most MAX_LOOP members.
            *r.pieces.get_mut(r.npieces)? = LoopPiece {
                slot,
                row: p.row,
                col: p.col,
                by,
                order,
            };
            r.npieces += 1;
        }
        Some(r)
    }

    /// Whether piece `p` moving by `v` succeeds whenever its target is
    /// empty (no king of its colour assumed): one square along a line of
    /// its kind, a pawn's push, or a knight's jump (while few pieces are
    /// live, see [`KNIGHT_SCAN`]).
    fn steps_freely(&self, p: &Piece, (dr, dc): (i64, i64)) -> bool {
        match p.kind {
            // @section pawn
            PAWN => dc == 0 && dr == 1 - 2 * i64::from(p.colour),
            // @end pawn
            // @section knight
            KNIGHT => {
                let jump = matches!((dr.unsigned_abs(), dc.unsigned_abs()), (1, 2) | (2, 1));
                jump && self.live <= KNIGHT_SCAN
            }
            // @end knight
            // @section sliders
            kind if lines_of(kind) != 0 => {
                let (ar, ac) = (dr.unsigned_abs(), dc.unsigned_abs());
                let unit = (ar, ac) != (0, 0) && ar <= 1 && ac <= 1;
                let line = if dr == 0 || dc == 0 { 1 } else { 2 };
                unit && lines_of(kind) & line != 0
            }
            // @end sliders
            _ => false,
        }
    }

    /// After the round that began at `r` ended (control back at its first
    /// member, `executed` statements run in all): makes in one go as many
    /// further rounds as are certain to repeat it, within `most`
    /// statements in all, and returns the statements they count (0 when
    /// none can be proven; see [`Board::run_loop`]).
    fn skip_rounds(&mut self, r: &Round, executed: u64, most: u64) -> u64 {
        let per = executed - r.executed;
        if self.live != r.live || per == 0 || r.blind {
            return 0;
        }
        let mut rounds = (most - executed) / per;
        for lp in r.pieces() {
            let Some(p) = self.pieces.get(lp.slot as usize).filter(|p| p.name != NIL) else {
                return 0;
            };
            let (dr, dc) = lp.by.unwrap_or((0, 0));
            let expected = (lp.row.checked_add(dr), lp.col.checked_add(dc));
            if expected != (Some(p.row), Some(p.col)) {
                return 0;
            }
        }
        // The moved pieces, where they stand now, and their steps.
        let square = |b: &Board, slot: u32| b.pieces.get(slot as usize).map(|p| (p.row, p.col));
        let moved = || r.pieces().iter().filter_map(|lp| lp.by.map(|v| (lp, v)));
        for (lp, v) in moved() {
            if rounds == 0 {
                return 0;
            }
            let Some(at) = square(self, lp.slot) else {
                return 0;
            };
            rounds = rounds.min(self.free_run(lp.slot, at, v, rounds, r.pieces()));
            // Where it stood during the round, and will stand: off every
            // square a slide looked at.
            for seg in r.looked() {
                match seg.first_meeting(at, v) {
                    Some(s) if s <= 0 => return 0,
                    Some(s) => rounds = rounds.min(u64::try_from(s - 1).unwrap_or(u64::MAX)),
                    None => {}
                }
            }
            // Off the square of every other moved piece when it moves.
            for (lq, w) in moved() {
                let Some(other) = square(self, lq.slot).filter(|_| lq.slot != lp.slot) else {
                    continue;
                };
                let after = u8::from(lq.order > lp.order);
                if let Some(t) = collision(at, v, other, w, after) {
                    rounds = rounds.min(t - 1);
                }
            }
        }
        if rounds == 0 {
            return 0;
        }
        // Lift every moved piece, then put each down: one may land where
        // another stood (the pieces keep their squares until put down).
        for (lp, _) in moved() {
            if let Some(at) = square(self, lp.slot) {
                self.squares.remove(at.0, at.1);
                if self.any_line {
                    self.index_remove(at.0, at.1);
                }
            }
        }
        for (lp, (dr, dc)) in moved() {
            let Some(at) = square(self, lp.slot) else {
                continue;
            };
            let k = rounds as i128;
            let to = |x: i64, d: i64| (x as i128 + d as i128 * k) as i64;
            let (tr, tc) = (to(at.0, dr), to(at.1, dc));
            let (_, free_at) = self.squares.find(tr, tc);
            self.squares.put_at(free_at, tr, tc, lp.slot);
            if self.any_line {
                self.index_insert(tr, tc);
            }
            if let Some(p) = self.pieces.get_mut(lp.slot as usize) {
                p.row = tr;
                p.col = tc;
            }
        }
        rounds * per
    }

    /// How many steps of `v` piece `slot` on `at` can make onto empty
    /// squares, at most `limit`: up to the first piece in its way that
    /// the loop does not name (`ours`), or the i64 edge.
    fn free_run(
        &mut self,
        slot: u32,
        at: (i64, i64),
        v: (i64, i64),
        limit: u64,
        ours: &[LoopPiece],
    ) -> u64 {
        let (dr, dc) = v;
        let ours = |s: u32| ours.iter().any(|q| q.slot == s);
        let knight = dr.abs() + dc.abs() == 3;
        if knight {
            let reach = (edge_steps(at.0, dr) / dr.unsigned_abs())
                .min(edge_steps(at.1, dc) / dc.unsigned_abs());
            let mut run = limit.min(reach);
            for (s, q) in self.pieces.iter().enumerate() {
                if q.name == NIL || ours(s as u32) {
                    continue;
                }
                let (er, ec) = (q.row as i128 - at.0 as i128, q.col as i128 - at.1 as i128);
                let k = er / dr as i128;
                if k > 0 && er % dr as i128 == 0 && ec == k * dc as i128 {
                    run = run.min(u64::try_from(k - 1).unwrap_or(u64::MAX));
                }
            }
            return run;
        }
        let limit = limit.min(edge_steps(at.0, dr)).min(edge_steps(at.1, dc));
        let ov = Overlay {
            sr: at.0,
            sc: at.1,
            tr: at.0,
            tc: at.1,
            // @section at
            mover: slot,
            // @end at
        };
        let mut from = at;
        let mut walked = 0u64;
        while walked < limit {
            let Some(h) = self.first_on_ray(from, v, limit - walked, &ov) else {
                return limit;
            };
            let Some(q) = self.pieces.get(h as usize) else {
                return limit;
            };
            let d = q.row.abs_diff(at.0).max(q.col.abs_diff(at.1));
            if !ours(h) {
                return d - 1;
            }
            from = (q.row, q.col);
            walked = d;
        }
        limit
    }
    // @end loop

    // @section count: board
    /// §4.7 Count: the number of live pieces called `name` (0 for a name
    /// never placed or outside `0..names`).
    #[inline]
    pub fn count(&self, name: Name) -> u64 {
        self.name_counts.get(name as usize).copied().unwrap_or(0)
    }
    // @end count

    // @section interpreter
    /// The squares of the live pieces called `name`, newest first (the
    /// order §4.3 tries them in); empty for a name never placed. For
    /// `icp2c run --trace`: costs one step per piece of the name.
    pub fn squares_of(&self, name: Name) -> Vec<(i64, i64)> {
        let mut squares = Vec::new();
        let mut slot = self.head_of(name);
        while let Some(p) = self.pieces.get(slot as usize) {
            squares.push((p.row, p.col));
            slot = p.next;
        }
        squares
    }

    /// Every live piece as (row, col, colour, kind, name), in no promised
    /// order. For `icp2c run --board`: costs one step per piece slot.
    pub fn pieces(&self) -> Vec<(i64, i64, Colour, Kind, Name)> {
        self.pieces
            .iter()
            .filter(|p| p.name != NIL)
            .map(|p| (p.row, p.col, colour_of(p.colour), kind_of(p.kind), p.name))
            .collect()
    }

    /// The piece on (row, col), if any: its colour, kind and name (§3).
    pub fn piece_at(&self, row: i64, col: i64) -> Option<(Colour, Kind, Name)> {
        let slot = self.squares.get(row, col)?;
        let p = self.pieces.get(slot as usize)?;
        Some((colour_of(p.colour), kind_of(p.kind), p.name))
    }
    // @end interpreter

    // @section move
    // -- internals --------------------------------------------------------
    // @end move

    // @section heads: pieces
    /// The newest live piece called `name`; `NIL` for none.
    #[inline]
    fn head_of(&self, name: Name) -> u32 {
        self.heads.get(name as usize).copied().unwrap_or(NIL)
    }
    // @end heads

    // @section runs: heads
    /// The piece called `name` when it is its name's only live piece: the
    /// condition of the fast paths of slides and loops.
    fn alone(&self, name: Name) -> Option<u32> {
        let count = self.name_counts.get(name as usize).copied();
        (count == Some(1)).then(|| self.head_of(name))
    }
    // @end runs

    // @section at: move get
    /// The slot on (row, col) as the overlay sees it.
    #[inline]
    fn at(&self, row: i64, col: i64, ov: &Overlay) -> Option<u32> {
        if row == ov.tr && col == ov.tc {
            Some(ov.mover)
        } else if row == ov.sr && col == ov.sc {
            None
        } else {
            self.squares.get(row, col)
        }
    }
    // @end at

    // @section check_near: check
    /// Whether the overlay shows a piece of `colour` and `kind` on
    /// `square + offset` (false if that square leaves i64).
    #[inline]
    fn holds(&self, at: (i64, i64), offset: (i64, i64), piece: (u8, u8), ov: &Overlay) -> bool {
        let (r, c) = (at.0.checked_add(offset.0), at.1.checked_add(offset.1));
        let (Some(r), Some(c)) = (r, c) else {
            return false;
        };
        match self.at(r, c, ov).and_then(|s| self.pieces.get(s as usize)) {
            Some(p) => (p.colour, p.kind) == piece,
            None => false,
        }
    }

    /// Whether `colour` has a live piece of `kind`.
    fn enemy_has(&self, colour: u8, kind: u8) -> bool {
        let counts = self.counts.get(usize::from(colour));
        counts
            .and_then(|c| c.get(usize::from(kind)))
            .is_some_and(|&n| n > 0)
    }
    // @end check_near

    // @section move

    /// §7: tries to move the piece in `slot` to (tr, tc); moves it and
    /// returns true iff legal.
    #[inline]
    fn try_move(&mut self, slot: u32, tr: i64, tc: i64) -> bool {
        let p = match self.pieces.get(slot as usize) {
            Some(p) => *p,
            None => return false,
        };
        // Rule 1: t != s.
        let (adr, adc) = (p.row.abs_diff(tr), p.col.abs_diff(tc));
        if adr == 0 && adc == 0 {
            return false;
        }
        // Rule 2: t empty or holding the other colour.
        let (captured, free_at) = self.squares.find(tr, tc);
        if let Some(v) = captured {
            match self.pieces.get(v as usize) {
                Some(q) if q.colour != p.colour => {}
                _ => return false,
            }
        }
        // Rule 3: geometry.
        let ov = Overlay {
            sr: p.row,
            sc: p.col,
            tr,
            tc,
            // @section at
            mover: slot,
            // @end at
        };
        let fits = match p.kind {
            KING => adr <= 1 && adc <= 1,
            // @section knight
            KNIGHT => (adr == 1 && adc == 2) || (adr == 2 && adc == 1),
            // @end knight
            // @section pawn
            PAWN => {
                let forward = (tr > p.row) == (p.colour == 0);
                adr == 1 && forward && (adc == 0) == captured.is_none() && adc <= 1
            }
            // @end pawn
            // @section sliders
            kind if lines_of(kind) != 0 => {
                // Along one of its lines, every square strictly between empty.
                let line = if adr == 0 || adc == 0 {
                    1
                } else {
                    u8::from(adr == adc) * 2
                };
                lines_of(kind) & line != 0 && self.clear_between(&ov, adr.max(adc))
            }
            // @end sliders
            _ => false,
        };
        if !fits {
            return false;
        }
        // @section check
        // Rule 4: no king of the mover's colour attacked afterwards.
        let colour = usize::from(p.colour);
        if self.kings.get(colour).is_some_and(|k| !k.is_empty())
            && self.own_king_attacked(p.colour, &ov)
        {
            return false;
        }
        // @end check
        self.perform(slot, &ov, captured, free_at);
        true
    }

    // @end move

    // @section sliders
    /// Whether every square strictly between s and t (`steps` apart on a
    /// line) is empty: a ray query unless they are next to each other.
    fn clear_between(&mut self, ov: &Overlay, steps: u64) -> bool {
        let dir = |s: i64, t: i64| (t as i128 - s as i128).signum() as i64;
        let dir = (dir(ov.sr, ov.tr), dir(ov.sc, ov.tc));
        steps <= 1
            || self
                .first_on_ray((ov.sr, ov.sc), dir, steps - 1, ov)
                .is_none()
    }
    // @end sliders

    // @section rays

    /// The slot of the first piece the overlay shows along the ray from
    /// `from` = (row, col) in direction `dir` = (dr, dc), within `limit`
    /// steps and the i64 edge. Until the line index of the ray's kind is
    /// built, the first PROBE squares are probed in the hash table and only
    /// a ray reaching further builds it; once built, the index alone
    /// answers: O(1) for a line without pieces, O(log k) for k pieces on
    /// the line, whatever the distance.
    #[inline]
    fn first_on_ray(
        &mut self,
        from: (i64, i64),
        dir: (i64, i64),
        limit: u64,
        ov: &Overlay,
    ) -> Option<u32> {
        let ((row, col), (dr, dc)) = (from, dir);
        let limit = limit.min(edge_steps(row, dr)).min(edge_steps(col, dc));
        let line = line_of(dr, dc);
        if matches!(self.lines.get(line), Some(None)) {
            let (mut r, mut c) = (row, col);
            for _ in 0..limit.min(PROBE) {
                // In range: at most `limit` steps, bounded by the edge.
                r = r.wrapping_add(dr);
                c = c.wrapping_add(dc);
                if let Some(slot) = self.at(r, c, ov) {
                    return Some(slot);
                }
            }
            if limit <= PROBE {
                return None;
            }
            self.ensure_line(line);
        }
        self.indexed_on_ray(from, dir, limit, ov)
    }

    /// `first_on_ray` from the (built) line index: steps 1 ..= limit
    /// (limit already within the edge).
    fn indexed_on_ray(
        &self,
        from: (i64, i64),
        dir: (i64, i64),
        limit: u64,
        ov: &Overlay,
    ) -> Option<u32> {
        let ((row, col), (dr, dc)) = (from, dir);
        let line = line_of(dr, dc);
        let index = self.lines.get(line)?.as_ref()?;
        let (key, p0) = line_key(line, row, col);
        let up = if line == ROWS { dc > 0 } else { dr > 0 };
        let mut found = index.next(key, p0, up);
        // The vacated square does not count: look past it.
        let (skey, spos) = line_key(line, ov.sr, ov.sc);
        if skey == key && found == Some(spos) {
            found = index.next(key, spos, up);
        }
        let steps_to = |pos: i64| -> u64 {
            if up {
                pos.abs_diff(p0)
            } else {
                p0.abs_diff(pos)
            }
        };
        let mut best = found.map(steps_to);
        // The mover's target square, which the index does not hold yet.
        let (tkey, tpos) = line_key(line, ov.tr, ov.tc);
        if tkey == key && (if up { tpos > p0 } else { tpos < p0 }) {
            let steps = steps_to(tpos);
            if best.is_none_or(|b| b > steps) {
                best = Some(steps);
            }
        }
        let steps = best.filter(|&s| s <= limit)?;
        let r = i64::try_from(row as i128 + dr as i128 * steps as i128).ok()?;
        let c = i64::try_from(col as i128 + dc as i128 * steps as i128).ok()?;
        self.at(r, c, ov)
    }

    /// Builds the line index of `line` from every live piece, if absent.
    fn ensure_line(&mut self, line: usize) {
        let absent = matches!(self.lines.get(line), Some(None));
        if !absent {
            return;
        }
        let mut index = LineIndex::default();
        for p in self.pieces.iter().filter(|p| p.name != NIL) {
            let (key, pos) = line_key(line, p.row, p.col);
            index.insert(key, pos);
        }
        if let Some(entry) = self.lines.get_mut(line) {
            *entry = Some(index);
        }
        self.any_line = true;
    }

    /// A new square, in every built index.
    fn index_insert(&mut self, row: i64, col: i64) {
        for (line, index) in self.lines.iter_mut().enumerate() {
            if let Some(index) = index {
                let (key, pos) = line_key(line, row, col);
                index.insert(key, pos);
            }
        }
    }

    /// A move from s to t, in every built index. A capture keeps t
    /// occupied: only s leaves. Else, on the line through s and t (none for
    /// a knight's jump) no piece lies between them, so the mover keeps its
    /// rank and only its position changes.
    fn index_move(&mut self, ov: &Overlay, capture: bool) {
        let (dr, dc) = (ov.tr as i128 - ov.sr as i128, ov.tc as i128 - ov.sc as i128);
        let along = (dr == 0 || dc == 0 || dr.abs() == dc.abs())
            .then(|| line_of(dr.signum() as i64, dc.signum() as i64));
        for (line, index) in self.lines.iter_mut().enumerate() {
            if let Some(index) = index {
                let (skey, spos) = line_key(line, ov.sr, ov.sc);
                let (tkey, tpos) = line_key(line, ov.tr, ov.tc);
                if capture {
                    index.remove(skey, spos);
                } else if along == Some(line) {
                    index.shift(skey, spos, tpos);
                } else {
                    index.remove(skey, spos);
                    index.insert(tkey, tpos);
                }
            }
        }
    }
    // @end rays

    // @section loop
    /// A square gone, from every built index.
    fn index_remove(&mut self, row: i64, col: i64) {
        for (line, index) in self.lines.iter_mut().enumerate() {
            if let Some(index) = index {
                let (key, pos) = line_key(line, row, col);
                index.remove(key, pos);
            }
        }
    }
    // @end loop

    // @section king
    /// The roster a piece of this colour and kind is listed in: kings;
    /// rooks, bishops and queens for the check test; none else.
    #[inline]
    fn roster(&mut self, colour: u8, kind: u8) -> Option<&mut Vec<u32>> {
        let colour = usize::from(colour);
        // @section check_sliders
        if lines_of(kind) != 0 {
            return self.sliders.get_mut(colour);
        }
        // @end check_sliders
        if kind == KING {
            self.kings.get_mut(colour)
        } else {
            None
        }
    }
    // @end king

    // @section check: king at
    /// Rule 4 of §7: whether, in the overlay's position, some king of
    /// `colour` is attacked by a piece of the other colour.
    fn own_king_attacked(&mut self, colour: u8, ov: &Overlay) -> bool {
        let mut i = 0;
        while let Some(&king) = self.kings.get(usize::from(colour)).and_then(|k| k.get(i)) {
            i += 1;
            let (kr, kc) = if king == ov.mover {
                (ov.tr, ov.tc)
            } else {
                match self.pieces.get(king as usize) {
                    Some(p) => (p.row, p.col),
                    None => continue,
                }
            };
            if self.square_attacked(kr, kc, colour ^ 1, ov) {
                return true;
            }
        }
        false
    }

    /// Whether a piece of colour `enemy` could capture on (kr, kc) in the
    /// overlay's position; each part runs only if the enemy has the kind.
    fn square_attacked(&mut self, kr: i64, kc: i64, enemy: u8, ov: &Overlay) -> bool {
        // @section check_knight: check_near knight
        if self.enemy_has(enemy, KNIGHT) {
            for (i, j) in (-2..=2).flat_map(|i| (-2..=2).map(move |j| (i, j))) {
                if i * i + j * j == 5 && self.holds((kr, kc), (i, j), (enemy, KNIGHT), ov) {
                    return true;
                }
            }
        }
        // @end check_knight
        // @section check_king: check_near
        if self.enemy_has(enemy, KING) {
            for (i, j) in (-1..=1).flat_map(|i| (-1..=1).map(move |j| (i, j))) {
                if (i, j) != (0, 0) && self.holds((kr, kc), (i, j), (enemy, KING), ov) {
                    return true;
                }
            }
        }
        // @end check_king
        // @section check_pawn: check_near pawn
        // A white pawn attacks from one row below, a black one from above.
        let from = 2 * i64::from(enemy) - 1;
        if self.enemy_has(enemy, PAWN)
            && (self.holds((kr, kc), (from, -1), (enemy, PAWN), ov)
                || self.holds((kr, kc), (from, 1), (enemy, PAWN), ov))
        {
            return true;
        }
        // @end check_pawn
        // @section check_sliders: sliders
        let rays = self.slider_rays(kr, kc, enemy);
        for (i, dir) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ]
        .into_iter()
        .enumerate()
        {
            let line = if i < 4 { 1 } else { 2 };
            if rays & (1 << i) != 0 && self.slider_on_ray((kr, kc), dir, enemy, line, ov) {
                return true;
            }
        }
        // @end check_sliders
        false
    }
    // @end check

    // @section check_sliders
    /// The rays from (kr, kc) worth asking about, as bits: bit i for the
    /// i-th direction of `square_attacked` (4 orthogonal, 4 diagonal).
    /// With at most `SLIDER_SCAN` enemy sliders, only the rays that point
    /// at one of them along a line it moves on; otherwise every ray. The
    /// ray query itself decides.
    #[inline]
    fn slider_rays(&self, kr: i64, kc: i64, enemy: u8) -> u8 {
        let Some(sliders) = self.sliders.get(usize::from(enemy)) else {
            return 0;
        };
        if sliders.len() > SLIDER_SCAN {
            return 0xFF;
        }
        let mut rays = 0u8;
        for p in sliders.iter().filter_map(|&s| self.pieces.get(s as usize)) {
            // A slider captured by this move may still be listed: asking
            // its ray anyway is harmless, the overlay answers exactly.
            let dr = p.row as i128 - kr as i128;
            let dc = p.col as i128 - kc as i128;
            let lines = lines_of(p.kind);
            rays |= match (dr.signum(), dc.signum()) {
                (0, 1) if lines & 1 != 0 => 1,
                (0, -1) if lines & 1 != 0 => 2,
                (1, 0) if lines & 1 != 0 => 4,
                (-1, 0) if lines & 1 != 0 => 8,
                (1, 1) if lines & 2 != 0 && dr == dc => 0x10,
                (1, -1) if lines & 2 != 0 && dr == -dc => 0x20,
                (-1, 1) if lines & 2 != 0 && dr == -dc => 0x40,
                (-1, -1) if lines & 2 != 0 && dr == dc => 0x80,
                _ => 0,
            };
        }
        rays
    }

    /// Whether the first piece along the ray is an enemy moving along
    /// `line` (1 orthogonal, 2 diagonal).
    #[inline]
    fn slider_on_ray(
        &mut self,
        from: (i64, i64),
        dir: (i64, i64),
        enemy: u8,
        line: u8,
        ov: &Overlay,
    ) -> bool {
        match self
            .first_on_ray(from, dir, u64::MAX, ov)
            .and_then(|s| self.pieces.get(s as usize))
        {
            Some(p) => p.colour == enemy && lines_of(p.kind) & line != 0,
            None => false,
        }
    }
    // @end check_sliders

    // @section move
    /// Carries out a legal move: the captured piece (if any) leaves every
    /// table, the mover goes from s to t.
    #[inline]
    fn perform(&mut self, mover: u32, ov: &Overlay, captured: Option<u32>, free_at: usize) {
        // @section rays
        if self.any_line {
            self.index_move(ov, captured.is_some());
        }
        // @end rays
        match captured {
            Some(victim) => {
                // The target's entry is `free_at`: the mover takes it.
                if let Some(e) = self.squares.entries.get_mut(free_at) {
                    e.slot = mover;
                }
                self.bury(victim);
            }
            // Target first (entry `free_at` is the end of its probe run,
            // found by the legality test; the table is at most half full,
            // so both entries fit at once), then the source.
            None => self.squares.put_at(free_at, ov.tr, ov.tc, mover),
        }
        self.squares.remove(ov.sr, ov.sc);
        if let Some(p) = self.pieces.get_mut(mover as usize) {
            p.row = ov.tr;
            p.col = ov.tc;
        }
    }

    /// Removes a captured piece from its name list, the counts and the
    /// rosters, and frees its slot. Its square is left to the caller.
    fn bury(&mut self, victim: u32) {
        let p = match self.pieces.get(victim as usize) {
            Some(p) => *p,
            None => return,
        };
        if let Some(q) = self.pieces.get_mut(p.prev as usize) {
            q.next = p.next;
        } else if let Some(head) = self.heads.get_mut(p.name as usize) {
            *head = p.next;
        }
        if let Some(q) = self.pieces.get_mut(p.next as usize) {
            q.prev = p.prev;
        }
        if let Some(count) = self.name_counts.get_mut(p.name as usize) {
            *count = count.saturating_sub(1);
        }
        // @section check
        let counts = self.counts.get_mut(usize::from(p.colour));
        if let Some(count) = counts.and_then(|c| c.get_mut(usize::from(p.kind))) {
            *count = count.saturating_sub(1);
        }
        // @end check
        // @section runs
        self.live = self.live.saturating_sub(1);
        // @end runs
        // @section king
        let mut moved = NIL;
        if let Some(roster) = self.roster(p.colour, p.kind) {
            let at = p.roster_at as usize;
            if at < roster.len() {
                roster.swap_remove(at);
                moved = roster.get(at).copied().unwrap_or(NIL);
            }
        }
        if let Some(q) = self.pieces.get_mut(moved as usize) {
            q.roster_at = p.roster_at;
        }
        // @end king
        // The slot goes to the free list.
        if let Some(q) = self.pieces.get_mut(victim as usize) {
            *q = Piece {
                name: NIL,
                prev: NIL,
                next: self.free,
                ..p
            };
        }
        self.free = victim;
    }
    // @end move
}
// @end board
