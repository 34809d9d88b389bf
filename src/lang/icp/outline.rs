//! What an editor shows of an InfChessPro program ([`Outline`]), from the
//! parser's syntax tree: labels and the jumps to them, the tokens of each
//! statement, help from the reference (`docs/infchesspro.md` §4's table of
//! commands, §5, §6), completions and comment folds.

use super::ast::{Colour, Command, Operand, PieceKind, Statement};
use super::syntax;
use crate::common::Span;
use crate::common::outline::{
    CompletionKind, Outline, SymbolKind, TokenKind, comment_folds, reference_rows,
};
use crate::common::outline::{Reference, Symbol};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The language reference, whose tables the hovers quote.
const REFERENCE: &str = include_str!("../../../docs/infchesspro.md");

/// The command forms of §4's table, in the order of [`form_of`]'s
/// answers: `(form, does, fails when)`.
fn forms() -> &'static Vec<(String, String, String)> {
    static FORMS: OnceLock<Vec<(String, String, String)>> = OnceLock::new();
    FORMS.get_or_init(|| {
        reference_rows(REFERENCE)
            .into_iter()
            .filter(|(section, cells)| section == "§4" && cells.len() == 3)
            .map(|(_, c)| (c[0].clone(), c[1].clone(), c[2].clone()))
            .collect()
    })
}

/// The form of §4's table (`` `name=Lr,c` ``) that `command` is written in.
fn form_of(command: &Command) -> &'static str {
    match command {
        Command::Place { .. } => "`name=Lr,c`",
        Command::MoveSquares { .. } => "`r1,c1,r2,c2`",
        Command::MoveNameTo { .. } => "`name,r,c`",
        Command::MoveNameBy { .. } => "`name;dr,dc`",
        Command::Nothing => "`^`",
        Command::Text(_) => "`\"text`",
        Command::Count(_) => "`%name`",
    }
}

/// The help for a command form (`` `name=Lr,c` ``) from §4's table of the
/// reference: Markdown, worked out once per form.
fn command_help(form: &str) -> Option<String> {
    static HELP: OnceLock<Vec<(String, String)>> = OnceLock::new();
    let all = HELP.get_or_init(|| {
        forms()
            .iter()
            .map(|(form, does, fails)| {
                let section = does
                    .rfind("(§")
                    .map(|i| does[i + 1..].trim_end_matches(')').to_string())
                    .unwrap_or_else(|| "§4".to_string());
                let help =
                    format!("{form}: {does}; fails when {fails}\n\ndocs/infchesspro.md {section}");
                (form.clone(), help)
            })
            .collect()
    });
    all.iter().find(|(f, _)| f == form).map(|(_, h)| h.clone())
}

/// See [`crate::lang::Lang::outline`].
pub fn outline(source: &str) -> Outline {
    let (program, _) = syntax::parse(source);
    let mut out = Outline::default();
    let by_label: BTreeMap<i64, &Statement> =
        program.statements.iter().map(|s| (s.label, s)).collect();
    for label in &program.labels {
        let extent = line_extent(source, label.span.start);
        let detail = by_label
            .get(&label.value)
            .filter(|s| s.line == label.line)
            .map_or_else(
                || source[extent.clone()].trim().to_string(),
                |s| s.text.trim().to_string(),
            );
        out.symbols.push(Symbol {
            name: label.value.to_string(),
            kind: SymbolKind::Label,
            span: label.span.clone(),
            extent: extent.clone(),
            detail: detail.clone(),
        });
        out.token(label.span.clone(), TokenKind::Definition);
        out.hover(
            label.span.clone(),
            format!(
                "statement {}, line {}\n\nthe label jumps name (§1, §5)",
                label.value, label.line
            ),
        );
        out.complete(
            label.value.to_string(),
            CompletionKind::Reference,
            detail,
            format!("jump to line {} (§5)", label.line),
        );
    }
    for statement in &program.statements {
        statement_outline(source, statement, &by_label, &mut out);
    }
    for (form, _, _) in forms() {
        if let Some(help) = command_help(form) {
            let label = form.trim_matches('`').to_string();
            out.complete(label, CompletionKind::Keyword, "command (§4)", help);
        }
    }
    for letter in "KQRBNPkqrbnp".chars() {
        out.complete(
            letter.to_string(),
            CompletionKind::Type,
            piece_letter(letter),
            "piece letter (§2, §3)",
        );
    }
    out.folds = comment_folds(source, |line| {
        line.trim_start_matches([' ', '\t']).starts_with('#')
    });
    for line in crate::common::source::lines(source) {
        let body = line.text.trim_start_matches([' ', '\t']);
        if body.starts_with('#') {
            let start = line.start + (line.text.len() - body.len());
            out.token(start..line.start + line.text.len(), TokenKind::Comment);
        }
    }
    out.finish()
}

/// The tokens, hovers, uses and names of one parsed statement.
fn statement_outline(
    source: &str,
    statement: &Statement,
    by_label: &BTreeMap<i64, &Statement>,
    out: &mut Outline,
) {
    let extent = line_extent(source, statement.label_span.start);
    let text = &source[extent.clone()];
    let at = |i: usize| extent.start + i;
    // The command starts after the label's `.` and any blanks.
    let after_dot = statement.label_span.end - extent.start + 1;
    let command_start = after_dot + text[after_dot..].len()
        - text[after_dot..].trim_start_matches([' ', '\t']).len();
    let form = form_of(&statement.command);
    let help = command_help(form).unwrap_or_default();
    let command_end = match statement.command {
        Command::Text(_) => text.len(),
        _ => text[command_start..]
            .find(['?', '!'])
            .map_or(text.len(), |i| command_start + i),
    };
    let command_end = command_start + text[command_start..command_end].trim_end().len();
    out.hover(at(command_start)..at(command_end), help);
    let mut operands: Vec<&Operand> = Vec::new();
    match &statement.command {
        Command::Place {
            name,
            colour,
            kind,
            row,
            col,
        } => {
            out.token(name.span.clone(), TokenKind::Variable);
            name_completion(out, &name.text);
            // `=` then the letter, with blanks allowed between (§2).
            let rest = &source[name.span.end..row.span().start];
            if let Some(eq) = rest.find('=') {
                out.token(
                    name.span.end + eq..name.span.end + eq + 1,
                    TokenKind::Operator,
                );
                if let Some(l) = rest[eq + 1..].find(|c: char| c.is_ascii_alphabetic()) {
                    let span = name.span.end + eq + 1 + l..name.span.end + eq + 2 + l;
                    out.token(span.clone(), TokenKind::Type);
                    let letter = source[span.clone()].chars().next().unwrap_or('?');
                    out.hover(
                        span,
                        format!(
                            "`{letter}`: {} {}\n\ndocs/infchesspro.md §2, §3",
                            colour_name(*colour),
                            kind_name(*kind)
                        ),
                    );
                }
            }
            operands.extend([row, col]);
        }
        Command::MoveSquares { from, to } => operands.extend([&from.0, &from.1, &to.0, &to.1]),
        Command::MoveNameTo { name, row, col } => {
            out.token(name.span.clone(), TokenKind::Variable);
            name_completion(out, &name.text);
            operands.extend([row, col]);
        }
        Command::MoveNameBy { name, drow, dcol } => {
            out.token(name.span.clone(), TokenKind::Variable);
            name_completion(out, &name.text);
            operands.extend([drow, dcol]);
        }
        Command::Nothing => out.token(at(command_start)..at(command_start + 1), TokenKind::Keyword),
        Command::Text(_) => {
            out.token(at(command_start)..at(command_start + 1), TokenKind::Keyword);
            out.token(at(command_start + 1)..extent.end, TokenKind::String);
        }
        Command::Count(name) => {
            out.token(at(command_start)..at(command_start + 1), TokenKind::Keyword);
            out.token(name.span.clone(), TokenKind::Variable);
            name_completion(out, &name.text);
        }
    }
    for operand in operands {
        operand_outline(operand, out);
    }
    for (target, success) in [
        (&statement.suffix.on_success, true),
        (&statement.suffix.on_failure, false),
    ] {
        let Some(target) = target else { continue };
        let span = target.span();
        // The `?` or `!` before it, blanks allowed between.
        let Some(mark) = source[..span.start]
            .trim_end_matches([' ', '\t'])
            .len()
            .checked_sub(1)
        else {
            continue;
        };
        out.token(mark..mark + 1, TokenKind::Operator);
        let when = if success { "succeeded" } else { "failed" };
        out.hover(
            mark..mark + 1,
            format!(
                "`{}`: where to go when the command {when}\n\ndocs/infchesspro.md §5",
                if success { "?T" } else { "!T" }
            ),
        );
        match target {
            Operand::Int(value, _) => {
                out.references.push(Reference {
                    name: value.to_string(),
                    kind: SymbolKind::Label,
                    span: span.clone(),
                });
                out.token(span.clone(), TokenKind::Target);
                let text = match by_label.get(value) {
                    Some(s) => format!(
                        "jump to statement {value} (line {}): `{}`\n\ndocs/infchesspro.md §5",
                        s.line,
                        s.text.trim()
                    ),
                    None => format!("no statement is labelled {value}\n\ndocs/infchesspro.md §5"),
                };
                out.hover(span, text);
            }
            Operand::Star(_) => operand_outline(target, out),
        }
    }
    let stars = [&statement.suffix.on_success, &statement.suffix.on_failure]
        .into_iter()
        .flatten()
        .find(|o| matches!(o, Operand::Star(_)));
    if let (Some(star), None) = (stars, &out.rename_blocker) {
        out.rename_blocker = Some((
            star.span(),
            format!(
                "statement {} (line {}) jumps to a label read from input: renaming labels would silently change where it goes",
                statement.label, statement.line
            ),
        ));
    }
}

fn operand_outline(operand: &Operand, out: &mut Outline) {
    match operand {
        Operand::Int(_, span) => out.token(span.clone(), TokenKind::Number),
        Operand::Star(span) => {
            out.token(span.clone(), TokenKind::Operator);
            out.hover(
                span.clone(),
                "`*`: one integer read from standard input when the statement starts\n\ndocs/infchesspro.md §6",
            );
        }
    }
}

fn name_completion(out: &mut Outline, name: &str) {
    out.complete(name, CompletionKind::Variable, "piece name", "");
}

/// The line around byte `offset`, without its line end.
fn line_extent(source: &str, offset: usize) -> Span {
    let start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i);
    let end = if source[..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    start..end
}

fn piece_letter(letter: char) -> String {
    match PieceKind::from_letter(letter) {
        Some((colour, kind)) => format!("{} {}", colour_name(colour), kind_name(kind)),
        None => "not a piece letter".to_string(),
    }
}

fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "king",
        PieceKind::Queen => "queen",
        PieceKind::Rook => "rook",
        PieceKind::Bishop => "bishop",
        PieceKind::Knight => "knight",
        PieceKind::Pawn => "pawn",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MULTIPLY: &str = include_str!("../../../examples/multiply.icp");

    #[test]
    fn every_command_form_has_help_from_the_reference() {
        let commands = [
            "1. a=R0,0",
            "1. 0,0,1,1",
            "1. a,1,1",
            "1. a;1,1",
            "1. ^",
            "1. \"hi",
            "1. %a",
        ];
        for source in commands {
            let (program, errors) = syntax::parse(source);
            assert!(errors.is_empty(), "{source}");
            let form = form_of(&program.statements[0].command);
            let help = command_help(form).unwrap_or_else(|| panic!("no row for {form}"));
            assert!(help.contains("docs/infchesspro.md §4"), "{help}");
            let o = outline(source);
            let hover = o.hover_at(3).expect("a hover on the command");
            assert_eq!(hover.text, help);
        }
    }

    #[test]
    fn jumps_are_uses_of_labels() {
        let src = "# loop\n1. a=R0,0\n2. a;0,1?2!3\n3. %a\n";
        let o = outline(src);
        let names: Vec<&str> = o.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["1", "2", "3"]);
        let uses: Vec<(&str, &str)> = o
            .references
            .iter()
            .map(|r| (r.name.as_str(), &src[r.span.clone()]))
            .collect();
        assert_eq!(uses, [("2", "2"), ("3", "3")]);
        let at = src.find("?2").unwrap() + 1;
        assert_eq!(o.name_at(at), Some((SymbolKind::Label, "2")));
        assert!(o.hover_at(at).unwrap().text.contains("line 3"));
        assert!(o.rename_blocker.is_none());
        assert!(
            o.completions
                .iter()
                .any(|c| c.label == "a" && c.kind == CompletionKind::Variable)
        );
    }

    #[test]
    fn a_star_jump_blocks_renaming() {
        let o = outline("1. ^?*\n2. ^\n");
        let (span, why) = o.rename_blocker.expect("blocked");
        assert_eq!(span, 5..6);
        assert!(why.contains("read from input"), "{why}");
    }

    #[test]
    fn tokens_stay_on_their_lines_and_never_overlap() {
        let o = outline(MULTIPLY);
        assert!(!o.tokens.is_empty());
        let mut end = 0;
        for t in &o.tokens {
            assert!(t.span.start >= end);
            assert!(!MULTIPLY[t.span.clone()].contains('\n'), "{t:?}");
            end = t.span.end;
        }
        assert!(!o.folds.is_empty() || !MULTIPLY.contains("\n#"));
    }

    #[test]
    fn broken_lines_still_give_their_labels_and_never_panic() {
        let o = outline("1. a=X0,0\n2 ^\n3. ^?9\n");
        // A line whose label parsed keeps it, whatever follows.
        assert_eq!(o.symbols.len(), 3);
        for cut in 0..MULTIPLY.len() {
            if MULTIPLY.is_char_boundary(cut) {
                let _ = outline(&MULTIPLY[..cut]);
                let mangled = format!("{}?*!{}", &MULTIPLY[..cut], &MULTIPLY[cut..]);
                let _ = outline(&mangled);
            }
        }
    }
}
