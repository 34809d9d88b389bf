//! The InfChessPro syntax tree: what the parser read, with spans (byte
//! offsets into the source) on everything a diagnostic may point at.

/// Byte range in the source text.
pub use crate::common::Span;

/// A parsed program: statement lines in file order (§1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Statements in the order of their lines.
    pub statements: Vec<Statement>,
    /// Every label read, in line order, including those of lines whose
    /// command has a syntax error (so that label order and jump targets are
    /// checked against what the author wrote, without cascading errors).
    pub labels: Vec<LabelAt>,
}

/// A label and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelAt {
    /// Its value.
    pub value: i64,
    /// Where it is written.
    pub span: Span,
    /// 1-based line number.
    pub line: usize,
}

/// One statement line (§1): `label. command suffix?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The label, 0 ≤ label ≤ 2^63−1 (§1).
    pub label: i64,
    /// Where the label is written.
    pub label_span: Span,
    /// 1-based line number.
    pub line: usize,
    /// The whole line (without `\r\n`), for comments in generated code.
    pub text: String,
    /// What the statement does.
    pub command: Command,
    /// Jump targets (§5).
    pub suffix: Suffix,
}

/// An integer field: a literal or `*` (read from input, §6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A literal in the signed 64-bit range (§2).
    Int(i64, Span),
    /// `*`: one integer read from standard input.
    Star(Span),
}

impl Operand {
    /// Where the operand is written.
    pub fn span(&self) -> Span {
        match self {
            Operand::Int(_, s) | Operand::Star(s) => s.clone(),
        }
    }
}

/// A piece name (§2): `[A-Za-z0-9_]+`, case-sensitive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name as written.
    pub text: String,
    /// Where it is written.
    pub span: Span,
}

/// Piece colour (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Upper-case letters; pawns move to larger rows.
    White,
    /// Lower-case letters; pawns move to smaller rows.
    Black,
}

/// Piece kind (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// `K`/`k`.
    King,
    /// `Q`/`q`.
    Queen,
    /// `R`/`r`.
    Rook,
    /// `B`/`b`.
    Bishop,
    /// `N`/`n`.
    Knight,
    /// `P`/`p`.
    Pawn,
}

impl PieceKind {
    /// The colour and kind of a piece letter (§2), or `None`.
    pub fn from_letter(letter: char) -> Option<(Colour, PieceKind)> {
        let kind = match letter.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'Q' => PieceKind::Queen,
            'R' => PieceKind::Rook,
            'B' => PieceKind::Bishop,
            'N' => PieceKind::Knight,
            'P' => PieceKind::Pawn,
            _ => return None,
        };
        let colour = if letter.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        Some((colour, kind))
    }
}

/// The command of a statement (§4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `name=Lr,c` (§4.1).
    Place {
        /// The new piece's name.
        name: Name,
        /// Colour from the letter's case.
        colour: Colour,
        /// Kind from the letter.
        kind: PieceKind,
        /// Row.
        row: Operand,
        /// Column.
        col: Operand,
    },
    /// `r1,c1,r2,c2` (§4.2).
    MoveSquares {
        /// Row and column of the square moved from.
        from: (Operand, Operand),
        /// Row and column of the square moved to.
        to: (Operand, Operand),
    },
    /// `name,r,c` (§4.3).
    MoveNameTo {
        /// Which pieces to try.
        name: Name,
        /// Target row.
        row: Operand,
        /// Target column.
        col: Operand,
    },
    /// `name;dr,dc` (§4.4).
    MoveNameBy {
        /// Which pieces to try.
        name: Name,
        /// Row offset.
        drow: Operand,
        /// Column offset.
        dcol: Operand,
    },
    /// `^` (§4.5).
    Nothing,
    /// `"text` (§4.6): the text, verbatim, without the newline it prints.
    Text(String),
    /// `%name` (§4.7).
    Count(Name),
}

/// Jump targets after a command (§5).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Suffix {
    /// `?T`: where to go when the command succeeded.
    pub on_success: Option<Operand>,
    /// `!T`: where to go when the command failed.
    pub on_failure: Option<Operand>,
    /// True when `!` is written before `?` (matters for the input order, §6).
    pub failure_first: bool,
}
