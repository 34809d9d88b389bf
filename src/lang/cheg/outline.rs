//! What an editor shows of a program ([`Outline`]), from the front end.
//!
//! The lines are the front end's own split (`front::statement_lines`),
//! each argument read as its instruction's kinds say (`INSTRUCTIONS`);
//! the help on hover and on completion is the reference's text
//! (`docs/cheg.md`: the §3 variables, the §4 conditions and orderings,
//! the §5.1 instructions), so that a change there shows in the editor.

use super::front::{self, ArgKind, CLASSES, CONDITIONS, INSTRUCTIONS, Line};
use crate::common::Span;
use crate::common::outline::{
    CompletionKind, Outline, Reference, Symbol, SymbolKind, TokenKind, comment_folds,
    reference_rows,
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// The reference page, as hovers cite it.
const PAGE: &str = "docs/cheg.md";

/// The text of one §5.1 row, for one instruction.
struct InstructionDoc {
    /// `MUL w,a,b`.
    signature: String,
    /// The kinds cell, as written (`W,V,V`, `—`).
    kinds: String,
    /// The effect, after the row's mnemonics when it has several.
    effect: String,
    /// `§5.1`.
    section: String,
}

/// The text of one §4 condition row.
struct ConditionDoc {
    /// The row's names as written (`` `=0` `<0` `>0` `ODD` ``).
    names: String,
    /// When it is true.
    when: String,
    /// `§4`.
    section: String,
}

/// What the reference says, read once.
struct Docs {
    instructions: BTreeMap<String, InstructionDoc>,
    conditions: BTreeMap<String, ConditionDoc>,
    /// The §4 paragraph on orderings, and its section.
    ordering: (String, String),
    /// `ENTRY`'s paragraph of §6.1, and its section.
    entry: (String, String),
    /// Every predefined variable of §3 (the piece variables one by one):
    /// what its table row says, and the section.
    variables: BTreeMap<String, (String, String)>,
    /// What §3 says of a user variable, and the section.
    user_variable: (String, String),
}

fn docs() -> &'static Docs {
    static DOCS: OnceLock<Docs> = OnceLock::new();
    DOCS.get_or_init(|| read_docs(include_str!("../../../docs/cheg.md")))
}

fn read_docs(page: &str) -> Docs {
    let mut instructions = BTreeMap::new();
    let mut conditions = BTreeMap::new();
    let mut variables = BTreeMap::new();
    for (section, cells) in reference_rows(page) {
        match (section.as_str(), cells.as_slice()) {
            ("§5.1", [first, kinds, effect, ..]) => {
                let words: Vec<&str> = first.trim_matches('`').split_whitespace().collect();
                let mnemonics: Vec<&str> = words
                    .iter()
                    .copied()
                    .take_while(|w| !w.chars().any(|c| c.is_lowercase()))
                    .collect();
                let args = words[mnemonics.len()..].join(" ");
                let effect = if mnemonics.len() > 1 {
                    format!("`{}`: {effect}", mnemonics.join(" "))
                } else {
                    effect.clone()
                };
                for m in &mnemonics {
                    let signature = if args.is_empty() {
                        m.to_string()
                    } else {
                        format!("{m} {args}")
                    };
                    instructions.insert(
                        m.to_string(),
                        InstructionDoc {
                            signature,
                            kinds: kinds.clone(),
                            effect: effect.clone(),
                            section: section.clone(),
                        },
                    );
                }
            }
            ("§4", [first, when, ..]) => {
                // The names are the backticked parts of the first cell.
                for name in first.split('`').skip(1).step_by(2) {
                    let name = name.trim();
                    if !name.is_empty() {
                        conditions.insert(
                            name.to_string(),
                            ConditionDoc {
                                names: first.clone(),
                                when: when.clone(),
                                section: section.clone(),
                            },
                        );
                    }
                }
            }
            ("§3", [first, value, ..]) => {
                for word in first.trim_matches('`').split_whitespace() {
                    if front::is_name(word) {
                        variables.insert(word.to_string(), (value.clone(), section.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    // The piece variables the table leaves to `…` (`WP2 … WP8`) say what
    // their kind's first variable says.
    for side in ["W", "B"] {
        for kind in ["K", "Q", "R", "B", "N", "P"] {
            for index in ["", "2", "3", "4", "5", "6", "7", "8"] {
                let name = format!("{side}{kind}{index}");
                if front::piece_variable(&name).is_some()
                    && !variables.contains_key(&name)
                    && let Some(first) = variables.get(&format!("{side}{kind}")).cloned()
                {
                    variables.insert(name, first);
                }
            }
        }
    }
    let missing = || (String::new(), String::new());
    let user_variable = paragraph(page, "- Every other name is a **user variable**")
        .map(|(text, section)| {
            let text = text
                .split_once(": ")
                .map_or(text.clone(), |(_, t)| t.to_string());
            (text, section)
        })
        .unwrap_or_else(missing);
    Docs {
        instructions,
        conditions,
        ordering: paragraph(page, "An **ordering** is").unwrap_or_else(missing),
        entry: paragraph(page, "`ENTRY a&b,c&d,e` matches").unwrap_or_else(missing),
        variables,
        user_variable,
    }
}

/// The paragraph (or list item, without its `- `) of `page` whose first
/// line starts with `start`, its lines joined, and the section it stands
/// under.
fn paragraph(page: &str, start: &str) -> Option<(String, String)> {
    let mut section = String::new();
    let mut lines = page.lines();
    for line in lines.by_ref() {
        if line.starts_with('#') {
            if let Some(s) = line.split_whitespace().find(|w| w.starts_with('§')) {
                section = s.to_string();
            }
        } else if line.starts_with(start) {
            let mut text = line.strip_prefix("- ").unwrap_or(line).trim().to_string();
            for more in lines.by_ref() {
                let more = more.trim();
                if more.is_empty() || more.starts_with("- ") {
                    break;
                }
                text.push(' ');
                text.push_str(more);
            }
            return Some((text, section));
        }
    }
    None
}

/// Argument kinds as the reference writes them: `W,V,V`, `—` for none.
fn kinds_text(kinds: &[ArgKind]) -> String {
    if kinds.is_empty() {
        return "—".to_string();
    }
    let letters: Vec<&str> = kinds
        .iter()
        .map(|k| match k {
            ArgKind::V => "V",
            ArgKind::W => "W",
            ArgKind::U => "U",
            ArgKind::T => "T",
            ArgKind::C => "C",
            ArgKind::O => "O",
        })
        .collect();
    letters.join(",")
}

/// `text` as Markdown code.
fn code(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// What `ENTRY`'s arguments are, for its completion.
const ENTRY_ARGS: &str = "class[&pawns],class[&pawns][,e]";

/// The hover of instruction `name` (upper case), if it is one.
fn instruction_hover(name: &str) -> Option<String> {
    let docs = docs();
    match name {
        "ENTRY" => {
            let (text, section) = &docs.entry;
            Some(format!(
                "**`ENTRY a&b,c&d,e`**: {ENTRY_ARGS}\n\n{text}\n\n{PAGE} {section}"
            ))
        }
        "END" => Some(format!(
            "**`END`**: no arguments\n\nThe last statement: a program has exactly one.\n\n{PAGE} §1"
        )),
        _ => {
            // The table's kinds: the tests hold them to the front end's.
            INSTRUCTIONS.iter().find(|(n, _)| *n == name)?;
            let doc = docs.instructions.get(name)?;
            let kinds = match doc.kinds.as_str() {
                "—" => "no arguments",
                kinds => kinds,
            };
            Some(format!(
                "**{}**: {kinds}\n\n{}\n\n{PAGE} {}",
                code(&doc.signature),
                doc.effect,
                doc.section
            ))
        }
    }
}

/// The documentation of instruction `name` (upper case) for completion.
fn instruction_effect(name: &str) -> String {
    let docs = docs();
    match name {
        "ENTRY" => docs.entry.0.clone(),
        "END" => "The last statement: a program has exactly one.".to_string(),
        _ => docs
            .instructions
            .get(name)
            .map(|d| d.effect.clone())
            .unwrap_or_default(),
    }
}

/// The hover of a condition as written (upper case, `#` included).
fn condition_hover(written: &str) -> Option<String> {
    let (negated, name) = match written.strip_prefix('#') {
        Some(name) => (true, name),
        None => (false, written),
    };
    let doc = docs().conditions.get(name)?;
    let first = if negated {
        format!(
            "**condition {}**: the negation of {}",
            code(written),
            code(name)
        )
    } else {
        format!("**condition {}**", code(written))
    };
    Some(format!(
        "{first}\n\n{}: {}\n\n{PAGE} {}",
        doc.names, doc.when, doc.section
    ))
}

/// The hover of an ordering (`DEEP`, `#DEEP`).
fn ordering_hover(written: &str) -> String {
    let (text, section) = &docs().ordering;
    format!(
        "**ordering {}**\n\n{text}\n\n{PAGE} {section}",
        code(written)
    )
}

/// The hover of variable `name` (upper case).
fn variable_hover(name: &str) -> String {
    let docs = docs();
    match docs.variables.get(name) {
        Some((value, section)) => {
            format!("**{}** (variable): {value}\n\n{PAGE} {section}", code(name))
        }
        None => {
            let (text, section) = &docs.user_variable;
            format!(
                "**{}** (user variable): {text}\n\n{PAGE} {section}",
                code(name)
            )
        }
    }
}

/// See [`crate::lang::Lang::outline`].
pub fn outline(source: &str) -> Outline {
    let lines = front::statement_lines(source);
    let physical: Vec<Span> = crate::common::source::lines(source)
        .map(|l| l.start..l.start + l.text.len())
        .collect();
    let text = |span: &Span| source.get(span.clone()).unwrap_or_default();
    let mut out = Outline::default();

    // Comments: `;` to the end of the line (§1), wherever it stands.
    for line in crate::common::source::lines(source) {
        if let Some(at) = line.text.find(';') {
            out.token(
                line.start + at..line.start + line.text.len(),
                TokenKind::Comment,
            );
        }
    }

    // Tags first (they are global, §1): the first definition is the one
    // the front end resolves to.
    let mut tags: BTreeMap<String, String> = BTreeMap::new();
    for line in &lines {
        let Some((name, span)) = &line.tag else {
            continue;
        };
        let statement = text(&line.span).to_string();
        let extent = usize::try_from(line.number)
            .ok()
            .and_then(|n| physical.get(n.wrapping_sub(1)))
            .cloned()
            .unwrap_or_else(|| line.span.clone());
        out.symbols.push(Symbol {
            name: name.clone(),
            kind: SymbolKind::Tag,
            span: span.clone(),
            extent,
            detail: text(&(line.name_span.start..line.span.end))
                .trim_matches(front::is_blank)
                .to_string(),
        });
        let hover = format!("tag {name}, line {}: {}", line.number, code(&statement));
        tags.entry(name.clone()).or_insert(hover.clone());
        out.token(span.clone(), TokenKind::Definition);
        out.hover(span.clone(), hover);
        out.complete(
            name.clone(),
            CompletionKind::Reference,
            statement,
            String::new(),
        );
    }

    let mut user_variables = BTreeSet::new();
    for line in &lines {
        statement(line, &tags, &mut user_variables, &mut out);
    }

    completions(&mut out);
    for name in user_variables {
        let hover = variable_hover(&name);
        out.complete(name, CompletionKind::Variable, "user variable", hover);
    }
    out.folds = comment_folds(source, |line| {
        line.trim_start_matches(front::is_blank).starts_with(';')
    });
    out.rename_blocker = None;
    out.finish()
}

/// The tokens, uses and hovers of one statement's instruction and
/// arguments.
fn statement(
    line: &Line,
    tags: &BTreeMap<String, String>,
    user_variables: &mut BTreeSet<String>,
    out: &mut Outline,
) {
    let name = line.name.as_str();
    if let Some(hover) = instruction_hover(name) {
        out.token(line.name_span.clone(), TokenKind::Keyword);
        out.hover(line.name_span.clone(), hover);
    }
    if name == "ENTRY" {
        entry(line, out);
        return;
    }
    let Some((_, kinds)) = INSTRUCTIONS.iter().find(|(n, _)| *n == name) else {
        return;
    };
    for (arg, kind) in line.args.iter().zip(kinds.iter()) {
        let upper = arg.text.to_ascii_uppercase();
        let span = arg.span.clone();
        if upper.is_empty() {
            continue;
        }
        match kind {
            ArgKind::V | ArgKind::W | ArgKind::U => {
                if upper.starts_with('"') {
                    out.token(span, TokenKind::Number);
                } else if front::is_name(&upper) {
                    if !docs().variables.contains_key(&upper) {
                        user_variables.insert(upper.clone());
                    }
                    out.token(span.clone(), TokenKind::Variable);
                    out.hover(span, variable_hover(&upper));
                }
            }
            ArgKind::T => {
                if front::is_name(&upper) {
                    out.token(span.clone(), TokenKind::Target);
                    if let Some(hover) = tags.get(&upper) {
                        out.hover(span.clone(), hover.clone());
                    }
                    out.references.push(Reference {
                        name: upper,
                        kind: SymbolKind::Tag,
                        span,
                    });
                }
            }
            ArgKind::C => {
                let name = upper.strip_prefix('#').unwrap_or(&upper);
                if CONDITIONS.iter().any(|(n, _)| *n == name) {
                    out.token(span.clone(), TokenKind::EnumMember);
                    if let Some(hover) = condition_hover(&upper) {
                        out.hover(span, hover);
                    }
                }
            }
            ArgKind::O => {
                if upper == "DEEP" || upper == "#DEEP" {
                    out.token(span.clone(), TokenKind::EnumMember);
                    out.hover(span, ordering_hover(&upper));
                }
            }
        }
    }
}

/// `ENTRY a&b,c&d,e` (§6.1): the classes, their pawn counts, the pawn
/// difference.
fn entry(line: &Line, out: &mut Outline) {
    for (i, arg) in line.args.iter().take(3).enumerate() {
        let start = arg.span.start;
        if i == 2 {
            out.token(arg.span.clone(), TokenKind::Number);
            continue;
        }
        let upper = arg.text.to_ascii_uppercase();
        let class_len = upper.find('&').unwrap_or(upper.len());
        if CLASSES.iter().any(|c| c.0 == &upper[..class_len]) {
            out.token(start..start + class_len, TokenKind::EnumMember);
        }
        out.token(start + class_len..arg.span.end, TokenKind::Number);
    }
}

/// The language's words: instructions, conditions, orderings, the
/// predefined variables.
fn completions(out: &mut Outline) {
    for (name, kinds) in INSTRUCTIONS {
        let detail = if *name == "ENTRY" {
            ENTRY_ARGS.to_string()
        } else {
            kinds_text(kinds)
        };
        out.complete(
            *name,
            CompletionKind::Keyword,
            detail,
            instruction_effect(name),
        );
    }
    let docs = docs();
    for (name, _) in CONDITIONS {
        let documentation = docs
            .conditions
            .get(*name)
            .map(|d| format!("{}: {}", d.names, d.when))
            .unwrap_or_default();
        out.complete(
            *name,
            CompletionKind::EnumMember,
            "condition",
            documentation,
        );
    }
    for name in ["DEEP", "#DEEP"] {
        out.complete(
            name,
            CompletionKind::EnumMember,
            "ordering",
            docs.ordering.0.clone(),
        );
    }
    for (name, (value, _)) in &docs.variables {
        out.complete(
            name.clone(),
            CompletionKind::Variable,
            "predefined variable",
            value.clone(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KRK: &str = include_str!("../../../examples/krk.cheg");
    const EXAMPLES: [&str; 4] = [
        KRK,
        include_str!("../../../examples/kpk.cheg"),
        include_str!("../../../examples/kqk.cheg"),
        include_str!("../../../examples/tour.cheg"),
    ];

    /// The offset of the `n`-th occurrence (from 0) of `needle`.
    fn at(source: &str, needle: &str, n: usize) -> usize {
        source
            .match_indices(needle)
            .nth(n)
            .map(|(i, _)| i)
            .unwrap_or_else(|| panic!("no {needle} #{n}"))
    }

    /// What every outline promises, whatever the text.
    fn assert_well_formed(source: &str, o: &Outline) {
        let mut end = 0;
        for t in &o.tokens {
            assert!(t.span.start >= end, "overlap at {:?}", t.span);
            assert!(t.span.start < t.span.end);
            let text = source
                .get(t.span.clone())
                .expect("token on char boundaries");
            assert!(!text.contains('\n') && !text.contains('\r'), "{text:?}");
            end = t.span.end;
        }
        for s in &o.symbols {
            assert!(source.get(s.span.clone()).is_some());
            assert!(s.extent.start <= s.span.start && s.span.end <= s.extent.end);
        }
        for r in &o.references {
            assert!(source.get(r.span.clone()).is_some());
        }
        for h in &o.hovers {
            assert!(source.get(h.span.clone()).is_some());
            assert!(!h.text.is_empty());
        }
        for f in &o.folds {
            assert!(source.get(f.clone()).is_some());
        }
        assert!(
            o.hovers
                .windows(2)
                .all(|w| w[0].span.start <= w[1].span.start)
        );
    }

    #[test]
    fn krk_tags_are_symbols_and_jumps_resolve() {
        let o = outline(KRK);
        let names: Vec<&str> = o.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["EVAL", "SPAN", "SLOW", "SHIGH", "CMD", "OUT"]);
        let eval = o.symbol(SymbolKind::Tag, "EVAL").unwrap();
        assert_eq!(&KRK[eval.span.clone()], "EVAL");
        assert_eq!(&KRK[eval.extent.clone()], "EVAL:   SETV D,\"300");
        assert_eq!(eval.detail, "SETV D,\"300");

        // `JUMP< X2,X1,SLOW`: SLOW is a use of the tag SLOW.
        let slow = at(KRK, "SLOW", 0);
        assert_eq!(o.name_at(slow + 1), Some((SymbolKind::Tag, "SLOW")));
        let r = o.references.iter().find(|r| r.span.start == slow).unwrap();
        let s = o.symbol(SymbolKind::Tag, &r.name).unwrap();
        assert_eq!(&KRK[s.span.clone()], "SLOW");
        assert!(s.span.start > slow);
        assert!(
            o.tokens
                .iter()
                .any(|t| t.span == r.span && t.kind == TokenKind::Target)
        );
        let hover = o.hover_at(slow).unwrap();
        assert!(
            hover
                .text
                .starts_with("tag SLOW, line 59: `SLOW:   SUB S,X1,\"1`"),
            "{}",
            hover.text
        );
        // Every use of OUT is a reference.
        let outs = o.references.iter().filter(|r| r.name == "OUT").count();
        assert_eq!(outs, 3);
    }

    #[test]
    fn krk_hovers_cite_the_reference() {
        let o = outline(KRK);
        let mul = o.hover_at(at(KRK, "MUL W,W,H", 0)).unwrap();
        let first = mul.text.lines().next().unwrap();
        assert_eq!(first, "**`MUL w,a,b`**: W,V,V");
        assert!(mul.text.contains("a × b"), "{}", mul.text);
        assert!(mul.text.ends_with("docs/cheg.md §5.1"), "{}", mul.text);

        let cond = o.hover_at(at(KRK, "#=0", 0) + 1).unwrap();
        assert!(
            cond.text.starts_with("**condition `#=0`**"),
            "{}",
            cond.text
        );
        assert!(cond.text.contains("zero"), "{}", cond.text);
        assert!(cond.text.ends_with("docs/cheg.md §4"));

        let wk = o.hover_at(at(KRK, "WK", 0)).unwrap();
        assert!(
            wk.text
                .starts_with("**`WK`** (variable): the side to move's pieces"),
            "{}",
            wk.text
        );
        assert!(wk.text.ends_with("docs/cheg.md §3"));
        let d = o.hover_at(at(KRK, "SETV D,", 0) + 5).unwrap();
        assert!(
            d.text.starts_with("**`D`** (user variable): undefined"),
            "{}",
            d.text
        );
        let plies = o.hover_at(at(KRK, "PLIES,OUT", 0)).unwrap();
        assert!(plies.text.contains("the plies left"), "{}", plies.text);
        let entry = o.hover_at(at(KRK, "ENTRY R,K", 0)).unwrap();
        assert!(entry.text.contains("matches when"), "{}", entry.text);
        assert!(entry.text.ends_with("docs/cheg.md §6.1"));
    }

    #[test]
    fn krk_tokens() {
        let o = outline(KRK);
        assert_well_formed(KRK, &o);
        let kind_of = |needle: &str, n: usize| {
            let start = at(KRK, needle, n);
            o.tokens
                .iter()
                .find(|t| t.span.start == start)
                .map(|t| (&KRK[t.span.clone()], t.kind))
        };
        assert_eq!(
            kind_of("; krk.cheg", 0),
            Some((
                "; krk.cheg -- king and rook against king: confine the lone king with the",
                TokenKind::Comment
            ))
        );
        assert_eq!(
            kind_of("EVAL:   ", 0),
            Some(("EVAL", TokenKind::Definition))
        );
        assert_eq!(kind_of("SETV D", 0), Some(("SETV", TokenKind::Keyword)));
        assert_eq!(kind_of("\"300", 0), Some(("\"300", TokenKind::Number)));
        assert_eq!(kind_of("#=0", 0), Some(("#=0", TokenKind::EnumMember)));
        assert_eq!(
            kind_of("#EMPTY", 0),
            Some(("#EMPTY", TokenKind::EnumMember))
        );
        assert_eq!(kind_of("CAPT", 0), Some(("CAPT", TokenKind::EnumMember)));
        assert_eq!(
            kind_of("PLIES,OUT", 0),
            Some(("PLIES", TokenKind::Variable))
        );
        assert_eq!(kind_of("R,K  ", 0), Some(("R", TokenKind::EnumMember)));
        assert_eq!(kind_of("OUT\n", 0), Some(("OUT", TokenKind::Target)));
        // Comment lines in runs of two or more fold.
        assert_eq!(o.folds.first().map(|f| f.start), Some(0));
        assert!(o.rename_blocker.is_none());
    }

    #[test]
    fn krk_completions() {
        let o = outline(KRK);
        let find = |label: &str, kind: CompletionKind| {
            o.completions
                .iter()
                .find(|c| c.label == label && c.kind == kind)
                .unwrap_or_else(|| panic!("no completion {label}"))
        };
        let mul = find("MUL", CompletionKind::Keyword);
        assert_eq!(mul.detail, "W,V,V");
        assert!(mul.documentation.contains("a × b"));
        assert_eq!(find("DONE", CompletionKind::Keyword).detail, "—");
        assert_eq!(find("ENTRY", CompletionKind::Keyword).detail, ENTRY_ARGS);
        assert!(
            find("ODD", CompletionKind::EnumMember)
                .documentation
                .contains("odd")
        );
        find("OPP", CompletionKind::EnumMember);
        find("OPP", CompletionKind::Keyword);
        find("#DEEP", CompletionKind::EnumMember);
        find("WP5", CompletionKind::Variable);
        find("SIDE", CompletionKind::Variable);
        assert_eq!(find("SK", CompletionKind::Variable).detail, "user variable");
        assert_eq!(
            find("SLOW", CompletionKind::Reference).detail,
            "SLOW:   SUB S,X1,\"1"
        );
        let variables = o
            .completions
            .iter()
            .filter(|c| c.kind == CompletionKind::Variable && c.detail != "user variable")
            .count();
        assert_eq!(variables, 38, "X DEPTH PLIES LM PG SIDE and 32 pieces");
    }

    #[test]
    fn every_instruction_and_condition_has_its_reference_row() {
        let docs = docs();
        for (name, kinds) in INSTRUCTIONS {
            let hover = instruction_hover(name).unwrap_or_else(|| panic!("no hover for {name}"));
            if ["ENTRY", "END"].contains(name) {
                // Not in the §5.1 table: §6.1 and §1 say what they are.
                continue;
            }
            let doc = docs
                .instructions
                .get(*name)
                .unwrap_or_else(|| panic!("{name} has no row in docs/cheg.md §5.1"));
            assert_eq!(doc.kinds, kinds_text(kinds), "{name}: the table's kinds");
            assert!(hover.ends_with("docs/cheg.md §5.1"), "{hover}");
            assert!(!doc.effect.is_empty());
        }
        for name in docs.instructions.keys() {
            assert!(
                INSTRUCTIONS.iter().any(|(n, _)| n == name),
                "docs §5.1 names {name}, which the front end does not know"
            );
        }
        for (name, _) in CONDITIONS {
            let hover = condition_hover(name)
                .unwrap_or_else(|| panic!("{name} has no row in docs/cheg.md §4"));
            assert!(hover.ends_with("docs/cheg.md §4"), "{hover}");
            assert!(condition_hover(&format!("#{name}")).is_some());
        }
        assert!(docs.ordering.0.contains("`#DEEP` the reverse"));
        assert_eq!(docs.ordering.1, "§4");
        assert!(docs.entry.0.starts_with("`ENTRY a&b,c&d,e` matches when"));
        assert!(docs.user_variable.0.starts_with("undefined at the start"));
        assert_eq!(docs.user_variable.1, "§3");
        for v in [
            "X", "DEPTH", "PLIES", "LM", "PG", "SIDE", "WP8", "BN2", "BQ",
        ] {
            assert!(docs.variables.contains_key(v), "{v}");
        }
        assert!(!docs.variables.contains_key("WK2"));
    }

    #[test]
    fn case_blanks_and_errors() {
        let src = "\u{FEFF}loop: add a , \"1,b ; c\n  jump< a,\"3,Loop\n\
                   \tcondv #odd,a,nowhere\n bad:\n1x: SETV\nplay lm,,#deep\n\
                   SETV s,\"(1;2)\nENTRY rb&2p,k,>1\nFOO A\nEND\n";
        let o = outline(src);
        assert_well_formed(src, &o);
        let names: Vec<&str> = o.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["LOOP"]);
        let refs: Vec<&str> = o.references.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(refs, ["LOOP", "NOWHERE"]);
        let kinds: Vec<(&str, TokenKind)> = o
            .tokens
            .iter()
            .map(|t| (&src[t.span.clone()], t.kind))
            .collect();
        use TokenKind::*;
        assert_eq!(
            kinds,
            [
                ("loop", Definition),
                ("add", Keyword),
                ("a", Variable),
                ("\"1", Number),
                ("b", Variable),
                ("; c", Comment),
                ("jump<", Keyword),
                ("a", Variable),
                ("\"3", Number),
                ("Loop", Target),
                ("condv", Keyword),
                ("#odd", EnumMember),
                ("a", Variable),
                ("nowhere", Target),
                ("play", Keyword),
                ("lm", Variable),
                ("#deep", EnumMember),
                // `;` starts a comment even inside a set (§1): the set is
                // left unclosed, the line does not split.
                (";2)", Comment),
                ("ENTRY", Keyword),
                ("rb", EnumMember),
                ("&2p", Number),
                ("k", EnumMember),
                (">1", Number),
                ("END", Keyword),
            ]
        );
        let nowhere = at(src, "nowhere", 0);
        assert!(o.hover_at(nowhere).is_none());
        let lp = o.hover_at(at(src, "Loop", 0)).unwrap();
        assert_eq!(lp.text, "tag LOOP, line 1: `loop: add a , \"1,b`");
    }

    #[test]
    fn mangled_examples_never_panic() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        const BITS: [&str; 16] = [
            ";", ":", "\"", "\"(", ")", ",", "#", " ", "\n", "\r\n", "é", "\u{FEFF}", "&", "X:",
            "JUMP=", "\t",
        ];
        for example in EXAMPLES {
            for _ in 0..60 {
                let mut text = example.to_string();
                for _ in 0..1 + next(8) {
                    let mut cut = next(text.len() + 1);
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    if next(2) == 0 {
                        let mut end = (cut + 1 + next(6)).min(text.len());
                        while !text.is_char_boundary(end) {
                            end += 1;
                        }
                        text.replace_range(cut..end, "");
                    } else {
                        text.insert_str(cut, BITS[next(BITS.len())]);
                    }
                }
                let o = outline(&text);
                assert_well_formed(&text, &o);
            }
            for end in (0..example.len()).step_by(97) {
                let o = outline(&example[..end]);
                assert_well_formed(&example[..end], &o);
            }
        }
        let empty = outline("");
        assert!(empty.symbols.is_empty() && empty.tokens.is_empty() && empty.hovers.is_empty());
        assert!(!empty.completions.is_empty());
    }
}
