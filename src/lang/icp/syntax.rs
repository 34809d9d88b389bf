//! InfChessPro parser: source text → [`super::ast::Program`], with a diagnostic for
//! every malformed line (§1, §2, §4, §5). Each line is parsed on its own, so
//! one bad line never hides errors on the others.

use super::ast::{Command, LabelAt, Name, Operand, PieceKind, Program, Span, Statement, Suffix};
use crate::common::cursor::{Cursor, deref_cursor};
use crate::common::diagnostic::Diagnostic;
use crate::common::source;

/// Parses every line of `source`. Returns the statements that parsed and
/// the errors of those that did not (both in line order).
pub fn parse(source: &str) -> (Program, Vec<Diagnostic>) {
    let mut statements = Vec::new();
    let mut labels = Vec::new();
    let mut errors = Vec::new();
    for line in source::lines(source) {
        // (A byte-order mark at the very start is no line's text.)
        let body = line.text.trim_start_matches([' ', '\t']);
        if body.is_empty() || body.starts_with('#') {
            continue; // §1: blank lines and comments
        }
        let mut parser = LineParser {
            cur: Cursor::new(
                line.text,
                line.start,
                line.text.len() - body.len(),
                line.text.len(),
                "the end of the line",
            ),
            label: None,
        };
        let parsed = parser.statement();
        if let Some((value, span)) = parser.label.take() {
            labels.push(LabelAt {
                value,
                span,
                line: line.number,
            });
        }
        match parsed {
            Ok((label, label_span, command, suffix)) => statements.push(Statement {
                label,
                label_span,
                line: line.number,
                text: line.text.to_string(),
                command,
                suffix,
            }),
            Err(diagnostic) => errors.push(diagnostic),
        }
    }
    (Program { statements, labels }, errors)
}

/// A word: `[A-Za-z0-9_]+`, the shape of names and of unsigned integers.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

const LETTERS_HELP: &str = "piece letters are K Q R B N P (white) and k q r b n p (black) (§2)";

struct LineParser<'a> {
    /// The cursor in the line's text (spans in the whole source).
    cur: Cursor<'a>,
    /// The label, once read (kept even when the rest of the line is bad).
    label: Option<(i64, Span)>,
}

type Parsed<T> = Result<T, Diagnostic>;

deref_cursor!(LineParser, cur);

impl LineParser<'_> {
    fn word(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        while self.peek().is_some_and(is_word_byte) {
            self.pos += 1;
        }
        (self.pos > start).then_some((start, self.pos))
    }

    fn statement(&mut self) -> Parsed<(i64, Span, Command, Suffix)> {
        let (label, label_span) = self.label()?;
        self.label = Some((label, label_span.clone()));
        if self.peek() != Some(b'.') {
            let mut d = Diagnostic::error(
                self.here(),
                format!("expected `.` after the label, found {}", self.found()),
            )
            .with_label("expected `.`")
            .with_note(
                "a statement line is `<label>. <command>`, with no blank before the `.` (§1)",
            );
            let rest = &self.text[self.pos..];
            let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            let at = label_span.end;
            d = if rest[blanks..].starts_with('.') {
                d.with_fix("Remove the blanks before `.`", at..at + blanks, "")
            } else {
                d.with_fix("Insert `.` after the label", at..at, ".")
            };
            return Err(d);
        }
        self.pos += 1;
        self.skip_blanks();
        let (command, takes_suffix) = self.command()?;
        let suffix = if takes_suffix {
            self.suffix()?
        } else {
            Suffix::default()
        };
        self.skip_blanks();
        if self.pos < self.text.len() {
            return Err(self.stray());
        }
        Ok((label, label_span, command, suffix))
    }

    fn stray(&self) -> Diagnostic {
        Diagnostic::error(self.here(), format!("stray character {}", self.found()))
            .with_label("unexpected here")
            .with_note("after the command may come only jump targets `?T` and `!T` (§5)")
    }

    fn label(&mut self) -> Parsed<(i64, Span)> {
        let start = self.pos;
        match self.peek() {
            Some(b'*') => {
                return Err(Diagnostic::error(self.here(), "a label cannot be read from input")
                    .with_label("`*` is not allowed here")
                    .with_note("`*` may stand only where an integer of a command or a jump target may (§2)"));
            }
            Some(b'-')
                if self
                    .text
                    .as_bytes()
                    .get(self.pos + 1)
                    .is_some_and(u8::is_ascii_digit) =>
            {
                self.pos += 1;
                self.word();
                return Err(Diagnostic::error(
                    self.span(start, self.pos),
                    "a label cannot be negative",
                )
                .with_label("negative label")
                .with_note("a label is a decimal integer 0 ≤ label ≤ 2^63−1 (§1)"));
            }
            Some(b) if b.is_ascii_digit() => {}
            _ => {
                let word_end = self.text[self.pos..]
                    .find(['.', ' ', '\t'])
                    .map_or(self.text.len(), |i| self.pos + i);
                let end = if word_end > self.pos {
                    word_end
                } else {
                    self.here().end - self.base
                };
                return Err(Diagnostic::error(self.span(start, end), "a statement needs a label")
                    .with_label("expected a label like `1.`")
                    .with_note("every line that is not blank or a `#` comment is `<label>. <command>` (§1)"));
            }
        }
        self.digits();
        let span = self.span(start, self.pos);
        let digits = &self.text[start..self.pos];
        match digits.parse::<i64>() {
            Ok(v) => Ok((v, span)),
            Err(_) => Err(Diagnostic::error(span, "label out of range")
                .with_label("larger than 9223372036854775807")
                .with_note("a label is a decimal integer 0 ≤ label ≤ 2^63−1 (§1)")),
        }
    }

    /// Parses the command; the flag says whether a jump suffix may follow.
    fn command(&mut self) -> Parsed<(Command, bool)> {
        match self.peek() {
            None => Err(Diagnostic::error(self.here(), "missing command after the label")
                .with_label("expected a command")
                .with_note("commands: `name=Lr,c` `r1,c1,r2,c2` `name,r,c` `name;dr,dc` `^` `\"text` `%name` (§4)")),
            Some(b'"') => {
                let text = self.text[self.pos + 1..].to_string();
                self.pos = self.text.len();
                Ok((Command::Text(text), false))
            }
            Some(b'^') => {
                self.pos += 1;
                Ok((Command::Nothing, true))
            }
            Some(b'%') => {
                self.pos += 1;
                self.skip_blanks();
                let name = self.name("`%` must be followed by a piece name (§4.7)")?;
                Ok((Command::Count(name), true))
            }
            _ => self.piece_command().map(|c| (c, true)),
        }
    }

    fn name(&mut self, context: &str) -> Parsed<Name> {
        let start = self.pos;
        match self.word() {
            Some((s, e)) => Ok(Name {
                text: self.text[s..e].to_string(),
                span: self.span(s, e),
            }),
            None => {
                self.pos = start;
                Err(self.bad_name(context))
            }
        }
    }

    fn bad_name(&self, context: &str) -> Diagnostic {
        let message = if self.peek() == Some(b'*') {
            "a name cannot be read from input".to_string()
        } else {
            format!("expected a piece name, found {}", self.found())
        };
        Diagnostic::error(self.here(), message)
            .with_label("expected a name")
            .with_note(context.to_string())
            .with_note("a name has letters, digits and underscores: [A-Za-z0-9_]+ (§2)")
    }

    /// One integer field: `-?[0-9]+` or `*` (§2).
    fn operand(&mut self, what: &str) -> Parsed<Operand> {
        self.skip_blanks();
        let start = self.pos;
        match self.peek() {
            Some(b'*') => {
                self.pos += 1;
                Ok(Operand::Star(self.span(start, self.pos)))
            }
            Some(b'-') | Some(b'0'..=b'9') => {
                if self.peek() == Some(b'-') {
                    self.pos += 1;
                }
                if self.digits().is_none() {
                    return Err(Diagnostic::error(
                        self.here(),
                        format!("expected digits after `-`, found {}", self.found()),
                    )
                    .with_label("expected a digit")
                    .with_note("an integer is `-?[0-9]+`, with no blank after the `-` (§2)"));
                }
                if self.peek().is_some_and(is_word_byte) {
                    while self.peek().is_some_and(is_word_byte) {
                        self.pos += 1;
                    }
                    return Err(Diagnostic::error(
                        self.span(start, self.pos),
                        format!("expected {what}, found `{}`", &self.text[start..self.pos]),
                    )
                    .with_label("not an integer")
                    .with_note("an integer is `-?[0-9]+` or `*` for one read from input (§2)"));
                }
                self.int_value(start)
            }
            _ => Err(Diagnostic::error(
                self.here(),
                format!("expected {what}, found {}", self.found()),
            )
            .with_label("expected an integer or `*`")
            .with_note("an integer is `-?[0-9]+` or `*` for one read from input (§2)")),
        }
    }

    fn int_value(&self, start: usize) -> Parsed<Operand> {
        let span = self.span(start, self.pos);
        match self.text[start..self.pos].parse::<i64>() {
            Ok(v) => Ok(Operand::Int(v, span)),
            Err(_) => Err(Diagnostic::error(span, "integer out of range")
                .with_label("outside −9223372036854775808 ..= 9223372036854775807")
                .with_note("integers are signed 64-bit (§2)")),
        }
    }

    fn expect(&mut self, byte: u8, message: &str, note: &str) -> Parsed<()> {
        self.skip_blanks();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(
                Diagnostic::error(self.here(), format!("{message}, found {}", self.found()))
                    .with_label(format!("expected `{}`", byte as char))
                    .with_note(note.to_string()),
            )
        }
    }

    /// Place and the three moves: they all start with a name or an integer.
    fn piece_command(&mut self) -> Parsed<Command> {
        let start = self.pos;
        let first_word = match self.peek() {
            Some(b) if is_word_byte(b) => self.word(),
            _ => None,
        };
        if let Some((s, e)) = first_word {
            let name = Name {
                text: self.text[s..e].to_string(),
                span: self.span(s, e),
            };
            self.skip_blanks();
            match self.peek() {
                Some(b'=') => {
                    self.pos += 1;
                    return self.place(name);
                }
                Some(b';') => {
                    self.pos += 1;
                    let note = "a relative move is `name;drow,dcol` (§4.4)";
                    let drow = self.operand("a row offset")?;
                    self.expect(
                        b',',
                        "a relative move needs a row and a column offset",
                        note,
                    )?;
                    let dcol = self.operand("a column offset")?;
                    return Ok(Command::MoveNameBy { name, drow, dcol });
                }
                Some(b',') => {}
                _ if name.text.bytes().all(|b| b.is_ascii_digit()) => {
                    return Err(self.after_first_item());
                }
                Some(_) if self.pos == e => {
                    let end = self.text[s..]
                        .find(['=', ';', ',', ' ', '\t'])
                        .map_or(self.text.len(), |i| s + i);
                    return Err(Diagnostic::error(
                        self.span(s, end),
                        format!("`{}` is not a name", &self.text[s..end]),
                    )
                    .with_label(format!("{} is not allowed in a name", self.found()))
                    .with_note("a name has letters, digits and underscores: [A-Za-z0-9_]+ (§2)"));
                }
                _ => {
                    return Err(Diagnostic::error(
                        self.here(),
                        format!(
                            "expected `=`, `;` or `,` after the name `{}`, found {}",
                            name.text,
                            self.found()
                        ),
                    )
                    .with_label("expected `=`, `;` or `,`")
                    .with_note("a name has letters, digits and underscores: [A-Za-z0-9_]+ (§2)")
                    .with_note("commands: `name=Lr,c` `name,r,c` `name;dr,dc` (§4)"));
                }
            }
            // A comma list: `name,r,c` or, if the first word is all digits, maybe `r1,c1,r2,c2`.
            let mut items = vec![];
            while self.peek() == Some(b',') {
                self.pos += 1;
                items.push(self.operand("an integer")?);
                self.skip_blanks();
            }
            let all_digits = name.text.bytes().all(|b| b.is_ascii_digit());
            return match items.len() {
                2 => {
                    let mut it = items.into_iter();
                    let (row, col) = (
                        it.next().unwrap_or(Operand::Star(0..0)),
                        it.next().unwrap_or(Operand::Star(0..0)),
                    );
                    Ok(Command::MoveNameTo { name, row, col })
                }
                3 if all_digits => {
                    self.pos = start;
                    self.move_squares()
                }
                3 => Err(Diagnostic::error(
                    name.span.clone(),
                    format!(
                        "`{}` is a name, but a move by squares starts with a row",
                        name.text
                    ),
                )
                .with_label("expected an integer")
                .with_note(
                    "`name,r,c` moves a named piece (§4.3); `r1,c1,r2,c2` moves by squares (§4.2)",
                )),
                1 | 0 => Err(self.missing_field(start, items.len() + 1)),
                _ => Err(self.too_many(start, &items)),
            };
        }
        match self.peek() {
            Some(b'-') | Some(b'*') => self.move_squares(),
            _ => Err(Diagnostic::error(self.here(), format!("expected a command, found {}", self.found()))
                .with_label("not a command")
                .with_note("commands: `name=Lr,c` `r1,c1,r2,c2` `name,r,c` `name;dr,dc` `^` `\"text` `%name` (§4)")),
        }
    }

    fn after_first_item(&self) -> Diagnostic {
        Diagnostic::error(
            self.here(),
            format!("expected `,`, `=` or `;`, found {}", self.found()),
        )
        .with_label("unexpected here")
        .with_note("commands: `name=Lr,c` `r1,c1,r2,c2` `name,r,c` `name;dr,dc` (§4)")
    }

    fn missing_field(&self, start: usize, count: usize) -> Diagnostic {
        Diagnostic::error(
            self.span(start, self.pos),
            format!("a move needs more fields: found {count}"),
        )
        .with_label("incomplete move")
        .with_note("`name,r,c` moves a named piece (§4.3); `r1,c1,r2,c2` moves by squares (§4.2)")
    }

    fn too_many(&self, start: usize, items: &[Operand]) -> Diagnostic {
        let extra = items.get(3).map_or(self.span(start, self.pos), |o| {
            o.span().start..self.base + self.pos
        });
        Diagnostic::error(
            extra,
            format!(
                "too many numbers: a move by squares has 4, found {}",
                items.len() + 1
            ),
        )
        .with_label("extra field")
        .with_note("`r1,c1,r2,c2` moves the piece on (r1, c1) to (r2, c2) (§4.2)")
    }

    /// `r1,c1,r2,c2` from the cursor.
    fn move_squares(&mut self) -> Parsed<Command> {
        let start = self.pos;
        let mut items = vec![self.operand("a row")?];
        self.skip_blanks();
        while self.peek() == Some(b',') {
            self.pos += 1;
            items.push(self.operand("an integer")?);
            self.skip_blanks();
        }
        if items.len() > 4 {
            return Err(self.too_many(start, &items));
        }
        if items.len() < 4 {
            if items.len() == 3 {
                if let Operand::Star(span) = &items[0] {
                    return Err(Diagnostic::error(
                        span.clone(),
                        "a name cannot be read from input",
                    )
                    .with_label("`*` is not a name")
                    .with_note(
                        "`name,r,c` needs a name (§4.3); `r1,c1,r2,c2` needs four integers (§4.2)",
                    ));
                }
                return Err(Diagnostic::error(
                    items[0].span(),
                    "a name cannot be negative: expected a name or four integers",
                )
                .with_label("not a name")
                .with_note(
                    "`name,r,c` needs a name (§4.3); `r1,c1,r2,c2` needs four integers (§4.2)",
                ));
            }
            if self.pos < self.text.len() && items.len() == 1 {
                return Err(self.after_first_item());
            }
            return Err(self.missing_field(start, items.len()));
        }
        let mut it = items.into_iter();
        let mut next = || it.next().unwrap_or(Operand::Star(0..0));
        Ok(Command::MoveSquares {
            from: (next(), next()),
            to: (next(), next()),
        })
    }

    /// `=Lr,c` after the name (§4.1).
    fn place(&mut self, name: Name) -> Parsed<Command> {
        const NOTE: &str = "a place is `name=Lrow,col` (§4.1)";
        self.skip_blanks();
        let Some(letter) = self.text[self.pos..].chars().next() else {
            return Err(Diagnostic::error(
                self.here(),
                "expected a piece letter, found the end of the line",
            )
            .with_label("expected a piece letter")
            .with_note(LETTERS_HELP)
            .with_note(NOTE));
        };
        let Some((colour, kind)) = PieceKind::from_letter(letter) else {
            let d = if letter == '*' {
                Diagnostic::error(self.here(), "a piece letter cannot be read from input")
            } else {
                Diagnostic::error(self.here(), format!("`{letter}` is not a piece letter"))
            };
            return Err(d.with_label("not a piece letter").with_note(LETTERS_HELP));
        };
        self.pos += 1;
        let row = self.operand("a row")?;
        self.expect(b',', "a place needs a row and a column", NOTE)?;
        let col = self.operand("a column")?;
        Ok(Command::Place {
            name,
            colour,
            kind,
            row,
            col,
        })
    }

    /// `?T`, `!T`, `?T!U` or `!U?T` (§5).
    fn suffix(&mut self) -> Parsed<Suffix> {
        let mut suffix = Suffix::default();
        let mut first_kind: Option<u8> = None;
        loop {
            self.skip_blanks();
            let Some(kind @ (b'?' | b'!')) = self.peek() else {
                break;
            };
            let mark = self.here();
            self.pos += 1;
            let target = self.operand("a jump target (a label or `*`)")?;
            let slot = if kind == b'?' {
                &mut suffix.on_success
            } else {
                &mut suffix.on_failure
            };
            if slot.is_some() {
                let (which, when) = if kind == b'?' {
                    ("?", "success")
                } else {
                    ("!", "failure")
                };
                return Err(Diagnostic::error(
                    mark.start..self.base + self.pos,
                    format!("two {which} targets"),
                )
                .with_label("second target")
                .with_note(format!(
                    "a statement has at most one `{which}` target (where to go on {when}) (§5)"
                )));
            }
            *slot = Some(target);
            first_kind.get_or_insert(kind);
        }
        suffix.failure_first = first_kind == Some(b'!');
        Ok(suffix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> Statement {
        let (p, e) = parse(src);
        assert!(e.is_empty(), "{e:?}");
        p.statements.into_iter().next().unwrap()
    }

    fn err(src: &str) -> String {
        let (_, e) = parse(src);
        assert_eq!(e.len(), 1, "{src}: {e:?}");
        e[0].message.clone()
    }

    #[test]
    fn blanks_between_items() {
        let spaced = crate::lang::icp::check("1. x = R 0 , 5").unwrap().program;
        let tight = crate::lang::icp::check("1.x=R0,5").unwrap().program;
        assert_eq!(spaced.statements[0].command, tight.statements[0].command);
    }

    #[test]
    fn digit_names_and_squares() {
        assert!(matches!(
            one("1. 12,3,4").command,
            Command::MoveNameTo { .. }
        ));
        assert!(matches!(
            one("1. 12,3,4,5").command,
            Command::MoveSquares { .. }
        ));
        assert!(matches!(
            one("1. -1,*,4,5").command,
            Command::MoveSquares { .. }
        ));
        assert!(matches!(one("1. 123=P5,5").command, Command::Place { .. }));
        assert!(matches!(
            one("1. 1;2,3").command,
            Command::MoveNameBy { .. }
        ));
    }

    #[test]
    fn suffix_order() {
        let s = one("1. ^!3?4");
        assert!(s.suffix.failure_first);
        let s = one("1. ^ ? 4 ! 3");
        assert!(!s.suffix.failure_first);
        assert!(matches!(s.suffix.on_success, Some(Operand::Int(4, _))));
    }

    #[test]
    fn text_is_verbatim() {
        assert_eq!(
            one("7. \"a?1 !2 # \\ \t ").command,
            Command::Text("a?1 !2 # \\ \t ".into())
        );
        assert_eq!(one("7.\"").command, Command::Text(String::new()));
    }

    #[test]
    fn errors_say_what_was_expected() {
        assert!(err("2. x=X0,0").contains("`X` is not a piece letter"));
        assert!(err("2. 1,2,3,4,5").contains("too many numbers"));
        assert!(err("2. x=R9223372036854775808,0").contains("integer out of range"));
        assert!(err("2. x=R0").contains("a place needs a row and a column"));
        assert!(err("2. my-rook=R0,0").contains("`my-rook` is not a name"));
        assert!(err("2. my rook=R0,0").contains("expected `=`, `;` or `,` after the name"));
        assert!(err("x=R0,0").contains("a statement needs a label"));
        assert!(err("*. ^").contains("a label cannot be read from input"));
        assert!(err("2. x=R0,0 @").contains("stray character `@`"));
        assert!(err("2. ^?1?1").contains("two ? targets"));
        assert!(err("2. ^!1!1").contains("two ! targets"));
        assert!(err("2. x=R- 5,0").contains("expected digits after `-`"));
        assert!(err("2 . ^").contains("expected `.`"));
        assert!(err("2.").contains("missing command"));
        assert!(err("2. *,1,2").contains("a name cannot be read from input"));
        assert!(err("2. x=*0,0").contains("a piece letter cannot be read"));
        assert!(err("2. ^ # no trailing comments").contains("stray"));
        assert!(err("99999999999999999999. ^").contains("label out of range"));
        assert!(err("2. %").contains("expected a piece name"));
    }

    #[test]
    fn a_leading_byte_order_mark_is_ignored() {
        assert_eq!(one("\u{FEFF}1. ^").label, 1);
        assert!(err("1. ^\n\u{FEFF}2. ^").contains("a statement needs a label"));
    }

    #[test]
    fn every_bad_line_is_reported() {
        let (p, e) = parse("1. ^\n2. @\n# c\n3. x=Z1,1\n4. ^\n");
        assert_eq!(p.statements.len(), 2);
        assert_eq!(e.len(), 2);
    }
}
