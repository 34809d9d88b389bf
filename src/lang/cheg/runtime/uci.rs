//! The engine's command line and the UCI protocol (`spec/cheg.md` §7.4).
//!
//! Std only, no unsafe, never panics. Embedded verbatim into generated Rust
//! beside `chess` and `engine`.
//!
//! Decisions where §7.4 is silent:
//! - Command line: each option at most once; `--depth` and `--perft` take
//!   decimal integers (`--depth` 1–20, §11.28; `--perft` 0–64); an unknown
//!   or repeated option, a missing value or a query without `--fen` is a
//!   usage error (message on standard error, exit 2). `--perft` ignores
//!   `--depth` and `--no-endgame`.
//! - UCI: an empty line is ignored; `stop`, `ponderhit` and `debug` are
//!   accepted and do nothing (the search is synchronous); `ucinewgame` resets
//!   the position to the start position (options are kept). `go depth N`
//!   and `setoption name Depth` outside 1–20, and `go perft N` outside 0–64,
//!   are errors. A runtime error of the endgame program during `go` (§9)
//!   prints `info string error: LINE: MESSAGE (fen FEN)`, writes the same
//!   §9 line to standard error, and answers `bestmove 0000` so that a GUI
//!   waiting for a move is not left hanging; the loop goes on.
//! - `go` with no legal move prints `info depth N score mate M nodes 1` (or
//!   `score cp 0` for stalemate) without `pv`, then `bestmove 0000`.

// Generated Rust embeds this file and builds with edition 2021: no let
// chains, so nested `if let`s stay nested.
#![allow(clippy::collapsible_if)]

use super::chess::Position;
use super::engine::Endgame;
use std::io::{BufRead, Write};

/// The default search depth (§7.3).
pub const DEFAULT_DEPTH: u32 = 4;

/// Deepest `--perft`/`go perft` accepted.
const MAX_PERFT: u32 = 64;

/// The error for a perft depth out of range: `what` and the range.
fn perft_range(what: &str) -> String {
    format!("{what}: expected 0 to {MAX_PERFT}")
}

/// The usage line printed with command-line errors.
const USAGE: &str =
    "usage: ENGINE [--fen FEN [--depth N] [--no-endgame] [--perft N]]  (no arguments: UCI)";

/// The engine's `main`: `args` without the program name. `--fen FEN
/// [--depth N] [--no-endgame] [--perft N]` answers one query; no arguments
/// speaks UCI on `input`/`output`. Returns the exit status: 0, 1 (runtime
/// error §9), 2 (bad FEN or usage).
pub fn main(
    args: &[String],
    program: &dyn Endgame,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    errors: &mut dyn Write,
) -> i32 {
    if args.is_empty() {
        uci_loop(program, input, output, errors);
        return 0;
    }
    let query = match parse_args(args) {
        Ok(query) => query,
        Err(message) => {
            let _ = writeln!(errors, "error: {}", printable(&message));
            let _ = writeln!(errors, "{USAGE}");
            let _ = errors.flush();
            return 2;
        }
    };
    let position = match Position::from_fen(&query.fen) {
        Ok(position) => position,
        Err(message) => {
            let _ = writeln!(errors, "error: {message}");
            let _ = errors.flush();
            return 2;
        }
    };
    if let Some(depth) = query.perft {
        let _ = writeln!(output, "{}", position.perft(depth));
        let _ = output.flush();
        return 0;
    }
    let endgame = if query.endgame { Some(program) } else { None };
    match search(&position, query.depth, endgame, errors) {
        Ok(answer) => {
            let best = answer.best.unwrap_or_else(|| "0000".to_string());
            let _ = writeln!(output, "bestmove {best} score {}", answer.score);
            let _ = output.flush();
            0
        }
        Err(error) => {
            let _ = writeln!(errors, "{error}");
            let _ = errors.flush();
            1
        }
    }
}

/// One `--fen` query.
struct Query {
    fen: String,
    depth: u32,
    endgame: bool,
    perft: Option<u32>,
}

fn parse_args(args: &[String]) -> Result<Query, String> {
    let mut fen: Option<String> = None;
    let mut depth: Option<u32> = None;
    let mut perft: Option<u32> = None;
    let mut no_endgame = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        i += 1;
        match arg.as_str() {
            "--fen" | "--depth" | "--perft" => {
                let value = args.get(i).ok_or_else(|| format!("{arg} needs a value"))?;
                i += 1;
                match arg.as_str() {
                    "--fen" => {
                        if fen.replace(value.clone()).is_some() {
                            return Err("--fen given twice".to_string());
                        }
                    }
                    "--depth" => {
                        let n = parse_number(value, 1, 20)
                            .ok_or_else(|| format!("--depth {value}: expected 1 to 20"))?;
                        if depth.replace(n).is_some() {
                            return Err("--depth given twice".to_string());
                        }
                    }
                    _ => {
                        let Some(n) = parse_number(value, 0, MAX_PERFT) else {
                            return Err(perft_range(&format!("--perft {value}")));
                        };
                        if perft.replace(n).is_some() {
                            return Err("--perft given twice".to_string());
                        }
                    }
                }
            }
            "--no-endgame" => {
                if no_endgame {
                    return Err("--no-endgame given twice".to_string());
                }
                no_endgame = true;
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    let fen = fen.ok_or_else(|| "--fen FEN is required".to_string())?;
    Ok(Query {
        fen,
        depth: depth.unwrap_or(DEFAULT_DEPTH),
        endgame: !no_endgame,
        perft,
    })
}

/// A decimal integer in `min..=max`.
fn parse_number(text: &str, min: u32, max: u32) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = text.parse().ok()?;
    if (min..=max).contains(&n) {
        Some(n)
    } else {
        None
    }
}

/// A search's answer, in the form the two front ends print.
struct Answer {
    /// The best move in UCI form, `None` with no legal move.
    best: Option<String>,
    /// The value (§6.2), widened so that any engine score type fits.
    score: i128,
    nodes: u64,
}

/// Runs the search (§7.3). A position with no legal move is answered here:
/// the checkmate value at DEPTH 1, −28671, or 0 for stalemate (§6.2,
/// §11.17); the program is not consulted there (§6.1).
fn search(
    position: &Position,
    depth: u32,
    program: Option<&dyn Endgame>,
    errors: &mut dyn Write,
) -> Result<Answer, super::engine::RuntimeError> {
    if position.count_legal() == 0 {
        let score = if position.in_check() { -28671 } else { 0 };
        return Ok(Answer {
            best: None,
            score,
            nodes: 1,
        });
    }
    let result = super::engine::search_root(position, depth, program, errors)?;
    Ok(Answer {
        best: result.best.map(|m| m.to_uci()),
        score: i128::from(result.score),
        nodes: result.nodes,
    })
}

/// The UCI score of a value (§11.20): `cp C` with C = VALUE × 100 / 128
/// truncated, or `mate M` when |VALUE| > 28416, M = (28672 − |VALUE|) / 2
/// rounded up, negative when losing. Values beyond ±28672 are not mates
/// (only the uncertain branch of the `VALRET` conversion reaches them, §6.2,
/// §11.11); they are printed as `cp` so that M never comes out negative for
/// a winning value.
pub fn uci_score(value: i64) -> String {
    score_text(i128::from(value))
}

fn score_text(value: i128) -> String {
    let magnitude = value.abs();
    if magnitude > 28416 && magnitude <= 28672 {
        let plies = 28672 - magnitude;
        let moves = (plies + 1).div_euclid(2);
        let moves = if value < 0 { -moves } else { moves };
        format!("mate {moves}")
    } else {
        format!("cp {}", value * 100 / 128)
    }
}

/// The UCI session's state.
struct Session {
    position: Position,
    depth: u32,
    endgame: bool,
}

fn uci_loop(
    program: &dyn Endgame,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    errors: &mut dyn Write,
) {
    let mut session = Session {
        position: Position::start(),
        depth: DEFAULT_DEPTH,
        endgame: true,
    };
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let words: Vec<&str> = text.split_whitespace().collect();
        let quit = command(&mut session, &words, program, output, errors);
        let _ = output.flush();
        if quit {
            break;
        }
    }
    let _ = output.flush();
}

/// Handles one UCI line; returns true on `quit`.
fn command(
    session: &mut Session,
    words: &[&str],
    program: &dyn Endgame,
    output: &mut dyn Write,
    errors: &mut dyn Write,
) -> bool {
    let Some((&name, rest)) = words.split_first() else {
        return false;
    };
    let reply = match name {
        "quit" => return true,
        "uci" => {
            let _ = write!(
                output,
                "id name icp2c CHEG engine\nid author icp2c\n\
                 option name Depth type spin default {DEFAULT_DEPTH} min 1 max 20\n\
                 option name Endgame type check default true\nuciok\n"
            );
            Ok(())
        }
        "isready" => {
            let _ = writeln!(output, "readyok");
            Ok(())
        }
        "ucinewgame" => {
            session.position = Position::start();
            Ok(())
        }
        "stop" | "ponderhit" | "debug" => Ok(()),
        "setoption" => set_option(session, rest),
        "position" => set_position(session, rest),
        "d" if rest.is_empty() => {
            let _ = write!(output, "{}", super::chess::display(&session.position));
            Ok(())
        }
        "go" => go(session, rest, program, output, errors),
        _ => Err(format!("unknown command '{}'", words.join(" "))),
    };
    if let Err(message) = reply {
        let _ = writeln!(output, "info string error: {}", printable(&message));
    }
    false
}

/// `text` with control characters shown as `?`, so an error line stays one
/// line of text.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

fn set_option(session: &mut Session, words: &[&str]) -> Result<(), String> {
    // setoption name NAME value VALUE
    let (Some(&"name"), Some(name), Some(&"value"), Some(value), None) = (
        words.first(),
        words.get(1),
        words.get(2),
        words.get(3),
        words.get(4),
    ) else {
        return Err("expected 'setoption name Depth|Endgame value VALUE'".to_string());
    };
    if name.eq_ignore_ascii_case("depth") {
        let depth = parse_number(value, 1, 20);
        session.depth = depth.ok_or_else(|| format!("Depth {value}: expected 1 to 20"))?;
        Ok(())
    } else if name.eq_ignore_ascii_case("endgame") {
        session.endgame = if value.eq_ignore_ascii_case("true") {
            true
        } else if value.eq_ignore_ascii_case("false") {
            false
        } else {
            return Err(format!("Endgame {value}: expected true or false"));
        };
        Ok(())
    } else {
        Err(format!("unknown option '{name}' (options: Depth, Endgame)"))
    }
}

fn set_position(session: &mut Session, words: &[&str]) -> Result<(), String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (
            words.get(..i).unwrap_or(&[]),
            words.get(i + 1..).unwrap_or(&[]),
        ),
        None => (words, &[][..]),
    };
    let mut position = match head.split_first() {
        Some((&"startpos", [])) => Position::start(),
        Some((&"fen", fields)) => Position::from_fen(&fields.join(" "))?,
        _ => return Err("expected 'position startpos|fen FEN [moves …]'".to_string()),
    };
    for text in moves {
        let mv = position
            .parse_move(text)
            .ok_or_else(|| format!("illegal move '{text}' in {}", position.to_fen()))?;
        position = position.play(mv);
    }
    session.position = position;
    Ok(())
}

fn go(
    session: &mut Session,
    words: &[&str],
    program: &dyn Endgame,
    output: &mut dyn Write,
    errors: &mut dyn Write,
) -> Result<(), String> {
    let mut depth = session.depth;
    let mut perft: Option<u32> = None;
    let mut i = 0;
    while let Some(word) = words.get(i) {
        i += 1;
        match *word {
            "depth" => {
                let value = words.get(i).copied().unwrap_or("");
                i += 1;
                depth = parse_number(value, 1, 20)
                    .ok_or_else(|| format!("go depth '{value}': expected 1 to 20"))?;
            }
            "perft" => {
                let value = words.get(i).copied().unwrap_or("");
                i += 1;
                let n = parse_number(value, 0, MAX_PERFT);
                perft = Some(n.ok_or_else(|| perft_range(&format!("go perft '{value}'")))?);
            }
            _ => {} // other go parameters are accepted and ignored (§7.4)
        }
    }
    let position = &session.position;
    if let Some(n) = perft {
        let mut total = 0u64;
        if n > 0 {
            for mv in position.legal_moves() {
                let count = position.play(mv).perft(n - 1);
                total = total.wrapping_add(count);
                let _ = writeln!(output, "{}: {count}", mv.to_uci());
            }
        } else {
            total = 1;
        }
        let _ = write!(output, "\nNodes searched: {total}\n");
        return Ok(());
    }
    let program = if session.endgame { Some(program) } else { None };
    match search(position, depth, program, errors) {
        Ok(answer) => {
            let score = score_text(answer.score);
            match answer.best {
                Some(best) => {
                    let _ = writeln!(
                        output,
                        "info depth {depth} score {score} nodes {} pv {best}",
                        answer.nodes
                    );
                    let _ = writeln!(output, "bestmove {best}");
                }
                None => {
                    let _ = writeln!(
                        output,
                        "info depth {depth} score {score} nodes {}",
                        answer.nodes
                    );
                    let _ = writeln!(output, "bestmove 0000");
                }
            }
            Ok(())
        }
        Err(error) => {
            let _ = writeln!(errors, "{error}");
            let _ = errors.flush();
            let _ = writeln!(output, "info string {error}");
            let _ = writeln!(output, "bestmove 0000");
            Ok(())
        }
    }
}
