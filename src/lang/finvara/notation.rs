//! The movement notation parser (§2.1).
//!
//! Grammar (blanks allowed between tokens):
//!
//! ```text
//! notation := unit*                      -- may be empty (§2)
//! seq      := unit+
//! unit     := atom ("*" | "`")?
//! atom     := "(" int "," int ("|" dir)? ")"
//!           | "{" seq ("," seq)* "}" | "[" seq "]"
//!           | "c(" seq ")" | "m(" seq ")"
//!           | "r(" seq "," ranks ")" | "r!(" seq "," ranks ")"
//!           | "p" | "->[" sym ("," sym)* "]" | "x" | '"' sym '"'
//! ranks    := sint | "[" sint "," sint "]"
//! ```
//!
//! Nesting deeper than [`MAX_DEPTH`] is reported, never overflows the stack.

use super::ast::{Dir, Node, Span};
use crate::common::cursor::{Cursor, deref_cursor};
use crate::common::diagnostic::Diagnostic;

/// Deepest nesting of brackets accepted in one notation.
pub const MAX_DEPTH: usize = 64;

const ATOMS: &str = "a leap `(a,b)`, `{`, `[`, `c(`, `m(`, `r(`, `r!(`, `p`, `->[`, `x` or `\"s\"`";

/// Parses the notation in `src[start..end]`; spans are offsets in `src`.
pub fn parse(src: &str, start: usize, end: usize) -> Result<Vec<Node>, Diagnostic> {
    let mut p = Parser {
        cur: Cursor::new(src, 0, start, end, "the end of the notation"),
        depth: 0,
    };
    let units = p.seq()?;
    p.skip_blanks();
    if let Some(b) = p.peek() {
        let what = match b {
            b',' => "a `,` outside `{…}` (choices are written `{A,B}`)".to_string(),
            b')' | b']' | b'}' => format!("a `{}` that closes nothing", b as char),
            _ => format!("{} ", p.found()),
        };
        return Err(p
            .error(p.pos..p.char_end(p.pos), format!("unexpected {what}"))
            .with_label("nothing is open here"));
    }
    Ok(units)
}

struct Parser<'s> {
    /// The cursor in the notation (offsets in the whole source).
    cur: Cursor<'s>,
    depth: usize,
}

deref_cursor!(Parser, cur);

impl Parser<'_> {
    fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(span, message).with_note("see §2.1 of the Finvara spec")
    }

    fn expected(&self, what: &str) -> Diagnostic {
        self.error(
            self.here(),
            format!("expected {what}, found {}", self.found()),
        )
        .with_label(format!("expected {what}"))
    }

    fn expect(&mut self, b: u8, what: &str) -> Result<(), Diagnostic> {
        self.skip_blanks();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    fn enter(&mut self, open: Span) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self
                .error(
                    open,
                    format!("notation nested too deeply (more than {MAX_DEPTH} levels)"),
                )
                .with_label("this bracket is too deep"));
        }
        Ok(())
    }

    /// units until `,` `)` `]` `}` or the end.
    fn seq(&mut self) -> Result<Vec<Node>, Diagnostic> {
        let mut units = Vec::new();
        loop {
            self.skip_blanks();
            match self.peek() {
                None | Some(b',' | b')' | b']' | b'}') => return Ok(units),
                _ => units.push(self.unit()?),
            }
        }
    }

    /// A non-empty seq inside brackets opened at `open`.
    fn inner(&mut self, open: &Span, what: &str) -> Result<Vec<Node>, Diagnostic> {
        let units = self.seq()?;
        if units.is_empty() {
            let d = if self.peek().is_none() {
                self.error(open.clone(), format!("unclosed {what}"))
                    .with_label("opened here and never closed")
            } else {
                self.expected(ATOMS)
                    .with_secondary(open.clone(), format!("inside this {what}"))
            };
            return Err(d);
        }
        Ok(units)
    }

    fn close(&mut self, b: u8, open: &Span, what: &str) -> Result<(), Diagnostic> {
        self.skip_blanks();
        if self.peek() == Some(b) {
            self.pos += 1;
            return Ok(());
        }
        let d = if self.peek().is_none() {
            self.error(
                open.clone(),
                format!("unclosed {what}: expected `{}`", b as char),
            )
            .with_label("opened here")
            .with_secondary(self.pos..self.pos, format!("`{}` expected here", b as char))
        } else {
            self.expected(&format!("`{}` to close the {what}", b as char))
                .with_secondary(open.clone(), "opened here")
        };
        Err(d)
    }

    fn unit(&mut self) -> Result<Node, Diagnostic> {
        let atom = self.atom()?;
        self.skip_blanks();
        let node = match self.peek() {
            Some(b'*') => {
                self.pos += 1;
                Node::Repeat {
                    body: Box::new(atom),
                    fixed: true,
                }
            }
            Some(b'`') => {
                self.pos += 1;
                Node::Repeat {
                    body: Box::new(atom),
                    fixed: false,
                }
            }
            _ => return Ok(atom),
        };
        self.skip_blanks();
        if matches!(self.peek(), Some(b'*' | b'`')) {
            return Err(self
                .error(self.here(), "a unit takes one `*` or `` ` ``")
                .with_label("second repetition")
                .with_note("help: group first to repeat a repetition: `[(1,0)*]*`"));
        }
        Ok(node)
    }

    fn atom(&mut self) -> Result<Node, Diagnostic> {
        self.skip_blanks();
        let start = self.pos;
        let open = self.here();
        match self.peek() {
            Some(b'(') => self.leap(),
            Some(b'{') => {
                self.pos += 1;
                self.enter(open.clone())?;
                let mut items = Vec::new();
                loop {
                    items.push(self.inner(&open, "`{`")?);
                    self.skip_blanks();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        None => {
                            return Err(self
                                .error(open.clone(), "unclosed `{`: expected `,` or `}`")
                                .with_label("opened here")
                                .with_secondary(self.pos..self.pos, "`}` expected here"));
                        }
                        Some(_) => {
                            return Err(self
                                .expected("`,` or `}` to close the `{`")
                                .with_secondary(open.clone(), "opened here"));
                        }
                    }
                }
                self.depth -= 1;
                Ok(Node::Choice(items))
            }
            Some(b'[') => {
                self.pos += 1;
                self.enter(open.clone())?;
                let body = self.inner(&open, "`[`")?;
                self.close(b']', &open, "`[`")?;
                self.depth -= 1;
                Ok(Node::Group(body))
            }
            Some(b'c' | b'm') => {
                let capture = self.peek() == Some(b'c');
                self.pos += 1;
                let name = if capture { "`c(`" } else { "`m(`" };
                self.expect(
                    b'(',
                    &format!("`(` after `{}`", if capture { 'c' } else { 'm' }),
                )?;
                let open = start..self.pos;
                self.enter(open.clone())?;
                let body = self.inner(&open, name)?;
                self.close(b')', &open, name)?;
                self.depth -= 1;
                Ok(if capture {
                    Node::Capture(body)
                } else {
                    Node::Quiet(body)
                })
            }
            Some(b'r') => {
                self.pos += 1;
                self.skip_blanks();
                let negated = self.peek() == Some(b'!');
                if negated {
                    self.pos += 1;
                }
                let name = if negated { "`r!(`" } else { "`r(`" };
                self.expect(
                    b'(',
                    &format!("`(` after `{}`", if negated { "r!" } else { "r" }),
                )?;
                let open = start..self.pos;
                self.enter(open.clone())?;
                let body = self.inner(&open, name)?;
                self.skip_blanks();
                if self.peek() != Some(b',') {
                    let d = if self.peek().is_none() {
                        self.error(
                            open.clone(),
                            format!("unclosed {name}: expected `,` and the ranks"),
                        )
                        .with_label("opened here")
                    } else {
                        self.expected("`,` and the ranks (`2`, `-1` or `[9,12]`)")
                            .with_secondary(open.clone(), format!("inside this {name}"))
                    };
                    return Err(d);
                }
                self.pos += 1;
                self.skip_blanks();
                let ranks_start = self.pos;
                let (lo, hi) = if self.peek() == Some(b'[') {
                    self.pos += 1;
                    let lo = self.signed("a rank")?;
                    self.expect(b',', "`,` between the two ranks of `[x,y]`")?;
                    let hi = self.signed("a rank")?;
                    self.expect(b']', "`]` to close the rank range")?;
                    (lo, hi)
                } else {
                    let r = self.signed("a rank (`2`, `-1`) or a range `[x,y]`")?;
                    (r, r)
                };
                let span = ranks_start..self.pos;
                self.close(b')', &open, name)?;
                self.depth -= 1;
                Ok(Node::Rank {
                    body,
                    negated,
                    lo,
                    hi,
                    span,
                })
            }
            Some(b'p') => {
                self.pos += 1;
                Ok(Node::PromoteAny(start..self.pos))
            }
            Some(b'x') => {
                self.pos += 1;
                Ok(Node::Take(start..self.pos))
            }
            Some(b'-') => {
                self.pos += 1;
                self.expect(b'>', "`>` (promotion is written `->[q]`)")?;
                self.expect(b'[', "`[` after `->`")?;
                let open = start..self.pos;
                let mut kinds = Vec::new();
                loop {
                    kinds.push(self.symbol()?);
                    self.skip_blanks();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        None => {
                            return Err(self
                                .error(open, "unclosed `->[`: expected `,` or `]`")
                                .with_label("opened here"));
                        }
                        Some(_) => return Err(self.expected("`,` or `]` in the promotion list")),
                    }
                }
                Ok(Node::PromoteTo(kinds))
            }
            Some(b'"') => {
                self.pos += 1;
                let sym = self.symbol()?;
                if self.peek() != Some(b'"') {
                    return Err(self
                        .expected("`\"` to end the kind name")
                        .with_secondary(open, "opened here"));
                }
                self.pos += 1;
                Ok(Node::Like(sym.0, sym.1))
            }
            Some(b'*' | b'`') => Err(self
                .error(
                    self.here(),
                    format!("{} with nothing to repeat", self.found()),
                )
                .with_label(format!("expected {ATOMS} before this"))),
            _ => Err(self.expected(ATOMS)),
        }
    }

    fn symbol(&mut self) -> Result<(char, Span), Diagnostic> {
        self.skip_blanks();
        match self.peek() {
            Some(b) if b.is_ascii_lowercase() => {
                let start = self.pos;
                self.pos += 1;
                if matches!(self.peek(), Some(b'a'..=b'z')) {
                    return Err(self
                        .error(start..self.pos + 1, "a kind symbol is one lowercase letter")
                        .with_label("two letters"));
                }
                Ok((b as char, start..self.pos))
            }
            _ => Err(self.expected("a kind symbol (one lowercase letter)")),
        }
    }

    /// `[0-9]+` as u64.
    fn unsigned(&mut self, what: &str) -> Result<u64, Diagnostic> {
        self.skip_blanks();
        let start = self.pos;
        if self.peek() == Some(b'-') {
            return Err(self
                .error(self.here(), format!("{what} cannot be negative"))
                .with_label("leap distances are 0 or more"));
        }
        let Some(value) = self.digits() else {
            return Err(self.expected(what));
        };
        value.ok_or_else(|| {
            self.error(start..self.pos, format!("{what} is too large"))
                .with_label("does not fit in 64 bits")
        })
    }

    /// `-?[0-9]+` as i64.
    fn signed(&mut self, what: &str) -> Result<i64, Diagnostic> {
        self.skip_blanks();
        let start = self.pos;
        let Some(value) = self.signed_number() else {
            self.pos = start;
            return Err(self.expected(what));
        };
        value.ok_or_else(|| {
            self.error(
                start..self.pos,
                format!("{what} is outside the signed 64-bit range"),
            )
            .with_label("too large")
        })
    }

    fn leap(&mut self) -> Result<Node, Diagnostic> {
        let start = self.pos;
        self.pos += 1;
        let a = self.unsigned("a leap distance")?;
        self.expect(b',', "`,` between the two leap distances")?;
        let b = self.unsigned("a leap distance")?;
        self.skip_blanks();
        let mut dir = None;
        if self.peek() == Some(b'|') {
            self.pos += 1;
            self.skip_blanks();
            dir = Some(match self.peek() {
                Some(b'^') => Dir::Forward,
                Some(b'v') => Dir::Backward,
                Some(b'>') => Dir::Right,
                Some(b'<') => Dir::Left,
                _ => return Err(self.expected("a direction `^`, `v`, `>` or `<`")),
            });
            self.pos += 1;
        }
        self.skip_blanks();
        if self.peek() != Some(b')') {
            let d = if self.peek().is_none() {
                self.error(start..start + 1, "unclosed leap: expected `)`")
                    .with_label("opened here")
            } else {
                self.expected(if dir.is_some() {
                    "`)`"
                } else {
                    "`|` and a direction, or `)`"
                })
                .with_secondary(start..start + 1, "leap opened here")
            };
            return Err(d);
        }
        self.pos += 1;
        Ok(Node::Leap {
            a,
            b,
            dir,
            span: start..self.pos,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Vec<Node>, Diagnostic> {
        parse(s, 0, s.len())
    }

    #[test]
    fn standard_pieces_parse() {
        for s in [
            "{c((1,1|^)),m((1,0|^)),r(m((2,0|^)),2),r(p,-1)}",
            "(1,2)",
            "(1,1)*",
            "{\"r\",\"b\"}",
            "{(1,0),(2,2)}r(->[q],[9,12])",
            "{(1,1|^)(1,0|^)*,(1,1|>)(1,0|>)*,(1,1|v)(1,0|v)*,(1,1|<)(1,0|<)*}",
            "[(1,1)x(1,1)]",
            "(1,1)`",
            "r!( (1,0) , [ -2 , 3 ] )",
            "",
        ] {
            assert!(p(s).is_ok(), "{s}: {:?}", p(s));
        }
    }

    #[test]
    fn errors_are_reported() {
        for s in [
            "{(1,0)*,(1,1)",
            "(1,0",
            "(1,0|k)",
            "(1,-1)",
            "[]",
            "{}",
            "(1,0)**",
            "*",
            "c(1,0)",
            "r((1,0))",
            "->[Q]",
            "\"ab\"",
            "k",
            "(1,0))",
            "(99999999999999999999,1)",
            "r((1,0),99999999999999999999)",
        ] {
            assert!(p(s).is_err(), "{s} should fail");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let s = format!("{}(1,0){}", "[".repeat(100_000), "]".repeat(100_000));
        let e = p(&s).unwrap_err();
        assert!(e.message.contains("nested too deeply"));
    }
}
