//! The CHEG front end in one pass per line: source text → statements
//! (§1) → checked, resolved [`ir::Program`] (§2–§6, §8, §11).
//!
//! Each line is split into an optional tag, an instruction and its
//! arguments (§1: commas and/or runs of blanks separate arguments, adjacent
//! commas make an empty one). Each argument is then read as its kind says
//! (§4: V, W, U, T, C, O). Tags are resolved once every line is read, so
//! a jump may go forward. Every error is reported, sorted by position; the
//! 6-character warning of §1 (§11.26) is the only warning.

use super::Checked;
use super::ir::{
    self, Binary, CallKind, Compare, Cond, Condition, Entry, Kind, Literal, Material, Op, Operand,
    Ordering, PawnDiff, PlayKind, Statement, Test, Unary, ValueKind, Var,
};
use crate::common::Span;
use crate::common::diagnostic::Diagnostic;
use std::collections::BTreeMap;

/// The kind of an argument (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ArgKind {
    /// A value read.
    V,
    /// A variable written.
    W,
    /// A variable read and written.
    U,
    /// A tag.
    T,
    /// A condition.
    C,
    /// An ordering.
    O,
}

use ArgKind::{C, O, T, U, V, W};

/// Every instruction of §5.1 with its argument kinds.
pub(super) const INSTRUCTIONS: &[(&str, &[ArgKind])] = &[
    ("BREAK", &[V, V, V]),
    ("RETURN", &[V]),
    ("COND", &[C, T, T]),
    ("CONDV", &[C, V, T]),
    ("CONDT", &[T, V, T]),
    ("CONDF", &[T, V, T]),
    ("JUMP<", &[V, V, T]),
    ("JUMP=", &[V, V, T]),
    ("JUMP>", &[V, V, T]),
    ("JUMP#<", &[V, V, T]),
    ("JUMP#=", &[V, V, T]),
    ("JUMP#>", &[V, V, T]),
    ("SET", &[W, T, V]),
    ("SETV", &[W, V]),
    ("SETSQ", &[W, V, V]),
    ("SETMOV", &[W, V, V]),
    ("EXCH", &[U, U]),
    ("ORDER", &[U, U, O]),
    ("SELECT", &[W, T, V]),
    ("SELECC", &[W, C, V]),
    ("MAP", &[W, T, V]),
    ("PAIR", &[W, V, V]),
    ("MEMBER", &[W, V, V]),
    ("MEMNUM", &[W, V, V]),
    ("INTERS", &[W, V, V]),
    ("UNION", &[W, V, V]),
    ("DIFFER", &[W, V, V]),
    ("APPEND", &[W, V, V]),
    ("CARD", &[W, V]),
    ("GETEL", &[W, V, V]),
    ("SETEL", &[V, U, V]),
    ("INSERT", &[V, U, V]),
    ("UNSERT", &[W, U, V]),
    ("EXCHWE", &[U, U, V]),
    ("EXCHEL", &[U, V, V]),
    ("PIECE", &[W, V]),
    ("SQUARE", &[W, V]),
    ("SIDE", &[W, V]),
    ("RANK", &[W, V]),
    ("FILE", &[W, V]),
    ("SCOLOR", &[W, V]),
    ("PCOLOR", &[W, V]),
    ("MVDIST", &[W, V, V]),
    ("INSQ", &[W, V, V]),
    ("OPP", &[W, V, V]),
    ("SQ>RNK", &[W, V, V]),
    ("NOR", &[W, V, V]),
    ("AND", &[W, V, V]),
    ("OR", &[W, V, V]),
    ("ADD", &[W, V, V]),
    ("SUB", &[W, V, V]),
    ("MUL", &[W, V, V]),
    ("DIV", &[W, V, V]),
    ("MOD", &[W, V, V]),
    ("DIF", &[W, V, V]),
    ("MIN", &[W, V, V]),
    ("MAX", &[W, V, V]),
    ("ABS", &[W, V]),
    ("PLAY", &[V, C, O]),
    ("PLAYB", &[V, C, O]),
    ("TRY", &[V, C, O]),
    ("PLAN", &[T, V, V]),
    ("UNPLAN", &[]),
    ("DONE", &[]),
    ("LEAVE", &[]),
    ("VALRET", &[V, V, V]),
    ("VALRUT", &[V, V, V]),
    ("VALON", &[V, V, V]),
    ("RETBET", &[V, V, V]),
    ("ENTRY", &[]),
    ("END", &[]),
];

/// The conditions of §4, by name.
pub(super) const CONDITIONS: &[(&str, Test)] = &[
    ("DEFD", Test::Defd),
    ("=0", Test::Zero),
    ("<0", Test::Negative),
    (">0", Test::Positive),
    ("ODD", Test::Odd),
    ("T", Test::True),
    ("EMPTY", Test::Empty),
    ("FAR", Test::Far),
    ("RF", Test::RookFile),
    ("NF", Test::KnightFile),
    ("NNF", Test::Nnf),
    ("WSQ", Test::LightSquare),
    ("KING", Test::Kind(Kind::King)),
    ("QUEEN", Test::Kind(Kind::Queen)),
    ("ROOK", Test::Kind(Kind::Rook)),
    ("BISH", Test::Kind(Kind::Bishop)),
    ("NIGHT", Test::Kind(Kind::Knight)),
    ("PAWN", Test::Kind(Kind::Pawn)),
    ("WPC", Test::MoverPiece),
    ("PASSD", Test::Passed),
    ("PDP", Test::PawnDefended),
    ("CAPT", Test::Capture),
    ("CHECK", Test::Check),
    ("SAFE", Test::Safe),
    ("OPP", Test::Opposition),
    ("RWK=", Test::KeepsKingRank),
];

/// The material classes of `ENTRY` (§6.1, §11.27): name, canonical name,
/// queens, rooks, bishops, knights.
pub(super) const CLASSES: &[(&str, &str, u8, u8, u8, u8)] = &[
    ("K", "K", 0, 0, 0, 0),
    ("N", "N", 0, 0, 0, 1),
    ("B", "B", 0, 0, 1, 0),
    ("R", "R", 0, 1, 0, 0),
    ("Q", "Q", 1, 0, 0, 0),
    ("2N", "2N", 0, 0, 0, 2),
    ("BN", "BN", 0, 0, 1, 1),
    ("2B", "2B", 0, 0, 2, 0),
    ("B2N", "B2N", 0, 0, 1, 2),
    ("2BN", "2BN", 0, 0, 2, 1),
    ("BR", "BR", 0, 1, 1, 0),
    ("RB", "BR", 0, 1, 1, 0),
    ("RN", "RN", 0, 1, 0, 1),
    ("2R", "2R", 0, 2, 0, 0),
    ("R2N", "R2N", 0, 1, 0, 2),
    ("RBN", "RBN", 0, 1, 1, 1),
    ("R2B", "R2B", 0, 1, 2, 0),
    ("QN", "QN", 1, 0, 0, 1),
    ("QB", "QB", 1, 0, 1, 0),
];

/// One argument as written: its text (empty for an empty argument) and
/// where it is (for an empty one, where it would be).
#[derive(Clone, Debug)]
pub(super) struct Arg {
    /// The text as written.
    pub(super) text: String,
    /// Where it is.
    pub(super) span: Span,
}

/// A statement line split into its parts.
pub(super) struct Line {
    /// Its line number, from 1.
    pub(super) number: u32,
    /// The whole line as written, comment included.
    pub(super) text: String,
    /// The statement, from its first to its last non-blank character
    /// before the comment.
    pub(super) span: Span,
    /// The tag, upper-cased, and where it is written (without its `:`).
    pub(super) tag: Option<(String, Span)>,
    /// The instruction, upper-cased.
    pub(super) name: String,
    /// Where the instruction is written.
    pub(super) name_span: Span,
    /// The arguments, empty ones included.
    pub(super) args: Vec<Arg>,
}

/// See [`super::check`].
pub fn check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let lines = split_lines(source, &mut errors);

    // Tags first (they are global, §1), so jumps may go forward.
    let mut tags: BTreeMap<String, usize> = BTreeMap::new();
    for (index, line) in lines.iter().enumerate() {
        if let Some((tag, span)) = &line.tag {
            if tags.contains_key(tag) {
                errors.push(
                    Diagnostic::error(span.clone(), format!("tag {tag} defined twice (§8)"))
                        .with_label("defined again here"),
                );
            } else {
                tags.insert(tag.clone(), index);
            }
        }
    }

    let mut lowering = Lowering {
        tags: &tags,
        user_vars: Vec::new(),
        slots: BTreeMap::new(),
        errors: &mut errors,
    };
    let mut statements = Vec::with_capacity(lines.len());
    let mut entries = Vec::new();
    let mut end_at: Option<usize> = None;
    for (index, line) in lines.iter().enumerate() {
        let op = match line.name.as_str() {
            "ENTRY" => {
                if let Some(entry) = lowering.entry(line, index) {
                    entries.push(entry);
                }
                Op::Fence
            }
            "END" => {
                if !line.args.is_empty() {
                    lowering.errors.push(
                        Diagnostic::error(line.args[0].span.clone(), "END takes no arguments (§1)")
                            .with_label("unexpected"),
                    );
                }
                if end_at.is_none() {
                    end_at = Some(index);
                }
                Op::Fence
            }
            _ => lowering.statement(line).unwrap_or(Op::Leave),
        };
        statements.push(Statement {
            line: line.number,
            text: line.text.clone(),
            op,
        });
    }
    let user_vars = lowering.user_vars;

    // Program shape (§1, §11.19).
    match (end_at, lines.last()) {
        (_, None) => errors.push(Diagnostic::error(
            0..0,
            "empty program: a CHEG program needs at least one ENTRY and an END (§1)",
        )),
        (Some(end), Some(_)) if end + 1 < lines.len() => {
            let after = &lines[end + 1];
            errors.push(
                Diagnostic::error(
                    after.span.clone(),
                    "a statement after END: END must be last (§1, §8)",
                )
                .with_secondary(lines[end].span.clone(), "END is here"),
            );
        }
        (None, Some(last)) => errors.push(
            Diagnostic::error(
                last.span.clone(),
                "END missing: a program ends with END (§1, §8)",
            )
            .with_label("the last statement"),
        ),
        _ => {}
    }
    if entries.is_empty()
        && !lines.iter().any(|l| l.name == "ENTRY")
        && let Some(at) = end_at.map(|e| &lines[e]).or(lines.last())
    {
        errors.push(
            Diagnostic::error(
                at.span.clone(),
                "no ENTRY: a program needs at least one (§1, §8)",
            )
            .with_note("an ENTRY line names the material it handles, e.g. `ENTRY Q,K` (§6.1)"),
        );
    }

    let mut warnings = six_character_warnings(&lines, &user_vars);
    errors.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    warnings.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    if errors.is_empty() {
        Ok(Checked {
            program: ir::Program {
                statements,
                entries,
                user_vars: user_vars.into_iter().map(|(name, _)| name).collect(),
            },
            warnings,
        })
    } else {
        Err(errors)
    }
}

/// Splits the source into statement lines (§1): comments and blank lines
/// dropped, `\r` before `\n` dropped, names folded to upper case.
fn split_lines(source: &str, errors: &mut Vec<Diagnostic>) -> Vec<Line> {
    let mut lines = Vec::new();
    for line in crate::common::source::lines(source) {
        let (raw, offset) = (line.text, line.start);
        let code = match raw.find(';') {
            Some(at) => &raw[..at],
            None => raw,
        };
        if code.trim_matches(is_blank).is_empty() {
            continue;
        }
        let number = u32::try_from(line.number).unwrap_or(u32::MAX);
        if let Some(line) = split_statement(code, offset, number, raw, errors) {
            lines.push(line);
        }
    }
    lines
}

/// The statement lines of `source` as [`check`] splits them (§1), for the
/// outline: a line that does not split (a malformed tag, a tag alone, an
/// unclosed set literal) is left out, as `check` leaves it out after
/// reporting it.
pub(super) fn statement_lines(source: &str) -> Vec<Line> {
    split_lines(source, &mut Vec::new())
}

/// Blanks as §1 reads them: space, tab, form feed, vertical tab.
pub(super) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\x0c' || c == '\x0b'
}

/// A statement line as [`check`] splits it (§1), for the formatter: where
/// its tag and its instruction are written and its arguments' texts
/// (empty ones included). `code` is the line without its comment and
/// `offset` where it starts in the source. `None` for a line that does not
/// split (a malformed tag, an unclosed set literal).
pub(super) fn statement_parts(code: &str, offset: usize) -> Option<StatementParts> {
    let mut errors = Vec::new();
    let line = split_statement(code, offset, 0, code, &mut errors)?;
    errors.is_empty().then(|| StatementParts {
        tag: line.tag.map(|(_, span)| span),
        name: line.name_span,
        args: line.args.into_iter().map(|arg| arg.text).collect(),
    })
}

/// See [`statement_parts`].
pub(super) struct StatementParts {
    /// The tag, without its `:`.
    pub tag: Option<Span>,
    /// The instruction.
    pub name: Span,
    /// Every argument's text, as written (an empty argument is empty).
    pub args: Vec<String>,
}

/// A name (§1): a letter followed by letters and digits.
pub(super) fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric())
}

/// Splits one statement line: `[TAG:] INSTRUCTION [ARG {, ARG}]` (§1).
fn split_statement(
    code: &str,
    offset: usize,
    number: u32,
    raw: &str,
    errors: &mut Vec<Diagnostic>,
) -> Option<Line> {
    let trimmed_start = code.len() - code.trim_start_matches(is_blank).len();
    let trimmed_end = code.trim_end_matches(is_blank).len();
    let span = offset + trimmed_start..offset + trimmed_end;
    let mut pos = trimmed_start;
    let bytes = code.as_bytes();
    let word_end = |from: usize| {
        code[from..]
            .find(|c: char| is_blank(c) || c == ',')
            .map_or(code.len(), |e| from + e)
    };

    // The tag: a name followed at once by `:`.
    let mut tag = None;
    let first_end = word_end(pos);
    if let Some(colon) = code[pos..first_end].find(':') {
        let name = &code[pos..pos + colon];
        let tag_span = offset + pos..offset + pos + colon;
        if !is_name(name) {
            errors.push(
                Diagnostic::error(
                    tag_span.clone().start..offset + pos + colon + 1,
                    format!("malformed tag `{name}`: a tag is a letter followed by letters and digits (§1)"),
                )
                .with_label("not a tag"),
            );
            return None;
        }
        tag = Some((name.to_ascii_uppercase(), tag_span));
        pos += colon + 1;
        while pos < code.len() && is_blank(bytes[pos] as char) {
            pos += 1;
        }
        if pos >= trimmed_end {
            let (_, tag_span) = tag.as_ref()?;
            errors.push(
                Diagnostic::error(
                    tag_span.clone(),
                    "a tag with no instruction after it (§11.13)",
                )
                .with_label("tags the empty statement")
                .with_note("put the tag on the line of the statement it names"),
            );
            return None;
        }
    }

    // The instruction: a run of characters up to a blank (or a comma).
    let name_end = word_end(pos);
    let name = code[pos..name_end].to_ascii_uppercase();
    let name_span = offset + pos..offset + name_end;
    let args = split_args(&code[name_end..trimmed_end], offset + name_end, errors)?;
    Some(Line {
        number,
        text: raw.to_string(),
        span,
        tag,
        name,
        name_span,
        args,
    })
}

/// Splits an argument list (§1): commas and/or runs of blanks separate
/// arguments; adjacent commas make an empty one; a set literal `"( … )`
/// may hold commas and blanks.
fn split_args(text: &str, offset: usize, errors: &mut Vec<Diagnostic>) -> Option<Vec<Arg>> {
    let bytes = text.as_bytes();
    let mut args: Vec<Arg> = Vec::new();
    let mut current: Option<Arg> = None;
    let mut saw_comma = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if is_blank(c as char) {
            i += 1;
        } else if c == b',' {
            let empty = Arg {
                text: String::new(),
                span: offset + i..offset + i,
            };
            args.push(current.take().unwrap_or(empty));
            saw_comma = true;
            i += 1;
        } else {
            let start = i;
            if c == b'"' && bytes.get(i + 1) == Some(&b'(') {
                // A set literal runs to its matching parenthesis.
                let mut depth = 0usize;
                let mut j = i + 1;
                let mut closed = false;
                while j < bytes.len() {
                    match bytes[j] {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                closed = true;
                                j += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if !closed {
                    errors.push(
                        Diagnostic::error(
                            offset + i..offset + bytes.len(),
                            "malformed literal: unclosed set (§2, §8)",
                        )
                        .with_label("no `)` closes this set"),
                    );
                    return None;
                }
                i = j;
            } else {
                while i < bytes.len() && !is_blank(bytes[i] as char) && bytes[i] != b',' {
                    i += 1;
                }
            }
            if let Some(previous) = current.take() {
                // A run of blanks between two arguments separates them.
                args.push(previous);
            }
            current = Some(Arg {
                text: text[start..i].to_string(),
                span: offset + start..offset + i,
            });
        }
    }
    match current {
        Some(arg) => args.push(arg),
        None if saw_comma => args.push(Arg {
            text: String::new(),
            span: offset + bytes.len()..offset + bytes.len(),
        }),
        None => {}
    }
    Some(args)
}

/// Lowering state: tags, user-variable slots, the error list.
struct Lowering<'a> {
    tags: &'a BTreeMap<String, usize>,
    /// Names in slot order, with the span of their first appearance.
    user_vars: Vec<(String, Span)>,
    slots: BTreeMap<String, u32>,
    errors: &'a mut Vec<Diagnostic>,
}

fn number_word(n: usize) -> String {
    match n {
        0 => "no".into(),
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        5 => "five".into(),
        n => n.to_string(),
    }
}

/// Edit distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

fn nearest<'n>(name: &str, known: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    known
        .map(|k| (distance(name, k), k))
        .filter(|(d, k)| *d <= if k.len() <= 4 { 1 } else { 2 })
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

impl Lowering<'_> {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(Diagnostic::error(span, message));
    }

    /// Lowers one instruction line; `None` after reporting its errors.
    fn statement(&mut self, line: &Line) -> Option<Op> {
        let Some((_, kinds)) = INSTRUCTIONS.iter().find(|(n, _)| *n == line.name) else {
            let mut d = Diagnostic::error(
                line.name_span.clone(),
                format!("unknown instruction {} (§5.1, §8)", line.name),
            )
            .with_label("not an instruction");
            if let Some(near) = nearest(&line.name, INSTRUCTIONS.iter().map(|(n, _)| *n)) {
                d = d.with_note(format!("help: did you mean {near}?")).with_fix(
                    format!("Change to {near}"),
                    line.name_span.clone(),
                    near,
                );
            }
            self.errors.push(d);
            return None;
        };
        if line.args.len() > kinds.len() {
            let extra = &line.args[kinds.len()];
            self.errors.push(
                Diagnostic::error(
                    extra.span.clone(),
                    format!(
                        "{} takes {} argument{}, {} given (§5.1, §8)",
                        line.name,
                        number_word(kinds.len()),
                        if kinds.len() == 1 { "" } else { "s" },
                        number_word(line.args.len())
                    ),
                )
                .with_label("one too many")
                .with_note("an empty argument counts too (§11.14)"),
            );
            return None;
        }
        let empty_at = line.args.last().map_or(line.name_span.end, |a| a.span.end);
        let arg = |i: usize| -> Arg {
            line.args.get(i).cloned().unwrap_or(Arg {
                text: String::new(),
                span: empty_at..empty_at,
            })
        };
        // Read every argument as its kind says, reporting every error.
        let mut values = Vec::with_capacity(kinds.len());
        let mut ok = true;
        for (i, kind) in kinds.iter().enumerate() {
            let a = arg(i);
            let value = match kind {
                V => self.operand(&a).map(Lowered::Operand),
                W | U => self.place(&a, *kind).map(Lowered::Place),
                T => self.tag(&a).map(Lowered::Target),
                C => self.condition(&a).map(Lowered::Cond),
                O => self.ordering(&a).map(Lowered::Ordering),
            };
            match value {
                Some(v) => values.push(v),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        Some(build(&line.name, values))
    }

    fn user_var(&mut self, name: &str, span: &Span) -> Var {
        if let Some(&slot) = self.slots.get(name) {
            return Var::User(slot);
        }
        let slot = u32::try_from(self.user_vars.len()).unwrap_or(u32::MAX);
        self.slots.insert(name.to_string(), slot);
        self.user_vars.push((name.to_string(), span.clone()));
        Var::User(slot)
    }

    /// A variable name (already known to be a name), folded.
    fn variable(&mut self, name: &str, span: &Span) -> Var {
        match name {
            "X" => Var::X,
            "DEPTH" => Var::Depth,
            "PLIES" => Var::Plies,
            "LM" => Var::Lm,
            "PG" => Var::Pg,
            "SIDE" => Var::Side,
            _ => piece_variable(name).unwrap_or_else(|| self.user_var(name, span)),
        }
    }

    /// A V argument: a variable, a literal, or empty (`X`).
    fn operand(&mut self, arg: &Arg) -> Option<Operand> {
        if arg.text.is_empty() {
            return Some(Operand::Var(Var::X));
        }
        if let Some(body) = arg.text.strip_prefix('"') {
            return match parse_literal(body) {
                Ok(literal) => Some(Operand::Literal(literal)),
                Err(message) => {
                    self.error(arg.span.clone(), format!("{message} (§2, §8)"));
                    None
                }
            };
        }
        let name = arg.text.to_ascii_uppercase();
        if !is_name(&name) {
            self.errors.push(
                Diagnostic::error(
                    arg.span.clone(),
                    format!("malformed argument `{}`: expected a variable or a literal (§4)", arg.text),
                )
                .with_note("a variable is a letter followed by letters and digits; a literal starts with `\"` (§2)"),
            );
            return None;
        }
        Some(Operand::Var(self.variable(&name, &arg.span)))
    }

    /// A W or U argument: a writable variable (§3, §4).
    fn place(&mut self, arg: &Arg, kind: ArgKind) -> Option<Var> {
        let what = if kind == W {
            "written"
        } else {
            "read and written"
        };
        if arg.text.is_empty() {
            self.errors.push(
                Diagnostic::error(
                    arg.span.clone(),
                    format!("an empty {what} argument means X, which is read-only (§4, §3)"),
                )
                .with_label("a variable is needed here"),
            );
            return None;
        }
        if arg.text.starts_with('"') {
            self.errors.push(
                Diagnostic::error(
                    arg.span.clone(),
                    format!("a literal where a variable is {what} (§2, §8)"),
                )
                .with_label("not a variable"),
            );
            return None;
        }
        let var = match self.operand(arg)? {
            Operand::Var(var) => var,
            Operand::Literal(_) => return None,
        };
        if !var.is_writable() {
            self.errors.push(
                Diagnostic::error(
                    arg.span.clone(),
                    format!(
                        "a write to the read-only variable {} (§3, §8)",
                        arg.text.to_ascii_uppercase()
                    ),
                )
                .with_label("read-only")
                .with_note("only user variables and SIDE may be written (§3)"),
            );
            return None;
        }
        Some(var)
    }

    /// A T argument: a tag defined somewhere (§4).
    fn tag(&mut self, arg: &Arg) -> Option<usize> {
        if arg.text.is_empty() {
            self.errors.push(
                Diagnostic::error(arg.span.clone(), "a missing tag (an empty T argument, §4)")
                    .with_label("a tag is needed here"),
            );
            return None;
        }
        if arg.text.starts_with('"') {
            self.errors.push(
                Diagnostic::error(
                    arg.span.clone(),
                    "a literal where a tag is needed (kind T, §4, §8)",
                )
                .with_label("not a tag"),
            );
            return None;
        }
        let name = arg.text.to_ascii_uppercase();
        if let Some(&index) = self.tags.get(&name) {
            return Some(index);
        }
        let mut d = Diagnostic::error(arg.span.clone(), format!("undefined tag {name} (§4, §8)"))
            .with_label("no statement has this tag");
        if let Some(near) = nearest(&name, self.tags.keys().map(String::as_str)) {
            d = d.with_note(format!("help: did you mean {near}?")).with_fix(
                format!("Change to {near}"),
                arg.span.clone(),
                near,
            );
        }
        self.errors.push(d);
        None
    }

    /// A C argument (§4): empty is "always"; `#` negates.
    fn condition(&mut self, arg: &Arg) -> Option<Cond> {
        if arg.text.is_empty() {
            return Some(None);
        }
        let text = arg.text.to_ascii_uppercase();
        let (negated, name) = match text.strip_prefix('#') {
            Some(rest) => (true, rest),
            None => (false, text.as_str()),
        };
        if let Some((_, test)) = CONDITIONS.iter().find(|(n, _)| *n == name) {
            let condition: Condition = (negated, *test);
            return Some(Some(condition));
        }
        let message = if name.is_empty() {
            "`#` alone is not a condition (§4, §11.13)".to_string()
        } else {
            format!("unknown condition {name} (§4, §8)")
        };
        let names: Vec<&str> = CONDITIONS.iter().map(|(n, _)| *n).collect();
        self.errors.push(
            Diagnostic::error(arg.span.clone(), message)
                .with_label("not a condition")
                .with_note(format!(
                    "conditions: {} (each may follow `#`)",
                    names.join(" ")
                )),
        );
        None
    }

    /// An O argument (§4).
    fn ordering(&mut self, arg: &Arg) -> Option<Ordering> {
        match arg.text.to_ascii_uppercase().as_str() {
            "" => Some(Ordering::AsGiven),
            "DEEP" => Some(Ordering::Deep),
            "#DEEP" => Some(Ordering::Shallow),
            other => {
                self.errors.push(
                    Diagnostic::error(
                        arg.span.clone(),
                        format!("unknown ordering {other} (§4, §8)"),
                    )
                    .with_label("not an ordering")
                    .with_note("orderings: DEEP, #DEEP, or empty for \"as given\""),
                );
                None
            }
        }
    }

    /// An `ENTRY a&b,c&d,e` line (§6.1, §11.27).
    fn entry(&mut self, line: &Line, index: usize) -> Option<Entry> {
        let malformed = |this: &mut Self, span: Span, what: String| {
            this.errors.push(
                Diagnostic::error(span, format!("malformed ENTRY: {what} (§6.1, §8)")).with_note(
                    "ENTRY takes two classes and an optional pawn condition: `ENTRY R&0P,K,>1`",
                ),
            );
        };
        if line.args.len() < 2 || line.args.len() > 3 {
            let span = line
                .args
                .get(3)
                .map_or(line.span.clone(), |a| a.span.clone());
            malformed(
                self,
                span,
                format!(
                    "two classes and an optional condition, {} arguments given",
                    line.args.len()
                ),
            );
            return None;
        }
        let mover = self.material(&line.args[0]);
        let other = self.material(&line.args[1]);
        let pawn_diff = match line.args.get(2) {
            None => None,
            Some(arg) if arg.text.is_empty() => None,
            Some(arg) => {
                let (cmp, number) = match arg.text.as_bytes()[0] {
                    b'=' => (Compare::Eq, &arg.text[1..]),
                    b'<' => (Compare::Lt, &arg.text[1..]),
                    b'>' => (Compare::Gt, &arg.text[1..]),
                    _ => (Compare::Eq, arg.text.as_str()),
                };
                match number.parse::<i64>() {
                    Ok(m) if (-9..=9).contains(&m) => Some(PawnDiff { cmp, m: m as i8 }),
                    Ok(m) => {
                        malformed(self, arg.span.clone(), format!("m = {m} out of -9..9"));
                        return None;
                    }
                    Err(_) => {
                        malformed(
                            self,
                            arg.span.clone(),
                            format!("`{}` is not =m, <m, >m or m", arg.text),
                        );
                        return None;
                    }
                }
            }
        };
        Some(Entry {
            statement: index,
            mover: mover?,
            other: other?,
            pawn_diff,
        })
    }

    /// One side's material: `class[&kP]`.
    fn material(&mut self, arg: &Arg) -> Option<Material> {
        let text = arg.text.to_ascii_uppercase();
        let (class, pawns) = match text.split_once('&') {
            Some((class, pawns)) => (class, Some(pawns)),
            None => (text.as_str(), None),
        };
        let Some(&(_, canonical, queens, rooks, bishops, knights)) =
            CLASSES.iter().find(|(n, ..)| *n == class)
        else {
            let names: Vec<&str> = CLASSES.iter().map(|c| c.0).collect();
            self.errors.push(
                Diagnostic::error(
                    arg.span.clone(),
                    format!(
                        "malformed ENTRY: unknown class {} (§6.1, §8)",
                        if class.is_empty() { "(empty)" } else { class }
                    ),
                )
                .with_label("not a class")
                .with_note(format!("classes: {}", names.join(" "))),
            );
            return None;
        };
        let pawns = match pawns {
            None => None,
            Some(p) => {
                let count = p.strip_suffix('P').map(|n| {
                    if n.is_empty() {
                        Ok(1)
                    } else {
                        n.parse::<u64>()
                    }
                });
                match count {
                    Some(Ok(k)) if k <= 9 => Some(k as u8),
                    Some(Ok(k)) => {
                        self.errors.push(Diagnostic::error(
                            arg.span.clone(),
                            format!("malformed ENTRY: pawns {k} out of 0-9 (§6.1, §8)"),
                        ));
                        return None;
                    }
                    _ => {
                        self.errors.push(
                            Diagnostic::error(
                                arg.span.clone(),
                                format!(
                                    "malformed ENTRY: `&{p}` is not a pawn count `&kP` (§6.1, §8)"
                                ),
                            )
                            .with_note("write `&P` for one pawn, `&0P` for none, `&3P` for three"),
                        );
                        return None;
                    }
                }
            }
        };
        Some(Material {
            class: canonical,
            queens,
            rooks,
            bishops,
            knights,
            pawns,
        })
    }
}

/// A piece variable name: `W`/`B`, a kind letter, an optional index
/// (`WR2`, `BP8`; §3).
pub(super) fn piece_variable(name: &str) -> Option<Var> {
    let bytes = name.as_bytes();
    let mover = match bytes.first()? {
        b'W' => true,
        b'B' => false,
        _ => return None,
    };
    let (kind, count) = match bytes.get(1)? {
        b'K' => (Kind::King, 1),
        b'Q' => (Kind::Queen, 1),
        b'R' => (Kind::Rook, 2),
        b'B' => (Kind::Bishop, 2),
        b'N' => (Kind::Knight, 2),
        b'P' => (Kind::Pawn, 8),
        _ => return None,
    };
    let index = match &bytes[2..] {
        [] => 0,
        [d @ b'2'..=b'8'] if (d - b'0') <= count => d - b'1',
        _ => return None,
    };
    Some(Var::Piece { mover, kind, index })
}

/// Parses what follows `"` (§2, §11.21).
fn parse_literal(body: &str) -> Result<Literal, String> {
    let upper = body.to_ascii_uppercase();
    match upper.as_str() {
        "T" => return Ok(Literal::Logical(true)),
        "F" => return Ok(Literal::Logical(false)),
        "#" => return Ok(Literal::Undefined),
        _ => {}
    }
    if body.starts_with('(') {
        let mut pos = 0;
        let text = parse_set(upper.as_bytes(), &mut pos)?;
        if pos != upper.len() {
            return Err(format!("malformed literal \"{body}: text after the set"));
        }
        return Ok(Literal::Set(text));
    }
    parse_integer(body).map(Literal::Integer)
}

fn parse_integer(text: &str) -> Result<i64, String> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("malformed literal \"{text}"));
    }
    let unsigned = text.strip_prefix('+').unwrap_or(text);
    unsigned
        .parse::<i64>()
        .map_err(|_| format!("a literal out of the 64-bit range: \"{text}"))
}

/// A set `( … )` at `bytes[*pos]`; elements: integers, T, F, #, sets,
/// separated by commas and/or blanks (§11.21). Returns its value text
/// (§9), the IR's form of a set literal ([`Literal::Set`]). Nested sets are
/// read in one loop that counts the sets still open, so any depth is
/// fine: the contract sets no limit.
fn parse_set(bytes: &[u8], pos: &mut usize) -> Result<String, String> {
    let mut text = String::from("(");
    *pos += 1; // `(`
    let mut depth = 1usize;
    let mut first = true; // no element yet in the innermost open set
    let mut need_element = false; // after a comma
    loop {
        while *pos < bytes.len() && is_blank(bytes[*pos] as char) {
            *pos += 1;
        }
        match bytes.get(*pos) {
            None => return Err("malformed literal: unclosed set".into()),
            Some(b')') => {
                if need_element {
                    return Err("malformed literal: an empty set element".into());
                }
                *pos += 1;
                text.push(')');
                depth -= 1;
                if depth == 0 {
                    return Ok(text);
                }
            }
            Some(b',') => return Err("malformed literal: an empty set element".into()),
            Some(b'(') => {
                *pos += 1;
                if !first {
                    text.push(' ');
                }
                text.push('(');
                depth += 1;
                first = true;
                need_element = false;
                continue;
            }
            Some(_) => {
                let start = *pos;
                while *pos < bytes.len()
                    && !matches!(bytes[*pos], b',' | b'(' | b')')
                    && !is_blank(bytes[*pos] as char)
                {
                    *pos += 1;
                }
                let word = std::str::from_utf8(&bytes[start..*pos]).unwrap_or("?");
                if !first {
                    text.push(' ');
                }
                match word {
                    "T" | "F" | "#" => text.push_str(word),
                    _ => {
                        let n = parse_integer(word).map_err(|e| {
                            if e.starts_with("malformed") {
                                format!("malformed literal: set element `{word}`")
                            } else {
                                e
                            }
                        })?;
                        text.push_str(&n.to_string());
                    }
                }
            }
        }
        // After an element: blanks, then a comma, `)` or another element.
        first = false;
        while *pos < bytes.len() && is_blank(bytes[*pos] as char) {
            *pos += 1;
        }
        need_element = false;
        if bytes.get(*pos) == Some(&b',') {
            *pos += 1;
            need_element = true;
        }
    }
}

/// A lowered argument, before the statement is built.
enum Lowered {
    Operand(Operand),
    Place(Var),
    Target(usize),
    Cond(Cond),
    Ordering(Ordering),
}

/// Builds the operation from its lowered arguments (their kinds already
/// match the instruction's row of [`INSTRUCTIONS`]).
fn build(name: &str, values: Vec<Lowered>) -> Op {
    let mut args = Args(values.into_iter());
    if let Some(op) = binary(name) {
        let (dst, a, b) = (args.place(), args.operand(), args.operand());
        return Op::Binary { op, dst, a, b };
    }
    if let Some(op) = unary(name) {
        let (dst, a) = (args.place(), args.operand());
        return Op::Unary { op, dst, a };
    }
    match name {
        "BREAK" => Op::Break(args.operand(), args.operand(), args.operand()),
        "RETURN" => Op::Return(args.operand()),
        "COND" => Op::Cond {
            cond: args.cond(),
            sub: args.target(),
            target: args.target(),
        },
        "CONDV" => Op::CondV {
            cond: args.cond(),
            value: args.operand(),
            target: args.target(),
        },
        "CONDT" | "CONDF" => Op::CondTF {
            on_true: name == "CONDT",
            sub: args.target(),
            arg: args.operand(),
            target: args.target(),
        },
        "SET" | "SELECT" | "MAP" => Op::Call {
            kind: match name {
                "SET" => CallKind::Set,
                "SELECT" => CallKind::Select,
                _ => CallKind::Map,
            },
            dst: args.place(),
            sub: args.target(),
            arg: args.operand(),
        },
        "EXCH" => Op::Exch(args.place(), args.place()),
        "ORDER" => Op::Order(args.place(), args.place(), args.ordering()),
        "SELECC" => Op::Selecc {
            dst: args.place(),
            cond: args.cond(),
            set: args.operand(),
        },
        "SETEL" => Op::SetEl {
            value: args.operand(),
            set: args.place(),
            index: args.operand(),
        },
        "INSERT" => Op::Insert {
            value: args.operand(),
            set: args.place(),
            index: args.operand(),
        },
        "UNSERT" => Op::Unsert {
            dst: args.place(),
            set: args.place(),
            index: args.operand(),
        },
        "EXCHWE" => Op::ExchWe {
            a: args.place(),
            set: args.place(),
            index: args.operand(),
        },
        "EXCHEL" => Op::ExchEl {
            set: args.place(),
            i: args.operand(),
            j: args.operand(),
        },
        "PLAY" | "PLAYB" | "TRY" => Op::Play {
            kind: match name {
                "PLAY" => PlayKind::Play,
                "PLAYB" => PlayKind::PlayB,
                _ => PlayKind::Try,
            },
            set: args.operand(),
            cond: args.cond(),
            order: args.ordering(),
        },
        "PLAN" => Op::Plan {
            tag: args.target(),
            set: args.operand(),
            value: args.operand(),
        },
        "UNPLAN" => Op::Unplan,
        "DONE" => Op::Done,
        "VALRET" | "VALRUT" | "VALON" | "RETBET" => Op::Value {
            kind: match name {
                "VALRET" => ValueKind::ValRet,
                "VALRUT" => ValueKind::ValRut,
                "VALON" => ValueKind::ValOn,
                _ => ValueKind::RetBet,
            },
            w: args.operand(),
            l: args.operand(),
            c: args.operand(),
        },
        name if name.starts_with("JUMP") => Op::Jump {
            cmp: compare(name),
            a: args.operand(),
            b: args.operand(),
            target: args.target(),
        },
        // LEAVE (and nothing else reaches here: the table has no other).
        _ => Op::Leave,
    }
}

/// The lowered arguments of one statement, taken in order.
struct Args(std::vec::IntoIter<Lowered>);

impl Args {
    fn operand(&mut self) -> Operand {
        match self.0.next() {
            Some(Lowered::Operand(o)) => o,
            _ => Operand::Var(Var::X),
        }
    }
    fn place(&mut self) -> Var {
        match self.0.next() {
            Some(Lowered::Place(v)) => v,
            _ => Var::X,
        }
    }
    fn target(&mut self) -> usize {
        match self.0.next() {
            Some(Lowered::Target(t)) => t,
            _ => 0,
        }
    }
    fn cond(&mut self) -> Cond {
        match self.0.next() {
            Some(Lowered::Cond(c)) => c,
            _ => None,
        }
    }
    fn ordering(&mut self) -> Ordering {
        match self.0.next() {
            Some(Lowered::Ordering(o)) => o,
            _ => Ordering::AsGiven,
        }
    }
}

fn compare(name: &str) -> Compare {
    match name {
        "JUMP<" => Compare::Lt,
        "JUMP=" => Compare::Eq,
        "JUMP>" => Compare::Gt,
        "JUMP#<" => Compare::NotLt,
        "JUMP#=" => Compare::Ne,
        _ => Compare::NotGt,
    }
}

fn binary(name: &str) -> Option<Binary> {
    Some(match name {
        "SETSQ" => Binary::SetSq,
        "SETMOV" => Binary::SetMov,
        "PAIR" => Binary::Pair,
        "MEMBER" => Binary::Member,
        "MEMNUM" => Binary::MemNum,
        "INTERS" => Binary::Inters,
        "UNION" => Binary::Union,
        "DIFFER" => Binary::Differ,
        "APPEND" => Binary::Append,
        "GETEL" => Binary::GetEl,
        "MVDIST" => Binary::MvDist,
        "INSQ" => Binary::InSq,
        "OPP" => Binary::Opp,
        "SQ>RNK" => Binary::SqRank,
        "NOR" => Binary::Nor,
        "AND" => Binary::And,
        "OR" => Binary::Or,
        "ADD" => Binary::Add,
        "SUB" => Binary::Sub,
        "MUL" => Binary::Mul,
        "DIV" => Binary::Div,
        "MOD" => Binary::Mod,
        "DIF" => Binary::Dif,
        "MIN" => Binary::Min,
        "MAX" => Binary::Max,
        _ => return None,
    })
}

fn unary(name: &str) -> Option<Unary> {
    Some(match name {
        "SETV" => Unary::SetV,
        "CARD" => Unary::Card,
        "PIECE" => Unary::Piece,
        "SQUARE" => Unary::Square,
        "SIDE" => Unary::Side,
        "RANK" => Unary::Rank,
        "FILE" => Unary::File,
        "SCOLOR" => Unary::SColor,
        "PCOLOR" => Unary::PColor,
        "ABS" => Unary::Abs,
        _ => return None,
    })
}

/// The 6-character warning (§1, §11.26): two different names agreeing in
/// their first 6 characters, tags with tags, user variables with
/// variables.
fn six_character_warnings(lines: &[Line], user_vars: &[(String, Span)]) -> Vec<Diagnostic> {
    let tags: Vec<(String, Span)> = lines.iter().filter_map(|l| l.tag.clone()).collect();
    let mut warnings = Vec::new();
    for (what, names) in [("tag", &tags[..]), ("variable", user_vars)] {
        let mut first: BTreeMap<String, (String, Span)> = BTreeMap::new();
        for (name, span) in names {
            if name.chars().count() <= 6 {
                continue;
            }
            let key: String = name.chars().take(6).collect();
            match first.get(&key) {
                Some((earlier, earlier_span)) if earlier != name => warnings.push(
                    Diagnostic::warning(
                        span.clone(),
                        format!(
                            "{what} {name} agrees with {earlier} in its first 6 characters (§1)"
                        ),
                    )
                    .with_secondary(earlier_span.clone(), format!("{earlier} is here"))
                    .with_note("MacHack kept 6 characters of a name: the two were one there"),
                ),
                Some(_) => {}
                None => {
                    first.insert(key, (name.clone(), span.clone()));
                }
            }
        }
    }
    warnings
}
