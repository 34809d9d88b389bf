//! Line-level parser (§1, §2, §3, §5): splits the source into lines, tells
//! definitions, board lines and moves apart, and parses each line on its
//! own, so that one bad line never hides the errors of the others.

use super::ast::*;
use super::ir::Colour;
use super::notation;
use crate::common::cursor::{Cursor, deref_cursor};
use crate::common::diagnostic::Diagnostic;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Definitions,
    Board,
    Moves,
}

/// Parses `source`. Returns what could be parsed and every error found.
pub fn parse(source: &str) -> (SourceFile, Vec<Diagnostic>) {
    let mut file = SourceFile::default();
    let mut errors = Vec::new();
    let mut section = Section::Definitions;
    let mut board = Board::default();
    let mut board_seen = false;
    let mut moves_before_board_reported = false;
    for text_line in crate::common::source::lines(source) {
        let (start, end) = (text_line.start, text_line.start + text_line.text.len());
        let line = Line {
            src: source,
            start,
            end,
            number: text_line.number,
        };
        let first = match line.first_non_blank() {
            Some(p) => p,
            None => continue,
        };
        let b = source.as_bytes()[first];
        if b == b'#' {
            continue;
        }
        if b == b'(' {
            if section > Section::Definitions {
                errors.push(
                    Diagnostic::error(
                        first..line.end_of_content(first),
                        "piece definitions come before the board (§1)",
                    )
                    .with_label("definition after the board")
                    .with_note(
                        "a program is: piece definitions (§2), the board (§3), the moves (§5)",
                    ),
                );
                continue;
            }
            match parse_definition(&line, first) {
                Ok(d) => file.definitions.push(d),
                Err(e) => {
                    // Keep the symbol, when it was readable, so that its uses
                    // are not reported as undefined too.
                    let b = source.as_bytes();
                    let mut p = first + 1;
                    while p < end && is_blank(b[p]) {
                        p += 1;
                    }
                    if p < end
                        && b[p].is_ascii_lowercase()
                        && (p + 1 >= end || !b[p + 1].is_ascii_alphanumeric())
                    {
                        file.broken_symbols.push((b[p] as char, p..p + 1));
                    }
                    errors.push(e)
                }
            }
        } else if b == b'+' || b == b'|' {
            if section == Section::Moves {
                errors.push(
                    Diagnostic::error(
                        first..line.end_of_content(first),
                        "the board comes before the moves (§1)",
                    )
                    .with_label("board line after a move"),
                );
                continue;
            }
            section = Section::Board;
            if !board_seen {
                board_seen = true;
                board.span = start..end;
            }
            board.span.end = end;
            let result = if b == b'+' {
                parse_rule(&line, first).map(|r| board.rules.push(r))
            } else {
                parse_row(&line, first).map(|r| board.rows.push(r))
            };
            if let Err(e) = result {
                file.broken_board = true;
                errors.push(e);
            }
        } else if source[first..end].starts_with("Turn") {
            if !board_seen && !moves_before_board_reported {
                moves_before_board_reported = true;
                errors.push(
                    Diagnostic::error(first..first + 4, "expected the board (§3) before the moves")
                        .with_label("first move, but no board was drawn")
                        .with_note(
                            "a program is: piece definitions (§2), the board (§3), the moves (§5)",
                        ),
                );
            }
            section = Section::Moves;
            match parse_move(&line, first) {
                Ok(m) => file.moves.push(m),
                Err(e) => errors.push(e),
            }
        } else {
            let expected = match section {
                Section::Definitions => {
                    "a piece definition `(s v): notation`, a board line `+--+` / `|..|` or a move `Turn n W: …`"
                }
                Section::Board => "a board line (`+--+` or `|..|`) or a move `Turn n W: …`",
                Section::Moves => "a move `Turn n W: …` or `Turn n B: …`",
            };
            let tok_end = line.token_end(first);
            errors.push(
                Diagnostic::error(first..tok_end, format!("expected {expected}"))
                    .with_label("not understood")
                    .with_note("`#` starts a comment (§1)"),
            );
        }
    }
    if board_seen {
        if board.rows.is_empty() && !file.broken_board {
            errors.push(
                Diagnostic::error(board.span.clone(), "the board has no row of cells (§3)")
                    .with_label("only rules here")
                    .with_note("a row of cells is drawn like `|kW|  |##|`"),
            );
        } else if !board.rows.is_empty() {
            file.board = Some(board);
        }
    } else if !moves_before_board_reported {
        let at = source.len();
        errors.push(
            Diagnostic::error(at..at, "the program has no board (§3)")
                .with_label("expected a board here")
                .with_note(
                    "draw it with `+--+` rules and `|..|` cells after the piece definitions",
                ),
        );
    }
    (file, errors)
}

struct Line<'s> {
    src: &'s str,
    start: usize,
    end: usize,
    number: usize,
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl Line<'_> {
    fn bytes(&self) -> &[u8] {
        self.src.as_bytes()
    }

    fn first_non_blank(&self) -> Option<usize> {
        (self.start..self.end).find(|&i| !is_blank(self.bytes()[i]))
    }

    /// Where the content starting at `from` ends: before a `#` comment and
    /// trailing blanks.
    fn end_of_content(&self, from: usize) -> usize {
        let mut e = (from..self.end)
            .find(|&i| self.bytes()[i] == b'#')
            .unwrap_or(self.end);
        while e > from && is_blank(self.bytes()[e - 1]) {
            e -= 1;
        }
        e
    }

    fn token_end(&self, from: usize) -> usize {
        let mut e = from;
        while e < self.end && !is_blank(self.bytes()[e]) {
            e += 1;
        }
        while !self.src.is_char_boundary(e) {
            e += 1;
        }
        e.max(from + 1).min(self.src.len())
    }
}

/// A cursor over one line's content (positions are offsets in the whole
/// source).
struct Cur<'s>(Cursor<'s>);

deref_cursor!(Cur, 0);

impl<'s> Cur<'s> {
    /// A cursor at `pos` in `line`, stopping at `end`.
    fn new(line: &Line<'s>, pos: usize, end: usize) -> Cur<'s> {
        Cur(Cursor::new(line.src, 0, pos, end, "the end of the line"))
    }

    fn expected(&self, what: &str, section: &str) -> Diagnostic {
        let span = self.here();
        Diagnostic::error(span, format!("expected {what}, found {}", self.found()))
            .with_label(format!("expected {what}"))
            .with_note(format!("see {section} of the Finvara spec"))
    }

    fn word(&mut self, w: &str) -> bool {
        if self.text[self.pos..self.end].starts_with(w) {
            let after = self.text.as_bytes().get(self.pos + w.len()).copied();
            if self.pos + w.len() == self.end
                || !matches!(after, Some(b) if b.is_ascii_alphanumeric())
            {
                self.pos += w.len();
                return true;
            }
        }
        false
    }

    /// One lowercase letter not followed by another letter.
    fn symbol(&mut self, section: &str) -> Result<(char, Span), Diagnostic> {
        self.skip_blanks();
        match self.peek() {
            Some(b) if b.is_ascii_lowercase() => {
                let start = self.pos;
                self.pos += 1;
                if matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric()) {
                    return Err(Diagnostic::error(
                        start..self.pos + 1,
                        "a kind symbol is one lowercase letter",
                    )
                    .with_label("expected one letter")
                    .with_note(format!("see {section} of the Finvara spec")));
                }
                Ok((b as char, start..self.pos))
            }
            _ => Err(self.expected("a kind symbol (one lowercase letter)", section)),
        }
    }

    /// `[0-9]+` as u64 (None on overflow, with the span).
    fn number(&mut self, what: &str, section: &str) -> Result<(u64, Span), Diagnostic> {
        self.skip_blanks();
        let start = self.pos;
        let Some(value) = self.digits() else {
            return Err(self.expected(what, section));
        };
        let Some(v) = value else {
            return Err(
                Diagnostic::error(start..self.pos, format!("{what} is too large"))
                    .with_label("does not fit in 64 bits"),
            );
        };
        Ok((v, start..self.pos))
    }

    /// A square name like `c2` or `aa10` (§3).
    fn square(&mut self, section: &str) -> Result<Square, Diagnostic> {
        self.skip_blanks();
        let start = self.pos;
        let mut row: u64 = 0;
        while let Some(b @ b'a'..=b'z') = self.peek() {
            row = row
                .saturating_mul(26)
                .saturating_add(u64::from(b - b'a' + 1));
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.expected(
                "a square like `c2` (row letters, then column number)",
                section,
            ));
        }
        let Some(col) = self.digits().map(|c| c.unwrap_or(u64::MAX)) else {
            return Err(self.expected(
                "the column number of the square (like the 2 of `c2`)",
                section,
            ));
        };
        if matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric()) {
            return Err(self.expected("a blank after the square", section));
        }
        Ok(Square {
            row,
            col,
            text: self.text[start..self.pos].to_string(),
            span: start..self.pos,
        })
    }

    fn rest_is_empty(&mut self, what: &str, section: &str) -> Result<(), Diagnostic> {
        self.skip_blanks();
        if self.peek().is_some() {
            let e = self.end;
            return Err(
                Diagnostic::error(self.pos..e, format!("unexpected text after {what}"))
                    .with_label("expected the end of the line (or a `#` comment)")
                    .with_note(format!("see {section} of the Finvara spec")),
            );
        }
        Ok(())
    }
}

/// `(s v): notation` or `(s): notation` (§2).
fn parse_definition(line: &Line, first: usize) -> Result<Definition, Diagnostic> {
    let content_end = line.end_of_content(first);
    let mut c = Cur::new(line, first + 1, content_end);
    let open = first..first + 1;
    let (symbol, symbol_span) = c.symbol("§2")?;
    c.skip_blanks();
    let value = match c.peek() {
        Some(b')') => None,
        Some(b'x') => {
            c.pos += 1;
            Some(ValueAst::X)
        }
        Some(b'y') => {
            c.pos += 1;
            Some(ValueAst::Y)
        }
        Some(b'-' | b'0'..=b'9') => {
            let start = c.pos;
            let Some(value) = c.signed_number() else {
                return Err(c.expected("digits after `-`", "§2"));
            };
            let Some(v) = value else {
                return Err(Diagnostic::error(
                    start..c.pos,
                    "piece value is outside the signed 64-bit range (§2)",
                )
                .with_label("too large"));
            };
            Some(ValueAst::Int(v))
        }
        _ => return Err(c.expected("a value (an integer, `x` or `y`) or `)`", "§2")),
    };
    c.skip_blanks();
    if !c.eat(b')') {
        let d = if c.peek().is_none() {
            Diagnostic::error(open, "unclosed `(` in a piece definition: expected `)`")
                .with_label("opened here")
                .with_note("a definition is `(s v): notation` or `(s): notation` (§2)")
        } else {
            c.expected("`)` after the symbol and value", "§2")
        };
        return Err(d);
    }
    c.skip_blanks();
    if !c.eat(b':') {
        return Err(c.expected("`:` before the notation", "§2"));
    }
    c.skip_blanks();
    let nstart = c.pos;
    let notation = notation::parse(line.src, nstart, content_end)?;
    Ok(Definition {
        symbol,
        symbol_span,
        value,
        notation,
        notation_text: line.src[nstart..content_end].to_string(),
        line: line.number,
    })
}

/// `+--+--+` (§3).
fn parse_rule(line: &Line, first: usize) -> Result<Rule, Diagnostic> {
    let end = line.end_of_content(first);
    let bytes = line.src.as_bytes();
    let mut pos = first + 1;
    let mut columns = 0;
    while pos + 3 <= end && &bytes[pos..pos + 3] == b"--+" {
        pos += 3;
        columns += 1;
    }
    if pos != end || columns == 0 {
        let mut e = (pos + 1).min(line.src.len());
        while !line.src.is_char_boundary(e) {
            e += 1;
        }
        return Err(Diagnostic::error(
            pos..e.max(pos),
            "malformed board rule: expected `+--+--+…`",
        )
        .with_label("expected `--+` here")
        .with_note("each column is drawn `--+` in a rule line (§3)"));
    }
    Ok(Rule {
        columns,
        span: first..end,
    })
}

/// `|kW|  |##|` (§3). `##` inside cells is a hole, not a comment (§1).
fn parse_row(line: &Line, first: usize) -> Result<Row, Diagnostic> {
    let bytes = line.src.as_bytes();
    let end = line.end;
    let mut pos = first;
    let mut cells = Vec::new();
    loop {
        // pos is at a `|`.
        if pos + 3 < end && bytes[pos + 3] == b'|' {
            let a = bytes[pos + 1];
            let b = bytes[pos + 2];
            let span = pos + 1..pos + 3;
            let cell = match (a, b) {
                (b' ', b' ') => Cell::Empty,
                (b'#', b'#') => Cell::Hole,
                (s, c) if s.is_ascii_lowercase() && (c == b'W' || c == b'B') => Cell::Piece {
                    symbol: s as char,
                    colour: if c == b'W' {
                        Colour::White
                    } else {
                        Colour::Black
                    },
                    span: span.clone(),
                },
                _ => {
                    let mut s = span.start;
                    while !line.src.is_char_boundary(s) {
                        s -= 1;
                    }
                    let mut e = span.end;
                    while !line.src.is_char_boundary(e) {
                        e += 1;
                    }
                    return Err(Diagnostic::error(s..e, "bad board cell")
                        .with_label(
                            "expected two blanks, `##`, or a piece symbol followed by `W` or `B`",
                        )
                        .with_note("each cell is two characters between `|` (§3)"));
                }
            };
            cells.push(cell);
            pos += 3;
        } else {
            break;
        }
    }
    // After the last `|`: nothing, or a comment.
    let mut rest = pos + 1;
    while rest < end && is_blank(bytes[rest]) {
        rest += 1;
    }
    if cells.is_empty() || (rest < end && bytes[rest] != b'#') {
        let at = (pos + 1).min(end);
        let mut e = (at + 1).min(line.src.len());
        while !line.src.is_char_boundary(e) {
            e += 1;
        }
        return Err(Diagnostic::error(
            at..e.min(end).max(at),
            "malformed board row: expected a cell of two characters followed by `|`",
        )
        .with_label("expected `  |`, `##|` or a piece like `kW|`")
        .with_note("a row of cells is drawn like `|kW|  |##|` (§3)"));
    }
    Ok(Row {
        cells,
        span: first..line.end_of_content(pos + 1).max(pos + 1),
    })
}

/// `Turn n C: …` (§5).
fn parse_move(line: &Line, first: usize) -> Result<MoveLine, Diagnostic> {
    let content_end = line.end_of_content(first);
    let mut c = Cur::new(line, first, content_end);
    if !c.word("Turn") {
        return Err(c.expected("`Turn`", "§5"));
    }
    let (turn, turn_span) = c.number("a turn number", "§5")?;
    if turn == 0 {
        return Err(
            Diagnostic::error(turn_span, "turns are numbered from 1 (§5)").with_label("turn 0"),
        );
    }
    c.skip_blanks();
    let colour = match c.peek() {
        Some(b'W') => Colour::White,
        Some(b'B') => Colour::Black,
        _ => return Err(c.expected("the colour `W` or `B`", "§5")),
    };
    c.pos += 1;
    c.skip_blanks();
    if !c.eat(b':') {
        return Err(c.expected("`:` after the colour", "§5"));
    }
    let symbol = c.symbol("§5")?;
    let square = c.square("§5")?;
    c.skip_blanks();
    let body = if c.eat(b'-') {
        if !c.eat(b'>') {
            return Err(c.expected("`->`", "§5.1"));
        }
        let to = c.square("§5.1")?;
        c.skip_blanks();
        let promote = if c.eat(b'=') {
            Some(c.symbol("§5.1")?)
        } else {
            None
        };
        c.rest_is_empty("the move", "§5.1")?;
        MoveBody::Step {
            symbol,
            from: square,
            to,
            promote,
        }
    } else if c.word("checks") {
        c.skip_blanks();
        if !c.word("turn") {
            return Err(c.expected("`turn` after `checks`", "§5.3"));
        }
        let (target, target_span) = c.number("a turn number", "§5.3")?;
        c.rest_is_empty("the jump target", "§5.3")?;
        MoveBody::Place {
            symbol,
            square,
            target,
            target_span,
        }
    } else {
        return Err(c.expected(
            "`->` (a move, §5.1) or `checks turn m` (placing and jumping, §5.3)",
            "§5",
        ));
    };
    Ok(MoveLine {
        turn,
        turn_span,
        colour,
        span: first..content_end,
        line: line.number,
        text: line.src[first..content_end].to_string(),
        body,
    })
}
