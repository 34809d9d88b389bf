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
    /// Edits that would mend the problem, as the "help:" notes suggest:
    /// an editor offers each as a quick fix (`icp2c lsp`); the command
    /// line shows only the notes.
    pub fixes: Vec<Fix>,
}

/// One edit that mends a diagnostic's problem: `replacement` in place of
/// the source text at `span` (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the edit does, as an editor lists it ("Insert `.`").
    pub title: String,
    /// Byte range replaced.
    pub span: Range<usize>,
    /// The new text.
    pub replacement: String,
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
            fixes: Vec::new(),
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

    /// Adds a quick fix: `replacement` for the text at `span`.
    pub fn with_fix(
        mut self,
        title: impl Into<String>,
        span: Range<usize>,
        replacement: impl Into<String>,
    ) -> Self {
        self.fixes.push(Fix {
            title: title.into(),
            span,
            replacement: replacement.into(),
        });
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

/// Longest rendered line, in characters; longer snippet lines (a 10 MB
/// source line, and its caret line) are cut to a window around the caret.
const MAX_SHOWN_LINE: usize = 200;

/// Renders `diagnostics` for the file called `file_name` whose text is
/// `source`, in the order given, as plain text (no colour): for each, a
/// headline, `┌─ FILE:LINE:COL`, the source line and a caret under the span.
/// At most [`MAX_RENDERED`] are shown, then a count of the rest.
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    render_styled(file_name, source, diagnostics, false)
}

/// [`render`], in colour when `colour` is true: ANSI escapes as rustc and
/// gcc use them on a terminal (codespan-reporting's default styles). The
/// program's own text is made printable before it is styled, so it can
/// never add escapes of its own.
pub fn render_styled(
    file_name: &str,
    source: &str,
    diagnostics: &[Diagnostic],
    colour: bool,
) -> String {
    let config = term::Config::default();
    let shown = Shown::new(source);
    let name = printable(file_name.to_string());
    let file = SimpleFile::new(name.as_str(), shown.text.as_str());
    let mut out = String::new();
    for diagnostic in diagnostics.iter().take(MAX_RENDERED) {
        let mut moved = shown.diagnostic(diagnostic);
        moved.message = printable(std::mem::take(&mut moved.message));
        moved.primary.message = printable(std::mem::take(&mut moved.primary.message));
        for l in &mut moved.secondary {
            l.message = printable(std::mem::take(&mut l.message));
        }
        moved.notes = std::mem::take(&mut moved.notes)
            .into_iter()
            .map(printable)
            .collect();
        let codespan = to_codespan(&moved, &shown.text);
        let plain = || {
            term::emit_into_string(&config, &file, &codespan)
                .unwrap_or_else(|_| format!("{}: {}\n", name, moved.message))
        };
        let caret_column = column_of(source, diagnostic.primary.span.start);
        let text = if colour {
            let mut ansi = term::termcolor::Ansi::new(Vec::new());
            match term::emit_to_write_style(&mut ansi, &config, &file, &codespan) {
                Ok(()) => String::from_utf8(ansi.into_inner()).unwrap_or_else(|_| plain()),
                Err(_) => plain(),
            }
        } else {
            plain()
        };
        // A line too long to show whole is cut around the caret; escapes
        // must not be cut, so such a diagnostic is shown plain.
        let text = if colour && text.lines().any(|l| l.chars().count() > MAX_SHOWN_LINE) {
            plain()
        } else {
            text
        };
        for line in text.lines() {
            out.push_str(&shorten(line, caret_column));
            out.push('\n');
        }
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

/// What a message without a place in a source text is: [`render_message`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// `error: …`: icp2c gives up (a file it cannot read or write, a
    /// refused combination of options).
    Error,
    /// `warning: …`.
    Warning,
    /// `note: …`: information, e.g. the language a file is read as.
    Note,
}

/// One line, `error: MESSAGE` (or `warning:`, `note:`), for a problem that
/// has no place in a source text: a file that cannot be read or written, a
/// refused option. In colour when `colour` is true, styled as
/// [`render_styled`] styles a diagnostic's headline, so that every line
/// icp2c writes about a problem looks alike. Control characters in
/// `message` are shown as their pictures; the text ends with one `\n`.
pub fn render_message(kind: MessageKind, message: &str, colour: bool) -> String {
    let severity = match kind {
        MessageKind::Error => cs::Severity::Error,
        MessageKind::Warning => cs::Severity::Warning,
        MessageKind::Note => cs::Severity::Note,
    };
    let message = printable(message.to_string());
    let plain = || {
        let word = match kind {
            MessageKind::Error => "error",
            MessageKind::Warning => "warning",
            MessageKind::Note => "note",
        };
        format!("{word}: {message}\n")
    };
    if !colour {
        return plain();
    }
    let file = SimpleFile::new("", "");
    let diagnostic = cs::Diagnostic::<()>::new(severity).with_message(message.clone());
    let mut ansi = term::termcolor::Ansi::new(Vec::new());
    match term::emit_to_write_style(&mut ansi, &term::Config::default(), &file, &diagnostic) {
        Ok(()) => match String::from_utf8(ansi.into_inner()) {
            Ok(text) => format!("{}\n", text.trim_end_matches('\n')),
            Err(_) => plain(),
        },
        Err(_) => plain(),
    }
}

/// Whether `c` may not be shown as it is: a control character other than
/// a line feed or a tab.
fn hidden(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// How a [`hidden`] character is shown: its Unicode control picture
/// (`\r` as `␍`, ESC as `␛`, DEL as `␡`), or `�` for a C1 control, which
/// has none. Each is one column wide, so carets stay aligned.
fn shown_as(c: char) -> char {
    match c {
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{FFFD}'),
        '\u{7f}' => '\u{2421}',
        _ => '\u{FFFD}',
    }
}

/// The source text as snippets show it: every [`hidden`] character is
/// [`shown_as`] its picture, which is wider in bytes, so spans are moved
/// to match.
struct Shown {
    text: String,
    /// (byte offset in the source, bytes added before the next character)
    /// for each replaced character, in order; empty when none was.
    shifts: Vec<(usize, usize)>,
}

impl Shown {
    fn new(source: &str) -> Shown {
        if !source.chars().any(hidden) {
            return Shown {
                text: source.to_string(),
                shifts: Vec::new(),
            };
        }
        let mut text = String::with_capacity(source.len() + 16);
        let mut shifts = Vec::new();
        let mut added = 0;
        for (at, c) in source.char_indices() {
            if hidden(c) {
                let shown = shown_as(c);
                text.push(shown);
                added += shown.len_utf8() - c.len_utf8();
                shifts.push((at, added));
            } else {
                text.push(c);
            }
        }
        Shown { text, shifts }
    }

    /// Where source byte `at` is in the shown text.
    fn offset(&self, at: usize) -> usize {
        let before = self.shifts.partition_point(|&(o, _)| o < at);
        at + before.checked_sub(1).map_or(0, |i| self.shifts[i].1)
    }

    fn span(&self, span: &Range<usize>) -> Range<usize> {
        self.offset(span.start)..self.offset(span.end)
    }

    /// `d` with its spans moved into the shown text.
    fn diagnostic(&self, d: &Diagnostic) -> Diagnostic {
        let mut moved = d.clone();
        if !self.shifts.is_empty() {
            moved.primary.span = self.span(&d.primary.span);
            for l in &mut moved.secondary {
                l.span = self.span(&l.span);
            }
        }
        moved
    }
}

/// The rendered text with every control character but `\n` and `\t`
/// (ESC, BEL, NUL, CR, DEL, C1 controls…) [`shown_as`] a visible picture:
/// program text, in snippets and in messages, must never drive the user's
/// terminal, and a stray `\r` should be seen for what it is.
fn printable(text: String) -> String {
    if !text.chars().any(hidden) {
        return text;
    }
    text.chars()
        .map(|c| if hidden(c) { shown_as(c) } else { c })
        .collect()
}

/// 0-based column, in characters, of byte offset `at`.
fn column_of(source: &str, at: usize) -> usize {
    let at = at.min(source.len());
    let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
    source.get(line_start..at).map_or(0, |s| s.chars().count())
}

/// Cuts an over-long rendered line (source or caret line of a snippet) to
/// a window around `column`, keeping its gutter (`12 │ `), so that the
/// source line and its caret line stay aligned.
fn shorten(line: &str, column: usize) -> String {
    let count = line.chars().count();
    if count <= MAX_SHOWN_LINE {
        return line.to_string();
    }
    let chars: Vec<char> = line.chars().collect();
    let gutter = line
        .find("│ ")
        .map_or(0, |byte| line[..byte].chars().count() + 2)
        .min(count);
    let window = MAX_SHOWN_LINE - gutter.min(MAX_SHOWN_LINE / 2);
    let from = (gutter + column.saturating_sub(window / 2)).min(count);
    let to = (from + window).min(count);
    let mut out: String = chars[..gutter].iter().collect();
    if from > gutter {
        out.push('…');
    }
    out.extend(&chars[from..to]);
    if to < count {
        out.push('…');
    }
    out
}

fn to_codespan(d: &Diagnostic, source: &str) -> cs::Diagnostic<()> {
    let clamp = |span: &Range<usize>| -> Range<usize> {
        let mut start = span.start.min(source.len());
        while !source.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = span.end.clamp(start, source.len());
        while !source.is_char_boundary(end) {
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
    for l in &d.secondary {
        labels.push(cs::Label::secondary((), clamp(&l.span)).with_message(l.message.clone()));
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
    fn control_characters_never_reach_the_terminal() {
        let src = "1. ^\n2. x=Z\u{1b}[31mRED\u{7}\u{0}\u{9b}2J @\n";
        let at = src.find('@').unwrap();
        let d = Diagnostic::error(at..at + 1, "stray `\u{1b}]0;title\u{7}`").with_label("here");
        let text = render("a.icp", src, &[d]);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        // ESC, BEL and NUL as their control pictures; the C1 control CSI
        // (U+009B), which has none, as U+FFFD.
        assert!(
            text.contains("x=Z\u{241b}[31mRED\u{2407}\u{2400}\u{FFFD}2J"),
            "{text}"
        );
        let source_line = text.lines().find(|l| l.contains('@')).unwrap();
        let caret_line = text.lines().find(|l| l.contains('^')).unwrap();
        assert_eq!(
            source_line.chars().position(|c| c == '@'),
            caret_line.chars().position(|c| c == '^'),
            "the caret stays under the character:\n{text}"
        );
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
        assert!(
            text.contains("big.icp:1:100004"),
            "the column is exact: {text}"
        );
        let source_line = text.lines().find(|l| l.contains("@")).unwrap();
        let caret_line = text.lines().find(|l| l.contains('^')).unwrap();
        assert_eq!(
            source_line.chars().position(|c| c == '@'),
            caret_line.chars().position(|c| c == '^'),
            "the caret stays under the character:\n{text}"
        );
    }

    #[test]
    fn messages_without_a_place_are_one_line_coloured_as_diagnostics() {
        let plain = render_message(MessageKind::Error, "cannot read a\u{1b}b: gone", false);
        assert_eq!(plain, "error: cannot read a\u{241b}b: gone\n");
        let note = render_message(MessageKind::Note, "read as Finvara", false);
        assert_eq!(note, "note: read as Finvara\n");
        let coloured = render_message(MessageKind::Error, "cannot read x", true);
        assert!(coloured.starts_with("\u{1b}["), "{coloured:?}");
        assert!(coloured.contains("error"), "{coloured:?}");
        assert!(
            coloured.ends_with("cannot read x\u{1b}[0m\n"),
            "{coloured:?}"
        );
        assert_eq!(coloured.matches('\n').count(), 1);
    }
}
