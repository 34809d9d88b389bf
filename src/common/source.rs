//! Source files: decoding bytes into text and splitting text into lines.
//!
//! Spans everywhere are byte offsets into the decoded text.

use crate::common::diagnostic::Diagnostic;

/// Decodes `bytes` as UTF-8 (§1 of both contracts: a source file is UTF-8
/// text).
///
/// On success returns the text. On failure returns the text decoded lossily
/// (each invalid sequence replaced by U+FFFD) together with one error at
/// the first invalid sequence, whose note counts the others; the caller
/// renders it against the lossy text.
pub fn decode(bytes: &[u8]) -> Result<String, (String, Vec<Diagnostic>)> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(_) => {
            // One diagnostic, at the first bad byte: a file that is not
            // UTF-8 is usually not text at all, and a hundred diagnostics
            // of mojibake help nobody.
            let mut text = String::with_capacity(bytes.len());
            let mut first: Option<(usize, String)> = None;
            let mut more = 0usize;
            for chunk in bytes.utf8_chunks() {
                text.push_str(chunk.valid());
                if !chunk.invalid().is_empty() {
                    if first.is_none() {
                        let shown: Vec<String> = chunk
                            .invalid()
                            .iter()
                            .map(|b| format!("\\x{b:02X}"))
                            .collect();
                        first = Some((text.len(), shown.join(" ")));
                    } else {
                        more += 1;
                    }
                    text.push(char::REPLACEMENT_CHARACTER);
                }
            }
            let (at, shown) = first.unwrap_or_default();
            let mut diagnostic = Diagnostic::error(
                at..at + char::REPLACEMENT_CHARACTER.len_utf8(),
                format!("not UTF-8 text: invalid byte sequence {shown}"),
            )
            .with_label("not UTF-8")
            .with_note("a source file must be UTF-8 text (§1)");
            if more > 0 {
                diagnostic = diagnostic.with_note(format!(
                    "{more} more invalid sequence{} follow{}: is this a binary file?",
                    if more == 1 { "" } else { "s" },
                    if more == 1 { "s" } else { "" }
                ));
            }
            Err((text, vec![diagnostic]))
        }
    }
}

/// One physical line of a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// Byte offset of the line's first character in the whole text.
    pub start: usize,
    /// The line without its `\n` and without a `\r` just before it.
    pub text: &'a str,
}

/// Splits `source` into lines (§1 of every language: lines end with `\n`,
/// a `\r` before it is dropped; a last line without `\n` counts). A
/// byte-order mark at the very start of the text is not text: the first
/// line starts after it (its `start` is 3).
pub fn lines(source: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = if source.starts_with('\u{FEFF}') { 3 } else { 0 };
    let mut number = 0;
    std::iter::from_fn(move || {
        if start >= source.len() {
            return None;
        }
        number += 1;
        let rest = &source[start..];
        let (raw, next) = match rest.find('\n') {
            Some(i) => (&rest[..i], start + i + 1),
            None => (rest, source.len()),
        };
        let text = raw.strip_suffix('\r').unwrap_or(raw);
        let line = Line {
            number,
            start,
            text,
        };
        start = next;
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_starts_no_line() {
        let all: Vec<Line> = lines("\u{FEFF}a\n\u{FEFF}b").collect();
        assert_eq!(all[0].text, "a");
        assert_eq!(all[0].start, 3);
        assert_eq!(all[0].number, 1);
        // Only at the very start: elsewhere it is text.
        assert_eq!(all[1].text, "\u{FEFF}b");
        assert_eq!(lines("\u{FEFF}").count(), 0);
    }

    #[test]
    fn lines_drop_cr_and_count_from_one() {
        let got: Vec<_> = lines("a\r\nb\n\nc")
            .map(|l| (l.number, l.start, l.text))
            .collect();
        assert_eq!(got, vec![(1, 0, "a"), (2, 3, "b"), (3, 5, ""), (4, 6, "c")]);
    }

    #[test]
    fn invalid_utf8_gets_one_error_at_the_first_bad_byte() {
        let (text, diags) = decode(b"1. ^\n2. \xff\xfe\n3. \xc3").unwrap_err();
        assert_eq!(diags.len(), 1);
        assert_eq!(&text[diags[0].primary.span.clone()], "\u{FFFD}");
        assert!(text.starts_with("1. ^\n2. \u{FFFD}"));
        assert!(diags[0].message.contains("\\xFF"), "{}", diags[0].message);
        // \xfe and \xc3: two more sequences, counted in a note.
        assert!(
            diags[0]
                .notes
                .iter()
                .any(|n| n.starts_with("2 more invalid sequences")),
            "{:?}",
            diags[0].notes
        );
    }
}
