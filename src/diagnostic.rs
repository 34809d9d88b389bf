//! Our own diagnostic type, and the one place where diagnostics become text
//! (through codespan-reporting).
//!
//! Every front end reports problems as [`Diagnostic`] values whose spans are
//! byte offsets into the source text. Only [`render`] turns them into the
//! `FILE:LINE:COL` + caret form required by §8 of the InfChessPro contract
//! (and §6 of the Finvara contract).

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use std::ops::Range;

/// How serious a diagnostic is. Errors stop compilation (exit status 2);
/// warnings are printed and compilation goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The program is rejected.
    Error,
    /// The program is accepted, but probably not what the author meant.
    Warning,
}

/// A span of source text with a message: byte offsets `start..end` into the
/// source (never inside a multi-byte character).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Byte range in the source text.
    pub span: Range<usize>,
    /// Text shown beside the caret; may be empty.
    pub message: String,
}

/// One problem found in a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The headline, e.g. "labels must increase: 2 follows 2 (line 3)".
    pub message: String,
    /// Where the problem is; the caret goes under this span.
    pub primary: Label,
    /// Other places worth showing (e.g. the earlier line of a label clash).
    pub secondary: Vec<Label>,
    /// Extra lines after the snippet ("help: …", spec references).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at `span` with `message` and an empty caret label.
    pub fn error(span: Range<usize>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, span, message)
    }

    /// A warning at `span` with `message`.
    pub fn warning(span: Range<usize>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, span, message)
    }

    fn new(severity: Severity, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            message: message.into(),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Sets the text shown beside the caret.
    pub fn with_label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    /// Adds a secondary span with its message.
    pub fn with_secondary(mut self, span: Range<usize>, message: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// At most this many diagnostics are rendered; the rest are summarised in
/// one closing line (a binary file would otherwise print one per line).
pub const MAX_RENDERED: usize = 100;

/// Longest source line shown in a snippet, in bytes; longer lines are cut
/// (around the caret) so that a 10 MB line does not print 10 MB.
const MAX_SHOWN_LINE: usize = 200;

/// Renders `diagnostics` for the file called `file_name` whose text is
/// `source`, in the order given, as plain text (no colour): for each, a
/// headline, `┌─ FILE:LINE:COL`, the source line and a caret under the span.
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let config = term::Config::default();
    let mut out = String::new();
    for diagnostic in diagnostics.iter().take(MAX_RENDERED) {
        let (shown, shift) = shown_source(source, &diagnostic.primary.span);
        let file = SimpleFile::new(file_name, shown.as_str());
        let text = term::emit_into_string(&config, &file, &to_codespan(diagnostic, &shown, shift))
            .unwrap_or_else(|_| format!("{}: {}\n", file_name, diagnostic.message));
        out.push_str(&text);
    }
    if diagnostics.len() > MAX_RENDERED {
        let errors = diagnostics[MAX_RENDERED..]
            .iter()
            .filter(|d| d.is_error())
            .count();
        out.push_str(&format!(
            "… and {} more diagnostics ({} errors) not shown\n",
            diagnostics.len() - MAX_RENDERED,
            errors
        ));
    }
    out
}

/// The text codespan sees: the source itself, or, when the primary line is
/// very long, the source with that line cut down around the span. Returns
/// the text and how many bytes were removed before the span (so spans can be
/// shifted). Line numbers stay the same; columns of a cut line are counted
/// in the cut text.
fn shown_source(source: &str, span: &Range<usize>) -> (String, usize) {
    let start = span.start.min(source.len());
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[start..]
        .find('\n')
        .map_or(source.len(), |i| start + i);
    if line_end - line_start <= MAX_SHOWN_LINE {
        return (source.to_string(), 0);
    }
    let mut keep_from = start.saturating_sub(MAX_SHOWN_LINE / 2).max(line_start);
    while !source.is_char_boundary(keep_from) {
        keep_from -= 1;
    }
    let mut keep_to = (keep_from + MAX_SHOWN_LINE).min(line_end).max(start);
    while !source.is_char_boundary(keep_to) {
        keep_to += 1;
    }
    let shown = format!(
        "{}{}{}",
        &source[..line_start],
        &source[keep_from..keep_to],
        &source[line_end..]
    );
    (shown, keep_from - line_start)
}

fn to_codespan(d: &Diagnostic, shown: &str, shift: usize) -> cs::Diagnostic<()> {
    let clamp = |span: &Range<usize>| -> Range<usize> {
        let mut start = span.start.saturating_sub(shift).min(shown.len());
        while !shown.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = span.end.saturating_sub(shift).clamp(start, shown.len());
        while !shown.is_char_boundary(end) {
            end += 1;
        }
        start..end
    };
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let mut labels = vec![
        cs::Label::primary((), clamp(&d.primary.span)).with_message(d.primary.message.clone()),
    ];
    if shift == 0 {
        for l in &d.secondary {
            labels.push(cs::Label::secondary((), clamp(&l.span)).with_message(l.message.clone()));
        }
    }
    cs::Diagnostic::new(severity)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.notes.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_file_line_col_and_caret() {
        let src = "1. ^\n2. x=X0,0\n";
        let d = Diagnostic::error(10..11, "`X` is not a piece letter").with_label("here");
        let text = render("a.icp", src, &[d]);
        assert!(text.contains("a.icp:2:6"), "{text}");
        assert!(text.contains('^'), "{text}");
    }

    #[test]
    fn long_lines_are_cut_in_snippets() {
        let src = format!("1. \"{}\n2. @\n", "a".repeat(1_000_000));
        let at = src.find('@').unwrap();
        let text = render("big.icp", &src, &[Diagnostic::error(at..at + 1, "stray")]);
        assert!(text.len() < 2_000);
        let long = format!("1. {}@\n", "a".repeat(100_000));
        let at = long.find('@').unwrap();
        let text = render("big.icp", &long, &[Diagnostic::error(at..at + 1, "stray")]);
        assert!(text.len() < 2_000, "{}", text.len());
        assert!(text.contains("big.icp:1:"));
    }
}
