//! `icp2c fmt` for Finvara. Every line starts at the first column:
//!
//! - a piece definition is `(s v): notation`, `(s): notation` or `(s):`,
//!   its value as written and its notation without blanks (§2.1 allows
//!   them between tokens; none is needed);
//! - the board is drawn as a grid: every rule `+--+--+` and row
//!   `|kW|  |##|` from the first column, so its columns line up;
//! - a move is `Turn n C: s from -> to`, `… -> to = t` or
//!   `Turn n C: s square checks turn m`, one blank between its words;
//! - comment lines and blank lines stay where they are; trailing comments
//!   of consecutive lines of one part (definitions, board, moves) start in
//!   one column: four blanks after the longest of those definitions that
//!   carry one, three after the longest such board line or move (the
//!   examples' layout).

use super::ast::{Cell, Definition, MoveBody, MoveLine, Row, Rule, SourceFile};
use super::ir::Colour;
use super::syntax;
use crate::common::diagnostic::Diagnostic;
use crate::common::format::{is_blank, width, with_comment};
use crate::common::source;
use crate::lang::{FormatOptions, no_renumbering};

/// The part of the program a line belongs to (§1).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Definitions,
    Board,
    Moves,
}

impl Part {
    /// Blanks between the longest commented line of a block and the
    /// block's comments.
    fn gap(self) -> usize {
        match self {
            Part::Definitions => 4,
            Part::Board | Part::Moves => 3,
        }
    }
}

/// A formatted line before its comment is placed.
struct Laid {
    /// The part of a definition, board or move line; `None` for a comment
    /// line or a blank one (they end a block of aligned comments).
    part: Option<Part>,
    code: String,
    comment: Option<String>,
}

/// The formatted lines of `source`, one per source line ([`crate::lang::Lang::format`]).
pub fn format(source: &str, options: &FormatOptions) -> Result<Vec<String>, Vec<Diagnostic>> {
    no_renumbering("Finvara", options)?;
    let (file, errors) = syntax::parse(source);
    if !errors.is_empty() {
        return Err(errors);
    }
    let SourceFile {
        definitions,
        board,
        moves,
        ..
    } = &file;
    let (rows, rules) = board
        .as_ref()
        .map_or((&[][..], &[][..]), |b| (&b.rows[..], &b.rules[..]));
    let mut definitions = definitions.iter().peekable();
    let mut moves = moves.iter().peekable();
    let mut rows = rows.iter().peekable();
    let mut rules = rules.iter().peekable();
    let mut laid = Vec::new();
    for line in source::lines(source) {
        let end = line.start + line.text.len();
        let within = |span: &std::ops::Range<usize>| (line.start..=end).contains(&span.start);
        let body = line.text.trim_start_matches(is_blank);
        let first = end - body.len();
        let comment_from = |from: usize| {
            source
                .get(from..end)
                .and_then(|rest| rest.find('#').map(|i| rest[i..].trim_end_matches(is_blank)))
                .map(str::to_string)
        };
        let (part, code, comment) = if body.is_empty() {
            (None, String::new(), None)
        } else if body.starts_with('#') {
            (None, String::new(), comment_from(first))
        } else if let Some(d) = definitions.next_if(|d| d.line == line.number) {
            let code = definition(source, d, end);
            (Some(Part::Definitions), code, comment_from(first))
        } else if let Some(m) = moves.next_if(|m| m.line == line.number) {
            (Some(Part::Moves), move_line(source, m), comment_from(first))
        } else if let Some(rule) = rules.next_if(|r| within(&r.span)) {
            (Some(Part::Board), rule_line(rule), comment_from(first))
        } else if let Some(row) = rows.next_if(|r| within(&r.span)) {
            // After the row's last `|`: nothing, or a comment (a `#`
            // inside the cells is a hole, §1).
            let after = first + 1 + 3 * row.cells.len();
            (
                Some(Part::Board),
                row_line(source, row),
                comment_from(after),
            )
        } else {
            // Not a line of the parsed program: kept as it is (a program
            // that checks has none).
            (None, line.text.to_string(), None)
        };
        laid.push(Laid {
            part,
            code,
            comment,
        });
    }
    Ok(place_comments(laid))
}

/// Each line's code and its comment, the comments of each block of
/// consecutive lines of one part in one column.
fn place_comments(laid: Vec<Laid>) -> Vec<String> {
    let mut out = Vec::with_capacity(laid.len());
    let mut start = 0;
    while start < laid.len() {
        let part = laid[start].part;
        let block = laid[start..]
            .iter()
            .take_while(|l| part.is_some() && l.part == part)
            .count()
            .max(1);
        let lines = &laid[start..start + block];
        let column = lines
            .iter()
            .filter(|l| l.comment.is_some())
            .map(|l| width(&l.code))
            .max()
            .unwrap_or(0)
            + part.map_or(0, Part::gap);
        for l in lines {
            out.push(with_comment(&l.code, l.comment.as_deref(), column));
        }
        start += block;
    }
    out
}

/// `(s v): notation`, `(s): notation` or `(s):` (§2); `end` is the end of
/// its line in `source`.
fn definition(source: &str, d: &Definition, end: usize) -> String {
    let after_symbol = source.get(d.symbol_span.end..end).unwrap_or_default();
    let value: String = after_symbol
        .split(')')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|&c| !is_blank(c))
        .collect();
    let notation: String = d.notation_text.chars().filter(|&c| !is_blank(c)).collect();
    let mut code = format!("({}", d.symbol);
    if !value.is_empty() {
        code.push(' ');
        code.push_str(&value);
    }
    code.push_str("):");
    if !notation.is_empty() {
        code.push(' ');
        code.push_str(&notation);
    }
    code
}

/// `+--+--+`: a rule as wide as the board.
fn rule_line(rule: &Rule) -> String {
    format!("+{}", "--+".repeat(rule.columns))
}

/// `|kW|  |##|`: a row of cells.
fn row_line(source: &str, row: &Row) -> String {
    let mut code = String::from("|");
    for cell in &row.cells {
        code.push_str(match cell {
            Cell::Empty => "  ",
            Cell::Hole => "##",
            Cell::Piece { span, .. } => source.get(span.clone()).unwrap_or("  "),
        });
        code.push('|');
    }
    code
}

/// `Turn n C: s from -> to`, `… = t`, or `Turn n C: s square checks turn m` (§5).
fn move_line(source: &str, m: &MoveLine) -> String {
    let text = |span: &std::ops::Range<usize>| source.get(span.clone()).unwrap_or_default();
    let colour = match m.colour {
        Colour::White => 'W',
        Colour::Black => 'B',
    };
    let head = format!("Turn {} {colour}:", text(&m.turn_span));
    match &m.body {
        MoveBody::Step {
            symbol,
            from,
            to,
            promote,
        } => {
            let promote = promote
                .as_ref()
                .map_or(String::new(), |(s, _)| format!(" = {s}"));
            format!("{head} {} {} -> {}{promote}", symbol.0, from.text, to.text)
        }
        MoveBody::Place {
            symbol,
            square,
            target_span,
            ..
        } => format!(
            "{head} {} {} checks turn {}",
            symbol.0,
            square.text,
            text(target_span)
        ),
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
    fn definitions_board_and_moves_take_their_canonical_spacing() {
        let src = "  ( k ) :   \n(r 3):( 1 , 0 ) *  # rook\n( m-1 ): (0,0)\n\n   +--+--+\n |kW|##| # row\n+--+--+\n|rB|kB|\n+--+--+\n\n  Turn  1 W :r b1->a1 #  read\nTurn 1 B: r b1 -> b1=k\nTurn 2 W:k a1   checks   turn 1\n";
        assert_eq!(
            fmt(src),
            "(k):\n(r 3): (1,0)*    # rook\n(m -1): (0,0)\n\n+--+--+\n|kW|##|   # row\n+--+--+\n|rB|kB|\n+--+--+\n\nTurn 1 W: r b1 -> a1   #  read\nTurn 1 B: r b1 -> b1 = k\nTurn 2 W: k a1 checks turn 1\n"
        );
    }

    #[test]
    fn comments_align_per_block_of_one_part() {
        let src = "(k): # royal\n(n 0): (0,0)*\n(q 9): {\"n\",(1,1)} # queen\n\n+--+\n|kW|\n+--+\n|kB|\n+--+\nTurn 1 W: n a1 -> a1 # one\n# between\nTurn 1 B: n b1 -> b1 # two\n";
        assert_eq!(
            fmt(src),
            "(k):                  # royal\n(n 0): (0,0)*\n(q 9): {\"n\",(1,1)}    # queen\n\n+--+\n|kW|\n+--+\n|kB|\n+--+\nTurn 1 W: n a1 -> a1   # one\n# between\nTurn 1 B: n b1 -> b1   # two\n"
        );
        assert_eq!(fmt(&fmt(src)), fmt(src));
    }

    #[test]
    fn renumbering_is_refused() {
        let options = FormatOptions {
            renumber: Some(crate::lang::Renumber { start: 1, step: 1 }),
        };
        assert!(format("(k):\n+--+\n|kW|\n+--+\n", &options).is_err());
    }
}
