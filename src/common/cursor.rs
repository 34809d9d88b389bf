//! The byte cursor every front end scans source text with: a position in
//! a text, its offset in the whole source (for spans), where scanning
//! stops, and the few moves and messages every parser needs.

use super::Span;

/// A cursor over `text[..end]`, at byte `pos`. Spans it makes are offsets
/// in the whole source: `base` is where `text` starts in it (0 when `text`
/// is the whole source).
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    /// The text scanned: a line, or the whole source.
    pub text: &'a str,
    /// Where `text` starts in the whole source.
    pub base: usize,
    /// The cursor: a byte offset in `text`, on a character boundary.
    pub pos: usize,
    /// Where scanning stops (at most `text.len()`).
    pub end: usize,
    /// What messages call the stopping point: "the end of the line".
    pub end_name: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor at `pos` in `text[..end]`; `base` and `end_name` as the
    /// fields say.
    pub fn new(text: &'a str, base: usize, pos: usize, end: usize, end_name: &'static str) -> Self {
        Cursor {
            text,
            base,
            pos,
            end: end.min(text.len()),
            end_name,
        }
    }

    /// The byte at the cursor, or `None` at the end.
    pub fn peek(&self) -> Option<u8> {
        if self.pos < self.end {
            self.text.as_bytes().get(self.pos).copied()
        } else {
            None
        }
    }

    /// Steps over `b` if it is at the cursor.
    pub fn eat(&mut self, b: u8) -> bool {
        let found = self.peek() == Some(b);
        if found {
            self.pos += 1;
        }
        found
    }

    /// Steps over spaces and tabs (the blanks of every language).
    pub fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Steps over a run of ASCII digits: `None` when there is none at the
    /// cursor, else `Some` of its value, itself `None` when the value does
    /// not fit in a u64.
    pub fn digits(&mut self) -> Option<Option<u64>> {
        let start = self.pos;
        let mut value = Some(0u64);
        while let Some(b @ b'0'..=b'9') = self.peek() {
            let digit = u64::from(b - b'0');
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(digit));
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }

    /// Steps over `-?[0-9]+`: `None` when no digit follows (the cursor is
    /// then after the `-`, if there was one), else `Some` of its value,
    /// itself `None` when the value is outside the i64 range.
    pub fn signed_number(&mut self) -> Option<Option<i64>> {
        let negative = self.eat(b'-');
        let magnitude = self.digits()?;
        Some(magnitude.and_then(|m| {
            if negative {
                0i64.checked_sub_unsigned(m)
            } else {
                i64::try_from(m).ok()
            }
        }))
    }

    /// The end of the character that starts at `at` (`at` itself at the
    /// end): a one-character span is `at..char_end(at)`.
    pub fn char_end(&self, at: usize) -> usize {
        if at >= self.end {
            return at;
        }
        char_end(self.text, at)
    }

    /// The span of `text[from..to]` in the whole source.
    pub fn span(&self, from: usize, to: usize) -> Span {
        self.base + from..self.base + to
    }

    /// The span of the character at the cursor, empty at the end.
    pub fn here(&self) -> Span {
        self.span(self.pos, self.char_end(self.pos))
    }

    /// The character at the cursor for a message: "`@`", a control
    /// character or U+FFFD escaped ("'\r'"), or [`Cursor::end_name`].
    pub fn found(&self) -> String {
        if self.peek().is_none() {
            return self.end_name.to_string();
        }
        match self.text[self.pos..].chars().next() {
            Some(c) if c.is_control() || c == '\u{FFFD}' => format!("{c:?}"),
            Some(c) => format!("`{c}`"),
            None => self.end_name.to_string(),
        }
    }
}

/// Implements `Deref` and `DerefMut` to its [`Cursor`] for a parser that
/// holds one in `field`, so that it moves and reports through the cursor's
/// methods: `deref_cursor!(LineParser, cur)`.
macro_rules! deref_cursor {
    ($ty:ident, $field:tt) => {
        impl<'a> std::ops::Deref for $ty<'a> {
            type Target = $crate::common::cursor::Cursor<'a>;
            fn deref(&self) -> &Self::Target {
                &self.$field
            }
        }

        impl std::ops::DerefMut for $ty<'_> {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.$field
            }
        }
    };
}
pub(crate) use deref_cursor;

/// The end of the UTF-8 character of `text` that starts at byte `at` (the
/// next character boundary after it, at most `text.len()`).
pub fn char_end(text: &str, at: usize) -> usize {
    let mut e = (at + 1).min(text.len());
    while !text.is_char_boundary(e) {
        e += 1;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_messages() {
        let mut c = Cursor::new("  é\r x", 10, 0, 7, "the end of the line");
        c.skip_blanks();
        assert_eq!(c.pos, 2);
        assert_eq!(c.here(), 12..14);
        assert_eq!(c.found(), "`é`");
        c.pos = 4;
        assert_eq!(c.found(), "'\\r'");
        assert!(!c.eat(b'x'));
        assert!(c.eat(b'\r'));
        c.pos = 7;
        assert_eq!(c.peek(), None);
        assert_eq!(c.here(), 17..17);
        assert_eq!(c.found(), "the end of the line");
        assert_eq!(char_end("aé", 1), 3);
        let mut n = Cursor::new("12x 99999999999999999999", 0, 0, 24, "");
        assert_eq!(n.digits(), Some(Some(12)));
        assert_eq!(n.digits(), None);
        n.pos = 4;
        assert_eq!(n.digits(), Some(None));
        assert_eq!(n.pos, 24);
        let mut m = Cursor::new("-9223372036854775808 9223372036854775808 -x", 0, 0, 43, "");
        assert_eq!(m.signed_number(), Some(Some(i64::MIN)));
        m.pos += 1;
        assert_eq!(m.signed_number(), Some(None));
        m.pos += 1;
        assert_eq!(m.signed_number(), None);
        assert_eq!(m.pos, 42);
        assert_eq!(char_end("a", 1), 1);
    }
}
