// ------------------------------------------------- the program's language

// @section var
/// A variable (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    // @section var_user: var
    /// A user variable: its slot; undefined at the start of each invocation.
    User(u32),
    // @end var_user
    // @section var_x: var var_readonly
    /// `X`: read-only.
    X,
    // @end var_x
    // @section var_depth: var var_readonly
    /// `DEPTH`: read-only.
    Depth,
    // @end var_depth
    // @section var_plies: var var_readonly
    /// `PLIES`: read-only.
    Plies,
    // @end var_plies
    // @section var_lm: var var_readonly
    /// `LM`: read-only.
    Lm,
    // @end var_lm
    // @section var_pg: var var_readonly
    /// `PG`: read-only.
    Pg,
    // @end var_pg
    // @section var_side: var
    /// `SIDE`: predefined and writable.
    Side,
    // @end var_side
    // @section var_piece: var var_readonly
    /// A piece variable (`WK`, `BR2`, `WP8`, …): read-only.
    Piece {
        /// `true` for W (the side to move), `false` for B.
        mover: bool,
        /// The kind.
        kind: Kind,
        /// 0-based index among that kind's variables: `WR2` is 1.
        index: u8,
    },
    // @end var_piece
}
// @end var

// @section interpreter
impl Var {
    /// True for the variables a program may write: user variables and
    /// `SIDE` (§3).
    pub fn is_writable(self) -> bool {
        matches!(self, Var::User(_) | Var::Side)
    }
}
// @end interpreter

// @section jump
/// A comparison of `JUMP…` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    // @section cmp_lt: jump
    /// `<`
    Lt,
    // @end cmp_lt
    // @section cmp_eq: jump
    /// `=`
    Eq,
    // @end cmp_eq
    // @section cmp_gt: jump
    /// `>`
    Gt,
    // @end cmp_gt
    // @section cmp_not_lt: jump
    /// `#<`
    NotLt,
    // @end cmp_not_lt
    // @section cmp_ne: jump
    /// `#=`
    Ne,
    // @end cmp_ne
    // @section cmp_not_gt: jump
    /// `#>`
    NotGt,
    // @end cmp_not_gt
}
// @end jump

// @section jump
/// Compares two values (§5.1): `=`/`#=` any types (§2 equality), the
/// others integers.
pub fn compare(cmp: Compare, a: &Value, b: &Value) -> Result<bool, Fault> {
    Ok(match cmp {
        // @section cmp_eq
        Compare::Eq => a == b,
        // @end cmp_eq
        // @section cmp_ne
        Compare::Ne => a != b,
        // @end cmp_ne
        // @section cmp_lt: want_integer
        Compare::Lt => integer(a)? < integer(b)?,
        // @end cmp_lt
        // @section cmp_gt: want_integer
        Compare::Gt => integer(a)? > integer(b)?,
        // @end cmp_gt
        // @section cmp_not_lt: want_integer
        Compare::NotLt => integer(a)? >= integer(b)?,
        // @end cmp_not_lt
        // @section cmp_not_gt: want_integer
        Compare::NotGt => integer(a)? <= integer(b)?,
        // @end cmp_not_gt
    })
}
// @end jump

// @section cond_arg
/// The test of a condition (§4), before negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    // @section t_defd: condition
    /// `DEFD`
    Defd,
    // @end t_defd
    // @section t_zero: condition
    /// `=0`
    Zero,
    // @end t_zero
    // @section t_negative: condition
    /// `<0`
    Negative,
    // @end t_negative
    // @section t_positive: condition
    /// `>0`
    Positive,
    // @end t_positive
    // @section t_odd: condition
    /// `ODD`
    Odd,
    // @end t_odd
    // @section t_true: condition
    /// `T`
    True,
    // @end t_true
    // @section t_empty: condition
    /// `EMPTY`
    Empty,
    // @end t_empty
    // @section t_far: condition
    /// `FAR`
    Far,
    // @end t_far
    // @section t_rf: condition
    /// `RF`
    RookFile,
    // @end t_rf
    // @section t_nf: condition
    /// `NF`
    KnightFile,
    // @end t_nf
    // @section t_nnf: condition
    /// `NNF`
    Nnf,
    // @end t_nnf
    // @section t_wsq: condition
    /// `WSQ`
    LightSquare,
    // @end t_wsq
    // @section t_kind: condition
    /// `KING` `QUEEN` `ROOK` `BISH` `NIGHT` `PAWN`
    Kind(Kind),
    // @end t_kind
    // @section t_wpc: condition
    /// `WPC`
    MoverPiece,
    // @end t_wpc
    // @section t_passd: condition
    /// `PASSD`
    Passed,
    // @end t_passd
    // @section t_pdp: condition
    /// `PDP`
    PawnDefended,
    // @end t_pdp
    // @section t_capt: condition
    /// `CAPT`
    Capture,
    // @end t_capt
    // @section t_check: condition
    /// `CHECK`
    Check,
    // @end t_check
    // @section t_safe: condition
    /// `SAFE`
    Safe,
    // @end t_safe
    // @section t_opp: condition
    /// `OPP`
    Opposition,
    // @end t_opp
    // @section t_rwk: condition
    /// `RWK=`
    KeepsKingRank,
    // @end t_rwk
}
// @end cond_arg

// @section interpreter
/// A written condition: `#` in front (negated), and its test.
pub type Condition = (bool, Test);
// @end interpreter

// @section cond_arg
/// A condition argument (§4): `None` where it is empty ("always"), else
/// `Some((negated, test))`.
pub type Cond = Option<(bool, Test)>;
// @end cond_arg
// @section always: cond_arg
// @end always

// @section ordering
/// An ordering (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// Empty: as given.
    AsGiven,
    // @section deep: ordering sort
    /// `DEEP`: more advanced destination rank first.
    Deep,
    // @end deep
    // @section shallow: ordering sort
    /// `#DEEP`: the reverse.
    Shallow,
    // @end shallow
}
// @end ordering

// @section binary
/// Instructions of the form `OP w,a,b` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    // @section op_setsq: binary
    /// `SETSQ w,r,f`
    SetSq,
    // @end op_setsq
    // @section op_setmov: binary
    /// `SETMOV w,p,s`
    SetMov,
    // @end op_setmov
    // @section op_pair: binary
    /// `PAIR`
    Pair,
    // @end op_pair
    // @section op_member: binary
    /// `MEMBER`
    Member,
    // @end op_member
    // @section op_memnum: binary
    /// `MEMNUM`
    MemNum,
    // @end op_memnum
    // @section op_inters: binary val_set
    /// `INTERS`
    Inters,
    // @end op_inters
    // @section op_union: binary val_set
    /// `UNION`
    Union,
    // @end op_union
    // @section op_differ: binary val_set
    /// `DIFFER`
    Differ,
    // @end op_differ
    // @section op_append: binary val_set
    /// `APPEND`
    Append,
    // @end op_append
    // @section op_getel: binary
    /// `GETEL w,s,i`
    GetEl,
    // @end op_getel
    // @section op_mvdist: binary
    /// `MVDIST`
    MvDist,
    // @end op_mvdist
    // @section op_insq: binary
    /// `INSQ`
    InSq,
    // @end op_insq
    // @section op_opp: binary
    /// `OPP`
    Opp,
    // @end op_opp
    // @section op_sqrank: binary
    /// `SQ>RNK`
    SqRank,
    // @end op_sqrank
    // @section op_nor: binary
    /// `NOR`
    Nor,
    // @end op_nor
    // @section op_and: binary
    /// `AND`
    And,
    // @end op_and
    // @section op_or: binary
    /// `OR`
    Or,
    // @end op_or
    // @section op_add: binary
    /// `ADD`
    Add,
    // @end op_add
    // @section op_sub: binary
    /// `SUB`
    Sub,
    // @end op_sub
    // @section op_mul: binary
    /// `MUL`
    Mul,
    // @end op_mul
    // @section op_div: binary
    /// `DIV`
    Div,
    // @end op_div
    // @section op_mod: binary
    /// `MOD`
    Mod,
    // @end op_mod
    // @section op_dif: binary
    /// `DIF`
    Dif,
    // @end op_dif
    // @section op_min: binary
    /// `MIN`
    Min,
    // @end op_min
    // @section op_max: binary
    /// `MAX`
    Max,
    // @end op_max
}
// @end binary

// @section unary
/// Instructions of the form `OP w,v` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    // @section op_setv: unary
    /// `SETV`
    SetV,
    // @end op_setv
    // @section op_card: unary
    /// `CARD`
    Card,
    // @end op_card
    // @section op_piece: unary
    /// `PIECE`
    Piece,
    // @end op_piece
    // @section op_square: unary
    /// `SQUARE`
    Square,
    // @end op_square
    // @section op_side: unary
    /// `SIDE w,s`
    Side,
    // @end op_side
    // @section op_rank: unary
    /// `RANK`
    Rank,
    // @end op_rank
    // @section op_file: unary
    /// `FILE`
    File,
    // @end op_file
    // @section op_scolor: unary
    /// `SCOLOR`
    SColor,
    // @end op_scolor
    // @section op_pcolor: unary
    /// `PCOLOR`
    PColor,
    // @end op_pcolor
    // @section op_abs: unary
    /// `ABS`
    Abs,
    // @end op_abs
}
// @end unary

// @section play
/// The three move-playing instructions (§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayKind {
    // @section play_play: play
    /// `PLAY`
    Play,
    // @end play_play
    // @section play_playb: play
    /// `PLAYB`
    PlayB,
    // @end play_playb
    // @section play_try: play
    /// `TRY`
    Try,
    // @end play_try
}
// @end play

// @section value
/// The four value instructions (§6.2–§6.3), named as the language names
/// them: an engine without `RETBET` has only `Val…` ones, which clippy
/// would have renamed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum ValueKind {
    // @section valret: value
    /// `VALRET`
    ValRet,
    // @end valret
    // @section valrut: value
    /// `VALRUT`
    ValRut,
    // @end valrut
    // @section valon: value
    /// `VALON`
    ValOn,
    // @end valon
    // @section retbet: value
    /// `RETBET`
    RetBet,
    // @end retbet
}
// @end value

// @section each
/// The three calls that return a value into a variable (`SET` is a
/// plain call in generated code: [`Step::Call`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    // @section interpreter
    /// `SET w,t,v`
    Set,
    // @end interpreter
    // @section select: each
    /// `SELECT w,t,v`
    Select,
    // @end select
    // @section map: each
    /// `MAP w,t,v`
    Map,
    // @end map
}
// @end each

// @section interpreter
/// Computes `OP a,b` (§5.1).
pub fn binary(node: &Node, op: Binary, a: &Value, b: &Value) -> Result<Value, Fault> {
    node.binary(op, a.clone(), b)
}

/// Computes `OP v` (§5.1).
pub fn unary(node: &Node, op: Unary, v: &Value) -> Result<Value, Fault> {
    node.unary(op, v)
}
// @end interpreter

// @section binary
impl Node {
    /// Computes `OP a,b` (§5.1), taking `a`: `APPEND` and `UNION` extend a
    /// set that nothing else holds in place.
    fn binary(&self, op: Binary, a: Value, b: &Value) -> Result<Value, Fault> {
        Ok(match op {
            // @section op_setsq: want_integer square_at val_square
            Binary::SetSq => self
                .square_at(integer(&a)?, integer(b)?)
                .map_or(Value::Undefined, Value::Square),
            // @end op_setsq
            // @section op_setmov: coerce_piece coerce_square val_move
            Binary::SetMov => {
                let piece = self.piece(&a)?;
                let to = Node::square(b)?;
                let last = match piece.colour {
                    Colour::White => 7,
                    Colour::Black => 0,
                };
                let promotes = piece.kind == Kind::Pawn && to / 8 == last;
                let promotion = promotes.then_some(Kind::Queen);
                Value::Move(MoveValue {
                    piece,
                    to,
                    promotion,
                })
            }
            // @end op_setmov
            // @section op_pair: val_set
            Binary::Pair => Value::Set(vec![a, b.clone()].into()),
            // @end op_pair
            // @section op_member: want_set val_logical
            Binary::Member => Value::Logical(set(b)?.contains(&a)),
            // @end op_member
            // @section op_memnum: want_set val_integer
            Binary::MemNum => Value::Integer(
                set(b)?
                    .iter()
                    .position(|e| *e == a)
                    .map_or(0, |i| i as i64 + 1),
            ),
            // @end op_memnum
            // @section op_inters: want_set
            Binary::Inters => {
                let b = set(b)?;
                Value::Set(set(&a)?.iter().filter(|e| b.contains(e)).cloned().collect())
            }
            // @end op_inters
            // @section op_differ: want_set
            Binary::Differ => {
                let b = set(b)?;
                Value::Set(
                    set(&a)?
                        .iter()
                        .filter(|e| !b.contains(e))
                        .cloned()
                        .collect(),
                )
            }
            // @end op_differ
            // @section op_union: set_owned want_set items_edit
            Binary::Union => {
                let mut items = set_owned(a)?;
                let more: Vec<Value> = set(b)?
                    .iter()
                    .filter(|e| !items.contains(e))
                    .cloned()
                    .collect();
                items.edit().extend(more);
                Value::Set(items)
            }
            // @end op_union
            // @section op_append: set_owned items_edit
            Binary::Append => {
                let mut items = set_owned(a)?;
                match b {
                    Value::Set(more) => items.edit().extend(more.iter().cloned()),
                    other => items.edit().push(other.clone()),
                }
                Value::Set(items)
            }
            // @end op_append
            // @section op_getel: want_set want_integer index
            Binary::GetEl => {
                let items = set(&a)?;
                items[index(items.len(), integer(b)?, false)?].clone()
            }
            // @end op_getel
            // @section op_mvdist: coerce_square king_distance val_integer
            Binary::MvDist => {
                let (x, y) = (Node::square(&a)?, Node::square(b)?);
                Value::Integer(king_distance(x, y))
            }
            // @end op_mvdist
            // @section op_insq: coerce_piece king_distance mover val_logical val_piece
            Binary::InSq => {
                let k = self.piece(&a)?;
                let p = self.piece(b)?;
                if k.kind != Kind::King {
                    return Err(format!("INSQ needs a king, got {}", Value::Piece(k)));
                }
                if p.kind != Kind::Pawn {
                    return Err(format!("INSQ needs a pawn, got {}", Value::Piece(p)));
                }
                if k.colour == p.colour {
                    return Err("INSQ needs a king and a pawn of different sides".into());
                }
                let r = match p.colour {
                    Colour::White => i64::from(p.square / 8) + 1,
                    Colour::Black => 8 - i64::from(p.square / 8),
                };
                let n = 5.min(8 - r);
                let q = match p.colour {
                    Colour::White => 56 + p.square % 8,
                    Colour::Black => p.square % 8,
                };
                let t = i64::from(k.colour == self.mover());
                Value::Logical(king_distance(k.square, q) - t <= n)
            }
            // @end op_insq
            // @section op_opp: coerce_square opposition val_logical
            Binary::Opp => Value::Logical(opposition(Node::square(&a)?, Node::square(b)?)),
            // @end op_opp
            // @section op_sqrank: coerce_square want_integer rank file square_at val_square
            Binary::SqRank => {
                let s = Node::square(&a)?;
                let k = integer(b)?;
                self.square_at(self.rank(s).wrapping_add(k), Node::file(s))
                    .map_or(Value::Undefined, Value::Square)
            }
            // @end op_sqrank
            // @section op_nor: want_logical val_logical
            Binary::Nor => Value::Logical(!(logical(&a)? || logical(b)?)),
            // @end op_nor
            // @section op_and: want_logical val_logical
            Binary::And => Value::Logical(logical(&a)? && logical(b)?),
            // @end op_and
            // @section op_or: want_logical val_logical
            Binary::Or => Value::Logical(logical(&a)? || logical(b)?),
            // @end op_or
            // @section op_add: want_integer val_integer
            Binary::Add => Value::Integer(integer(&a)?.wrapping_add(integer(b)?)),
            // @end op_add
            // @section op_sub: want_integer val_integer
            Binary::Sub => Value::Integer(integer(&a)?.wrapping_sub(integer(b)?)),
            // @end op_sub
            // @section op_mul: want_integer val_integer
            Binary::Mul => Value::Integer(integer(&a)?.wrapping_mul(integer(b)?)),
            // @end op_mul
            // @section op_div: want_integer nonzero val_integer
            Binary::Div => {
                let x = integer(&a)?;
                Value::Integer(x.wrapping_div(nonzero(integer(b)?)?))
            }
            // @end op_div
            // @section op_mod: want_integer nonzero val_integer
            Binary::Mod => {
                let x = integer(&a)?;
                Value::Integer(x.wrapping_rem(nonzero(integer(b)?)?))
            }
            // @end op_mod
            // @section op_dif: want_integer val_integer
            Binary::Dif => {
                let d = integer(&a)?.wrapping_sub(integer(b)?);
                Value::Integer(d.wrapping_abs())
            }
            // @end op_dif
            // @section op_min: want_integer val_integer
            Binary::Min => Value::Integer(integer(&a)?.min(integer(b)?)),
            // @end op_min
            // @section op_max: want_integer val_integer
            Binary::Max => Value::Integer(integer(&a)?.max(integer(b)?)),
            // @end op_max
        })
    }
}
// @end binary

// @section unary
impl Node {
    /// Computes `OP v` (§5.1).
    fn unary(&self, op: Unary, v: &Value) -> Result<Value, Fault> {
        Ok(match op {
            // @section op_setv
            Unary::SetV => v.clone(),
            // @end op_setv
            // @section op_card: want_set val_integer
            Unary::Card => Value::Integer(set(v)?.len() as i64),
            // @end op_card
            // @section op_piece: coerce_piece val_piece
            Unary::Piece => Value::Piece(self.piece(v)?),
            // @end op_piece
            // @section op_square: coerce_square val_square
            Unary::Square => Value::Square(Node::square(v)?),
            // @end op_square
            // @section op_side: coerce_square side_of val_integer
            Unary::Side => Value::Integer(Node::side_of(Node::square(v)?)),
            // @end op_side
            // @section op_rank: coerce_square rank val_integer
            Unary::Rank => Value::Integer(self.rank(Node::square(v)?)),
            // @end op_rank
            // @section op_file: coerce_square file val_integer
            Unary::File => Value::Integer(Node::file(Node::square(v)?)),
            // @end op_file
            // @section op_scolor: coerce_square val_integer
            Unary::SColor => {
                let s = Node::square(v)?;
                Value::Integer(if (s % 8 + s / 8) % 2 == 1 { 0 } else { 1 })
            }
            // @end op_scolor
            // @section op_pcolor: coerce_piece mover val_integer
            Unary::PColor => {
                let p = self.piece(v)?;
                Value::Integer(i64::from(p.colour != self.mover()))
            }
            // @end op_pcolor
            // @section op_abs: want_integer val_integer
            Unary::Abs => Value::Integer(integer(v)?.wrapping_abs()),
            // @end op_abs
        })
    }
}
// @end unary

// @section nonzero
/// The divisor of `DIV` and `MOD`: not zero.
fn nonzero(y: i64) -> Result<i64, Fault> {
    if y == 0 {
        return Err("division by zero".into());
    }
    Ok(y)
}
// @end nonzero

// @section setel: set_owned want_integer index items_edit val_set
/// `SETEL v,u,i`: the set with its i-th element replaced.
pub fn set_element(value: Value, u: Value, i: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, false)?;
    items.edit()[at] = value;
    Ok(Value::Set(items))
}
// @end setel

// @section insert: set_owned want_integer index items_edit val_set
/// `INSERT v,u,i`: the set with v inserted before its i-th element (i =
/// card+1: at the end).
pub fn insert_element(value: Value, u: Value, i: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, true)?;
    items.edit().insert(at, value);
    Ok(Value::Set(items))
}
// @end insert

// @section unsert: set_owned want_integer index items_edit val_set
/// `UNSERT w,u,i`: (the removed element, the rest).
pub fn remove_element(u: Value, i: &Value) -> Result<(Value, Value), Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, false)?;
    let removed = items.edit().remove(at);
    Ok((removed, Value::Set(items)))
}
// @end unsert

// @section exchwe: set_owned want_integer index items_edit val_set
/// `EXCHWE u1,u2,i`: (new u1, new u2).
pub fn exchange_element(u1: Value, u2: Value, i: &Value) -> Result<(Value, Value), Fault> {
    let mut items = set_owned(u2)?;
    let at = index(items.len(), integer(i)?, false)?;
    let old = std::mem::replace(&mut items.edit()[at], u1);
    Ok((old, Value::Set(items)))
}
// @end exchwe

// @section exchel: set_owned want_integer index items_edit val_set
/// `EXCHEL u,i,j`.
pub fn exchange_elements(u: Value, i: &Value, j: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let a = index(items.len(), integer(i)?, false)?;
    let b = index(items.len(), integer(j)?, false)?;
    items.edit().swap(a, b);
    Ok(Value::Set(items))
}
// @end exchel
