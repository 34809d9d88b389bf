//! Escaping user text into generated code, so that no program text can
//! inject code: string literals for C and Rust, and comments.

/// Characters that change how text is displayed without being visible:
/// bidirectional controls (the "Trojan Source" set), zero-width characters,
/// the byte-order mark and the Unicode line/paragraph separators. They are
/// escaped in literals and comments so that generated code reads as it
/// compiles (rustc also rejects bidi controls in comments and literals).
pub fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

/// Longest C string literal we emit, in bytes of content: C99 compilers
/// need only support 4095 characters, and `-Wpedantic` warns past that.
pub const C_CHUNK: usize = 4000;

/// Splits `text` into C string literal bodies (without the quotes) of at
/// most [`C_CHUNK`] source characters each, returning each body with the
/// number of bytes it stands for. Escapes `"`, `\`, `?` (no trigraphs),
/// control characters and invisible format characters as three-digit octal
/// escapes (never `\x`, which would swallow following hex digits); other
/// UTF-8 is kept as is, for readability.
pub fn c_string_chunks(text: &str) -> Vec<(String, usize)> {
    let mut chunks = Vec::new();
    let mut body = String::new();
    let mut bytes = 0usize;
    for c in text.chars() {
        let piece = match c {
            '"' => "\\\"".to_string(),
            '\\' => "\\\\".to_string(),
            '?' => "\\?".to_string(),
            c if c.is_control() || is_invisible_format(c) => {
                let mut buf = [0u8; 4];
                c.encode_utf8(&mut buf)
                    .bytes()
                    .map(|b| format!("\\{b:03o}"))
                    .collect()
            }
            c => c.to_string(),
        };
        if body.len() + piece.len() > C_CHUNK {
            chunks.push((std::mem::take(&mut body), bytes));
            bytes = 0;
        }
        body.push_str(&piece);
        bytes += c.len_utf8();
    }
    if bytes > 0 || chunks.is_empty() {
        chunks.push((body, bytes));
    }
    chunks
}

/// A Rust string literal body (without the quotes) for `text`: escapes `"`,
/// `\`, control characters and invisible format characters as `\u{…}`;
/// `{` and `}` need nothing (we never use the text as a format string).
pub fn rust_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || is_invisible_format(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Source text made safe to stand inside a C `/* … */` or Rust `// …`
/// comment: `*/`, `/*` and `??` are broken up, control and invisible format
/// characters are shown as `<U+XXXX>`. Everything else is kept verbatim.
pub fn comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut prev = '\0';
    for c in text.chars() {
        match c {
            '/' if prev == '*' => out.push_str(" /"),
            '*' if prev == '/' => out.push_str(" *"),
            '?' if prev == '?' => out.push_str(" ?"),
            '\t' => out.push(' '),
            c if c.is_control() || is_invisible_format(c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32))
            }
            c => out.push(c),
        }
        prev = c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_literals_escape_everything_dangerous() {
        let chunks = c_string_chunks("a\"b\\c??=d\0e\u{202E}f");
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].0, "a\\\"b\\\\c\\?\\?=d\\000e\\342\\200\\256f");
        assert_eq!(chunks[0].1, "a\"b\\c??=d\0e\u{202E}f".len());
    }

    #[test]
    fn c_literals_are_split_below_the_c99_limit() {
        let text = "é".repeat(5000);
        let chunks = c_string_chunks(&text);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|(b, _)| b.len() <= C_CHUNK));
        assert_eq!(chunks.iter().map(|c| c.1).sum::<usize>(), text.len());
        assert_eq!(c_string_chunks(""), vec![(String::new(), 0)]);
    }

    #[test]
    fn comments_cannot_be_closed_or_opened() {
        assert_eq!(comment("a */ b /* c ??/"), "a * / b / * c ? ?/");
        assert!(!comment("***/").contains("*/"));
        assert!(!comment("//*").contains("/*"));
        assert_eq!(comment("x\r\u{202E}"), "x<U+000D><U+202E>");
    }

    #[test]
    fn comments_keep_utf8_and_never_hold_a_trigraph() {
        let s = comment("a */ b /* c ??= d ??? \u{7} é\r");
        assert!(
            !s.contains("*/") && !s.contains("/*") && !s.contains("??"),
            "{s}"
        );
        assert!(!s.chars().any(|c| c.is_control()), "{s}");
        assert!(s.contains('é'), "{s}");
    }

    #[test]
    fn rust_literals() {
        assert_eq!(rust_string("{}\"\\\0\u{2066}"), "{}\\\"\\\\\\u{0}\\u{2066}");
    }
}
