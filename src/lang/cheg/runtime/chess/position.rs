impl Position {
    fn empty() -> Position {
        Position {
            board: [0; 128],
            occupied: [0; 2],
            kinds: [0; 8],
            kings: [0; 2],
            side: Colour::White,
            castling: 0,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
            placement_key: 0,
        }
    }

    fn at(&self, s88: u8) -> u8 {
        // The mask keeps the index below 128: never out of range.
        self.board[usize::from(s88 & 0x7f)]
    }

    fn put(&mut self, s88: u8, code: u8) {
        let old = self.at(s88);
        self.board[usize::from(s88 & 0x7f)] = code;
        self.placement_key ^= zobrist_piece(old, s88) ^ zobrist_piece(code, s88);
        let b = bit(s88);
        self.occupied[0] &= !b;
        self.occupied[1] &= !b;
        self.kinds[usize::from(old & 7)] &= !b;
        if code != 0 {
            self.occupied[colour_of(code).index()] |= b;
            self.kinds[usize::from(code & 7)] |= b;
            if code & 7 == KING {
                self.kings[colour_of(code).index()] = s88;
            }
        }
    }

    /// Reads and validates a FEN (§7.4, §11.18): 4 to 6 fields, one king per
    /// side, the side not to move not in check, no pawn on the first or last
    /// rank; castling rights that no longer fit the king and rook are
    /// dropped. Error: a one-line message saying what is wrong.
    ///
    /// Also checked: the board field has 8 ranks of 8 squares with the piece
    /// letters `KQRBNPkqrbnp`; the side is `w` or `b`; the castling field is
    /// `-` or letters from `KQkq` without repetition; the en-passant field
    /// is `-` or a square of the 6th rank (White to move) or the 3rd (Black
    /// to move); the counters are non-negative integers. An en-passant square
    /// without a pawn that could have just moved past it is kept in the FEN
    /// but allows no capture.
    pub fn from_fen(fen: &str) -> Result<Position, String> {
        Position::read_fen(fen).map_err(|message| {
            message
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect()
        })
    }

    fn read_fen(fen: &str) -> Result<Position, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(format!(
                "bad FEN: {} fields, expected 4 to 6 (board, side, castling, en passant, [halfmove, fullmove])",
                fields.len()
            ));
        }
        let mut pos = Position::empty();
        let board = fields.first().copied().unwrap_or("");
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!(
                "bad FEN: the board has {} ranks, expected 8",
                ranks.len()
            ));
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 7 - (row as u8);
            let mut file: u8 = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(format!("bad FEN: digit {c} in rank {}", rank + 1));
                    }
                    file = file.saturating_add(d as u8);
                } else {
                    let code = match c {
                        'K' => KING,
                        'Q' => QUEEN,
                        'R' => ROOK,
                        'B' => BISHOP,
                        'N' => KNIGHT,
                        'P' => PAWN,
                        'k' => KING | BLACK_BIT,
                        'q' => QUEEN | BLACK_BIT,
                        'r' => ROOK | BLACK_BIT,
                        'b' => BISHOP | BLACK_BIT,
                        'n' => KNIGHT | BLACK_BIT,
                        'p' => PAWN | BLACK_BIT,
                        _ => {
                            return Err(format!(
                                "bad FEN: unexpected character '{c}' in the board"
                            ));
                        }
                    };
                    if file >= 8 {
                        return Err(format!(
                            "bad FEN: rank {} has more than 8 squares",
                            rank + 1
                        ));
                    }
                    if code & 7 == PAWN && (rank == 0 || rank == 7) {
                        return Err(format!(
                            "bad FEN: a pawn on rank {} (pawns cannot stand on the first or last rank)",
                            rank + 1
                        ));
                    }
                    if code & 7 == KING && pos.count_code(code) > 0 {
                        return Err(format!(
                            "bad FEN: more than one {} king",
                            if code & BLACK_BIT != 0 {
                                "black"
                            } else {
                                "white"
                            }
                        ));
                    }
                    pos.put(rank * 16 + file, code);
                    file += 1;
                }
            }
            if file != 8 {
                return Err(format!(
                    "bad FEN: rank {} has {} squares, expected 8",
                    rank + 1,
                    file
                ));
            }
        }
        if pos.count_code(KING) != 1 {
            return Err("bad FEN: no white king".to_string());
        }
        if pos.count_code(KING | BLACK_BIT) != 1 {
            return Err("bad FEN: no black king".to_string());
        }
        pos.side = match fields.get(1).copied() {
            Some("w") => Colour::White,
            Some("b") => Colour::Black,
            Some(other) => {
                return Err(format!(
                    "bad FEN: side to move '{other}', expected 'w' or 'b'"
                ));
            }
            None => Colour::White,
        };
        let castling = fields.get(2).copied().unwrap_or("-");
        if castling != "-" {
            for c in castling.chars() {
                let right = match c {
                    'K' => WHITE_KINGSIDE,
                    'Q' => WHITE_QUEENSIDE,
                    'k' => BLACK_KINGSIDE,
                    'q' => BLACK_QUEENSIDE,
                    _ => {
                        return Err(format!(
                            "bad FEN: castling field '{castling}', expected '-' or letters from KQkq"
                        ));
                    }
                };
                if pos.castling & right != 0 {
                    return Err(format!("bad FEN: castling right '{c}' given twice"));
                }
                pos.castling |= right;
            }
        }
        // §11.18: rights that no longer fit the king and rook are dropped.
        let fits = [
            (WHITE_KINGSIDE, 0x04, KING, 0x07, ROOK),
            (WHITE_QUEENSIDE, 0x04, KING, 0x00, ROOK),
            (
                BLACK_KINGSIDE,
                0x74,
                KING | BLACK_BIT,
                0x77,
                ROOK | BLACK_BIT,
            ),
            (
                BLACK_QUEENSIDE,
                0x74,
                KING | BLACK_BIT,
                0x70,
                ROOK | BLACK_BIT,
            ),
        ];
        for (right, king_sq, king, rook_sq, rook) in fits {
            if pos.at(king_sq) != king || pos.at(rook_sq) != rook {
                pos.castling &= !right;
            }
        }
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let square = parse_square(ep).ok_or_else(|| {
                format!("bad FEN: en-passant field '{ep}', expected '-' or a square")
            })?;
            let wanted = match pos.side {
                Colour::White => 5,
                Colour::Black => 2,
            };
            if square / 8 != wanted {
                return Err(format!(
                    "bad FEN: en-passant square {ep} is not on the {} rank",
                    if wanted == 5 { "6th" } else { "3rd" }
                ));
            }
            pos.en_passant = Some(to88(square));
        }
        pos.halfmove = match fields.get(4) {
            Some(text) => fen_counter(text, "halfmove clock")?,
            None => 0,
        };
        pos.fullmove = match fields.get(5) {
            Some(text) => fen_counter(text, "fullmove number")?,
            None => 1,
        };
        let them = pos.side.other();
        if pos.attacked(pos.kings[them.index()], pos.side, None) {
            return Err(format!(
                "bad FEN: the side not to move ({}) is in check",
                if them == Colour::White {
                    "white"
                } else {
                    "black"
                }
            ));
        }
        Ok(pos)
    }

    fn count_code(&self, code: u8) -> u32 {
        let mut n = 0;
        let mut bits = self.occupied[colour_of(code).index()];
        while bits != 0 {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if self.at(to88(sq)) == code {
                n += 1;
            }
        }
        n
    }

    /// The start position.
    pub fn start() -> Position {
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .unwrap_or_else(|_| Position::empty())
    }

    /// The position as a 6-field FEN.
    pub fn to_fen(&self) -> String {
        let mut text = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                let code = self.at(rank * 16 + file);
                if code == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    text.push(char::from(b'0' + empty));
                    empty = 0;
                }
                text.push(piece_char(code));
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text.push(' ');
        text.push(match self.side {
            Colour::White => 'w',
            Colour::Black => 'b',
        });
        text.push(' ');
        if self.castling == 0 {
            text.push('-');
        } else {
            for (right, c) in [
                (WHITE_KINGSIDE, 'K'),
                (WHITE_QUEENSIDE, 'Q'),
                (BLACK_KINGSIDE, 'k'),
                (BLACK_QUEENSIDE, 'q'),
            ] {
                if self.castling & right != 0 {
                    text.push(c);
                }
            }
        }
        text.push(' ');
        match self.en_passant {
            Some(s) => text.push_str(&square_name(from88(s))),
            None => text.push('-'),
        }
        text.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        text
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Colour {
        self.side
    }

    /// What stands on `square` (`None` also for a number outside `0..64`).
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        if square >= 64 {
            return None;
        }
        let code = self.at(to88(square));
        Some(Piece {
            colour: colour_of(code),
            kind: Kind::from_code(code)?,
            square,
        })
    }

    // @section interpreter
    /// The rank of `square` counted from the side to move's first rank, 0–7
    /// (§3: `RANK` minus 1).
    pub fn relative_rank(&self, square: Square) -> u8 {
        let rank = (square & 63) / 8;
        match self.side {
            Colour::White => rank,
            Colour::Black => 7 - rank,
        }
    }
    // @end interpreter

    // @section piece_variable
    /// The pieces of one kind and colour in variable order (§3, §11.1):
    /// file h first, then g … a; within a file the lower rank first, ranks
    /// counted from the side to move's first rank.
    fn kind_in_order(&self, colour: Colour, kind: Kind) -> Vec<Piece> {
        let mask = self.kinds[usize::from(kind.code())] & self.occupied[colour.index()];
        let mut squares = [0u8; 64];
        let n = self.variable_order(mask, &mut squares);
        squares
            .iter()
            .take(n)
            .map(|&square| Piece {
                colour,
                kind,
                square,
            })
            .collect()
    }
    // @end piece_variable

    /// Writes the squares of `mask` in variable order (§3, §11.1): file h
    /// first, then g … a; within a file the lower rank first, ranks counted
    /// from the side to move's first rank. Returns how many.
    fn variable_order(&self, mask: u64, out: &mut [u8; 64]) -> usize {
        const FILE_A: u64 = 0x0101_0101_0101_0101;
        let mut n = 0;
        for file in (0..8u8).rev() {
            if (mask >> file) & FILE_A == 0 {
                continue;
            }
            for i in 0..8u8 {
                let rank = match self.side {
                    Colour::White => i,
                    Colour::Black => 7 - i,
                };
                let square = rank * 8 + file;
                if mask & (1u64 << square) != 0 {
                    if let Some(slot) = out.get_mut(n) {
                        *slot = square;
                    }
                    n += 1;
                }
            }
        }
        n.min(64)
    }

    /// For each square, the position of its piece of `colour` in the §7.2
    /// order (`u8::MAX` for other squares): the pieces with a variable in
    /// variable order, kind by kind, then the others in square order.
    fn order_ranks(&self, colour: Colour) -> [u8; 64] {
        let mut ranks = [u8::MAX; 64];
        let mut next = 0u8;
        let mut extra = 0u64;
        let mut squares = [0u8; 64];
        for kind in Kind::ALL {
            let mask = self.kinds[usize::from(kind.code())] & self.occupied[colour.index()];
            let n = self.variable_order(mask, &mut squares);
            for (i, &square) in squares.iter().take(n).enumerate() {
                if i < usize::from(kind.variable_count()) {
                    if let Some(slot) = ranks.get_mut(usize::from(square & 63)) {
                        *slot = next;
                    }
                    next = next.saturating_add(1);
                } else {
                    extra |= 1u64 << (square & 63);
                }
            }
        }
        while extra != 0 {
            let square = extra.trailing_zeros() as usize;
            extra &= extra - 1;
            if let Some(slot) = ranks.get_mut(square) {
                *slot = next;
            }
            next = next.saturating_add(1);
        }
        ranks
    }

    // @section interpreter
    /// The pieces of `colour` in the order of their variables (§3, §7.2,
    /// §11.1): kinds K, Q, R, B, N, P; within a kind file h first, then g …
    /// a, within a file the lower rank first, ranks counted from the side to
    /// move's first rank. All of them, including those beyond their kind's
    /// variables (those come last, in square order a1, b1, …, h8).
    /// `variable_counts` says how many variables each kind has: K 1, Q 1,
    /// R 2, B 2, N 2, P 8; `piece_variable(colour, kind, index)` gives the
    /// piece bound to that variable, or `None`.
    pub fn pieces_in_order(&self, colour: Colour) -> Vec<Piece> {
        let ranks = self.order_ranks(colour);
        let mut pieces: Vec<(u8, Piece)> = Vec::with_capacity(16);
        for (square, &rank) in ranks.iter().enumerate() {
            if rank != u8::MAX {
                if let Some(piece) = self.piece_at(square as u8) {
                    pieces.push((rank, piece));
                }
            }
        }
        pieces.sort_unstable_by_key(|&(rank, _)| rank);
        pieces.into_iter().map(|(_, piece)| piece).collect()
    }
    // @end interpreter

    // @section piece_variable
    /// The piece bound to the piece variable (colour, kind, 0-based index),
    /// e.g. (mover, Rook, 1) is `WR2` (§3).
    pub fn piece_variable(&self, colour: Colour, kind: Kind, index: u8) -> Option<Piece> {
        if index >= kind.variable_count() {
            return None;
        }
        self.kind_in_order(colour, kind)
            .get(usize::from(index))
            .copied()
    }
    // @end piece_variable

    /// The side to move's legal moves in the order of §7.2.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.generate(&mut moves);
        let rank_of = self.order_ranks(self.side);
        // Each move as one integer whose order is the §7.2 order: (piece's
        // rank, destination, promotion Q R B N) above the origin square. The
        // keys are unique, so an unstable sort gives one order.
        let mut keys: Vec<u32> = moves
            .iter()
            .map(|m| {
                let piece = rank_of
                    .get(usize::from(m.from & 63))
                    .copied()
                    .unwrap_or(u8::MAX);
                let promotion: u32 = match m.promotion {
                    None => 0,
                    Some(Kind::Queen) => 1,
                    Some(Kind::Rook) => 2,
                    Some(Kind::Bishop) => 3,
                    Some(_) => 4,
                };
                u32::from(piece) << 24
                    | u32::from(m.to & 63) << 16
                    | promotion << 8
                    | u32::from(m.from & 63)
            })
            .collect();
        keys.sort_unstable();
        moves.clear();
        moves.extend(keys.iter().map(|&key| Move {
            from: (key & 63) as u8,
            to: ((key >> 16) & 63) as u8,
            promotion: match (key >> 8) & 7 {
                1 => Some(Kind::Queen),
                2 => Some(Kind::Rook),
                3 => Some(Kind::Bishop),
                4 => Some(Kind::Knight),
                _ => None,
            },
        }));
        moves
    }

    /// The side to move's legal moves in generation order (not §7.2), for
    /// counting and for searches that reorder anyway. Appends to `out`.
    pub fn generate(&self, out: &mut Vec<Move>) {
        let r = self.restrictions();
        self.generate_with(&r, out);
    }

    /// Number of legal moves (perft 1), without building the list.
    pub fn count_legal(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate_with(&self.restrictions(), &mut counter);
        counter.0
    }

    /// The position after `mv` (assumed legal here; a move from an empty
    /// square or off the board gives the position unchanged).
    pub fn play(&self, mv: Move) -> Position {
        let mut next = self.clone();
        if mv.from >= 64 || mv.to >= 64 || mv.from == mv.to {
            return next;
        }
        let from = to88(mv.from);
        let to = to88(mv.to);
        let code = self.at(from);
        if code == 0 {
            return next;
        }
        let captured = self.at(to);
        let kind = code & 7;
        let black = code & BLACK_BIT;
        next.en_passant = None;
        next.halfmove = if kind == PAWN || captured != 0 {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if kind == PAWN {
            let diff = i16::from(to) - i16::from(from);
            if captured == 0 && (diff == 15 || diff == 17 || diff == -15 || diff == -17) {
                // En passant: the captured pawn stands beside the origin.
                let victim = (from & 0xf0) | (to & 0x0f);
                next.put(victim, 0);
            }
            if diff == 32 || diff == -32 {
                next.en_passant = Some(((i16::from(from) + diff / 2) & 0x7f) as u8);
            }
        }
        next.put(from, 0);
        let promotes = kind == PAWN && (to >> 4 == 0 || to >> 4 == 7);
        let placed = match mv.promotion {
            Some(promo) if promotes => promo.code() | black,
            None if promotes => QUEEN | black,
            _ => code,
        };
        next.put(to, placed);
        if kind == KING {
            let diff = i16::from(to) - i16::from(from);
            if diff == 2 {
                let rook = next.at(from + 3);
                next.put(from + 3, 0);
                next.put(from + 1, rook);
            } else if diff == -2 && from >= 4 {
                let rook = next.at(from - 4);
                next.put(from - 4, 0);
                next.put(from - 1, rook);
            }
        }
        next.castling &= castle_keep(from) & castle_keep(to);
        if self.side == Colour::Black {
            next.fullmove = self.fullmove.saturating_add(1);
        }
        next.side = self.side.other();
        next
    }

    /// True if the side to move's king is attacked.
    pub fn in_check(&self) -> bool {
        self.attacked(self.kings[self.side.index()], self.side.other(), None)
    }

    /// The squares of the pieces giving check to the side to move, in
    /// square order (for the UCI `d` command).
    pub fn checkers(&self) -> Vec<Square> {
        let them = self.side.other();
        let king = self.kings[self.side.index()];
        let mut found = Vec::new();
        let mut bits = self.occupied[them.index()];
        while bits != 0 {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if self.piece_attacks(to88(sq), king) {
                found.push(sq);
            }
        }
        found
    }

    /// True if the piece on `from` (0x88) attacks `target` (0x88).
    fn piece_attacks(&self, from: u8, target: u8) -> bool {
        let code = self.at(from);
        let diff = i16::from(target) - i16::from(from);
        match code & 7 {
            PAWN => {
                if code & BLACK_BIT == 0 {
                    diff == 15 || diff == 17
                } else {
                    diff == -15 || diff == -17
                }
            }
            KNIGHT => KNIGHT_STEPS.contains(&diff),
            KING => KING_STEPS.contains(&diff),
            QUEEN | ROOK | BISHOP => {
                let steps: &[i16] = match code & 7 {
                    ROOK => &ROOK_STEPS,
                    BISHOP => &BISHOP_STEPS,
                    _ => &KING_STEPS,
                };
                for &step in steps {
                    let mut s = from;
                    while let Some(t) = step88(s, step) {
                        if t == target {
                            return true;
                        }
                        if self.at(t) != 0 {
                            break;
                        }
                        s = t;
                    }
                }
                false
            }
            _ => false,
        }
    }

    /// True if `target` (0x88) is attacked by a piece of `by`, treating the
    /// square `ignore` (0x88) as empty.
    fn attacked(&self, target: u8, by: Colour, ignore: Option<u8>) -> bool {
        let them = self.occupied[by.index()];
        let t64 = from88(target);
        let pawns = match by {
            Colour::White => entry(&BLACK_PAWN_ATTACKS, t64),
            Colour::Black => entry(&WHITE_PAWN_ATTACKS, t64),
        };
        if pawns & self.kinds[usize::from(PAWN)] & them != 0
            || entry(&KNIGHT_ATTACKS, t64) & self.kinds[usize::from(KNIGHT)] & them != 0
            || entry(&KING_ATTACKS, t64) & self.kinds[usize::from(KING)] & them != 0
        {
            return true;
        }
        let queens = self.kinds[usize::from(QUEEN)];
        let straight = (self.kinds[usize::from(ROOK)] | queens) & them;
        let diagonal = (self.kinds[usize::from(BISHOP)] | queens) & them;
        for (d, step) in KING_STEPS.into_iter().enumerate() {
            let orthogonal = step == -16 || step == 16 || step == -1 || step == 1;
            let candidates = if orthogonal { straight } else { diagonal };
            if RAYS.get(d).map_or(0, |rays| entry(rays, t64)) & candidates == 0 {
                continue;
            }
            let mut s = target;
            while let Some(t) = step88(s, step) {
                if Some(t) != ignore && self.at(t) != 0 {
                    if candidates & bit(t) != 0 {
                        return true;
                    }
                    break;
                }
                s = t;
            }
        }
        false
    }

    /// One scan from the side to move's king: checkers and pins. Rays with
    /// no enemy slider of the right kind on them are not walked.
    fn restrictions(&self) -> Restrictions {
        let us = self.side;
        let them = self.occupied[us.other().index()];
        let king = self.kings[us.index()];
        let k64 = from88(king);
        let mut r = Restrictions {
            checkers: 0,
            target: 0,
            pinned: 0,
            pins: [(0, 0); 8],
            pin_count: 0,
        };
        let pawn_attacks = match us {
            Colour::White => entry(&WHITE_PAWN_ATTACKS, k64),
            Colour::Black => entry(&BLACK_PAWN_ATTACKS, k64),
        };
        let leapers = (pawn_attacks & self.kinds[usize::from(PAWN)]
            | entry(&KNIGHT_ATTACKS, k64) & self.kinds[usize::from(KNIGHT)])
            & them;
        r.checkers = leapers.count_ones();
        r.target = leapers;
        let queens = self.kinds[usize::from(QUEEN)];
        let straight = (self.kinds[usize::from(ROOK)] | queens) & them;
        let diagonal = (self.kinds[usize::from(BISHOP)] | queens) & them;
        for (d, step) in KING_STEPS.into_iter().enumerate() {
            let orthogonal = step == -16 || step == 16 || step == -1 || step == 1;
            let candidates = if orthogonal { straight } else { diagonal };
            if RAYS.get(d).map_or(0, |rays| entry(rays, k64)) & candidates == 0 {
                continue;
            }
            let mut line = 0u64;
            let mut own: Option<u8> = None;
            let mut s = king;
            while let Some(t) = step88(s, step) {
                let b = bit(t);
                line |= b;
                if self.at(t) != 0 {
                    if them & b != 0 {
                        if candidates & b != 0 {
                            match own {
                                None => {
                                    r.checkers += 1;
                                    r.target |= line;
                                }
                                Some(p) => {
                                    r.pinned |= bit(p);
                                    if let Some(slot) = r.pins.get_mut(r.pin_count) {
                                        *slot = (p, line);
                                        r.pin_count += 1;
                                    }
                                }
                            }
                        }
                        break;
                    }
                    if own.is_some() {
                        break;
                    }
                    own = Some(t);
                }
                s = t;
            }
        }
        if r.checkers == 0 {
            r.target = u64::MAX;
        }
        r
    }

    /// Appends the legal moves, in generation order.
    fn generate_with<S: MoveSink>(&self, r: &Restrictions, out: &mut S) {
        let us = self.side;
        let them = us.other();
        let king = self.kings[us.index()];
        let own = self.occupied[us.index()];
        // King moves: the destination must not be attacked with the king
        // lifted off the board.
        let mut bits = entry(&KING_ATTACKS, from88(king)) & !own;
        while bits != 0 {
            let to = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if !self.attacked(to88(to), them, Some(king)) {
                out.add(Move {
                    from: from88(king),
                    to,
                    promotion: None,
                });
            }
        }
        if r.checkers >= 2 {
            return;
        }
        if r.checkers == 0 {
            self.castles(out);
        }
        // Kind by kind, so the loop body does not branch on the kind.
        self.pawns_in_bulk(r, own, out);
        let kinds: [(u8, &[i16]); 4] = [
            (KNIGHT, &[]),
            (BISHOP, &BISHOP_STEPS),
            (ROOK, &ROOK_STEPS),
            (QUEEN, &KING_STEPS),
        ];
        for (kind, steps) in kinds {
            let mut bits = self.kinds[usize::from(kind)] & own;
            while bits != 0 {
                let sq = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let from = to88(sq);
                let allowed = if r.pinned & (1u64 << sq) != 0 {
                    r.target & r.pin_line(from)
                } else {
                    r.target
                };
                let targets = match kind {
                    KNIGHT => entry(&KNIGHT_ATTACKS, sq) & !own,
                    _ => self.slide_targets(from, steps, own),
                };
                out.add_targets(sq, targets & allowed);
            }
        }
    }

    fn castles<S: MoveSink>(&self, out: &mut S) {
        let (base, kingside, queenside) = match self.side {
            Colour::White => (0x00u8, WHITE_KINGSIDE, WHITE_QUEENSIDE),
            Colour::Black => (0x70u8, BLACK_KINGSIDE, BLACK_QUEENSIDE),
        };
        let them = self.side.other();
        let king = base + 4;
        if self.kings[self.side.index()] != king {
            return;
        }
        if self.castling & kingside != 0
            && self.at(base + 5) == 0
            && self.at(base + 6) == 0
            && !self.attacked(base + 5, them, None)
            && !self.attacked(base + 6, them, None)
        {
            out.add(Move {
                from: from88(king),
                to: from88(base + 6),
                promotion: None,
            });
        }
        if self.castling & queenside != 0
            && self.at(base + 1) == 0
            && self.at(base + 2) == 0
            && self.at(base + 3) == 0
            && !self.attacked(base + 3, them, None)
            && !self.attacked(base + 2, them, None)
        {
            out.add(Move {
                from: from88(king),
                to: from88(base + 2),
                promotion: None,
            });
        }
    }

    /// The squares a slider on `from` (0x88) reaches along `steps`: empty
    /// squares and the first enemy piece of each ray (`own` is its side).
    fn slide_targets(&self, from: u8, steps: &[i16], own: u64) -> u64 {
        let mut targets = 0u64;
        for &step in steps {
            let mut s = from;
            while let Some(t) = step88(s, step) {
                targets |= bit(t);
                if self.at(t) != 0 {
                    break;
                }
                s = t;
            }
        }
        targets & !own
    }

    /// Pawn moves: the pawns that are not pinned all at once by shifting
    /// masks, en passant and the pinned pawns one by one.
    fn pawns_in_bulk<S: MoveSink>(&self, r: &Restrictions, own: u64, out: &mut S) {
        const FILE_A: u64 = 0x0101_0101_0101_0101;
        const FILE_H: u64 = FILE_A << 7;
        const RANK_1: u64 = 0xff;
        const RANK_8: u64 = RANK_1 << 56;
        let pawns = self.kinds[usize::from(PAWN)] & own;
        let enemy = self.occupied[self.side.other().index()];
        let empty = !(self.occupied[0] | self.occupied[1]);
        let free = pawns & !r.pinned;
        let target = r.target;
        // (single pushes, double pushes, captures toward a, toward h, last rank)
        let (push, double, left, right, last, ahead) = match self.side {
            Colour::White => {
                let push = (free << 8) & empty;
                let double = ((push & (RANK_1 << 16)) << 8) & empty;
                let left = ((free & !FILE_A) << 7) & enemy;
                let right = ((free & !FILE_H) << 9) & enemy;
                (push, double, left, right, RANK_8, [8u8, 16, 7, 9])
            }
            Colour::Black => {
                let push = (free >> 8) & empty;
                let double = ((push & (RANK_8 >> 16)) >> 8) & empty;
                let left = ((free & !FILE_A) >> 9) & enemy;
                let right = ((free & !FILE_H) >> 7) & enemy;
                // Deltas as wrapping u8: to − from = −8, −16, −9, −7.
                (push, double, left, right, RANK_1, [248u8, 240, 247, 249])
            }
        };
        for (mask, delta) in [push, double, left, right].into_iter().zip(ahead) {
            let mask = mask & target;
            out.add_pawn_targets(mask & !last, delta, false);
            out.add_pawn_targets(mask & last, delta, true);
        }
        if let Some(ep) = self.en_passant {
            let attackers = match self.side {
                Colour::White => entry(&BLACK_PAWN_ATTACKS, from88(ep)),
                Colour::Black => entry(&WHITE_PAWN_ATTACKS, from88(ep)),
            };
            let mut bits = attackers & free;
            while bits != 0 {
                let sq = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                if self.en_passant_legal(to88(sq), ep) {
                    out.add(Move {
                        from: sq,
                        to: from88(ep),
                        promotion: None,
                    });
                }
            }
        }
        let mut bits = pawns & r.pinned;
        while bits != 0 {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let from = to88(sq);
            self.pawn_moves(from, r.target & r.pin_line(from), out);
        }
    }

    fn pawn_moves<S: MoveSink>(&self, from: u8, allowed: u64, out: &mut S) {
        let (forward, start_rank, last_rank, cb_them) = match self.side {
            Colour::White => (16i16, 1u8, 7u8, BLACK_BIT),
            Colour::Black => (-16i16, 6u8, 0u8, 0),
        };
        let add = |to: u8, out: &mut S| {
            if to >> 4 == last_rank {
                for kind in PROMOTIONS {
                    out.add(Move {
                        from: from88(from),
                        to: from88(to),
                        promotion: Some(kind),
                    });
                }
            } else {
                out.add(Move {
                    from: from88(from),
                    to: from88(to),
                    promotion: None,
                });
            }
        };
        if let Some(t) = step88(from, forward) {
            if self.at(t) == 0 {
                if allowed & bit(t) != 0 {
                    add(t, out);
                }
                if from >> 4 == start_rank {
                    if let Some(t2) = step88(t, forward) {
                        if self.at(t2) == 0 && allowed & bit(t2) != 0 {
                            add(t2, out);
                        }
                    }
                }
            }
        }
        for side_step in [-1i16, 1] {
            if let Some(t) = step88(from, forward + side_step) {
                let code = self.at(t);
                if code != 0 {
                    if code & BLACK_BIT == cb_them && allowed & bit(t) != 0 {
                        add(t, out);
                    }
                } else if Some(t) == self.en_passant {
                    let mv = Move {
                        from: from88(from),
                        to: from88(t),
                        promotion: None,
                    };
                    if self.en_passant_legal(from, t) {
                        out.add(mv);
                    }
                }
            }
        }
    }

    /// En passant from `from` to `to` (0x88): `to` must be empty and the
    /// captured pawn stand behind it (a FEN may name an en-passant square
    /// that does not fit); legality is tested by making the move.
    fn en_passant_legal(&self, from: u8, to: u8) -> bool {
        let victim = (from & 0xf0) | (to & 0x0f);
        let pawn_them = PAWN | colour_bit(self.side.other());
        if self.at(victim) != pawn_them || self.at(to) != 0 {
            return false;
        }
        let next = self.play(Move {
            from: from88(from),
            to: from88(to),
            promotion: None,
        });
        !next.attacked(next.kings[self.side.index()], self.side.other(), None)
    }

    /// True if `mv` captures (en passant included; §11.5: the destination
    /// holds a piece of the other colour than the moving piece, or a pawn
    /// moves diagonally to the en-passant square).
    pub fn is_capture(&self, mv: Move) -> bool {
        if mv.from >= 64 || mv.to >= 64 {
            return false;
        }
        let code = self.at(to88(mv.from));
        if code == 0 {
            return false;
        }
        let target = self.at(to88(mv.to));
        if target != 0 {
            return target & BLACK_BIT != code & BLACK_BIT;
        }
        code & 7 == PAWN && mv.from % 8 != mv.to % 8 && Some(to88(mv.to)) == self.en_passant
    }

    /// True if `mv` is one of the side to move's legal moves.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.from >= 64 || mv.to >= 64 {
            return false;
        }
        let mut moves = Vec::with_capacity(64);
        self.generate(&mut moves);
        moves.contains(&mv)
    }

    // @section t_check
    /// True if legal `mv` gives check (§4 `CHECK`; an illegal move: false,
    /// §11.5).
    pub fn gives_check(&self, mv: Move) -> bool {
        self.is_legal(mv) && self.play(mv).in_check()
    }
    // @end t_check

    /// Number of `kind` pieces of `colour`.
    pub fn count(&self, colour: Colour, kind: Kind) -> u32 {
        self.count_code(kind.code() | colour_bit(colour))
    }

    /// Leaf nodes of the legal move tree to `depth` (§7.4; depth 0 is 1).
    pub fn perft(&self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<Move>> =
            (0..depth.min(64)).map(|_| Vec::with_capacity(64)).collect();
        if depth > 64 {
            // Deeper than any buffer stack we keep: recurse one ply by hand.
            let mut moves = Vec::new();
            self.generate(&mut moves);
            return moves
                .iter()
                .map(|&m| self.play(m).perft(depth - 1))
                .fold(0u64, u64::wrapping_add);
        }
        perft_with(self, depth, &mut buffers)
    }

    /// Parses a UCI move and returns it if it is legal here.
    pub fn parse_move(&self, text: &str) -> Option<Move> {
        let text = text.trim();
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return None;
        }
        let from = parse_square(text.get(0..2)?)?;
        let to = parse_square(text.get(2..4)?)?;
        let promotion = match text.get(4..) {
            None | Some("") => None,
            Some("q") | Some("Q") => Some(Kind::Queen),
            Some("r") | Some("R") => Some(Kind::Rook),
            Some("b") | Some("B") => Some(Kind::Bishop),
            Some("n") | Some("N") => Some(Kind::Knight),
            Some(_) => return None,
        };
        let mv = Move {
            from,
            to,
            promotion,
        };
        self.is_legal(mv).then_some(mv)
    }
}

impl Position {
    /// The position's hash key (the transposition table, §7.5): the
    /// placement, the side to move, the castling rights and the file of
    /// the en-passant square when there is one. The move counters are not
    /// in it: no value depends on them.
    pub fn key(&self) -> u64 {
        let castling = zobrist(ZOBRIST_CASTLING + usize::from(self.castling & 15));
        let mut key = self.placement_key ^ castling;
        if self.side == Colour::Black {
            key ^= zobrist(ZOBRIST_SIDE);
        }
        if let Some(ep) = self.en_passant {
            key ^= zobrist(ZOBRIST_EN_PASSANT + usize::from(ep & 7));
        }
        key
    }

    /// The key of the position as the game history compares positions
    /// (§7.5): [`Position::key`], with the en-passant file only when an
    /// en-passant capture is legal.
    pub fn repetition_key(&self) -> u64 {
        let mut key = self.key();
        if let Some(ep) = self.en_passant {
            if !self.en_passant_capturable() {
                key ^= zobrist(ZOBRIST_EN_PASSANT + usize::from(ep & 7));
            }
        }
        key
    }

    /// True when the side to move has a legal en-passant capture.
    pub fn en_passant_capturable(&self) -> bool {
        let Some(ep) = self.en_passant else {
            return false;
        };
        let mut moves = Vec::with_capacity(64);
        self.generate(&mut moves);
        moves
            .iter()
            .any(|m| to88(m.to) == ep && self.at(to88(m.from)) & 7 == PAWN)
    }

    /// True when `self` and `other` are the same position of a game
    /// (§7.5): placement, side to move, castling rights, and the
    /// en-passant square only when an en-passant capture is legal.
    pub fn same_game_position(&self, other: &Position) -> bool {
        let ep = |p: &Position| {
            if p.en_passant_capturable() {
                p.en_passant
            } else {
                None
            }
        };
        self.board == other.board
            && self.side == other.side
            && self.castling == other.castling
            && ep(self) == ep(other)
    }

    /// True when `mv` is a capture or a pawn move: a move after which no
    /// earlier position of the game can come back (§7.5).
    pub fn is_irreversible(&self, mv: Move) -> bool {
        self.is_capture(mv) || (mv.from < 64 && self.at(to88(mv.from)) & 7 == PAWN)
    }
}

fn perft_with(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    if depth == 1 {
        return pos.count_legal();
    }
    moves.clear();
    pos.generate(moves);
    let mut total = 0u64;
    for &mv in moves.iter() {
        total = total.wrapping_add(perft_with(&pos.play(mv), depth - 1, rest));
    }
    total
}

fn piece_char(code: u8) -> char {
    let c = match code & 7 {
        KING => 'K',
        QUEEN => 'Q',
        ROOK => 'R',
        BISHOP => 'B',
        KNIGHT => 'N',
        PAWN => 'P',
        _ => ' ',
    };
    if code & BLACK_BIT != 0 {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

/// The board as the UCI `d` command prints it (Stockfish's layout): the
/// diagram, a blank line, `Fen: …` and `Checkers: …` (each checker's square
/// followed by a blank).
pub fn display(pos: &Position) -> String {
    let border = " +---+---+---+---+---+---+---+---+\n";
    let mut text = String::from("\n");
    text.push_str(border);
    for rank in (0..8u8).rev() {
        for file in 0..8u8 {
            text.push_str(" | ");
            text.push(piece_char(pos.at(rank * 16 + file)));
        }
        text.push_str(&format!(" | {}\n", rank + 1));
        text.push_str(border);
    }
    text.push_str("   a   b   c   d   e   f   g   h\n\nFen: ");
    text.push_str(&pos.to_fen());
    text.push_str("\nCheckers: ");
    for sq in pos.checkers() {
        text.push_str(&square_name(sq));
        text.push(' ');
    }
    text.push('\n');
    text
}
