//! Checks that need the whole program (§2 symbols, §3 board, §5 moves) and
//! builds the IR, calling `lower` for every notation.

use super::ast::*;
use super::ir::{self, Action, Colour, Program, Value};
use super::lower;
use super::runtime::board as fin_board;
use crate::common::diagnostic::Diagnostic;

/// Most units a program's notations may copy (§2.1, `"s"`): a reference
/// inside the body of a `*` is a copy of the referenced notation (each
/// copy repeats the vectors of its own first repetition), so references
/// chained inside a `*` can multiply; everywhere else a reference is
/// shared, not copied, and costs one unit.
pub const MAX_COPIED_UNITS: u64 = 1_000_000;
/// Largest board, in cells.
pub const MAX_CELLS: u64 = 1 << 22;

/// Checks `file` and builds the program. Returns (program if no error,
/// errors, warnings).
pub fn validate(file: &SourceFile) -> (Option<Program>, Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();

    // §2: each symbol is defined once; kinds are numbered in order. A
    // definition line that failed to parse still defines its symbol.
    let mut kinds: Vec<&Definition> = Vec::new();
    let mut index_of: [Option<usize>; 26] = [None; 26];
    let mut first_at: [Option<Span>; 26] = Default::default();
    let mut all: Vec<(char, Span, Option<&Definition>)> = file
        .definitions
        .iter()
        .map(|d| (d.symbol, d.symbol_span.clone(), Some(d)))
        .chain(
            file.broken_symbols
                .iter()
                .map(|(c, s)| (*c, s.clone(), None)),
        )
        .collect();
    all.sort_by_key(|(_, span, _)| span.start);
    for (symbol, span, def) in all {
        let slot = (symbol as u8 - b'a') as usize;
        if let Some(first) = &first_at[slot] {
            errors.push(
                Diagnostic::error(span, format!("kind {symbol} is defined twice"))
                    .with_label("second definition")
                    .with_secondary(first.clone(), "first defined here")
                    .with_note("each symbol is defined once (§2)"),
            );
            continue;
        }
        first_at[slot] = Some(span);
        if let Some(d) = def {
            index_of[slot] = Some(kinds.len());
            kinds.push(d);
        }
    }
    let lookup = |s: char| index_of[(s as u8 - b'a') as usize];
    // Symbols whose definition line was broken were reported already.
    let broken: Vec<char> = file.broken_symbols.iter().map(|(c, _)| *c).collect();
    let reported = |s: char| broken.contains(&s) && lookup(s).is_none();
    let no_board = file.board.is_none();

    // §2.1: references inside notations, and what they copy.
    let mut copied_total = 0u64;
    // Per kind: its units with every reference that is copied counted as
    // the referenced notation (what a copy of it inside a `*` costs).
    let mut full: Vec<u64> = Vec::new();
    for (k, d) in kinds.iter().enumerate() {
        let mut ok = true;
        check_nodes(
            &d.notation,
            k,
            &lookup,
            &broken,
            &mut ok,
            &mut errors,
            &mut warnings,
        );
        let units = d.notation.nodes.len() as u64;
        let (own, whole) = if ok {
            (
                expanded_units(&d.notation, false, &lookup, &full),
                expanded_units(&d.notation, true, &lookup, &full),
            )
        } else {
            (units, units)
        };
        full.push(whole);
        let before = copied_total;
        copied_total = copied_total.saturating_add(own - units);
        if before <= MAX_COPIED_UNITS && copied_total > MAX_COPIED_UNITS {
            errors.push(
                Diagnostic::error(d.symbol_span.clone(), format!(
                    "the notations copy too much: {copied_total} units copied by the kinds up to {}, at most {MAX_COPIED_UNITS}",
                    d.symbol
                ))
                .with_label("this kind passes the limit")
                .with_note("inside the body of a `*`, each `\"s\"` is a copy of s's whole notation (every copy repeats the vectors of its own first round); outside one it is shared (§2.1; docs/finvara.md, Limits)"),
            );
        }
    }

    // §3: the board.
    let mut width = 0usize;
    let mut height = 0usize;
    let mut cells = Vec::new();
    if let Some(board) = &file.board {
        height = board.rows.len();
        width = board.rows[0].cells.len();
        let mut ragged = false;
        for row in &board.rows[1..] {
            if row.cells.len() != width {
                ragged = true;
                errors.push(
                    Diagnostic::error(
                        row.span.clone(),
                        "every board row has the same number of cells (§3)",
                    )
                    .with_label(format!(
                        "this row has {}, the first row has {}",
                        row.cells.len(),
                        width
                    ))
                    .with_secondary(
                        board.rows[0].span.clone(),
                        format!("first row: {width} cells"),
                    ),
                );
            }
        }
        for rule in &board.rules {
            // A ragged board is one error, not one per line.
            if rule.columns != width && !ragged {
                errors.push(
                    Diagnostic::error(
                        rule.span.clone(),
                        "every board rule is as wide as the board (§3)",
                    )
                    .with_label(format!(
                        "this rule draws {} columns, the board has {}",
                        rule.columns, width
                    )),
                );
            }
        }
        if (width as u64).saturating_mul(height as u64) > MAX_CELLS {
            errors.push(
                Diagnostic::error(
                    board.span.start..board.span.start + 1,
                    format!(
                        "the board has {} cells, at most {} are supported",
                        (width as u64).saturating_mul(height as u64),
                        MAX_CELLS
                    ),
                )
                .with_label("board too large"),
            );
            width = 0;
            height = 0;
        }
        cells = vec![fin_board::EMPTY; width * height];
        // Drawn top row first; row 1 (`a`) is the bottom one.
        for (drawn, row) in board.rows.iter().enumerate() {
            for (c, cell) in row.cells.iter().enumerate() {
                let value = match cell {
                    Cell::Empty => fin_board::EMPTY,
                    Cell::Hole => fin_board::HOLE,
                    Cell::Piece {
                        symbol,
                        colour,
                        span,
                    } => match lookup(*symbol) {
                        Some(k) => fin_board::piece(k as i32, colour.index() as i32),
                        None if reported(*symbol) => fin_board::EMPTY,
                        None => {
                            errors.push(
                                Diagnostic::error(
                                    span.clone(),
                                    format!("no kind {symbol} is defined"),
                                )
                                .with_label("unknown piece")
                                .with_note("every piece on the board is of a defined kind (§3)"),
                            );
                            fin_board::EMPTY
                        }
                    },
                };
                if c < width && height > 0 {
                    let r = height - 1 - drawn;
                    cells[r * width + c] = value;
                }
            }
        }
        for colour in [Colour::White, Colour::Black] {
            let has_royal = cells.iter().any(|&cell| {
                cell > 0
                    && ((cell - 1) % 2) as usize == colour.index()
                    && kinds[((cell - 1) / 2) as usize].value.is_none()
            });
            if !has_royal && errors.is_empty() {
                warnings.push(
                    Diagnostic::warning(board.span.start..board.span.start + 1, format!(
                        "{} has no royal piece on the board: the program ends before its first move (§5.4)",
                        if colour == Colour::White { "white" } else { "black" }
                    ))
                    .with_label("this board")
                    .with_note("a kind defined without a value, like `(k): …`, is royal (§2)"),
                );
            }
        }
    }

    // §5: moves.
    let square = |sq: &Square, errors: &mut Vec<Diagnostic>| -> Option<usize> {
        if sq.row >= 1 && sq.row <= height as u64 && sq.col >= 1 && sq.col <= width as u64 {
            Some((sq.row as usize - 1) * width + (sq.col as usize - 1))
        } else if no_board {
            // The missing board was reported.
            None
        } else {
            let extent = if width > 0 {
                format!(
                    "the board has rows a–{} and columns 1–{}",
                    ir::row_letters(height),
                    width
                )
            } else {
                "there is no board".to_string()
            };
            errors.push(
                Diagnostic::error(sq.span.clone(), format!("{} is off the board", sq.text))
                    .with_label(extent)
                    .with_note("squares are named by row letters (a at the bottom) and column number (1 at the left) (§3)"),
            );
            None
        }
    };
    let kind = |sym: &(char, Span), errors: &mut Vec<Diagnostic>| -> Option<usize> {
        let k = lookup(sym.0);
        if k.is_none() && !reported(sym.0) {
            errors.push(
                Diagnostic::error(sym.1.clone(), format!("no kind {} is defined", sym.0))
                    .with_label("unknown kind")
                    .with_note("kinds are defined before the board (§2)"),
            );
        }
        k
    };

    // Turn order: 1 W, 1 B, 2 W, 2 B, …; the last turn may lack its B move.
    let mut order_ok = true;
    for (i, m) in file.moves.iter().enumerate() {
        let want_turn = (i / 2 + 1) as u64;
        let want_colour = if i % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        if m.turn != want_turn || m.colour != want_colour {
            errors.push(
                Diagnostic::error(
                    m.turn_span.start..m.span.end.min(m.turn_span.end + 3),
                    format!("Turn {} {} expected", want_turn, want_colour.letter()),
                )
                .with_label(format!("found Turn {} {}", m.turn, m.colour.letter()))
                .with_note(
                    "turns are numbered 1, 2, 3, … and each lists its W move, then its B move (§5)",
                ),
            );
            order_ok = false;
            break;
        }
    }

    let mut moves = Vec::new();
    for m in &file.moves {
        let action = match &m.body {
            MoveBody::Step {
                symbol,
                from,
                to,
                promote,
            } => {
                let k = kind(symbol, &mut errors);
                let f = square(from, &mut errors);
                let t = square(to, &mut errors);
                let p = match promote {
                    Some(p) => kind(p, &mut errors).map(Some),
                    None => Some(None),
                };
                match (k, f, t, p) {
                    (Some(kind), Some(from), Some(to), Some(promote)) => Some(Action::Step {
                        kind,
                        from,
                        to,
                        promote,
                    }),
                    _ => None,
                }
            }
            MoveBody::Place {
                symbol,
                square: sq,
                target,
                target_span,
            } => {
                let k = kind(symbol, &mut errors);
                let s = square(sq, &mut errors);
                let index = target
                    .checked_sub(1)
                    .and_then(|t| t.checked_mul(2))
                    .and_then(|t| t.checked_add(m.colour.index() as u64));
                let exists = index.and_then(|i| {
                    let i = usize::try_from(i).ok()?;
                    let mv = file.moves.get(i)?;
                    (order_ok || (mv.turn == *target && mv.colour == m.colour)).then_some(i)
                });
                let exists = exists.or_else(|| {
                    if order_ok {
                        None
                    } else {
                        file.moves
                            .iter()
                            .position(|mv| mv.turn == *target && mv.colour == m.colour)
                    }
                });
                if exists.is_none() {
                    errors.push(
                        Diagnostic::error(target_span.clone(), format!("there is no Turn {} {}", target, m.colour.letter()))
                            .with_label("missing jump target")
                            .with_note("execution continues at turn m's move of the same colour, which must exist (§5.3)"),
                    );
                }
                match (k, s, exists) {
                    (Some(kind), Some(square), Some(target)) => Some(Action::Place {
                        kind,
                        square,
                        target,
                    }),
                    _ => None,
                }
            }
        };
        if let Some(action) = action {
            moves.push(ir::Move {
                turn: m.turn,
                colour: m.colour,
                line: m.line,
                text: m.text.clone(),
                action,
            });
        }
    }

    if !errors.is_empty() || file.board.is_none() {
        return (None, errors, warnings);
    }

    let notations: Vec<(char, &Notation)> = kinds.iter().map(|d| (d.symbol, &d.notation)).collect();
    let mut ir_kinds: Vec<ir::Kind> = Vec::with_capacity(kinds.len());
    for (k, d) in kinds.iter().enumerate() {
        // A kind's registers come after those of every kind it refers to
        // (lower.rs), which come after those of the kinds they refer to.
        let referenced: Vec<usize> = d
            .notation
            .nodes
            .iter()
            .filter_map(|node| match node {
                Node::Like(s, _) => lookup(*s),
                _ => None,
            })
            .collect();
        let code = [Colour::White, Colour::Black].map(|colour| {
            let c = colour.index();
            let first = referenced
                .iter()
                .map(|&r| ir_kinds[r].code[c][0])
                .max()
                .unwrap_or(0);
            lower::lower(&notations, k, colour, width, height, first)
        });
        ir_kinds.push(ir::Kind {
            symbol: d.symbol,
            value: d.value.map(|v| match v {
                ValueAst::Int(i) => Value::Int(i),
                ValueAst::X => Value::X,
                ValueAst::Y => Value::Y,
            }),
            notation: d.notation_text.clone(),
            code,
        });
    }
    let program = Program {
        width,
        height,
        cells,
        kinds: ir_kinds,
        moves,
    };
    (Some(program), errors, warnings)
}

/// Checks every unit of a notation: `"s"` must name a kind defined on an
/// earlier line, `->[s]` a defined kind (§2.1). `ok` is cleared when a
/// reference or promotion is wrong. One pass over the units' list, so
/// nesting costs no stack.
#[allow(clippy::too_many_arguments)]
fn check_nodes(
    notation: &Notation,
    this: usize,
    lookup: &dyn Fn(char) -> Option<usize>,
    broken: &[char],
    ok: &mut bool,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    for node in &notation.nodes {
        match node {
            Node::Rank { lo, hi, span, .. } if *lo == 0 && *hi == 0 => {
                warnings.push(
                    Diagnostic::warning(span.clone(), "rank 0 is on no board: this `r` never applies")
                        .with_label("rank 0")
                        .with_note("ranks count from 1 on the player's side, -1 is the opponent's first rank (§2.1)"),
                );
            }
            Node::PromoteTo(list) => {
                for (s, span) in list {
                    if lookup(*s).is_none() && broken.contains(s) {
                        *ok = false;
                    } else if lookup(*s).is_none() {
                        *ok = false;
                        errors.push(
                            Diagnostic::error(span.clone(), format!("no kind {s} is defined"))
                                .with_label("promotion into an unknown kind")
                                .with_note(
                                    "`->[s,t]` promotes into one of the listed kinds (§2.1)",
                                ),
                        );
                    }
                }
            }
            Node::Like(s, _) if lookup(*s).is_none() && broken.contains(s) => *ok = false,
            Node::Like(s, span) => match lookup(*s) {
                Some(k) if k < this => {}
                Some(_) => {
                    *ok = false;
                    errors.push(
                        Diagnostic::error(span.clone(), format!("kind {s} is not defined before this line"))
                            .with_label("defined later (or on this line)")
                            .with_note("`\"s\"` stands for the notation of kind s, which must be defined on an earlier line (§2.1)"),
                    );
                }
                None => {
                    *ok = false;
                    errors.push(
                        Diagnostic::error(span.clone(), format!("no kind {s} is defined"))
                            .with_label("unknown kind")
                            .with_note("`\"s\"` stands for the notation of kind s, which must be defined on an earlier line (§2.1)"),
                    );
                }
            },
            _ => {}
        }
    }
}

/// The units a notation lowers to (lower.rs): each of its own, plus, for
/// each reference that is copied, `full` of the kind it names. A reference
/// is copied inside the body of a `*` (not inside a nearer `` ` ``), and
/// everywhere when `fixed` (the notation itself is a copy inside a `*`).
/// `full[k]`: the units of kind k's notation when `fixed`. Walks with an
/// explicit stack; saturating.
fn expanded_units(
    notation: &Notation,
    fixed: bool,
    lookup: &dyn Fn(char) -> Option<usize>,
    full: &[u64],
) -> u64 {
    let mut units = 0u64;
    let mut pending: Vec<(NodeId, bool)> = notation.top.iter().map(|&id| (id, fixed)).collect();
    while let Some((id, fixed)) = pending.pop() {
        units = units.saturating_add(1);
        match &notation.nodes[id] {
            Node::Like(s, _) if fixed => {
                let copy = lookup(*s).and_then(|k| full.get(k)).copied().unwrap_or(0);
                units = units.saturating_add(copy);
            }
            Node::Repeat { body, fixed: star } => pending.push((*body, *star)),
            node => pending.extend(node.parts().into_iter().map(|part| (part, fixed))),
        }
    }
    units
}
