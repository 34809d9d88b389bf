// ------------------------------------------------------------- node view

/// A node of the main search as the program sees it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position.
    pub position: Position,
    // @section node_depth
    /// DEPTH: the node's ply, 1 at the root.
    pub depth: i64,
    // @end node_depth
    // @section node_plies
    /// PLIES: the plies left, r of §7.3.
    pub plies: i64,
    // @end node_plies
}

// @section node_impl
impl Node {
    // @section mover: node_impl
    fn mover(&self) -> Colour {
        self.position.side_to_move()
    }
    // @end mover

    // @section rank: mover use_square node_impl
    /// §3 rank (1–8) of a square, from the side to move's first rank.
    pub fn rank(&self, square: Square) -> i64 {
        let r = i64::from(square / 8);
        match self.mover() {
            Colour::White => r + 1,
            Colour::Black => 8 - r,
        }
    }
    // @end rank

    // @section file: use_square node_impl
    /// §3 file: h = 1 … a = 8.
    pub fn file(square: Square) -> i64 {
        8 - i64::from(square % 8)
    }
    // @end file

    // @section square_at: mover use_square node_impl
    /// The square of §3 rank `r` and file `f`, if both are 1–8.
    pub fn square_at(&self, rank: i64, file: i64) -> Option<Square> {
        if !(1..=8).contains(&rank) || !(1..=8).contains(&file) {
            return None;
        }
        let abs_rank = match self.mover() {
            Colour::White => rank - 1,
            Colour::Black => 8 - rank,
        };
        Some((abs_rank * 8 + (8 - file)) as Square)
    }
    // @end square_at

    // @section side_of: use_square node_impl
    /// `SIDE` of a square: 0 for files h–e, 1 for d–a.
    pub fn side_of(square: Square) -> i64 {
        i64::from(square % 8 < 4)
    }
    // @end side_of

    // @section coerce_piece: wrong use_piece node_impl
    /// The piece a value specifies (§2 coercion; §11.3).
    pub fn piece(&self, value: &Value) -> Result<Piece, Fault> {
        // @section val_piece
        if let Value::Piece(p) = value {
            return Ok(*p);
        }
        // @end val_piece
        // @section val_move
        if let Value::Move(m) = value {
            return Ok(m.piece);
        }
        // @end val_move
        // @section val_square
        if let Value::Square(s) = value {
            return self
                .position
                .piece_at(*s)
                .ok_or_else(|| format!("no piece on {}", square_text(*s)));
        }
        // @end val_square
        Err(wrong("a piece", value))
    }
    // @end coerce_piece

    // @section coerce_square: wrong use_square node_impl
    /// The square a value specifies (§2 coercion).
    pub fn square(value: &Value) -> Result<Square, Fault> {
        // @section val_square
        if let Value::Square(s) = value {
            return Ok(*s);
        }
        // @end val_square
        // @section val_piece
        if let Value::Piece(p) = value {
            return Ok(p.square);
        }
        // @end val_piece
        // @section val_move
        if let Value::Move(m) = value {
            return Ok(m.to);
        }
        // @end val_move
        Err(wrong("a square", value))
    }
    // @end coerce_square

    // @section var_lm: val_move val_set node_impl
    /// The move value of a board move at this node.
    pub fn move_value(&self, mv: Move) -> Value {
        match self.position.piece_at(mv.from) {
            Some(piece) => Value::Move(MoveValue {
                piece,
                to: mv.to,
                promotion: mv.promotion,
            }),
            None => Value::Undefined,
        }
    }

    /// `LM` (§3): the legal moves in §7.2 order.
    pub fn legal_moves(&self) -> Value {
        let moves = self.position.legal_moves();
        Value::Set(moves.into_iter().map(|m| self.move_value(m)).collect())
    }
    // @end var_lm

    // @section piece_variable: mover val_piece node_impl
    /// A piece variable (§3): W is the side to move.
    pub fn piece_variable(&self, mover: bool, kind: Kind, index: u8) -> Value {
        let colour = if mover {
            self.mover()
        } else {
            self.mover().other()
        };
        self.position
            .piece_variable(colour, kind, index)
            .map_or(Value::Undefined, Value::Piece)
    }
    // @end piece_variable

    // @section var_pg: rank val_piece val_set use_piece node_impl
    /// `PG` (§3): pawn groups, files h to a, pawns in §3 rank order.
    pub fn pawn_groups(&self) -> Value {
        let mut groups = Vec::new();
        let mut group: Vec<Value> = Vec::new();
        for file in (0..8u8).rev() {
            let mut pawns: Vec<Piece> = (0..8u8)
                .filter_map(|r| self.position.piece_at(r * 8 + file))
                .filter(|p| p.kind == Kind::Pawn)
                .collect();
            if pawns.is_empty() {
                if !group.is_empty() {
                    groups.push(Value::Set(std::mem::take(&mut group).into()));
                }
                continue;
            }
            pawns.sort_by_key(|p| self.rank(p.square));
            group.extend(pawns.into_iter().map(Value::Piece));
        }
        if !group.is_empty() {
            groups.push(Value::Set(group.into()));
        }
        Value::Set(groups.into())
    }
    // @end var_pg

    // @section play_play: board_move node_impl
    /// Static evaluation (§6.2): material, side to move minus the other.
    pub fn static_eval(&self) -> i64 {
        static_value(&self.position)
    }
    // @end play_play

    // @section node_legal: move_value_type board_move node_impl
    /// The board move of a move value if it is legal here (§11.2).
    fn legal(&self, m: MoveValue) -> Option<Move> {
        let on = self.position.piece_at(m.piece.square)?;
        if on != m.piece {
            return None;
        }
        let mv = m.board_move();
        self.position.is_legal(mv).then_some(mv)
    }
    // @end node_legal

    // @section condition: node_impl
    /// A condition's test applied to a value (§4); `side` is `SIDE`, which
    /// `FAR` and `NNF` read.
    pub fn test(&self, test: Test, value: &Value, side: &Value) -> Result<bool, Fault> {
        Ok(match (test, side) {
            // @section t_defd
            (Test::Defd, _) => *value != Value::Undefined,
            // @end t_defd
            // @section t_zero: want_integer
            (Test::Zero, _) => integer(value)? == 0,
            // @end t_zero
            // @section t_negative: want_integer
            (Test::Negative, _) => integer(value)? < 0,
            // @end t_negative
            // @section t_positive: want_integer
            (Test::Positive, _) => integer(value)? > 0,
            // @end t_positive
            // @section t_odd: want_integer
            (Test::Odd, _) => integer(value)? % 2 != 0,
            // @end t_odd
            // @section t_true: want_logical
            (Test::True, _) => logical(value)?,
            // @end t_true
            // @section t_empty: want_set
            (Test::Empty, _) => set(value)?.is_empty(),
            // @end t_empty
            // @section t_far: coerce_square side_of side_int
            (Test::Far, side) => Node::side_of(Node::square(value)?) != side_int(side)?,
            // @end t_far
            // @section t_rf: coerce_square
            (Test::RookFile, _) => matches!(Node::square(value)? % 8, 0 | 7),
            // @end t_rf
            // @section t_nf: coerce_square
            (Test::KnightFile, _) => matches!(Node::square(value)? % 8, 1 | 6),
            // @end t_nf
            // @section t_nnf: coerce_square side_of side_int
            (Test::Nnf, side) => {
                let s = Node::square(value)?;
                matches!(s % 8, 1 | 6) && Node::side_of(s) == side_int(side)?
            }
            // @end t_nnf
            // @section t_wsq: coerce_square
            (Test::LightSquare, _) => {
                let s = Node::square(value)?;
                (s % 8 + s / 8) % 2 == 1
            }
            // @end t_wsq
            // @section t_passd: want_pawn use_piece
            (Test::Passed, _) => {
                let p = self.pawn(value)?;
                self.passed(p)
            }
            // @end t_passd
            // @section t_pdp: want_pawn use_square use_piece
            (Test::PawnDefended, _) => {
                let p = self.pawn(value)?;
                self.pawn_defended(p)
            }
            // @end t_pdp
            // @section t_capt: want_move board_move
            (Test::Capture, _) => {
                // §11.5: a piece of the other colour than the moving piece
                // on the destination, or a pawn's en-passant capture (which
                // needs the pawn on its square at this node).
                let m = move_value(value)?;
                match self.position.piece_at(m.to) {
                    Some(target) => target.colour != m.piece.colour,
                    None => {
                        self.position.piece_at(m.piece.square) == Some(m.piece)
                            && self.position.is_capture(m.board_move())
                    }
                }
            }
            // @end t_capt
            // @section t_check: want_move node_legal
            (Test::Check, _) => {
                let m = move_value(value)?;
                self.legal(m)
                    .is_some_and(|mv| self.position.gives_check(mv))
            }
            // @end t_check
            // @section t_safe: want_move needed king_distance
            (Test::Safe, _) => {
                let m = move_value(value)?;
                let (wk, bk, wp) = (
                    self.needed(true, Kind::King, "WK")?,
                    self.needed(false, Kind::King, "BK")?,
                    self.needed(true, Kind::Pawn, "WP")?,
                );
                match m.piece.kind {
                    Kind::King => king_distance(m.to, wp) <= king_distance(bk, wp),
                    Kind::Pawn => king_distance(wk, m.to) <= king_distance(bk, m.to),
                    _ => king_distance(wk, wp) <= king_distance(bk, wp),
                }
            }
            // @end t_safe
            // @section t_opp: want_move needed opposition
            (Test::Opposition, _) => {
                let m = move_value(value)?;
                let wk = self.needed(true, Kind::King, "WK")?;
                let bk = self.needed(false, Kind::King, "BK")?;
                let wk = if m.piece.kind == Kind::King { m.to } else { wk };
                opposition(wk, bk)
            }
            // @end t_opp
            // @section t_rwk: want_move needed
            (Test::KeepsKingRank, _) => {
                let m = move_value(value)?;
                if m.piece.kind == Kind::King {
                    let wk = self.needed(true, Kind::King, "WK")?;
                    m.to / 8 == wk / 8
                } else {
                    true
                }
            }
            // @end t_rwk
            // @section t_kind: coerce_piece
            (Test::Kind(kind), _) => self.piece(value)?.kind == kind,
            // @end t_kind
            // @section t_wpc: coerce_piece mover
            (Test::MoverPiece, _) => self.piece(value)?.colour == self.mover(),
            // @end t_wpc
        })
    }
    // @end condition

    // @section needed: piece_variable use_square node_impl
    fn needed(&self, mover: bool, kind: Kind, name: &str) -> Result<Square, Fault> {
        match self.piece_variable(mover, kind, 0) {
            Value::Piece(p) => Ok(p.square),
            _ => Err(format!("{name} is undefined")),
        }
    }
    // @end needed

    // @section want_pawn: coerce_piece val_piece use_piece node_impl
    fn pawn(&self, value: &Value) -> Result<Piece, Fault> {
        let p = self.piece(value)?;
        if p.kind == Kind::Pawn {
            Ok(p)
        } else {
            Err(format!("expected a pawn, got {}", Value::Piece(p)))
        }
    }
    // @end want_pawn

    // @section t_passd: node_impl
    /// No enemy pawn ahead of `p` on its file or an adjacent file.
    fn passed(&self, p: Piece) -> bool {
        let file = i64::from(p.square % 8);
        let rank = i64::from(p.square / 8);
        for sq in 0..64u8 {
            if let Some(q) = self.position.piece_at(sq) {
                if q.kind != Kind::Pawn || q.colour == p.colour {
                    continue;
                }
                let (qf, qr) = (i64::from(sq % 8), i64::from(sq / 8));
                let ahead = match p.colour {
                    Colour::White => qr > rank,
                    Colour::Black => qr < rank,
                };
                if ahead && (qf - file).abs() <= 1 {
                    return false;
                }
            }
        }
        true
    }
    // @end t_passd

    // @section t_pdp: node_impl
    /// A pawn of its own side defends `p` (stands diagonally behind it).
    fn pawn_defended(&self, p: Piece) -> bool {
        let file = i64::from(p.square % 8);
        let behind = match p.colour {
            Colour::White => i64::from(p.square / 8) - 1,
            Colour::Black => i64::from(p.square / 8) + 1,
        };
        if !(0..8).contains(&behind) {
            return false;
        }
        [file - 1, file + 1].into_iter().any(|f| {
            (0..8).contains(&f)
                && self
                    .position
                    .piece_at((behind * 8 + f) as Square)
                    .is_some_and(|q| q.kind == Kind::Pawn && q.colour == p.colour)
        })
    }
    // @end t_pdp

    // @section sort: rank want_move node_impl
    /// The sort key of a move for `ordering` (§4): `DEEP` puts the more
    /// advanced destination rank first, `#DEEP` the less advanced; as
    /// given, all are alike.
    fn order_key(&self, value: &Value, ordering: Ordering) -> Result<i64, Fault> {
        Ok(match ordering {
            Ordering::AsGiven => 0,
            // @section deep
            Ordering::Deep => -self.rank(move_value(value)?.to),
            // @end deep
            // @section shallow
            Ordering::Shallow => self.rank(move_value(value)?.to),
            // @end shallow
        })
    }
    // @end sort

    // @section order_items: ordering node_impl
    /// Orders moves by `ordering`: by their keys (`Node::order_key`),
    /// stable; as given, they stay.
    pub fn order(&self, items: &mut [Value], ordering: Ordering) -> Result<(), Fault> {
        if ordering == Ordering::AsGiven || items.is_empty() {
            return Ok(());
        }
        // @section sort
        let mut keyed = Vec::with_capacity(items.len());
        for item in items.iter() {
            keyed.push((self.order_key(item, ordering)?, item.clone()));
        }
        keyed.sort_by_key(|k| k.0);
        for (slot, (_, item)) in items.iter_mut().zip(keyed) {
            *slot = item;
        }
        // @end sort
        Ok(())
    }
    // @end order_items
}
// @end node_impl

// @section side_int: type_name
/// `SIDE` as `FAR` and `NNF` read it: an integer.
fn side_int(side: &Value) -> Result<i64, Fault> {
    // @section val_integer
    if let Value::Integer(n) = side {
        return Ok(*n);
    }
    // @end val_integer
    Err(format!(
        "SIDE must be an integer here, got {} {side}",
        type_name(side)
    ))
}
// @end side_int
