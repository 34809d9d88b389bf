// ---------------------------------------------------------------- values

/// A CHEG value (§2). Sets have value semantics: a copy never changes.
///
/// A set's elements are shared by every value that holds them ([`Items`]):
/// copying a set costs nothing, and an edit copies the elements only when
/// another value still holds them, so building a set one `PAIR`, `APPEND`
/// or `INSERT` at a time costs O(1) amortised a step. Dropping, comparing,
/// hashing and printing walk nested sets with an explicit stack, so a set
/// nested millions deep is an ordinary value.
#[derive(Clone, Default)]
pub enum Value {
    /// Undefined (`"#`).
    #[default]
    Undefined,
    // @section val_logical: val_other
    /// T or F.
    Logical(bool),
    // @end val_logical
    // @section val_integer: val_other
    /// A signed 64-bit integer; arithmetic wraps.
    Integer(i64),
    // @end val_integer
    // @section val_set: val_other items
    /// An ordered list of values.
    Set(Items),
    // @end val_set
    // @section val_piece: val_other use_piece square_text
    /// A piece: a snapshot of colour, kind and square (§11.2).
    Piece(Piece),
    // @end val_piece
    // @section val_square: val_other use_square square_text
    /// A square.
    Square(Square),
    // @end val_square
    // @section val_move: val_other move_value_type board_move
    /// A move: the moving piece, its destination and promotion (§2).
    Move(MoveValue),
    // @end val_move
}

// @section items
/// The elements of a set value, shared (reference counted) by the values
/// that hold them and copied on write ([`Items::edit`]).
#[derive(Clone, Default)]
pub struct Items(Rc<Vec<Value>>);

// @section items_edit
impl Items {
    /// The elements, to change: copied first when another value holds
    /// them too (copy on write), else in place.
    pub fn edit(&mut self) -> &mut Vec<Value> {
        Rc::make_mut(&mut self.0)
    }
}
// @end items_edit

impl std::ops::Deref for Items {
    type Target = Vec<Value>;

    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl From<Vec<Value>> for Items {
    fn from(items: Vec<Value>) -> Items {
        Items(Rc::new(items))
    }
}

impl FromIterator<Value> for Items {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Items {
        Items(Rc::new(iter.into_iter().collect()))
    }
}

// @section val_set
impl Drop for Items {
    /// Frees nested sets with an explicit stack: the elements of a set
    /// this is the last holder of are moved out before it goes, so no
    /// drop recurses into the next level.
    fn drop(&mut self) {
        let Some(items) = Rc::get_mut(&mut self.0) else {
            return;
        };
        if !items.iter().any(|v| matches!(v, Value::Set(_))) {
            return;
        }
        let mut pending = std::mem::take(items);
        while let Some(mut value) = pending.pop() {
            if let Value::Set(inner) = &mut value {
                if let Some(elements) = Rc::get_mut(&mut inner.0) {
                    pending.append(elements);
                }
            }
        }
    }
}
// @end val_set

impl PartialEq for Items {
    fn eq(&self, other: &Items) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || equal_lists(&self.0, &other.0)
    }
}

impl Eq for Items {}

impl std::fmt::Debug for Items {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_list(f, &self.0)
    }
}
// @end items

/// §2 equality of two lists of values, element by element, nested sets
/// compared with an explicit stack.
fn equal_lists(a: &[Value], b: &[Value]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut pending: Vec<(&[Value], &[Value])> = vec![(a, b)];
    while let Some((xs, ys)) = pending.pop() {
        for (x, y) in xs.iter().zip(ys) {
            let same = match (x, y) {
                // @section val_set
                (Value::Set(p), Value::Set(q)) => {
                    if !Rc::ptr_eq(&p.0, &q.0) {
                        if p.len() != q.len() {
                            return false;
                        }
                        pending.push((p, q));
                    }
                    true
                }
                // @end val_set
                (Value::Undefined, Value::Undefined) => true,
                // @section val_logical
                (Value::Logical(p), Value::Logical(q)) => p == q,
                // @end val_logical
                // @section val_integer
                (Value::Integer(p), Value::Integer(q)) => p == q,
                // @end val_integer
                // @section val_piece
                (Value::Piece(p), Value::Piece(q)) => p == q,
                // @end val_piece
                // @section val_square
                (Value::Square(p), Value::Square(q)) => p == q,
                // @end val_square
                // @section val_move
                (Value::Move(p), Value::Move(q)) => p == q,
                // @end val_move
                // @section val_other
                _ => false,
                // @end val_other
            };
            if !same {
                return false;
            }
        }
    }
    true
}

impl PartialEq for Value {
    /// §2 equality: same type and same value; sets element by element;
    /// undefined equals undefined.
    fn eq(&self, other: &Value) -> bool {
        equal_lists(std::slice::from_ref(self), std::slice::from_ref(other))
    }
}

impl Eq for Value {}

// @section move_value_type: use_piece use_square
/// A move as a value: (moving piece, destination, promotion kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveValue {
    /// The moving piece, as it stood when the move was made.
    pub piece: Piece,
    /// Destination square.
    pub to: Square,
    /// Promotion kind, if any.
    pub promotion: Option<Kind>,
}

// @end move_value_type

// @section board_move: move_value_type
impl MoveValue {
    /// The board move.
    pub fn board_move(self) -> Move {
        Move {
            from: self.piece.square,
            to: self.to,
            promotion: self.promotion,
        }
    }
}
// @end board_move

// @section square_text: use_square
fn square_text(square: Square) -> String {
    super::chess::square_name(square)
}
// @end square_text

/// The text of a value that is not a set (§9).
fn write_scalar(f: &mut std::fmt::Formatter<'_>, value: &Value) -> std::fmt::Result {
    match value {
        Value::Undefined => write!(f, "#"),
        // @section val_logical
        Value::Logical(true) => write!(f, "T"),
        Value::Logical(false) => write!(f, "F"),
        // @end val_logical
        // @section val_integer
        Value::Integer(n) => write!(f, "{n}"),
        // @end val_integer
        // @section val_square
        Value::Square(s) => write!(f, "{}", square_text(*s)),
        // @end val_square
        // @section val_piece
        Value::Piece(p) => {
            let letter = p.kind.letter();
            let letter = match p.colour {
                Colour::White => letter.to_ascii_uppercase(),
                Colour::Black => letter.to_ascii_lowercase(),
            };
            write!(f, "{letter}{}", square_text(p.square))
        }
        // @end val_piece
        // @section val_move
        Value::Move(m) => write!(f, "{}", m.board_move().to_uci()),
        // @end val_move
        // @section val_set
        Value::Set(items) => write_list(f, items),
        // @end val_set
    }
}

// @section items
/// The text `(a b c)` of a set's elements (§9), nested sets written with
/// an explicit stack of the lists still open.
fn write_list(f: &mut std::fmt::Formatter<'_>, items: &[Value]) -> std::fmt::Result {
    write!(f, "(")?;
    let mut open: Vec<(std::slice::Iter<'_, Value>, bool)> = vec![(items.iter(), true)];
    while let Some((list, first)) = open.last_mut() {
        let Some(item) = list.next() else {
            write!(f, ")")?;
            open.pop();
            continue;
        };
        if !*first {
            write!(f, " ")?;
        }
        *first = false;
        // @section val_set
        if let Value::Set(inner) = item {
            write!(f, "(")?;
            open.push((inner.iter(), true));
            continue;
        }
        // @end val_set
        write_scalar(f, item)?;
    }
    Ok(())
}
// @end items

impl std::fmt::Display for Value {
    /// Value text (§9): `#`, `T`, `F`, decimal integers, squares `e4`,
    /// pieces `Ke1` (upper case for white), moves in UCI form, sets `(a b c)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_scalar(f, self)
    }
}

impl std::fmt::Debug for Value {
    /// The value text of §9.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_scalar(f, self)
    }
}

// @section lit_set: val_set val_logical val_integer
/// The value of a set literal (§2) from its text as icp2c writes it into
/// generated code and its IR: the value text of §9, `(1 -2 (T #) ())`
/// (elements separated by one blank; integers, `T`, `F`, `#`, sets). Built
/// with an explicit stack, so any nesting depth is fine. Text that is not
/// of that form (never written by icp2c) gives undefined elements rather
/// than a failure.
pub fn set_literal(text: &str) -> Value {
    let mut open: Vec<Vec<Value>> = Vec::new();
    let mut done = Value::Undefined;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let value = match bytes[at] {
            b'(' => {
                open.push(Vec::new());
                at += 1;
                continue;
            }
            b')' => {
                at += 1;
                Value::Set(open.pop().unwrap_or_default().into())
            }
            b' ' => {
                at += 1;
                continue;
            }
            _ => {
                let start = at;
                while at < bytes.len() && !matches!(bytes[at], b'(' | b')' | b' ') {
                    at += 1;
                }
                match &text[start..at] {
                    "T" => Value::Logical(true),
                    "F" => Value::Logical(false),
                    word => word.parse().map_or(Value::Undefined, Value::Integer),
                }
            }
        };
        match open.last_mut() {
            Some(list) => list.push(value),
            None => done = value,
        }
    }
    // An unclosed set (never written by icp2c) closes at the end.
    while let Some(list) = open.pop() {
        let value = Value::Set(list.into());
        match open.last_mut() {
            Some(outer) => outer.push(value),
            None => done = value,
        }
    }
    done
}
// @end lit_set

// @section type_name
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Undefined => "undefined",
        // @section val_logical
        Value::Logical(_) => "logical",
        // @end val_logical
        // @section val_integer
        Value::Integer(_) => "integer",
        // @end val_integer
        // @section val_set
        Value::Set(_) => "set",
        // @end val_set
        // @section val_piece
        Value::Piece(_) => "piece",
        // @end val_piece
        // @section val_square
        Value::Square(_) => "square",
        // @end val_square
        // @section val_move
        Value::Move(_) => "move",
        // @end val_move
    }
}
// @end type_name

// @section wrong: type_name
fn wrong(expected: &str, value: &Value) -> Fault {
    format!("expected {expected}, got {} {value}", type_name(value))
}
// @end wrong

// The typed reads of a value (§2): each needs its type's section only
// for a value of that type to exist; without one, every value is of the
// wrong type.

// @section want_integer: wrong
fn integer(value: &Value) -> Result<i64, Fault> {
    // @section val_integer
    if let Value::Integer(n) = value {
        return Ok(*n);
    }
    // @end val_integer
    Err(wrong("an integer", value))
}
// @end want_integer

// @section want_logical: wrong
fn logical(value: &Value) -> Result<bool, Fault> {
    // @section val_logical
    if let Value::Logical(b) = value {
        return Ok(*b);
    }
    // @end val_logical
    Err(wrong("a logical", value))
}
// @end want_logical

// @section want_set: wrong
fn set(value: &Value) -> Result<&[Value], Fault> {
    // @section val_set
    if let Value::Set(items) = value {
        return Ok(items);
    }
    // @end val_set
    Err(wrong("a set", value))
}
// @end want_set

// @section set_owned: wrong items
fn set_owned(value: Value) -> Result<Items, Fault> {
    // @section val_set
    if let Value::Set(items) = value {
        return Ok(items);
    }
    // @end val_set
    Err(wrong("a set", &value))
}
// @end set_owned

// @section want_move: wrong move_value_type
fn move_value(value: &Value) -> Result<MoveValue, Fault> {
    // @section val_move
    if let Value::Move(m) = value {
        return Ok(*m);
    }
    // @end val_move
    Err(wrong("a move", value))
}
// @end want_move

// @section king_distance: use_square
/// King distance between two squares.
pub fn king_distance(a: Square, b: Square) -> i64 {
    let (af, ar) = (i64::from(a % 8), i64::from(a / 8));
    let (bf, br) = (i64::from(b % 8), i64::from(b / 8));
    (af - bf).abs().max((ar - br).abs())
}
// @end king_distance

// @section opposition: use_square
/// Distant opposition (§4): file and rank differences both even, not both
/// zero.
pub fn opposition(a: Square, b: Square) -> bool {
    let df = i64::from(a % 8) - i64::from(b % 8);
    let dr = i64::from(a / 8) - i64::from(b / 8);
    df % 2 == 0 && dr % 2 == 0 && !(df == 0 && dr == 0)
}
// @end opposition

// @section value
/// The value conversion of §6.2 (§11.11): winning chances `w`, losing
/// chances `l`, certainty `c`, at ply `depth`.
pub fn convert(w: i64, l: i64, c: i64, depth: i64) -> i64 {
    let d = w.wrapping_sub(l);
    if c < 500 {
        d.wrapping_mul(128) / 100
    } else if d == 0 {
        0
    } else {
        let d = d.clamp(-500, 500);
        32 * d + d.signum() * (12416 - depth)
    }
}
// @end value

// @section index
/// A set index (§5.1, §11.8): 1 first, −1 last; `extra` allows card+1
/// (`INSERT`). Returns the 0-based position.
fn index(len: usize, i: i64, extra: bool) -> Result<usize, Fault> {
    let n = len as i64;
    let limit = if extra { n + 1 } else { n };
    let at = if i > 0 && i <= limit {
        Some(i - 1)
    } else if i < 0 && i >= -n {
        Some(n + i)
    } else {
        None
    };
    at.map(|a| a as usize)
        .ok_or_else(|| format!("index {i} out of range for a set of {len}"))
}
// @end index
