//! Positions as the protocol counts them: a line (from 0) and a column in
//! UTF-16 code units, converted to and from the byte offsets every front
//! end's spans use.

use lsp_types::{Position, Range};

/// Where each line of a text starts, to convert byte offsets to protocol
/// positions and back in time proportional to one line's length.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the start of each line; the first is 0. Lines end
    /// with `\n` (a `\r` before it belongs to the line's text).
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The protocol position of byte `offset` of `text` (clamped to the
    /// text, and back to a character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column: usize = text[self.starts[line]..offset]
            .chars()
            .map(char::len_utf16)
            .sum();
        Position::new(line as u32, column as u32)
    }

    /// The protocol range of the byte span `span` of `text`.
    pub fn range(&self, text: &str, span: &std::ops::Range<usize>) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end),
        )
    }

    /// The byte offset of the protocol position `position` in `text`: a
    /// line past the end gives the end of the text, a column past the end
    /// of its line the end of the line, a column inside a surrogate pair
    /// the start of its character.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |&next| next - 1);
        let mut units = 0usize;
        for (i, c) in text[start..end].char_indices() {
            if units + c.len_utf16() > position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // é is 2 bytes and 1 unit; 𝄞 is 4 bytes and 2 units.
        let text = "1. \"é𝄞x\n2. ^?1\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x), Position::new(0, 7));
        assert_eq!(index.offset(text, Position::new(0, 7)), x);
        let jump = text.rfind('1').unwrap();
        assert_eq!(index.position(text, jump), Position::new(1, 5));
        assert_eq!(index.offset(text, Position::new(1, 5)), jump);
        // Inside the surrogate pair: the start of 𝄞.
        assert_eq!(
            index.offset(text, Position::new(0, 6)),
            text.find('𝄞').unwrap()
        );
        assert_eq!(index.offset(text, Position::new(0, 99)), x + 1);
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(index.position(text, text.len()), Position::new(2, 0));
    }
}
