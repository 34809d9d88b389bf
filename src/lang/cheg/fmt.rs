//! `icp2c fmt` for CHEG, in the examples' columns:
//!
//! - a tag and its colon from column 1, the instruction at column 9 (one
//!   blank after a tag of 7 characters or more); without a tag, `ENTRY`
//!   and `END` start at column 1, every other instruction at column 9;
//! - the arguments one blank after the instruction, separated by commas
//!   alone (§1: blanks around commas, and a run of blanks between two
//!   arguments, separate them as a comma does); each argument, a set
//!   literal's inside and empty arguments included, as written, and
//!   names, tags and instructions in the case they are written in;
//! - a trailing `;` comment at column 41, or one blank after code that
//!   reaches it;
//! - a comment line at column 1 when it starts there, at column 41 when
//!   it starts at column 41 or further (a comment continued under the
//!   trailing ones), else at column 9; blank lines stay.

use super::front::{self, is_blank};
use crate::common::diagnostic::Diagnostic;
use crate::common::format::with_comment;
use crate::common::source;
use crate::lang::{FormatOptions, no_renumbering};

/// The instruction's column (0-based).
const INSTRUCTION: usize = 8;
/// The trailing comments' column (0-based).
const COMMENT: usize = 40;

/// The formatted lines of `source`, one per source line ([`crate::lang::Lang::format`]).
pub fn format(source: &str, options: &FormatOptions) -> Result<Vec<String>, Vec<Diagnostic>> {
    no_renumbering("CHEG", options)?;
    let mut out = Vec::new();
    for line in source::lines(source) {
        let raw = line.text;
        let (code, comment) = match raw.find(';') {
            Some(at) => (&raw[..at], Some(raw[at..].trim_end_matches(is_blank))),
            None => (raw, None),
        };
        if code.trim_matches(is_blank).is_empty() {
            out.push(match comment {
                None => String::new(),
                Some(comment) => format!("{}{comment}", " ".repeat(comment_indent(code))),
            });
            continue;
        }
        let Some(parts) = front::statement_parts(code, line.start) else {
            // Not a statement the front end reads: kept as it is (a
            // program that checks has none).
            out.push(raw.to_string());
            continue;
        };
        let text = |span: std::ops::Range<usize>| source.get(span).unwrap_or_default();
        let name = text(parts.name.clone());
        let mut statement = match parts.tag {
            Some(tag) => {
                let tag = format!("{}:", text(tag));
                let pad = INSTRUCTION.saturating_sub(tag.len()).max(1);
                format!("{tag}{}", " ".repeat(pad))
            }
            None if ["ENTRY", "END"].contains(&name.to_ascii_uppercase().as_str()) => String::new(),
            None => " ".repeat(INSTRUCTION),
        };
        statement.push_str(name);
        if !parts.args.is_empty() {
            statement.push(' ');
            statement.push_str(&parts.args.join(","));
        }
        out.push(with_comment(&statement, comment, COMMENT));
    }
    Ok(out)
}

/// The indentation of a comment line whose blanks before the `;` are
/// `blanks`: none, the instruction's column or the comments' column,
/// whichever it is nearest to from below (tabs every 8 columns).
fn comment_indent(blanks: &str) -> usize {
    let column = blanks.chars().fold(0, |col, c| {
        if c == '\t' {
            (col / 8 + 1) * 8
        } else {
            col + 1
        }
    });
    match column {
        0 => 0,
        c if c < COMMENT => INSTRUCTION,
        _ => COMMENT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::format::assemble;

    fn fmt(source: &str) -> String {
        assemble(source, format(source, &FormatOptions::default()).unwrap())
    }

    #[test]
    fn tags_instructions_arguments_and_comments_take_their_columns() {
        let src = "; head\n  ; mid\n\t\t\t\t\t; far\nA: setv x , \"1  ; one\nLONGERTAG:LEAVE\nentry K&P , K  =0\n  X2:  Add A,B C ;sum   \n END\n";
        assert_eq!(
            fmt(src),
            "; head\n        ; mid\n                                        ; far\nA:      setv x,\"1                       ; one\nLONGERTAG: LEAVE\nentry K&P,K,=0\nX2:     Add A,B,C                       ;sum\nEND\n"
        );
        assert_eq!(fmt(&fmt(src)), fmt(src));
    }

    #[test]
    fn empty_arguments_and_set_literals_are_kept() {
        assert_eq!(
            fmt("        TRY LM,,DEEP\n  SETV ,A\n SETV N,\"( 1 , 2 3 )\n PLAY S,,\n"),
            "        TRY LM,,DEEP\n        SETV ,A\n        SETV N,\"( 1 , 2 3 )\n        PLAY S,,\n"
        );
    }

    #[test]
    fn long_code_has_its_comment_one_blank_after() {
        let code = "        SETV ABCDEFGHIJKLMNOPQRST,ABCDEF";
        assert_eq!(code.len(), 40);
        assert_eq!(fmt(&format!("{code};c\n")), format!("{code} ;c\n"));
    }
}
