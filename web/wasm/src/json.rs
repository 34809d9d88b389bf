//! The JSON the page reads: a few dozen lines of writing, which keep the
//! `.wasm` small (serde_json would add its machinery for the five shapes
//! this crate writes, all of them flat).

/// A JSON text being written.
#[derive(Default)]
pub struct Json {
    out: String,
}

/// The largest integer a JavaScript number holds exactly (2^53 - 1).
const SAFE: i64 = (1 << 53) - 1;

impl Json {
    /// An empty text.
    pub fn new() -> Json {
        Json::default()
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.out
    }

    /// Writes raw JSON punctuation (`{`, `,`, `]`, ...).
    pub fn raw(&mut self, text: &str) -> &mut Json {
        self.out.push_str(text);
        self
    }

    /// Writes `"key":`.
    pub fn key(&mut self, key: &str) -> &mut Json {
        self.string(key);
        self.out.push(':');
        self
    }

    /// Writes a string literal: `"` and `\` escaped, control characters
    /// as `\u00XX`.
    pub fn string(&mut self, text: &str) -> &mut Json {
        self.out.push('"');
        for c in text.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                c if (c as u32) < 0x20 => {
                    self.out.push_str(&format!("\\u{:04x}", c as u32));
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
        self
    }

    /// Writes an integer: a number when JavaScript holds it exactly, else
    /// its decimal digits as a string (the page reads both as a BigInt).
    pub fn int(&mut self, n: i64) -> &mut Json {
        if (-SAFE..=SAFE).contains(&n) {
            self.out.push_str(&n.to_string());
        } else {
            self.string(&n.to_string());
        }
        self
    }

    /// Writes `true` or `false`.
    pub fn bool(&mut self, b: bool) -> &mut Json {
        self.out.push_str(if b { "true" } else { "false" });
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let mut j = Json::new();
        j.string("a\"b\\c\nd\u{1}é");
        assert_eq!(j.finish(), r#""a\"b\\c\nd\u0001é""#);
    }

    #[test]
    fn integers_past_two_to_the_53_are_strings() {
        let mut j = Json::new();
        j.raw("[")
            .int(42)
            .raw(",")
            .int(i64::MAX)
            .raw(",")
            .int(-(1 << 53))
            .raw("]");
        assert_eq!(
            j.finish(),
            r#"[42,"9223372036854775807","-9007199254740992"]"#
        );
    }
}
