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
//! The parser reads a notation in one loop with an explicit stack of the
//! brackets still open, so any nesting depth is fine (the contract sets no
//! limit), and builds the units into one list ([`Notation`]).

use super::ast::{Dir, Node, NodeId, Notation, Span};
use crate::common::cursor::{Cursor, deref_cursor};
use crate::common::diagnostic::Diagnostic;

const ATOMS: &str = "a leap `(a,b)`, `{`, `[`, `c(`, `m(`, `r(`, `r!(`, `p`, `->[`, `x` or `\"s\"`";

/// Parses the notation in `src[start..end]`; spans are offsets in `src`.
pub fn parse(src: &str, start: usize, end: usize) -> Result<Notation, Diagnostic> {
    let mut p = Parser {
        cur: Cursor::new(src, 0, start, end, "the end of the notation"),
        nodes: Vec::new(),
    };
    let mut top: Vec<NodeId> = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    loop {
        p.skip_blanks();
        let node = match p.peek() {
            None | Some(b',' | b')' | b']' | b'}') => {
                // The sequence inside the innermost open bracket ends here.
                let Some(bracket) = open.pop() else {
                    break;
                };
                match p.close_bracket(bracket)? {
                    Closed::Node(node) => node,
                    Closed::Again(bracket) => {
                        open.push(bracket);
                        continue;
                    }
                }
            }
            _ => match p.atom()? {
                Atom::Node(node) => node,
                Atom::Open(bracket) => {
                    open.push(bracket);
                    continue;
                }
            },
        };
        let id = p.unit(node)?;
        match open.last_mut() {
            Some(bracket) => bracket.units.push(id),
            None => top.push(id),
        }
    }
    if let Some(b) = p.peek() {
        let what = match b {
            b',' => "`,` outside `{…}` (choices are written `{A,B}`)".to_string(),
            b')' | b']' | b'}' => format!("`{}` that closes nothing", b as char),
            _ => p.found(),
        };
        return Err(p
            .error(p.pos..p.char_end(p.pos), format!("unexpected {what}"))
            .with_label("nothing is open here"));
    }
    Ok(Notation {
        nodes: p.nodes,
        top,
    })
}

/// What a bracket still open is.
enum Bracket {
    /// `{`, with the choices before the current one.
    Choice(Vec<Vec<NodeId>>),
    /// `[`.
    Group,
    /// `c(` (true) or `m(` (false).
    Capture(bool),
    /// `r(` or `r!(` (true).
    Rank(bool),
}

/// A bracket still open: what it is, where it opened, the units of its
/// current sequence.
struct Open {
    bracket: Bracket,
    open: Span,
    units: Vec<NodeId>,
}

impl Open {
    fn new(bracket: Bracket, open: Span) -> Open {
        Open {
            bracket,
            open,
            units: Vec::new(),
        }
    }

    /// How messages name the bracket.
    fn name(&self) -> &'static str {
        match self.bracket {
            Bracket::Choice(_) => "`{`",
            Bracket::Group => "`[`",
            Bracket::Capture(true) => "`c(`",
            Bracket::Capture(false) => "`m(`",
            Bracket::Rank(false) => "`r(`",
            Bracket::Rank(true) => "`r!(`",
        }
    }
}

/// An atom read: a whole unit, or a bracket opened.
enum Atom {
    Node(Node),
    Open(Open),
}

/// A bracket whose sequence ended: the unit it makes, or (after a `,`
/// in `{…}`) the bracket again, waiting for its next choice.
enum Closed {
    Node(Node),
    Again(Open),
}

struct Parser<'s> {
    /// The cursor in the notation (offsets in the whole source).
    cur: Cursor<'s>,
    /// The units read so far.
    nodes: Vec<Node>,
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

    /// The units of a bracket's sequence, which must not be empty.
    fn inner(
        &self,
        units: Vec<NodeId>,
        open: &Span,
        what: &str,
    ) -> Result<Vec<NodeId>, Diagnostic> {
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

    /// The repetition after an atom, if any: the atom (or its repetition)
    /// as a unit in the list.
    fn unit(&mut self, atom: Node) -> Result<NodeId, Diagnostic> {
        self.skip_blanks();
        let fixed = match self.peek() {
            Some(b'*') => true,
            Some(b'`') => false,
            _ => return Ok(self.add(atom)),
        };
        self.pos += 1;
        let body = self.add(atom);
        self.skip_blanks();
        if matches!(self.peek(), Some(b'*' | b'`')) {
            return Err(self
                .error(self.here(), "a unit takes one `*` or `` ` ``")
                .with_label("second repetition")
                .with_note("help: group first to repeat a repetition: `[(1,0)*]*`"));
        }
        Ok(self.add(Node::Repeat { body, fixed }))
    }

    fn add(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The sequence inside `open` ended (at `,` `)` `]` `}` or the end).
    fn close_bracket(&mut self, open: Open) -> Result<Closed, Diagnostic> {
        let name = open.name();
        let Open {
            bracket,
            open,
            units,
        } = open;
        let body = self.inner(units, &open, name)?;
        Ok(Closed::Node(match bracket {
            Bracket::Choice(mut items) => {
                items.push(body);
                self.skip_blanks();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        return Ok(Closed::Again(Open::new(Bracket::Choice(items), open)));
                    }
                    Some(b'}') => {
                        self.pos += 1;
                        Node::Choice(items)
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
            Bracket::Group => {
                self.close(b']', &open, name)?;
                Node::Group(body)
            }
            Bracket::Capture(capture) => {
                self.close(b')', &open, name)?;
                if capture {
                    Node::Capture(body)
                } else {
                    Node::Quiet(body)
                }
            }
            Bracket::Rank(negated) => {
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
                Node::Rank {
                    body,
                    negated,
                    lo,
                    hi,
                    span,
                }
            }
        }))
    }

    /// An atom at the cursor (not at `,` `)` `]` `}` or the end): a whole
    /// unit, or the bracket it opens.
    fn atom(&mut self) -> Result<Atom, Diagnostic> {
        let start = self.pos;
        let open = self.here();
        let node = match self.peek() {
            Some(b'(') => self.leap()?,
            Some(b'{') => {
                self.pos += 1;
                return Ok(Atom::Open(Open::new(Bracket::Choice(Vec::new()), open)));
            }
            Some(b'[') => {
                self.pos += 1;
                return Ok(Atom::Open(Open::new(Bracket::Group, open)));
            }
            Some(b'c' | b'm') => {
                let capture = self.peek() == Some(b'c');
                self.pos += 1;
                self.expect(
                    b'(',
                    &format!("`(` after `{}`", if capture { 'c' } else { 'm' }),
                )?;
                return Ok(Atom::Open(Open::new(
                    Bracket::Capture(capture),
                    start..self.pos,
                )));
            }
            Some(b'r') => {
                self.pos += 1;
                self.skip_blanks();
                let negated = self.peek() == Some(b'!');
                if negated {
                    self.pos += 1;
                }
                self.expect(
                    b'(',
                    &format!("`(` after `{}`", if negated { "r!" } else { "r" }),
                )?;
                return Ok(Atom::Open(Open::new(
                    Bracket::Rank(negated),
                    start..self.pos,
                )));
            }
            Some(b'p') => {
                self.pos += 1;
                Node::PromoteAny(start..self.pos)
            }
            Some(b'x') => {
                self.pos += 1;
                Node::Take(start..self.pos)
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
                Node::PromoteTo(kinds)
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
                Node::Like(sym.0, sym.1)
            }
            Some(b'*' | b'`') => {
                return Err(self
                    .error(
                        self.here(),
                        format!("{} with nothing to repeat", self.found()),
                    )
                    .with_label(format!("expected {ATOMS} before this")));
            }
            _ => return Err(self.expected(ATOMS)),
        };
        Ok(Atom::Node(node))
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

    fn p(s: &str) -> Result<Notation, Diagnostic> {
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
    fn a_stray_comma_or_closer_is_named_without_an_article() {
        for (s, message) in [
            (
                "(1,0),(0,1)",
                "unexpected `,` outside `{…}` (choices are written `{A,B}`)",
            ),
            ("(1,0))", "unexpected `)` that closes nothing"),
            ("(1,0)]", "unexpected `]` that closes nothing"),
            ("}", "unexpected `}` that closes nothing"),
        ] {
            assert_eq!(p(s).unwrap_err().message, message, "{s}");
        }
    }

    #[test]
    fn any_nesting_depth_is_read_without_recursion() {
        // Every kind of bracket, a million deep: parsed, then dropped,
        // cloned and compared (the units are one flat list).
        let n = 1_000_000;
        let s = format!(
            "{}(1,0){}",
            "[{c(m(r(".repeat(n / 5),
            ",1)))}]".repeat(n / 5)
        );
        let notation = p(&s).unwrap();
        assert_eq!(notation.nodes.len(), n + 1);
        assert_eq!(notation.top.len(), 1);
        assert_eq!(notation.clone(), notation);
        // Unclosed at any depth is still an error.
        let open = format!("{}(1,0)", "[".repeat(100_000));
        assert!(p(&open).unwrap_err().message.contains("unclosed"));
    }

    #[test]
    fn units_come_after_their_parts() {
        let n = p("{(1,0)*,[(1,1)x]`}(2,1)").unwrap();
        for (id, node) in n.nodes.iter().enumerate() {
            assert!(node.parts().iter().all(|&part| part < id), "{node:?}");
        }
        assert_eq!(n.top.len(), 2);
        assert!(matches!(n.nodes[n.top[0]], Node::Choice(ref items) if items.len() == 2));
    }
}
