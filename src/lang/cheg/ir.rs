//! The CHEG IR: what the front end (`syntax` → `validate` → `lower`) hands to
//! the interpreter and to the back ends. Contract: `spec/cheg.md`.
//!
//! Everything is resolved: tags are statement indices, user variables are
//! slots, instructions are typed operations, conditions and orderings are
//! enums, literals are values. Nothing is looked up by name at run time.
//!
//! Statement indices count every statement of the program in source order,
//! `ENTRY` and `END` lines included (they are [`Op::Fence`]): a tag may stand
//! on them (§11.13), and falling into one means `LEAVE`, or a runtime error
//! inside a subroutine (§5.2).

/// A checked CHEG program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Every statement in source order; index = statement number.
    pub statements: Vec<Statement>,
    /// The `ENTRY` lines in source order (§6.1); the first that matches is
    /// used.
    pub entries: Vec<Entry>,
    /// Names of the user variables (upper case), indexed by [`Var::User`]
    /// slot, in order of first appearance in the source.
    pub user_vars: Vec<String>,
}

/// One statement: its operation and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// 1-based source line (for `BREAK`, runtime errors §9, and the comment
    /// on each generated case).
    pub line: u32,
    /// The source line's text, without its line end (for generated comments).
    pub text: String,
    /// What it does.
    pub op: Op,
}

/// An `ENTRY a&b,c&d,e` line (§6.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the `ENTRY` line's own statement ([`Op::Fence`]); execution
    /// starts at `statement + 1`.
    pub statement: usize,
    /// The side to move's material.
    pub mover: Material,
    /// The other side's material.
    pub other: Material,
    /// The optional pawn-difference condition `e`.
    pub pawn_diff: Option<PawnDiff>,
}

/// One side's material in an `ENTRY` (§6.1): exact piece counts besides the
/// king, and optionally an exact pawn count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    /// The class as written in canonical form (`K`, `N`, `B`, `R`, `Q`,
    /// `2N`, `BN`, `2B`, `B2N`, `2BN`, `BR`, `RN`, `2R`, `R2N`, `RBN`, `R2B`,
    /// `QN`, `QB`).
    pub class: &'static str,
    /// Queens, rooks, bishops, knights the side must have, exactly.
    pub queens: u8,
    /// Rooks.
    pub rooks: u8,
    /// Bishops.
    pub bishops: u8,
    /// Knights.
    pub knights: u8,
    /// `&kP`: exactly k pawns (0–9); `None`: any number.
    pub pawns: Option<u8>,
}

/// The `e` of an `ENTRY`: compares (side to move's pawns − other side's
/// pawns) with `m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PawnDiff {
    /// `=`, `<` or `>` (`m` alone is `=`).
    pub cmp: Compare,
    /// −9 ≤ m ≤ 9.
    pub m: i8,
}

/// A literal value (§2): what `"…` denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// `"#`
    Undefined,
    /// `"T` / `"F`
    Logical(bool),
    /// `"5`, `"-5`, `"+5`
    Integer(i64),
    /// `"(1,-2,(T,#),())`, as its value text (§9): `(1 -2 (T #) ())`,
    /// elements separated by one blank, integers in decimal. Every target
    /// builds the value from this text with the runtime's
    /// `engine::set_literal` (an explicit stack: a literal may nest any
    /// depth).
    Set(String),
}

/// The kind of a piece (K Q R B N P), for piece variables and conditions:
/// the chess runtime's own type.
pub use super::runtime::chess::Kind;

/// The small enums the runtime executes (variables, comparisons,
/// conditions, orderings, the instruction families): defined by the
/// runtime (`runtime/engine.rs`), which generated code calls with them.
pub use super::runtime::engine::{
    Binary, CallKind, Compare, Cond, Condition, Ordering, PlayKind, Test, Unary, ValueKind, Var,
};

/// An argument of kind V: a value read (§4). An empty V argument is
/// `Operand::Var(Var::X)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// Read a variable.
    Var(Var),
    /// A literal.
    Literal(Literal),
}

/// A place written (kind W) or read and written (kind U): always a writable
/// [`Var`] (`User` or `Side`). An empty W/U argument means `X`, which is
/// read-only, so it is a compile error (§3, §4).
pub type Place = Var;

/// A statement index (a resolved tag).
pub type Target = usize;

/// What one statement does (§5.1). Where several arguments are written,
/// all arguments are read first, then written left to right (§11.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// An `ENTRY` or `END` line: reaching it (by falling through or by a
    /// jump) is `LEAVE`, or a runtime error inside a subroutine (§5.2,
    /// §11.13).
    Fence,
    /// `BREAK v1,v2,v3`
    Break(Operand, Operand, Operand),
    /// `RETURN v`
    Return(Operand),
    /// `COND c,t1,t2`: call `sub` with X unchanged; if the result satisfies
    /// `cond`, go to `target`.
    Cond {
        /// c
        cond: Cond,
        /// t1
        sub: Target,
        /// t2
        target: Target,
    },
    /// `CONDV c,v,t`
    CondV {
        /// c
        cond: Cond,
        /// v
        value: Operand,
        /// t
        target: Target,
    },
    /// `CONDT t1,v,t2` (`on_true`) and `CONDF t1,v,t2` (`!on_true`).
    CondTF {
        /// true for `CONDT`, false for `CONDF`.
        on_true: bool,
        /// t1
        sub: Target,
        /// v: X for the call.
        arg: Operand,
        /// t2
        target: Target,
    },
    /// `JUMP< … JUMP#> a,b,t`
    Jump {
        /// The comparison.
        cmp: Compare,
        /// a
        a: Operand,
        /// b
        b: Operand,
        /// t
        target: Target,
    },
    /// `SET w,t,v` (`Call::Set`), `SELECT w,t,v`, `MAP w,t,v`.
    Call {
        /// Which of the three.
        kind: CallKind,
        /// w
        dst: Place,
        /// t
        sub: Target,
        /// v
        arg: Operand,
    },
    /// `OP w,v`
    Unary {
        /// The operation.
        op: Unary,
        /// w
        dst: Place,
        /// v
        a: Operand,
    },
    /// `OP w,a,b`
    Binary {
        /// The operation.
        op: Binary,
        /// w
        dst: Place,
        /// a
        a: Operand,
        /// b
        b: Operand,
    },
    /// `EXCH u1,u2`
    Exch(Place, Place),
    /// `ORDER u1,u2,o`
    Order(Place, Place, Ordering),
    /// `SELECC w,c,v`
    Selecc {
        /// w
        dst: Place,
        /// c
        cond: Cond,
        /// v
        set: Operand,
    },
    /// `SETEL v,u,i`
    SetEl {
        /// v
        value: Operand,
        /// u
        set: Place,
        /// i
        index: Operand,
    },
    /// `INSERT v,u,i`
    Insert {
        /// v
        value: Operand,
        /// u
        set: Place,
        /// i
        index: Operand,
    },
    /// `UNSERT w,u,i`
    Unsert {
        /// w
        dst: Place,
        /// u
        set: Place,
        /// i
        index: Operand,
    },
    /// `EXCHWE u1,u2,i`
    ExchWe {
        /// u1
        a: Place,
        /// u2
        set: Place,
        /// i
        index: Operand,
    },
    /// `EXCHEL u,i,j`
    ExchEl {
        /// u
        set: Place,
        /// i
        i: Operand,
        /// j
        j: Operand,
    },
    /// `PLAY`/`PLAYB`/`TRY s,c,o`
    Play {
        /// Which.
        kind: PlayKind,
        /// s
        set: Operand,
        /// c
        cond: Cond,
        /// o
        order: Ordering,
    },
    /// `PLAN t,s,v`
    Plan {
        /// t
        tag: Target,
        /// s
        set: Operand,
        /// v
        value: Operand,
    },
    /// `UNPLAN`
    Unplan,
    /// `DONE`
    Done,
    /// `LEAVE`
    Leave,
    /// `VALRET`/`VALRUT`/`VALON`/`RETBET w,l,c`
    Value {
        /// Which.
        kind: ValueKind,
        /// winning chances
        w: Operand,
        /// losing chances
        l: Operand,
        /// certainty
        c: Operand,
    },
}
