//! What an editor shows of a program ([`Outline`]), from the front end.
//!
//! Everything comes from the parser's AST ([`syntax::parse`]): piece
//! definitions with their parsed notation, the board's rows and cells, the
//! move lines. A line the parser rejects gives what it kept of it (a
//! broken definition keeps its symbol, §6). The AST has spans for leaps,
//! symbols, ranks and squares but not for brackets; `unit_spans` finds
//! every unit's span and punctuation by stepping over blanks from the
//! spans of its parts, so nothing is parsed twice and no walk recurses
//! (notations nest to any depth, §6).
//!
//! Hover help quotes docs/finvara.md itself (the tables of §2.1 and §4,
//! read by [`reference_rows`]) and explains each notation in words built
//! from its [`Notation`] units. Hover text is bounded (per hover and in
//! all), so a huge board or notation costs its tokens, not megabytes of
//! help per cell.

use super::ast::{Cell, Definition, Dir, MoveBody, MoveLine, Node, NodeId, Notation, ValueAst};
use super::ir::Colour;
use super::syntax;
use crate::common::Span;
use crate::common::outline::{
    CompletionKind, Outline, Reference, Symbol, SymbolKind, TokenKind, comment_folds,
    reference_rows,
};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The language reference, whose tables the hover help quotes.
const REFERENCE: &str = include_str!("../../../docs/finvara.md");

/// At most this many bytes of hover text in one outline, notation units
/// excepted (below): beyond, uses get no hover of their own.
const HOVER_BUDGET: usize = 6 << 20;
/// At most this many bytes of hover text on notation units.
const UNIT_HOVER_BUDGET: usize = 2 << 20;
/// About how long an explanation in words of one unit may grow.
const WORDS_BUDGET: usize = 400;
/// How much of a notation a hover quotes.
const QUOTE_LIMIT: usize = 120;
/// How many parts (or choices) a piece's hover lists.
const PART_LIMIT: usize = 24;

/// See [`crate::lang::Lang::outline`].
pub fn outline(source: &str) -> Outline {
    build(source).finish()
}

/// The outline before [`Outline::finish`] (tests check that `finish` has
/// nothing to drop).
fn build(source: &str) -> Outline {
    let (file, _errors) = syntax::parse(source);
    let lines: Vec<Span> = crate::common::source::lines(source)
        .map(|l| l.start..l.start + l.text.len())
        .collect();
    let line_span = |number: usize| lines.get(number.wrapping_sub(1)).cloned().unwrap_or(0..0);
    let mut b = Builder {
        src: source,
        out: Outline::default(),
        hover_bytes: 0,
        unit_hover_bytes: 0,
        help: HashMap::new(),
    };

    // Comments (§1).
    for line in crate::common::source::lines(source) {
        if let Some(at) = comment_start(line.text) {
            b.out.token(
                line.start + at..line.start + line.text.len(),
                TokenKind::Comment,
            );
        }
    }

    // Piece definitions (§2): the notation of every kind, for `"s"`.
    let mut kinds: HashMap<char, &str> = HashMap::new();
    for d in &file.definitions {
        kinds.entry(d.symbol).or_insert(&d.notation_text);
    }
    for d in &file.definitions {
        let (spans, punctuation) = unit_spans(source, &d.notation);
        if !b.help.contains_key(&d.symbol) {
            let help = piece_help(source, d, &spans, &kinds);
            b.out.complete(
                d.symbol.to_string(),
                CompletionKind::Type,
                d.notation_text.clone(),
                help.clone(),
            );
            b.help.insert(d.symbol, help);
        }
        b.out.symbols.push(Symbol {
            name: d.symbol.to_string(),
            kind: SymbolKind::Piece,
            span: d.symbol_span.clone(),
            extent: line_span(d.line),
            detail: d.notation_text.clone(),
        });
        b.out.token(d.symbol_span.clone(), TokenKind::Definition);
        let symbol = d.symbol;
        b.hover(d.symbol_span.clone(), |b| b.piece_hover(symbol, None));
        b.definition_head(d);
        b.notation(d, &spans, punctuation, &kinds);
    }
    // A broken definition still defines its symbol (§6).
    for (symbol, span) in &file.broken_symbols {
        let line = lines
            .iter()
            .find(|l| l.start <= span.start && span.start <= l.end)
            .cloned()
            .unwrap_or(span.clone());
        let text = &source[line.clone()];
        let content = comment_start(text).map_or(text, |c| &text[..c]);
        let notation = content
            .split_once(':')
            .map_or("", |(_, n)| n)
            .trim()
            .to_string();
        if !b.help.contains_key(symbol) {
            let help = format!(
                "piece `{symbol}`: {}\n\nIts definition does not parse (the error says why); \
                 it still defines `{symbol}`, so its uses are not reported (docs/finvara.md §6).",
                code(&clip(&notation, QUOTE_LIMIT)),
            );
            b.out.complete(
                symbol.to_string(),
                CompletionKind::Type,
                notation.clone(),
                help.clone(),
            );
            b.help.insert(*symbol, help);
        }
        b.out.symbols.push(Symbol {
            name: symbol.to_string(),
            kind: SymbolKind::Piece,
            span: span.clone(),
            extent: line,
            detail: notation,
        });
        b.out.token(span.clone(), TokenKind::Definition);
        let symbol = *symbol;
        b.hover(span.clone(), |b| b.piece_hover(symbol, None));
    }
    b.out.symbols.sort_by_key(|s| s.span.start);

    // The board (§3).
    if let Some(board) = &file.board {
        let height = board.rows.len();
        for (r, row) in board.rows.iter().enumerate() {
            let letters = row_letters((height - r) as u64);
            for (c, cell) in row.cells.iter().enumerate() {
                let start = row.span.start + 1 + 3 * c;
                let square = format!("{letters}{}", c + 1);
                match cell {
                    Cell::Piece {
                        symbol,
                        colour,
                        span,
                    } => {
                        let sym = span.start..span.start + 1;
                        b.use_piece(*symbol, sym.clone());
                        b.out.token(sym.start + 1..span.end, TokenKind::EnumMember);
                        let (symbol, colour) = (*symbol, *colour);
                        b.hover(sym, |b| {
                            b.piece_hover(
                                symbol,
                                Some(format!(
                                    "Here: a {} `{symbol}` on `{square}` at the start (docs/finvara.md §3).",
                                    colour_word(colour)
                                )),
                            )
                        });
                        b.hover(span.start + 1..span.end, |_| {
                            format!(
                                "colour `{}`: a {} piece (docs/finvara.md §3)",
                                colour.letter(),
                                colour_word(colour)
                            )
                        });
                    }
                    Cell::Hole => {
                        b.out.token(start..start + 2, TokenKind::Keyword);
                        b.hover(start..start + 2, |_| {
                            format!("hole `##` on `{square}` (docs/finvara.md §4)\n\n{HOLE_HELP}")
                        });
                    }
                    Cell::Empty => {
                        b.hover(start..start + 2, |_| {
                            format!("square `{square}`: empty at the start (docs/finvara.md §3)")
                        });
                    }
                }
            }
        }
    }

    // The moves (§5).
    for m in &file.moves {
        b.move_line(&file.moves, m, file.board.as_ref());
        b.out.symbols.push(Symbol {
            name: m.turn.to_string(),
            kind: SymbolKind::Turn,
            span: m.turn_span.clone(),
            extent: line_span(m.line),
            detail: m.text.trim().to_string(),
        });
    }

    b.language_words();
    for m in &file.moves {
        b.out.complete(
            m.turn.to_string(),
            CompletionKind::Reference,
            m.text.trim().to_string(),
            String::new(),
        );
    }
    b.out.folds = comment_folds(source, |line| {
        line.trim_start_matches([' ', '\t']).starts_with('#')
    });
    b.out.rename_blocker = None;
    b.out
}

/// What §4 says a hole does, for its hover.
const HOLE_HELP: &str = "Holes do not block paths. When a move's path lands on a hole, at any \
jump, the piece is removed at the first such hole, the rest of the path is not made, and the \
action of the piece's value mod 6 is performed on the stack of the piece's colour. Royal pieces \
never fall.";

/// Where the comment of a line starts (§1), as an offset in `text`: at the
/// first `#`, except in a board row, where the `##` holes between its
/// first and last `|` are cells (stepped over as the parser does).
fn comment_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let first = bytes.iter().position(|&b| b != b' ' && b != b'\t')?;
    let mut from = first;
    if bytes[first] == b'|' {
        while bytes.get(from + 3) == Some(&b'|') {
            from += 3;
        }
        from += 1;
    }
    bytes
        .get(from..)?
        .iter()
        .position(|&b| b == b'#')
        .map(|i| from + i)
}

/// Row letters (§3): 1 is `a`, 26 `z`, 27 `aa`.
fn row_letters(mut row: u64) -> String {
    let mut letters = Vec::new();
    while row > 0 {
        row -= 1;
        letters.push(b'a' + (row % 26) as u8);
        row /= 26;
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

fn colour_word(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

/// `text` as Markdown inline code, fenced so that a backtick in it (a free
/// repetition) stays code.
fn code(text: &str) -> String {
    if text.is_empty() {
        "*(empty)*".to_string()
    } else if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// `text` cut to about `limit` bytes (at a character boundary), `…` after.
fn clip(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// The rows of the reference's tables, read once.
fn rows() -> &'static [(String, Vec<String>)] {
    static ROWS: OnceLock<Vec<(String, Vec<String>)>> = OnceLock::new();
    ROWS.get_or_init(|| reference_rows(REFERENCE))
}

/// The reference's table row whose first cell is `item` in section
/// `section`: its second cell.
fn meaning(section: &str, item: &str) -> &'static str {
    rows()
        .iter()
        .find(|(s, cells)| s == section && cells.first().is_some_and(|c| c == item))
        .and_then(|(_, cells)| cells.get(1))
        .map_or("", |c| c.as_str())
}

/// The §2.1 table's item for a unit.
fn unit_item(node: &Node) -> &'static str {
    match node {
        Node::Leap { dir: None, .. } => "`(a,b)`",
        Node::Leap { .. } => "`(a,b|dir)`",
        Node::Repeat { fixed: true, .. } => "`A*`",
        Node::Repeat { fixed: false, .. } => "``A` ``",
        Node::Choice(_) => "`{A,B}`",
        Node::Group(_) => "`[A]`",
        Node::Capture(_) => "`c(A)`",
        Node::Quiet(_) => "`m(A)`",
        Node::Rank { .. } => "`r(A,ranks)`",
        Node::PromoteAny(_) => "`p`",
        Node::PromoteTo(_) => "`->[s,t]`",
        Node::Take(_) => "`x`",
        Node::Like(..) => "`\"s\"`",
    }
}

/// The words, for the keyword completions: (label, §2.1 table item).
const NOTATION_WORDS: [(&str, &str); 7] = [
    ("c(", "`c(A)`"),
    ("m(", "`m(A)`"),
    ("r(", "`r(A,ranks)`"),
    ("r!(", "`r(A,ranks)`"),
    ("p", "`p`"),
    ("->[", "`->[s,t]`"),
    ("x", "`x`"),
];

/// The span of every unit of `n` (indexed like [`Notation::nodes`]) and
/// the tokens of its punctuation, numbers and words. A unit's brackets
/// are found by stepping over blanks from its parts' spans, which the
/// parser guarantees (parts come before their unit in the list); where
/// that fails (it cannot, for a notation that parsed), the unit spans its
/// parts and its brackets are left uncoloured.
fn unit_spans(src: &str, n: &Notation) -> (Vec<Span>, Vec<(Span, TokenKind)>) {
    let bytes = src.as_bytes();
    let blank = |p: usize| matches!(bytes.get(p), Some(b' ' | b'\t'));
    // The last non-blank byte before `pos`, if it is `want`.
    let before = |pos: usize, want: &[u8]| -> Option<usize> {
        let mut p = pos.checked_sub(1)?;
        while blank(p) {
            p = p.checked_sub(1)?;
        }
        want.contains(bytes.get(p)?).then_some(p)
    };
    // The first non-blank byte at or after `pos`, if it is `want`.
    let after = |pos: usize, want: &[u8]| -> Option<usize> {
        let mut p = pos;
        while blank(p) {
            p += 1;
        }
        want.contains(bytes.get(p)?).then_some(p)
    };
    let mut spans: Vec<Span> = Vec::with_capacity(n.nodes.len());
    let mut tokens = Vec::new();
    let op = |tokens: &mut Vec<(Span, TokenKind)>, at: usize| {
        tokens.push((at..at + 1, TokenKind::Operator));
    };
    let seq_span = |spans: &[Span], ids: &[NodeId]| -> Option<Span> {
        let first = spans.get(*ids.first()?)?;
        let last = spans.get(*ids.last()?)?;
        Some(first.start..last.end)
    };
    for node in &n.nodes {
        let span = match node {
            Node::Leap { span, .. } => {
                lex_numbers(src, span.clone(), &mut tokens, TokenKind::EnumMember);
                span.clone()
            }
            Node::PromoteAny(span) | Node::Take(span) => {
                tokens.push((span.clone(), TokenKind::Keyword));
                span.clone()
            }
            Node::Like(_, span) => match (before(span.start, b"\""), after(span.end, b"\"")) {
                (Some(open), Some(close)) => {
                    op(&mut tokens, open);
                    op(&mut tokens, close);
                    open..close + 1
                }
                _ => span.clone(),
            },
            Node::PromoteTo(kinds) => {
                let first = kinds.first().map_or(0, |k| k.1.start);
                let last = kinds.last().map_or(0, |k| k.1.end);
                for k in kinds.iter().take(kinds.len().saturating_sub(1)) {
                    if let Some(comma) = after(k.1.end, b",") {
                        op(&mut tokens, comma);
                    }
                }
                let open = before(first, b"[");
                let gt = open.and_then(|p| before(p, b">"));
                let dash = gt.and_then(|p| before(p, b"-"));
                let close = after(last, b"]");
                match (dash, gt, open, close) {
                    (Some(dash), Some(gt), Some(open), Some(close)) => {
                        if gt == dash + 1 {
                            tokens.push((dash..gt + 1, TokenKind::Operator));
                        } else {
                            op(&mut tokens, dash);
                            op(&mut tokens, gt);
                        }
                        op(&mut tokens, open);
                        op(&mut tokens, close);
                        dash..close + 1
                    }
                    _ => first..last,
                }
            }
            Node::Capture(body) | Node::Quiet(body) | Node::Group(body) => {
                let inner = seq_span(&spans, body).unwrap_or(0..0);
                let (word, open_byte, close_byte): (&[u8], &[u8], &[u8]) = match node {
                    Node::Group(_) => (b"", b"[", b"]"),
                    _ => (b"cm", b"(", b")"),
                };
                let open = before(inner.start, open_byte);
                let word = if word.is_empty() {
                    open
                } else {
                    open.and_then(|p| before(p, word))
                };
                match (word, open, after(inner.end, close_byte)) {
                    (Some(word), Some(open), Some(close)) => {
                        if word != open {
                            tokens.push((word..word + 1, TokenKind::Keyword));
                        }
                        op(&mut tokens, open);
                        op(&mut tokens, close);
                        word..close + 1
                    }
                    _ => inner,
                }
            }
            Node::Rank {
                body,
                span: ranks,
                negated,
                ..
            } => {
                let inner = seq_span(&spans, body).unwrap_or(0..0);
                let open = before(inner.start, b"(");
                let bang = if *negated {
                    open.and_then(|p| before(p, b"!"))
                } else {
                    open
                };
                let word = bang.and_then(|p| before(p, b"r"));
                let comma = after(inner.end, b",");
                let close = after(ranks.end, b")");
                lex_numbers(src, ranks.clone(), &mut tokens, TokenKind::Operator);
                match (word, bang, open, comma, close) {
                    (Some(word), Some(bang), Some(open), Some(comma), Some(close)) => {
                        tokens.push((word..word + 1, TokenKind::Keyword));
                        if bang != open {
                            op(&mut tokens, bang);
                        }
                        op(&mut tokens, open);
                        op(&mut tokens, comma);
                        op(&mut tokens, close);
                        word..close + 1
                    }
                    _ => inner.start..ranks.end,
                }
            }
            Node::Choice(items) => {
                let mut end = None;
                for item in items {
                    if let Some(s) = seq_span(&spans, item)
                        && let Some(sep) = after(s.end, b",}")
                    {
                        op(&mut tokens, sep);
                        end = Some(sep + 1);
                    }
                }
                let first = items.first().and_then(|i| seq_span(&spans, i));
                match (first.as_ref().and_then(|f| before(f.start, b"{")), end) {
                    (Some(open), Some(end)) => {
                        op(&mut tokens, open);
                        open..end
                    }
                    _ => first.unwrap_or(0..0),
                }
            }
            Node::Repeat { body, .. } => {
                let inner = spans.get(*body).cloned().unwrap_or(0..0);
                match after(inner.end, b"*`") {
                    Some(star) => {
                        op(&mut tokens, star);
                        inner.start..star + 1
                    }
                    None => inner,
                }
            }
        };
        spans.push(span);
    }
    (spans, tokens)
}

/// The tokens of a leap `(1,2|^)` or of ranks `[-2,3]`: numbers (with
/// their sign) are [`TokenKind::Number`], letters and `^ > <` are
/// `words`, other punctuation is [`TokenKind::Operator`].
fn lex_numbers(src: &str, span: Span, tokens: &mut Vec<(Span, TokenKind)>, words: TokenKind) {
    let bytes = src.as_bytes();
    let mut p = span.start;
    while p < span.end.min(bytes.len()) {
        let b = bytes[p];
        if b.is_ascii_digit() || (b == b'-' && bytes.get(p + 1).is_some_and(u8::is_ascii_digit)) {
            let start = p;
            p += 1;
            while p < span.end && bytes[p].is_ascii_digit() {
                p += 1;
            }
            tokens.push((start..p, TokenKind::Number));
            continue;
        }
        match b {
            b' ' | b'\t' => {}
            b'^' | b'v' | b'>' | b'<' => tokens.push((p..p + 1, words)),
            b if b.is_ascii() => tokens.push((p..p + 1, TokenKind::Operator)),
            _ => {}
        }
        p += 1;
    }
}

/// The vectors of a leap (§2.1) for White, as (x, y): (±a, ±b) and
/// (±b, ±a), duplicates removed, then those of the direction.
fn vectors(a: u64, b: u64, dir: Option<Dir>) -> Vec<(i128, i128)> {
    let (a, b) = (i128::from(a), i128::from(b));
    let mut all = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            all.push((sx * x, sy * y));
        }
    }
    all.sort();
    all.dedup();
    all.retain(|&(x, y)| match dir {
        None => true,
        Some(Dir::Forward) => y > 0,
        Some(Dir::Backward) => y < 0,
        Some(Dir::Right) => x > 0,
        Some(Dir::Left) => x < 0,
    });
    all
}

fn dir_words(dir: Option<Dir>) -> &'static str {
    match dir {
        None => "",
        Some(Dir::Forward) => " forward",
        Some(Dir::Backward) => " backward",
        Some(Dir::Right) => " to the player's right",
        Some(Dir::Left) => " to the player's left",
    }
}

/// A rank in words (§2.1: ranks count from the mover's side).
fn rank_words(lo: i64, hi: i64) -> String {
    let one = |r: i64| match r {
        0 => "0 (on no board)".to_string(),
        -1 => "-1 (the opponent's first rank)".to_string(),
        -2 => "-2 (the opponent's second)".to_string(),
        r if r < 0 => format!("{r} (counted from the opponent's side)"),
        r => r.to_string(),
    };
    if lo == hi {
        format!("rank {}", one(lo))
    } else {
        format!("ranks {} to {}", one(lo), one(hi))
    }
}

/// A piece of an explanation still to write.
enum Work<'n> {
    Text(&'static str),
    Owned(String),
    Node(NodeId),
    /// Units one after the other, in parentheses when more than one.
    Seq(&'n [NodeId]),
    /// Units separated by `.1`.
    List(&'n [NodeId], &'static str),
    /// The choices of a `{…}`.
    Choices(&'n [Vec<NodeId>]),
}

/// The units `ids` of `n`, one after the other, in words (§2.1), about
/// `budget` bytes at most (then `…`). Iterative: a notation nests to any
/// depth; its work grows with the words written, not with the notation.
fn words(n: &Notation, ids: &[NodeId], kinds: &HashMap<char, &str>, budget: usize) -> String {
    // A group alone needs no parentheses.
    let ids = match ids {
        [id] => match n.nodes.get(*id) {
            Some(Node::Group(body)) => body.as_slice(),
            _ => ids,
        },
        _ => ids,
    };
    let mut out = String::new();
    let mut stack = vec![Work::List(ids, ", then ")];
    let mut steps = 0usize;
    while let Some(work) = stack.pop() {
        steps += 1;
        if out.len() > budget || steps > 4 * budget {
            out = clip(&out, budget);
            if !out.ends_with('…') {
                out.push('…');
            }
            break;
        }
        match work {
            Work::Text(t) => out.push_str(t),
            Work::Owned(t) => out.push_str(&t),
            Work::Seq([id]) => stack.push(Work::Node(*id)),
            Work::Seq(ids) => {
                stack.push(Work::Text(")"));
                stack.push(Work::List(ids, ", then "));
                stack.push(Work::Text("("));
            }
            Work::List([], _) => {}
            Work::List([first, rest @ ..], sep) => {
                if !rest.is_empty() {
                    stack.push(Work::List(rest, sep));
                    stack.push(Work::Text(sep));
                }
                stack.push(Work::Node(*first));
            }
            Work::Choices([]) => {}
            Work::Choices([first, rest @ ..]) => {
                if !rest.is_empty() {
                    stack.push(Work::Choices(rest));
                    stack.push(Work::Text(", or "));
                }
                stack.push(Work::Seq(first));
            }
            Work::Node(id) => {
                let Some(node) = n.nodes.get(id) else {
                    continue;
                };
                // Pushed last first.
                match node {
                    Node::Leap { a: 0, b: 0, .. } => {
                        stack.push(Work::Text("the null jump (0,0), staying put"))
                    }
                    Node::Leap { a, b, dir, .. } => stack.push(Work::Owned(format!(
                        "a leap of ({a},{b}){}",
                        dir_words(*dir)
                    ))),
                    Node::Repeat { body, fixed } => match (n.nodes.get(*body), fixed) {
                        (Some(Node::Leap { a, b, dir, .. }), true) if (*a, *b) != (0, 0) => stack
                            .push(Work::Owned(format!(
                                "slides any distance by ({a},{b}){}, the same vector each step",
                                dir_words(*dir)
                            ))),
                        (Some(Node::Leap { a, b, dir, .. }), false) if (*a, *b) != (0, 0) => stack
                            .push(Work::Owned(format!(
                                "zigzags: leaps of ({a},{b}){}, any number, each choosing its \
                                 vector afresh",
                                dir_words(*dir)
                            ))),
                        (_, true) => {
                            stack.push(Work::Text(
                                "] zero or more times, with the same choices each time",
                            ));
                            stack.push(Work::Node(*body));
                            stack.push(Work::Text("["));
                        }
                        (_, false) => {
                            stack.push(Work::Text(
                                "] zero or more times, choosing afresh each time",
                            ));
                            stack.push(Work::Node(*body));
                            stack.push(Work::Text("["));
                        }
                    },
                    Node::Choice(items) => {
                        stack.push(Work::Choices(items));
                        stack.push(Work::Text("either "));
                    }
                    Node::Group(body) => stack.push(Work::Seq(body)),
                    Node::Capture(body) => {
                        stack.push(Work::Text(", only to capture (ending on an enemy piece)"));
                        stack.push(Work::Seq(body));
                    }
                    Node::Quiet(body) => {
                        stack.push(Work::Text(
                            ", only without capturing (ending on an empty square or a hole)",
                        ));
                        stack.push(Work::Seq(body));
                    }
                    Node::Rank {
                        body,
                        negated,
                        lo,
                        hi,
                        ..
                    } => {
                        stack.push(Work::Seq(body));
                        stack.push(Work::Owned(format!(
                            "{} {}: ",
                            if *negated { "except on" } else { "only on" },
                            rank_words(*lo, *hi)
                        )));
                    }
                    Node::PromoteAny(_) => {
                        stack.push(Work::Text("may promote into any other defined kind"))
                    }
                    Node::PromoteTo(to) => {
                        let names: Vec<String> = to.iter().map(|(s, _)| format!("`{s}`")).collect();
                        stack.push(Work::Owned(format!(
                            "may promote into {}",
                            names.join(" or ")
                        )))
                    }
                    Node::Take(_) => stack.push(Work::Text(
                        "captures the enemy piece on the current square and goes on",
                    )),
                    Node::Like(s, _) => stack.push(Work::Owned(match kinds.get(s) {
                        Some(&"") => {
                            format!("moves as kind `{s}` (which cannot move)")
                        }
                        Some(notation) => {
                            format!("moves as kind `{s}` ({})", code(&clip(notation, 40)))
                        }
                        None => format!("moves as kind `{s}` (not defined)"),
                    })),
                }
            }
        }
    }
    out
}

/// A piece's help (§2, §2.1, §4): its notation as written, each part of
/// it in words, what its value does.
fn piece_help(src: &str, d: &Definition, spans: &[Span], kinds: &HashMap<char, &str>) -> String {
    let n = &d.notation;
    let mut s = format!(
        "piece `{}`: {}\n\n",
        d.symbol,
        code(&clip(&d.notation_text, QUOTE_LIMIT))
    );
    let text = |ids: &[NodeId]| -> String {
        let span = ids
            .first()
            .zip(ids.last())
            .and_then(|(f, l)| Some(spans.get(*f)?.start..spans.get(*l)?.end))
            .unwrap_or(0..0);
        code(&clip(src.get(span).unwrap_or(""), 60))
    };
    if n.top.is_empty() {
        s.push_str("Cannot move: its notation is empty (docs/finvara.md §2).\n");
    } else {
        s.push_str("Moves (docs/finvara.md §2.1)");
        s.push_str(if n.top.len() > 1 {
            ", one part after the other:\n"
        } else {
            ":\n"
        });
        for &id in n.top.iter().take(PART_LIMIT) {
            match n.nodes.get(id) {
                Some(Node::Choice(items)) => {
                    s.push_str(&format!("- {}: one of\n", text(&[id])));
                    for item in items.iter().take(PART_LIMIT) {
                        s.push_str(&format!(
                            "  - {}: {}\n",
                            text(item),
                            words(n, item, kinds, WORDS_BUDGET)
                        ));
                    }
                    if items.len() > PART_LIMIT {
                        s.push_str(&format!("  - … {} more\n", items.len() - PART_LIMIT));
                    }
                }
                _ => s.push_str(&format!(
                    "- {}: {}\n",
                    text(&[id]),
                    words(n, &[id], kinds, WORDS_BUDGET)
                )),
            }
        }
        if n.top.len() > PART_LIMIT {
            s.push_str(&format!("- … {} more\n", n.top.len() - PART_LIMIT));
        }
    }
    s.push('\n');
    s.push_str(&match d.value {
        None => "Royal (no value): it never falls into a hole, and a player whose royal pieces \
                 are all attacked has lost (docs/finvara.md §5.4)."
            .to_string(),
        Some(ValueAst::Int(v)) => {
            let action = v.rem_euclid(6);
            format!(
                "Value {v}: falling into a hole, it performs action {action} on its player's \
                 stack: {} (docs/finvara.md §4). Captured, it pushes {v} on its own colour's \
                 stack (§5.2).",
                meaning("§4", &action.to_string())
            )
        }
        Some(ValueAst::X) => value_xy_help("x", "column"),
        Some(ValueAst::Y) => value_xy_help("y", "row"),
    });
    s
}

fn value_xy_help(word: &str, what: &str) -> String {
    format!(
        "Value `{word}`: the {what} number of the square where it is used: the hole it falls \
         into chooses the action ({what} mod 6, docs/finvara.md §4); captured, it pushes the \
         {what} of its square (§5.2)."
    )
}

/// The outline being built, with what its hovers share.
struct Builder<'s> {
    src: &'s str,
    out: Outline,
    /// Hover text so far, notation units excepted.
    hover_bytes: usize,
    /// Hover text so far on notation units.
    unit_hover_bytes: usize,
    /// Each symbol's help: its first definition's.
    help: HashMap<char, String>,
}

impl Builder<'_> {
    /// A hover on `span`, while the budget lasts.
    fn hover(&mut self, span: Span, text: impl FnOnce(&Self) -> String) {
        if self.hover_bytes < HOVER_BUDGET && !span.is_empty() {
            let text = text(self);
            self.hover_bytes += text.len();
            self.out.hover(span, text);
        }
    }

    /// Piece `symbol`'s help, then `here`.
    fn piece_hover(&self, symbol: char, here: Option<String>) -> String {
        let mut text = match self.help.get(&symbol) {
            Some(help) => help.clone(),
            None => format!(
                "piece `{symbol}`: not defined\n\nNo definition `({symbol} v): notation` \
                 comes before the board (docs/finvara.md §2)."
            ),
        };
        if let Some(here) = here {
            text.push_str("\n\n");
            text.push_str(&here);
        }
        text
    }

    /// A use of piece `symbol` at `span`: reference and token (its hover
    /// is the caller's).
    fn use_piece(&mut self, symbol: char, span: Span) {
        self.out.references.push(Reference {
            name: symbol.to_string(),
            kind: SymbolKind::Piece,
            span: span.clone(),
        });
        self.out.token(span, TokenKind::Type);
    }

    /// The first non-blank byte at or after `pos`.
    fn skip_blanks(&self, mut pos: usize) -> usize {
        while matches!(self.src.as_bytes().get(pos), Some(b' ' | b'\t')) {
            pos += 1;
        }
        pos
    }

    /// `(s v):` around the symbol: brackets, the value and its help.
    fn definition_head(&mut self, d: &Definition) {
        let src = self.src;
        let bytes = src.as_bytes();
        let mut open = d.symbol_span.start;
        while open > 0 && bytes[open - 1] != b'(' {
            open -= 1;
        }
        if open > 0 {
            self.out.token(open - 1..open, TokenKind::Operator);
        }
        let value = self.skip_blanks(d.symbol_span.end);
        let mut end = value;
        while end < bytes.len() && !matches!(bytes[end], b' ' | b'\t' | b')') {
            end += 1;
        }
        if let Some(v) = d.value {
            let kind = match v {
                ValueAst::Int(_) => TokenKind::Number,
                ValueAst::X | ValueAst::Y => TokenKind::EnumMember,
            };
            self.out.token(value..end, kind);
            self.hover(value..end, |_| match v {
                ValueAst::Int(v) => {
                    let action = v.rem_euclid(6);
                    format!(
                        "value {v}: action {action} when it falls into a hole (docs/finvara.md §4)\n\n\
                         {v} mod 6 = {action}: {}\n\nCaptured, it pushes {v} on the stack of its \
                         own colour (§5.2).",
                        meaning("§4", &action.to_string())
                    )
                }
                ValueAst::X => value_xy_help("x", "column"),
                ValueAst::Y => value_xy_help("y", "row"),
            });
        }
        let close = self.skip_blanks(end);
        if bytes.get(close) == Some(&b')') {
            self.out.token(close..close + 1, TokenKind::Operator);
            let colon = self.skip_blanks(close + 1);
            if bytes.get(colon) == Some(&b':') {
                self.out.token(colon..colon + 1, TokenKind::Operator);
            }
        }
    }

    /// A definition's notation: tokens, its symbols' uses, each unit's
    /// help.
    fn notation(
        &mut self,
        d: &Definition,
        spans: &[Span],
        punctuation: Vec<(Span, TokenKind)>,
        kinds: &HashMap<char, &str>,
    ) {
        for (span, kind) in punctuation {
            self.out.token(span, kind);
        }
        for (id, node) in d.notation.nodes.iter().enumerate() {
            let symbols: Vec<(char, Span)> = match node {
                Node::PromoteTo(to) => to.clone(),
                Node::Like(s, span) => vec![(*s, span.clone())],
                _ => Vec::new(),
            };
            for (s, span) in &symbols {
                self.use_piece(*s, span.clone());
                let here = match node {
                    Node::Like(..) => {
                        "Here: the kind whose moves this unit makes (`\"s\"`, \
                                       docs/finvara.md §2.1)."
                    }
                    _ => "Here: a kind it may promote into (`->[s,t]`, docs/finvara.md §2.1).",
                };
                let s = *s;
                self.hover(span.clone(), |b| b.piece_hover(s, Some(here.to_string())));
            }
            let Some(span) = spans.get(id) else { continue };
            if self.unit_hover_bytes >= UNIT_HOVER_BUDGET || span.is_empty() {
                continue;
            }
            let item = unit_item(node);
            let mut text = format!(
                "notation {item} (docs/finvara.md §2.1)\n\n{}\n\nHere, {}: {}",
                meaning("§2.1", item),
                code(&clip(self.src.get(span.clone()).unwrap_or(""), 60)),
                words(&d.notation, &[id], kinds, WORDS_BUDGET / 2)
            );
            if let Node::Leap { a, b, dir, .. } = node {
                let v = vectors(*a, *b, *dir);
                let shown: Vec<String> = v.iter().map(|(x, y)| format!("({x},{y})")).collect();
                text.push_str(&format!(
                    ".\n\n{} vector{} for White, as (column, row): {}; Black's are turned by 180°.",
                    v.len(),
                    if v.len() == 1 { "" } else { "s" },
                    shown.join(", ")
                ));
            }
            if let Node::Rank { span: ranks, .. } = node {
                let ranks = ranks.clone();
                self.hover(ranks, |_| {
                    "ranks (docs/finvara.md §2.1): counted from the mover's side: rank 1 is \
                     White's bottom row and Black's top row; `-1` is the opponent's first rank, \
                     `-2` its second; `[x,y]` is every rank from x to y."
                        .to_string()
                });
            }
            self.unit_hover_bytes += text.len();
            self.out.hover(span.clone(), text);
        }
    }

    /// A move line (§5): tokens, uses, hovers.
    fn move_line(&mut self, moves: &[MoveLine], m: &MoveLine, board: Option<&super::ast::Board>) {
        let src = self.src;
        let bytes = src.as_bytes();
        let start = m.span.start;
        self.out.token(start..start + 4, TokenKind::Keyword);
        self.out.token(m.turn_span.clone(), TokenKind::Number);
        let colour = self.skip_blanks(m.turn_span.end);
        self.out.token(colour..colour + 1, TokenKind::EnumMember);
        let colon = self.skip_blanks(colour + 1);
        if bytes.get(colon) == Some(&b':') {
            self.out.token(colon..colon + 1, TokenKind::Operator);
        }
        let who = colour_name(m.colour);
        let turn = m.turn;
        let head = start..colon + 1;
        match &m.body {
            MoveBody::Step {
                symbol,
                from,
                to,
                promote,
            } => {
                let (s, f, t) = (symbol.0, &from.text, &to.text);
                let promoting = match promote {
                    Some((p, _)) => format!(", promoting into `{p}`"),
                    None => String::new(),
                };
                self.hover(head, |_| {
                    format!(
                        "Turn {turn}, {who}: a move (docs/finvara.md §5.1)\n\n\
                         Moves {who}'s `{s}` from `{f}` to `{t}`{promoting}. It is valid when \
                         `{f}` holds a {} `{s}`, some path of its notation ends on `{t}` ({}), and \
                         no royal piece of {who} is attacked after it. An invalid move changes \
                         nothing; then, if the tops of both stacks are non-zero, the next move in \
                         the list is skipped.",
                        colour_word(m.colour),
                        if promote.is_some() {
                            "a path that promotes so"
                        } else {
                            "without promoting"
                        },
                    )
                });
                self.move_symbol(symbol, "Here: the kind that moves (docs/finvara.md §5.1).");
                self.square(from, board, "from");
                self.square(to, board, "to");
                let arrow = self.skip_blanks(from.span.end);
                if bytes.get(arrow..arrow + 2) == Some(b"->") {
                    self.out.token(arrow..arrow + 2, TokenKind::Operator);
                    self.hover(arrow..arrow + 2, |_| {
                        format!("`->` (docs/finvara.md §5.1): moves the piece on `{f}` to `{t}`")
                    });
                }
                if let Some(p) = promote {
                    let eq = self.skip_blanks(to.span.end);
                    if bytes.get(eq) == Some(&b'=') {
                        self.out.token(eq..eq + 1, TokenKind::Operator);
                        let p = p.0;
                        self.hover(eq..eq + 1, |_| {
                            format!(
                                "`= {p}` (docs/finvara.md §5.1): the move must take a path that \
                                 promotes into `{p}`; naming a kind the piece cannot become makes \
                                 the move invalid, not an error"
                            )
                        });
                    }
                    self.move_symbol(p, "Here: the kind it promotes into (docs/finvara.md §5.1).");
                }
            }
            MoveBody::Place {
                symbol,
                square,
                target,
                target_span,
            } => {
                let (s, q, target) = (symbol.0, &square.text, *target);
                let goes = moves
                    .iter()
                    .find(|n| n.turn == target && n.colour == m.colour)
                    .map(|n| n.line);
                let destination = match goes {
                    Some(line) => format!("Turn {target}'s {who} move (line {line})"),
                    None => format!(
                        "Turn {target}'s {who} move, which is missing: an error (docs/finvara.md §5.3)"
                    ),
                };
                self.hover(head, |_| {
                    format!(
                        "Turn {turn}, {who}: placing and jumping (docs/finvara.md §5.3)\n\n\
                         If `{q}` is empty (not a hole, not occupied), puts a {} `{s}` there. \
                         Either way, execution goes on at {destination}, and from there down the \
                         list.",
                        colour_word(m.colour)
                    )
                });
                self.move_symbol(symbol, "Here: the kind placed (docs/finvara.md §5.3).");
                self.square(square, board, "placed on");
                let checks = self.skip_blanks(square.span.end);
                if bytes.get(checks..checks + 6) == Some(b"checks") {
                    let word = self.skip_blanks(checks + 6);
                    let end = if bytes.get(word..word + 4) == Some(b"turn") {
                        self.out.token(word..word + 4, TokenKind::Keyword);
                        word + 4
                    } else {
                        checks + 6
                    };
                    self.out.token(checks..checks + 6, TokenKind::Keyword);
                    self.hover(checks..end, |_| {
                        format!(
                            "`checks turn m` (docs/finvara.md §5.3): puts a `{s}` on `{q}` if it \
                             is empty, then goes on at turn m's move of the same colour; after a \
                             jump the same colour may move twice in a row"
                        )
                    });
                }
                self.out.token(target_span.clone(), TokenKind::Target);
                self.out.references.push(Reference {
                    name: target.to_string(),
                    kind: SymbolKind::Turn,
                    span: target_span.clone(),
                });
                self.hover(target_span.clone(), |_| {
                    format!(
                        "turn {target} (docs/finvara.md §5.3): execution goes on at {destination}"
                    )
                });
            }
        }
    }

    /// A piece symbol in a move line.
    fn move_symbol(&mut self, symbol: &(char, Span), here: &str) {
        self.use_piece(symbol.0, symbol.1.clone());
        let s = symbol.0;
        self.hover(symbol.1.clone(), |b| {
            b.piece_hover(s, Some(here.to_string()))
        });
    }

    /// A square in a move line (§3): token and hover.
    fn square(
        &mut self,
        square: &super::ast::Square,
        board: Option<&super::ast::Board>,
        role: &str,
    ) {
        self.out.token(square.span.clone(), TokenKind::Variable);
        let (row, col) = (square.row, square.col);
        let at_start = board.map(|board| {
            let height = board.rows.len() as u64;
            let cell = (1..=height)
                .contains(&row)
                .then(|| board.rows.get((height - row) as usize))
                .flatten()
                .and_then(|r| r.cells.get(col.wrapping_sub(1) as usize));
            match cell {
                None => "it is off the board: an error".to_string(),
                Some(Cell::Empty) => "empty at the start".to_string(),
                Some(Cell::Hole) => "a hole (§4)".to_string(),
                Some(Cell::Piece { symbol, colour, .. }) => {
                    format!("a {} `{symbol}` at the start", colour_word(*colour))
                }
            }
        });
        let text = square.text.clone();
        self.hover(square.span.clone(), |_| {
            format!(
                "square `{text}` ({role}, docs/finvara.md §3): row {} = {row}, column {col}, \
                 so (x, y) = ({col}, {row}){}",
                text.trim_end_matches(|c: char| c.is_ascii_digit()),
                at_start.map_or(String::new(), |s| format!("; {s}"))
            )
        });
    }

    /// The language's own words (§2.1, §5) as completions.
    fn language_words(&mut self) {
        self.out.complete(
            "Turn",
            CompletionKind::Keyword,
            "Turn n W: s from -> to",
            "A move line (docs/finvara.md §5): `Turn <n> <colour>: …`, turns numbered 1, 2, 3, … \
             each with its `W` move, then its `B` move.",
        );
        self.out.complete(
            "checks turn",
            CompletionKind::Keyword,
            "s square checks turn m",
            "Placing and jumping (docs/finvara.md §5.3): puts a piece on an empty square, then \
             goes on at turn m's move of the same colour.",
        );
        for (word, item) in NOTATION_WORDS {
            self.out.complete(
                word,
                CompletionKind::Keyword,
                item.trim_matches('`'),
                format!("{} (docs/finvara.md §2.1)", meaning("§2.1", item)),
            );
        }
        for (word, what) in [
            ("W", "White: moves first in each turn"),
            ("B", "Black: moves second"),
        ] {
            self.out.complete(
                word,
                CompletionKind::EnumMember,
                what,
                "A colour (docs/finvara.md §5).",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTDOWN: &str = include_str!("../../../examples/countdown.fin");
    const PIECES: &str = include_str!("../../../examples/seed_pieces.fin");

    /// Tokens sorted, not overlapping, each within one line.
    fn assert_tokens_sound(src: &str, o: &Outline) {
        let mut end = 0;
        for t in &o.tokens {
            assert!(t.span.start >= end, "overlap at {:?}", t.span);
            assert!(t.span.start < t.span.end && t.span.end <= src.len());
            assert!(!src[t.span.clone()].contains('\n'), "{:?}", t.span);
            end = t.span.end;
        }
    }

    #[test]
    fn every_table_item_is_in_the_reference() {
        let nodes = [
            Node::Leap {
                a: 1,
                b: 0,
                dir: None,
                span: 0..0,
            },
            Node::Leap {
                a: 1,
                b: 0,
                dir: Some(Dir::Left),
                span: 0..0,
            },
            Node::Repeat {
                body: 0,
                fixed: true,
            },
            Node::Repeat {
                body: 0,
                fixed: false,
            },
            Node::Choice(vec![]),
            Node::Group(vec![]),
            Node::Capture(vec![]),
            Node::Quiet(vec![]),
            Node::Rank {
                body: vec![],
                negated: false,
                lo: 1,
                hi: 1,
                span: 0..0,
            },
            Node::PromoteAny(0..0),
            Node::PromoteTo(vec![]),
            Node::Take(0..0),
            Node::Like('a', 0..0),
        ];
        for node in &nodes {
            assert!(!meaning("§2.1", unit_item(node)).is_empty(), "{node:?}");
        }
        for (_, item) in NOTATION_WORDS {
            assert!(!meaning("§2.1", item).is_empty(), "{item}");
        }
        for action in 0..6 {
            assert!(!meaning("§4", &action.to_string()).is_empty(), "{action}");
        }
    }

    #[test]
    fn symbols_of_an_example() {
        let o = outline(COUNTDOWN);
        let pieces: Vec<&str> = o
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Piece)
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(pieces, ["k", "r", "p", "a", "e", "m", "c", "n"]);
        let c = o.symbol(SymbolKind::Piece, "c").unwrap();
        assert_eq!(&COUNTDOWN[c.span.clone()], "c");
        assert_eq!(c.detail, "[(1,0)x(1,0)]");
        assert!(COUNTDOWN[c.extent.clone()].starts_with("(c 6): [(1,0)x(1,0)]"));
        // Every move line is a turn, the repeated numbers kept.
        let turns: Vec<&crate::common::outline::Symbol> = o
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Turn)
            .collect();
        assert_eq!(turns.len(), 17);
        assert_eq!(turns.iter().filter(|t| t.name == "3").count(), 2);
        assert_eq!(turns[5].detail, "Turn 3 B: c d3 checks turn 4");
        assert_eq!(&COUNTDOWN[turns[5].span.clone()], "3");
        // `checks turn 4` refers to turn 4.
        let jumps: Vec<&str> = o
            .references
            .iter()
            .filter(|r| r.kind == SymbolKind::Turn)
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(jumps, ["4", "9", "7", "8", "2"]);
        assert!(o.rename_blocker.is_none());
        assert_eq!(o.folds.len(), 1);
    }

    #[test]
    fn a_board_use_resolves_to_its_definition() {
        let o = outline(COUNTDOWN);
        let board = COUNTDOWN.find("|kB|").unwrap() + 1;
        assert_eq!(o.name_at(board), Some((SymbolKind::Piece, "k")));
        let def = o.symbol(SymbolKind::Piece, "k").unwrap();
        assert_eq!(
            COUNTDOWN[def.extent.clone()].trim_end(),
            "(k):                    # royal, cannot move"
        );
        // A move's piece too.
        let mv = COUNTDOWN.find("Turn 2 B: c").unwrap() + 10;
        assert_eq!(o.name_at(mv), Some((SymbolKind::Piece, "c")));
        let uses = o.references.iter().filter(|r| r.name == "c").count();
        assert_eq!(uses, 3);
    }

    #[test]
    fn hovers_explain_the_notation_and_cite_sections() {
        let o = outline(PIECES);
        let at = |needle: &str, skip: usize| PIECES.find(needle).unwrap() + skip;
        let rook = o.hover_at(at("(r 5)", 1)).unwrap();
        let first = rook.text.lines().next().unwrap();
        assert_eq!(first, "piece `r`: `(1,0)*`");
        assert!(
            rook.text.contains("slides any distance by (1,0)"),
            "{}",
            rook.text
        );
        assert!(rook.text.contains("docs/finvara.md §2.1"));
        assert!(rook.text.contains("action 5"), "{}", rook.text);
        // A use on the board says the same, and where it stands.
        let on_board = o.hover_at(at("|rW|", 1)).unwrap();
        assert!(on_board.text.starts_with("piece `r`: `(1,0)*`"));
        assert!(
            on_board.text.contains("a white `r` on `d4`"),
            "{}",
            on_board.text
        );
        // The pawn's choice is listed one alternative a line.
        let pawn = &o.hover_at(at("(p 1)", 1)).unwrap().text;
        assert!(
            pawn.contains("one of\n  - `c((1,1|^))`: a leap of (1,1) forward, only to capture"),
            "{pawn}"
        );
        assert!(
            pawn.contains("except on") || pawn.contains("only on rank 2"),
            "{pawn}"
        );
        // An operator: the reference's words.
        let star = o.hover_at(at("(1,1)*", 5)).unwrap();
        assert!(
            star.text
                .starts_with("notation `A*` (docs/finvara.md §2.1)"),
            "{}",
            star.text
        );
        assert!(star.text.contains("**the same choices**"));
        let leap = o.hover_at(at("(1,2)", 1)).unwrap();
        assert!(leap.text.contains("8 vectors"), "{}", leap.text);
        // A turn.
        let turn = o.hover_at(at("Turn 2 W", 5)).unwrap();
        assert!(
            turn.text
                .starts_with("Turn 2, White: a move (docs/finvara.md §5.1)")
        );
        assert!(turn.text.contains("promoting into `q`"));
    }

    #[test]
    fn tokens_are_sound_and_nothing_is_dropped() {
        for src in [COUNTDOWN, PIECES] {
            let built = build(src);
            let o = built.clone().finish();
            assert_eq!(built.tokens.len(), o.tokens.len(), "overlapping tokens");
            assert_tokens_sound(src, &o);
            let kind = |text: &str, skip: usize| {
                let at = src.find(text).unwrap() + skip;
                o.tokens.iter().find(|t| t.span.start == at).map(|t| t.kind)
            };
            assert_eq!(kind("# ", 0), Some(TokenKind::Comment));
            assert_eq!(kind("Turn 1 W", 0), Some(TokenKind::Keyword));
            assert_eq!(kind("Turn 1 W", 5), Some(TokenKind::Number));
            assert_eq!(kind("|kB|", 1), Some(TokenKind::Type));
            assert_eq!(kind("(k)", 1), Some(TokenKind::Definition));
        }
        let o = outline(PIECES);
        let star = PIECES.find("(1,1)*").unwrap() + 5;
        assert!(
            o.tokens
                .iter()
                .any(|t| t.span == (star..star + 1) && t.kind == TokenKind::Operator)
        );
        let bracket = PIECES.find("->[q]").unwrap();
        assert!(
            o.tokens
                .iter()
                .any(|t| t.span == (bracket..bracket + 2) && t.kind == TokenKind::Operator)
        );
        // A comment after a board row, but not the holes inside it.
        let src = "(k):\n+--+--+\n|kW|##| # a hole\n+--+--+\n";
        let o = outline(src);
        let hole = src.find("##").unwrap();
        assert!(
            o.tokens
                .iter()
                .any(|t| t.span == (hole..hole + 2) && t.kind == TokenKind::Keyword)
        );
        let comment = src.find("# a").unwrap();
        assert!(
            o.tokens
                .iter()
                .any(|t| t.span.start == comment && t.kind == TokenKind::Comment)
        );
    }

    #[test]
    fn completions_offer_the_pieces() {
        let o = outline(COUNTDOWN);
        for s in ["k", "r", "p", "a", "e", "m", "c", "n"] {
            let c = o
                .completions
                .iter()
                .find(|c| c.label == s && c.kind == CompletionKind::Type)
                .unwrap_or_else(|| panic!("{s}"));
            assert_eq!(c.detail, o.symbol(SymbolKind::Piece, s).unwrap().detail);
        }
        assert!(
            o.completions
                .iter()
                .any(|c| c.label == "c(" && c.kind == CompletionKind::Keyword)
        );
        assert!(
            o.completions
                .iter()
                .any(|c| c.label == "9" && c.kind == CompletionKind::Reference)
        );
    }

    #[test]
    fn broken_text_never_panics() {
        // Every prefix and every line cut of the examples, and a few
        // mangled notations: the outline keeps its promises.
        for src in [COUNTDOWN, PIECES] {
            let mut cuts: Vec<usize> = (0..src.len()).step_by(7).collect();
            cuts.push(src.len());
            for cut in cuts.into_iter().filter(|&c| src.is_char_boundary(c)) {
                let o = outline(&src[..cut]);
                assert_tokens_sound(&src[..cut], &o);
            }
            let mangled = src.replace(')', "").replace("->", "-").replace('|', "é");
            assert_tokens_sound(&mangled, &outline(&mangled));
        }
        for src in [
            "(r 5): (1,0\n(k):\n+--+\n|rW|\n+--+\nTurn 1 W: r a1 -> a1\n",
            "(q): [ {(1,0) ,\"r\" } * ]`  r ! ( (2,0) , [ -2 , 3 ] ) - > [ a , b ]\n|qW|\n",
            "\u{feff}(a x): c ( m ( (1,1|<) ) )\n|aB|zW|\nTurn 1 B: a a1 checks turn 7\n",
            "|##|",
            "Turn",
            "(",
        ] {
            let o = outline(src);
            assert_tokens_sound(src, &o);
            assert_eq!(build(src).tokens.len(), o.tokens.len(), "{src}");
        }
        // The broken definition still defines r.
        let o = outline("(r 5): (1,0\n(k):\n+--+\n|rW|\n+--+\n");
        assert!(o.symbol(SymbolKind::Piece, "r").is_some());
        assert!(o.hover_at(1).unwrap().text.contains("does not parse"));
    }

    #[test]
    fn deep_notations_are_walked_without_recursion() {
        let depth = 100_000;
        let src = format!(
            "(a 0): {}(1,0){}\n|aW|\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let o = outline(&src);
        assert_tokens_sound(&src, &o);
        assert!(
            o.tokens
                .iter()
                .filter(|t| t.kind == TokenKind::Operator)
                .count()
                >= 2 * depth
        );
        let help = &o.hover_at(1).unwrap().text;
        assert!(help.len() < 4_000, "{}", help.len());
    }
}
