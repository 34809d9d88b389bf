//! What every language's formatter shares: a formatted program is one
//! output line per source line (no line is added or removed, so line
//! numbers in diagnostics, traces and CHEG's runtime messages stay true),
//! put back together here with the source's byte-order mark and line
//! ends.

use unicode_width::UnicodeWidthStr;

/// Blanks as InfChessPro and Finvara read them (§1, §2): spaces and tabs.
pub fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Joins the formatted `lines`, one per line of `source`
/// ([`crate::common::source::lines`]), into the formatted text: blank
/// lines at the end are dropped, every line ends with the source's line
/// end (`\r\n` when its first line ends so, else `\n`; always `\r\n`
/// after a line that ends in `\r`, which would else be lost), and a
/// byte-order mark that starts `source` starts the result too.
pub fn assemble(source: &str, mut lines: Vec<String>) -> String {
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let end = match source.find('\n') {
        Some(i) if source[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    };
    let mut out = String::with_capacity(source.len() + lines.len());
    if source.starts_with('\u{FEFF}') {
        out.push('\u{FEFF}');
    }
    for line in lines {
        out.push_str(&line);
        // A line's own last `\r` (an InfChessPro text's, §4.6) survives
        // only before a `\r\n`: before `\n` it would end the line.
        out.push_str(if line.ends_with('\r') { "\r\n" } else { end });
    }
    out
}

/// The columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `code`, then `comment` starting at `column` (0-based), or one blank
/// after `code` when `code` reaches that far; `code` alone without a
/// comment.
pub fn with_comment(code: &str, comment: Option<&str>, column: usize) -> String {
    match comment {
        None => code.to_string(),
        Some(comment) if code.is_empty() => comment.to_string(),
        Some(comment) => {
            let pad = column.saturating_sub(width(code)).max(1);
            format!("{code}{}{comment}", " ".repeat(pad))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_and_the_byte_order_mark_are_kept() {
        let lines = || vec!["a".to_string(), "b".to_string(), String::new()];
        assert_eq!(assemble("x\ny\n\n", lines()), "a\nb\n");
        assert_eq!(assemble("x\r\ny\n", lines()), "a\r\nb\r\n");
        assert_eq!(assemble("\u{FEFF}x\ny", lines()), "\u{FEFF}a\nb\n");
        assert_eq!(assemble("", Vec::new()), "");
        assert_eq!(assemble("x\n", vec!["a\r".into()]), "a\r\r\n");
        assert_eq!(assemble("\u{FEFF}", Vec::new()), "\u{FEFF}");
    }

    #[test]
    fn comments_start_at_their_column_or_one_blank_after_the_code() {
        assert_eq!(with_comment("ab", Some("# c"), 5), "ab   # c");
        assert_eq!(with_comment("abcde", Some("# c"), 5), "abcde # c");
        assert_eq!(with_comment("", Some("# c"), 5), "# c");
        assert_eq!(with_comment("ab", None, 5), "ab");
    }
}
