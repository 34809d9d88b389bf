//! What an editor shows of a program without running it: its definitions
//! and their uses, the kind of every token, the help shown on hover, what
//! may be typed, what folds. Every language builds one [`Outline`] from its
//! own front end ([`crate::lang::Lang::outline`]), even for a program with
//! errors (as much as its parser reads); the language server
//! (`icp2c lsp`) turns it into the protocol's answers, the same for all
//! languages.
//!
//! Spans are byte offsets into the source text, as everywhere.

use crate::common::Span;

/// Everything the language server needs to know about one source text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// Definitions, in source order: InfChessPro's labels, CHEG's tags,
    /// Finvara's piece symbols and turns.
    pub symbols: Vec<Symbol>,
    /// Every use of a definition by name (jumps to a label, tags named as
    /// arguments, a piece symbol on the board or in a move), in source
    /// order. A use whose name no symbol defines is kept (the front end
    /// reports it).
    pub references: Vec<Reference>,
    /// The kind of every token worth colouring, sorted by start, never
    /// overlapping, never crossing a line end.
    pub tokens: Vec<Token>,
    /// Help shown when the pointer rests on a span: Markdown, its first
    /// line saying what the thing is, citing the reference's section
    /// (`docs/cheg.md` §5.1). Sorted by start; spans may nest (the
    /// innermost wins).
    pub hovers: Vec<Hover>,
    /// What may be typed: the language's words (commands, instructions,
    /// conditions, piece letters) and the program's own names (labels,
    /// tags, piece names).
    pub completions: Vec<Completion>,
    /// Ranges that fold: runs of two or more comment lines, from the start
    /// of the first to the end of the last.
    pub folds: Vec<Span>,
    /// Why no symbol of this program may be renamed, and where: an
    /// InfChessPro program whose jumps read their target from input
    /// (`?*`, `!*`) would silently break.
    pub rename_blocker: Option<(Span, String)>,
}

/// What a definition is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    /// An InfChessPro statement's label (§1), a jump target.
    Label,
    /// A CHEG tag (§1): a jump target or a subroutine.
    Tag,
    /// A Finvara piece symbol defined by its movement notation.
    Piece,
    /// A Finvara move line's turn number.
    Turn,
}

/// A definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name as uses write it, normalised as the language compares
    /// names (CHEG tags in upper case; InfChessPro labels as decimal).
    pub name: String,
    /// What it is.
    pub kind: SymbolKind,
    /// Where the name is written in its definition.
    pub span: Span,
    /// The whole definition (its statement line), for the outline view.
    pub extent: Span,
    /// One line shown beside the name in an outline (the statement).
    pub detail: String,
}

/// One use of a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The name, normalised as [`Symbol::name`].
    pub name: String,
    /// The kind of definition it names.
    pub kind: SymbolKind,
    /// Where it is written.
    pub span: Span,
}

/// How a token is coloured: the protocol's semantic token types, chosen as
/// the closest a theme knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TokenKind {
    /// A comment.
    Comment,
    /// A command or instruction word (`PLAY`, `^`, `%`).
    Keyword,
    /// A label or tag where it is defined.
    Definition,
    /// A label or tag where it is used (a jump target).
    Target,
    /// A variable or piece name.
    Variable,
    /// A piece kind or letter.
    Type,
    /// A condition, ordering or other fixed word of the language.
    EnumMember,
    /// An integer.
    Number,
    /// Text printed as written.
    String,
    /// Punctuation with meaning: `?`, `!`, `*`, `=`, `;`.
    Operator,
}

/// One coloured token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Where it is: within one line.
    pub span: Span,
    /// How it is coloured.
    pub kind: TokenKind,
}

/// Help for a span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// Where the pointer must rest.
    pub span: Span,
    /// Markdown.
    pub text: String,
}

/// What a completion item is, for the editor's icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CompletionKind {
    /// A command or instruction.
    Keyword,
    /// A condition, ordering or other fixed word.
    EnumMember,
    /// A variable or piece name.
    Variable,
    /// A label or tag.
    Reference,
    /// A piece letter or kind.
    Type,
}

/// One thing that may be typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The text inserted, and shown.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// One line shown beside it (argument kinds, the statement a label
    /// stands on).
    pub detail: String,
    /// Longer help (Markdown), may be empty.
    pub documentation: String,
}

impl Outline {
    /// Adds a token.
    pub fn token(&mut self, span: Span, kind: TokenKind) {
        if !span.is_empty() {
            self.tokens.push(Token { span, kind });
        }
    }

    /// Adds a hover text.
    pub fn hover(&mut self, span: Span, text: impl Into<String>) {
        self.hovers.push(Hover {
            span,
            text: text.into(),
        });
    }

    /// Adds a completion.
    pub fn complete(
        &mut self,
        label: impl Into<String>,
        kind: CompletionKind,
        detail: impl Into<String>,
        documentation: impl Into<String>,
    ) {
        self.completions.push(Completion {
            label: label.into(),
            kind,
            detail: detail.into(),
            documentation: documentation.into(),
        });
    }

    /// Sorts tokens and hovers by position and drops tokens that overlap
    /// an earlier one, so that the outline keeps its promises whatever
    /// order a language found things in; completions lose duplicates.
    pub fn finish(mut self) -> Outline {
        self.tokens.sort_by_key(|t| (t.span.start, t.span.end));
        let mut end = 0;
        self.tokens.retain(|t| {
            let keep = t.span.start >= end;
            if keep {
                end = t.span.end;
            }
            keep
        });
        self.hovers.sort_by_key(|h| (h.span.start, h.span.end));
        let mut seen = std::collections::HashSet::new();
        self.completions
            .retain(|c| seen.insert((c.label.clone(), c.kind)));
        self
    }

    /// The symbol `name` of `kind`, if defined.
    pub fn symbol(&self, kind: SymbolKind, name: &str) -> Option<&Symbol> {
        self.symbols
            .iter()
            .find(|s| s.kind == kind && s.name == name)
    }

    /// The symbol defined or used at byte `offset` (a cursor just after a
    /// name counts as on it): its kind and name.
    pub fn name_at(&self, offset: usize) -> Option<(SymbolKind, &str)> {
        let on = |span: &Span| span.start <= offset && offset <= span.end;
        self.symbols
            .iter()
            .find(|s| on(&s.span))
            .map(|s| (s.kind, s.name.as_str()))
            .or_else(|| {
                self.references
                    .iter()
                    .find(|r| on(&r.span))
                    .map(|r| (r.kind, r.name.as_str()))
            })
    }

    /// The innermost hover text at byte `offset`.
    pub fn hover_at(&self, offset: usize) -> Option<&Hover> {
        self.hovers
            .iter()
            .filter(|h| h.span.start <= offset && offset < h.span.end.max(h.span.start + 1))
            .min_by_key(|h| h.span.end - h.span.start)
    }
}

/// The comment blocks of `source` to fold: runs of at least two lines for
/// which `is_comment` holds, each from its first line's start to its last
/// line's end (without the line end).
pub fn comment_folds(source: &str, is_comment: impl Fn(&str) -> bool) -> Vec<Span> {
    let mut folds = Vec::new();
    let mut run: Option<(Span, usize)> = None;
    for line in crate::common::source::lines(source) {
        let end = line.start + line.text.len();
        if is_comment(line.text) {
            run = Some(match run {
                Some((span, n)) => (span.start..end, n + 1),
                None => (line.start..end, 1),
            });
        } else if let Some((span, n)) = run.take()
            && n >= 2
        {
            folds.push(span);
        }
    }
    if let Some((span, n)) = run
        && n >= 2
    {
        folds.push(span);
    }
    folds
}

/// The rows of the Markdown tables of a reference page (`docs/cheg.md`)
/// with the section each stands under (`§5.1`): a row is its cells,
/// trimmed, `\|` kept as `|`. Header and rule rows are left out.
pub fn reference_rows(page: &str) -> Vec<(String, Vec<String>)> {
    let mut section = String::new();
    let mut rows = Vec::new();
    let mut header = false;
    for line in page.lines() {
        if line.starts_with('#') {
            if let Some(s) = line.split_whitespace().find(|w| w.starts_with('§')) {
                section = s.to_string();
            }
            continue;
        }
        let Some(inner) = line.trim().strip_prefix('|') else {
            header = false;
            continue;
        };
        if !header {
            // The first row of a table is its header.
            header = true;
            continue;
        }
        if inner.starts_with("---") || inner.starts_with(":--") {
            continue;
        }
        let inner = inner.strip_suffix('|').unwrap_or(inner);
        let cells = split_cells(inner);
        rows.push((section.clone(), cells));
    }
    rows
}

fn split_cells(row: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                if let Some(s) = cells.last_mut() {
                    s.push('|');
                }
            }
            '|' => cells.push(String::new()),
            c => {
                if let Some(s) = cells.last_mut() {
                    s.push(c)
                }
            }
        }
    }
    cells.into_iter().map(|c| c.trim().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_need_two_comment_lines() {
        let src = "# a\n# b\n1. ^\n# c\n2. ^\n# d\n# e\n# f";
        let folds = comment_folds(src, |l| l.starts_with('#'));
        assert_eq!(folds, vec![0..7, 22..src.len()]);
    }

    #[test]
    fn table_rows_keep_escaped_bars_and_sections() {
        let page = "## §4 Arguments\n\n| a | b |\n|---|---|\n| `x` | \\|a\\| |\n\ntext\n";
        assert_eq!(
            reference_rows(page),
            vec![("§4".to_string(), vec!["`x`".to_string(), "|a|".to_string()])]
        );
    }

    #[test]
    fn finish_drops_overlapping_tokens() {
        let mut o = Outline::default();
        o.token(5..8, TokenKind::Number);
        o.token(0..3, TokenKind::Keyword);
        o.token(2..4, TokenKind::Variable);
        let o = o.finish();
        let spans: Vec<Span> = o.tokens.iter().map(|t| t.span.clone()).collect();
        assert_eq!(spans, vec![0..3, 5..8]);
    }
}
