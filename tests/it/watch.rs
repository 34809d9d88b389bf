//! Recorded runs (`Program::record`, `common::watch`), the board view's
//! data: for every InfChessPro and Finvara example and test program,
//!
//! - the recording's trace lines are `icp2c run --trace`'s, its output and
//!   outcome those of `icp2c run --max-steps N`;
//! - its changes chain: each change's `before` is what the board replayed
//!   so far holds, so a view can step forwards and backwards;
//! - (InfChessPro, runs of fewer than 5,000 steps) the board replayed after
//!   every step is the board `--trace --board` draws after it;
//!
//! and the positions of `examples/multiply.icp` are the expected ones.

use icp2c::Outcome;
use icp2c::common::watch::{Content, Recording, Shape, Side, Step};
use icp2c::driver::{self, Language, Program};
use icp2c::lang::RunOptions;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The steps a test records at most.
const BUDGET: u64 = 200_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn program(language: Language, path: &Path) -> Program {
    let source = std::fs::read_to_string(path).unwrap();
    driver::check(language, &source)
        .unwrap_or_else(|e| panic!("{} rejected: {e:?}", path.display()))
        .program
}

/// The programs to record: every example and test program of a
/// language, with the input beside it (`.in`) if any (also `debug.rs`'s).
pub(crate) fn programs(ext: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let folder = if ext == "fin" { "finvara" } else { ext };
    for dir in ["examples", &format!("tests/programs/{folder}")] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.extension().and_then(|e| e.to_str()) != Some(ext) {
                continue;
            }
            let input = if ext == "icp" {
                std::fs::read(path.with_extension("in")).unwrap_or_default()
            } else {
                std::fs::read(path.with_extension("fin.in"))
                    .or_else(|_| std::fs::read(path.with_extension("in")))
                    .unwrap_or_else(|_| b"3 4\n".to_vec())
            };
            out.push((path, input));
        }
    }
    assert!(out.len() > 3, "no {ext} programs found");
    out
}

/// The board replayed: each change's `before` must be what the board holds.
fn replay(board: &mut BTreeMap<(i64, i64), Content>, step: &Step, forwards: bool, what: &str) {
    for change in &step.changes {
        let (was, now) = if forwards {
            (&change.before, &change.after)
        } else {
            (&change.after, &change.before)
        };
        let here = board
            .get(&(change.row, change.col))
            .cloned()
            .unwrap_or(Content::Empty);
        assert_eq!(&here, was, "{what}: ({},{})", change.row, change.col);
        if *now == Content::Empty {
            board.remove(&(change.row, change.col));
        } else {
            board.insert((change.row, change.col), now.clone());
        }
    }
}

fn start(recording: &Recording) -> BTreeMap<(i64, i64), Content> {
    recording
        .start
        .iter()
        .map(|(r, c, content)| ((*r, *c), content.clone()))
        .collect()
}

fn check_language(language: Language, ext: &str) {
    for (path, input) in programs(ext) {
        let what = path.display().to_string();
        let program = program(language, &path);
        let options = RunOptions {
            max_steps: Some(BUDGET),
            trace: true,
            ..RunOptions::default()
        };
        let recording = program
            .record(&mut input.as_slice(), &options)
            .expect("a recording");
        let (mut out, mut trace) = (Vec::new(), Vec::new());
        let outcome = program
            .run_with(&mut input.as_slice(), &mut out, &mut trace, &options)
            .unwrap();
        assert_eq!(recording.outcome, outcome, "{what}");
        assert_eq!(recording.output, out, "{what}");
        let lines: String = recording
            .steps
            .iter()
            .map(|s| &s.trace)
            .chain(&recording.end)
            .map(|line| format!("{line}\n"))
            .collect();
        assert_eq!(lines, String::from_utf8_lossy(&trace), "{what}");
        let mut board = start(&recording);
        let mut written = 0;
        for step in &recording.steps {
            replay(&mut board, step, true, &what);
            assert!(step.output >= written && step.output <= out.len(), "{what}");
            written = step.output;
            assert!(step.line >= 1, "{what}");
        }
        for step in recording.steps.iter().rev() {
            replay(&mut board, step, false, &what);
        }
        assert_eq!(board, start(&recording), "{what}: back to the start");
    }
}

/// The pieces of an InfChessPro `--board` picture (letters): the drawn
/// window's glyphs and the listed pieces, as sorted (row, col, glyph).
fn pictured(picture: &[&str]) -> Vec<(i64, i64, char)> {
    let mut out = Vec::new();
    let head = picture[0];
    let cols = head
        .split("cols ")
        .nth(1)
        .and_then(|t| t.trim_end_matches("):").split_once(".."))
        .map(|(a, _)| a.parse::<i64>().unwrap());
    for line in &picture[1..] {
        let line = line.trim_start();
        if line == "elsewhere:" {
            continue;
        }
        if let (Some(c0), Some((row, cells))) = (cols, line.split_once(" | ")) {
            let row: i64 = row.trim().parse().unwrap();
            for (i, g) in cells.split(' ').enumerate() {
                if g != "." {
                    out.push((row, c0 + i as i64, g.chars().next().unwrap()));
                }
            }
        } else {
            // `name G (r,c)`
            let (rest, square) = line.rsplit_once(" (").unwrap();
            let glyph = rest.chars().last().unwrap();
            let (r, c) = square.trim_end_matches(')').split_once(',').unwrap();
            out.push((r.parse().unwrap(), c.parse().unwrap(), glyph));
        }
    }
    out.sort_unstable();
    out
}

/// The board replayed, as (row, col, glyph) like [`pictured`].
fn glyphs(board: &BTreeMap<(i64, i64), Content>) -> Vec<(i64, i64, char)> {
    board
        .iter()
        .filter_map(|(&(r, c), content)| match content {
            Content::Piece(p) if p.side == Side::White => {
                Some((r, c, p.symbol.to_ascii_uppercase()))
            }
            Content::Piece(p) => Some((r, c, p.symbol)),
            _ => None,
        })
        .collect()
}

/// Most steps a program may have for its every board to be compared with
/// `--trace --board`'s pictures (drawn after every step).
const PICTURED: usize = 5_000;

#[test]
fn infchesspro_boards_replayed_are_the_boards_icp2c_draws() {
    let mut programs = programs("icp");
    programs.push((root().join("examples/multiply.icp"), b"2 3\n".to_vec()));
    let mut compared = 0;
    for (path, input) in programs {
        let what = path.display().to_string();
        let program = program(Language::InfChessPro, &path);
        let options = RunOptions {
            max_steps: Some(PICTURED as u64),
            trace: true,
            board: true,
            ..RunOptions::default()
        };
        let recording = program.record(&mut input.as_slice(), &options).unwrap();
        if recording.steps.len() >= PICTURED {
            continue;
        }
        let mut err = Vec::new();
        program
            .run_with(&mut input.as_slice(), &mut Vec::new(), &mut err, &options)
            .unwrap();
        let err = String::from_utf8(err).unwrap();
        let lines: Vec<&str> = err.lines().collect();
        let mut at = 0;
        let mut board = start(&recording);
        for (i, step) in recording.steps.iter().enumerate() {
            assert_eq!(lines[at], step.trace, "{what}: step {i}");
            // The picture runs to the next step's line.
            let next = recording.steps.get(i + 1).map(|s| s.trace.as_str());
            let end = lines[at + 1..]
                .iter()
                .position(|l| Some(*l) == next)
                .map_or(lines.len(), |k| at + 1 + k);
            replay(&mut board, step, true, &what);
            assert_eq!(
                glyphs(&board),
                pictured(&lines[at + 1..end]),
                "{what}: after step {i} ({})",
                step.trace
            );
            at = end;
        }
        compared += 1;
    }
    assert!(compared > 10, "only {compared} programs compared");
}

#[test]
fn infchesspro_recordings_are_the_traced_runs_and_replay_both_ways() {
    check_language(Language::InfChessPro, "icp");
}

#[test]
fn finvara_recordings_are_the_traced_runs_and_replay_both_ways() {
    check_language(Language::Finvara, "fin");
}

#[test]
fn cheg_has_no_board_to_record() {
    let program = program(Language::Cheg, &root().join("examples/kpk.cheg"));
    assert!(
        program
            .record(&mut &b""[..], &RunOptions::default())
            .is_none()
    );
}

/// Where each named piece of `examples/multiply.icp` stands after `steps`
/// steps, replayed from the recording.
fn pieces_after(recording: &Recording, steps: usize) -> Vec<(String, char, i64, i64)> {
    let mut board = start(recording);
    for step in &recording.steps[..steps] {
        replay(&mut board, step, true, "multiply");
    }
    board
        .into_iter()
        .filter_map(|((r, c), content)| match content {
            Content::Piece(p) => {
                let symbol = match p.side {
                    Side::White => p.symbol.to_ascii_uppercase(),
                    Side::Black => p.symbol,
                };
                Some((p.name, symbol, r, c))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn multiply_moves_its_registers_and_stacks_its_pawns() {
    let program = program(Language::InfChessPro, &root().join("examples/multiply.icp"));
    let options = RunOptions {
        max_steps: Some(BUDGET),
        ..RunOptions::default()
    };
    let recording = program.record(&mut &b"6 7\n"[..], &options).unwrap();
    assert_eq!(recording.outcome, Outcome::Halted);
    assert_eq!(recording.output, b"42\n");
    assert_eq!(recording.shape, Shape::Unbounded);
    assert!(recording.start.is_empty());
    let s = |name: &str, symbol: char, r: i64, c: i64| (name.to_string(), symbol, r, c);
    // 1-7: three walls, the lid, a = 6 on row 0, b = 7 on row 1, t on row 2.
    assert_eq!(recording.steps[4].line, 13);
    assert_eq!(
        pieces_after(&recording, 7),
        vec![
            s("wall", 'P', 0, -1),
            s("a", 'R', 0, 6),
            s("wall", 'P', 1, -1),
            s("b", 'R', 1, 7),
            s("wall", 'P', 2, -1),
            s("t", 'R', 2, 0),
            s("lid", 'K', 1000, 1000000),
        ]
    );
    // 10-13: a steps down, b down, t up, and a pawn appears under the column.
    let after = pieces_after(&recording, 11);
    assert!(after.contains(&s("a", 'R', 0, 5)), "{after:?}");
    assert!(after.contains(&s("b", 'R', 1, 6)), "{after:?}");
    assert!(after.contains(&s("t", 'R', 2, 1)), "{after:?}");
    assert!(after.contains(&s("out", 'P', 0, 1000000)), "{after:?}");
    // At the end: 42 pawns stacked under the lid, a = 0, b = 7, t = 0.
    let end = pieces_after(&recording, recording.steps.len());
    let pawns: Vec<i64> = end.iter().filter(|p| p.0 == "out").map(|p| p.2).collect();
    assert_eq!(pawns, (958..1000).collect::<Vec<_>>());
    assert!(end.contains(&s("a", 'R', 0, 0)), "{end:?}");
    assert!(end.contains(&s("b", 'R', 1, 7)), "{end:?}");
}

#[test]
fn finvara_recordings_show_holes_and_stacks() {
    let program = program(Language::Finvara, &root().join("examples/add.fin"));
    let recording = program
        .record(&mut &b"40 2\n"[..], &RunOptions::default())
        .unwrap();
    assert_eq!(recording.output, b"42\n");
    assert_eq!(
        recording.shape,
        Shape::Grid {
            width: 5,
            height: 4
        }
    );
    let holes = recording
        .start
        .iter()
        .filter(|(_, _, c)| *c == Content::Hole)
        .count();
    assert_eq!(holes, 4);
    // The first reader falls into a1's hole and pushes 40.
    let first = &recording.steps[0];
    assert_eq!(first.stacks.as_ref().unwrap()[0].top, vec![40]);
    assert_eq!(first.stacks.as_ref().unwrap()[0].depth, 1);
    // The trace's closing line: how the game ended.
    let end = recording.end.as_deref().unwrap_or_default();
    assert!(end.starts_with("end: "), "{end:?}");
    assert!(
        first
            .changes
            .iter()
            .any(|c| (c.row, c.col) == (2, 1) && c.after == Content::Empty)
    );
}
