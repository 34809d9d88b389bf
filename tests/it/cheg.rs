//! CHEG through the driver (`spec/cheg.md`): the examples' answers, the
//! compile-error cases, the UCI loop with a program, and unit tests of the
//! runtime's semantics (§2–§6) — the value conversion, `ENTRY` matching,
//! `PG`, `INSQ`, `SAFE`, `OPP`, the set instructions.

use crate::support;

use icp2c::driver::{self, Language, Program};
use icp2c::lang::RunOptions;
use icp2c::lang::cheg::runtime::chess::{Colour, Kind, Piece, Position};
use icp2c::lang::cheg::runtime::engine::{
    self, Binary, EntrySpec, MoveValue, Node, Test, Unary, Value, binary, convert, match_entry,
    unary,
};

fn program(name: &str) -> Program {
    let path = support::root()
        .join("examples")
        .join(format!("{name}.cheg"));
    let source = std::fs::read_to_string(&path).unwrap();
    let checked = driver::check(Language::Cheg, &source).unwrap_or_else(|e| {
        panic!(
            "{}",
            icp2c::diagnostic::render(&path.display().to_string(), &source, &e)
        )
    });
    assert!(checked.warnings.is_empty(), "{name} has warnings");
    checked.program
}

/// Runs the engine: (status, stdout, stderr).
fn engine(program: &Program, args: &[&str], input: &str) -> (i32, String, String) {
    named_engine(program, "", args, input)
}

/// Runs the engine read from `source_name` (its `id name`).
fn named_engine(
    program: &Program,
    source_name: &str,
    args: &[&str],
    input: &str,
) -> (i32, String, String) {
    let options = RunOptions {
        args: args.iter().map(|s| s.to_string()).collect(),
        source_name: source_name.to_string(),
        ..RunOptions::default()
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = program
        .run_with(&mut input.as_bytes(), &mut out, &mut err, &options)
        .expect("options accepted");
    (
        outcome.exit_status(),
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// Each example's answers: a legal best move with the program's value.
/// A change here is a change in what the programs know: review it.
const ANSWERS: &[(&str, &str, u32, &str)] = &[
    (
        "kqk",
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        4,
        "bestmove e1e2 score 15451",
    ),
    (
        "kqk",
        "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
        3,
        "bestmove e5e4 score -15292",
    ),
    (
        "krk",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        4,
        "bestmove a1a5 score 20283",
    ),
    (
        "krk",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        5,
        "bestmove a1a5 score 20250",
    ),
    // The opposition in front of the pawn: a draw, the value uncertain.
    (
        "kpk",
        "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1",
        4,
        "bestmove e1d1 score 33",
    ),
    // The king ahead of its pawn, and the rule of the square: certain wins.
    (
        "kpk",
        "8/8/8/8/3K4/8/4P3/6k1 w - - 0 1",
        4,
        "bestmove d4c3 score 25211",
    ),
    (
        "kpk",
        "7k/8/8/8/8/8/P7/K7 w - - 0 1",
        4,
        "bestmove a1b1 score 25211",
    ),
    (
        "tour",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        1,
        "bestmove a1a8 score 640",
    ),
    (
        "tour",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        2,
        "bestmove e1d1 score 38",
    ),
    (
        "tour",
        "4k3/8/8/3r4/8/8/8/R3K3 w - - 0 1",
        2,
        "bestmove e1f2 score 0",
    ),
];

#[test]
fn examples_answer() {
    for (name, fen, depth, want) in ANSWERS {
        let program = program(name);
        let depth = depth.to_string();
        let (status, out, _) = engine(&program, &["--fen", fen, "--depth", &depth], "");
        assert_eq!((status, out.trim_end()), (0, *want), "{name} {fen}");
        let mv = want.split(' ').nth(1).unwrap();
        let position = Position::from_fen(fen).unwrap();
        assert!(position.parse_move(mv).is_some(), "{mv} is legal");
    }
}

#[test]
fn the_program_changes_the_answer() {
    // --no-endgame: the same engine without its program (§7.4).
    let program = program("krk");
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let with = engine(&program, &["--fen", fen], "").1;
    let without = engine(&program, &["--fen", fen, "--no-endgame"], "").1;
    assert_eq!(without, "bestmove e1d1 score 640\n");
    assert_ne!(with, without);
}

#[test]
fn uci_transcript_with_a_program() {
    let program = program("kqk");
    let (status, out, err) = named_engine(
        &program,
        "examples/kqk.cheg",
        &[],
        "uci\nisready\nposition fen 8/8/8/4k3/8/8/8/3QK3 w - - 0 1 moves e1e2\ngo depth 2\n",
    );
    assert_eq!((status, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..11],
        [
            "id name kqk (icp2c CHEG engine)",
            "id author icp2c",
            "option name Depth type spin default 4 min 1 max 20",
            "option name Endgame type check default true",
            "option name Hash type spin default 16 min 1 max 1024",
            "option name Clear Hash type button",
            "option name Threads type spin default 1 min 1 max 1",
            "option name Ponder type check default false",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "uciok",
            "readyok",
        ]
    );
    assert!(lines[11].starts_with("info depth 1 score "), "{out}");
    assert!(lines[12].starts_with("info depth 2 score "), "{out}");
    assert!(lines[13].starts_with("bestmove e5"), "{out}");
    assert_eq!(lines.len(), 14);
}

#[test]
fn runtime_errors_name_line_and_fen() {
    let source = "ENTRY K,K\n      DIV A,\"1,\"0\nEND\n";
    let program = driver::check(Language::Cheg, source).unwrap().program;
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let (status, out, err) = engine(&program, &["--fen", fen, "--depth", "1"], "");
    assert_eq!(status, 1);
    assert_eq!(out, "");
    assert_eq!(err, format!("error: 2: division by zero (fen {fen})\n"));
    // BREAK goes to the error stream and the search goes on (§5.1).
    let source = "ENTRY K,K\n  BREAK DEPTH,LM,\"(1,T,#)\n  LEAVE\nEND\n";
    let program = driver::check(Language::Cheg, source).unwrap().program;
    let (status, _, err) = engine(&program, &["--fen", fen, "--depth", "1"], "");
    assert_eq!(status, 0);
    assert!(
        err.starts_with("break 2: 1 (e1d1 e1f1 e1d2 e1e2 e1f2) (1 T #)\n"),
        "{err}"
    );
}

#[test]
fn every_error_case_is_reported_at_its_line() {
    let dir = support::root().join("tests/programs/cheg/errors");
    let mut n = 0;
    for case in support::cases(&["tests/programs/cheg/errors"], "cheg") {
        let source = std::fs::read_to_string(&case.path).unwrap();
        let want: usize = source
            .strip_prefix("; error: ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}: no `; error: LINE:` header", case.name));
        let errors = driver::check(Language::Cheg, &source).expect_err(&case.name);
        let first = &errors[0];
        let line = source[..first.primary.span.start].matches('\n').count() + 1;
        assert_eq!(line, want, "{}: {}", case.name, first.message);
        n += 1;
    }
    assert!(n >= 25, "only {n} cases in {}", dir.display());
}

// ---------------------------------------------------------------- units

fn node(fen: &str) -> Node {
    Node {
        position: Position::from_fen(fen).unwrap(),
        depth: 1,
        plies: 0,
    }
}

fn ints(values: &[i64]) -> Value {
    Value::Set(values.iter().map(|&n| Value::Integer(n)).collect())
}

#[test]
fn value_conversion() {
    // §6.2: uncertain d × 128 / 100 truncated; certain 32·d + sign(d)·(12416 − DEPTH).
    assert_eq!(convert(10, 3, 0, 1), 8); // 7 × 128 / 100 = 8.96
    assert_eq!(convert(3, 10, 499, 1), -8);
    assert_eq!(convert(5, 5, 600, 1), 0);
    assert_eq!(convert(1, 0, 500, 1), 32 + 12415);
    assert_eq!(convert(0, 1, 500, 3), -32 - 12413);
    assert_eq!(convert(9000, 0, 500, 1), 32 * 500 + 12415); // clamped
    // §11.11: wrapping.
    assert_eq!(convert(i64::MIN, 1, 0, 1), i64::MAX.wrapping_mul(128) / 100);
}

#[test]
fn entry_matching() {
    let entries = [
        EntrySpec {
            start: 1,
            mover: (0, 1, 0, 0, Some(0)),
            other: (0, 0, 0, 0, None),
            pawn_diff: None,
        },
        EntrySpec {
            start: 2,
            mover: (0, 1, 0, 0, None),
            other: (0, 0, 0, 0, None),
            pawn_diff: Some((std::cmp::Ordering::Greater, 0)),
        },
        EntrySpec {
            start: 3,
            mover: (0, 0, 0, 0, None),
            other: (0, 1, 0, 0, None),
            pawn_diff: None,
        },
    ];
    let at = |fen| match_entry(&entries, &Position::from_fen(fen).unwrap());
    assert_eq!(at("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), Some(1)); // R&0P,K
    assert_eq!(at("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1"), Some(2)); // R,K,>0
    assert_eq!(at("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1"), None); // diff 0
    assert_eq!(at("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"), Some(3)); // "white" is the mover
    assert_eq!(at("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1"), None); // exact material
}

#[test]
fn piece_variables_and_pawn_groups() {
    // Pawns of both colours on files h, g (a group), then e (another).
    let n = node("4k3/6pp/8/4p3/4P3/8/7P/4K3 w - - 0 1");
    let pg = n.pawn_groups().to_string();
    assert_eq!(pg, "((Ph2 ph7 pg7) (Pe4 pe5))");
    // WP is the h-file pawn, BP the h-file pawn of the other side.
    assert_eq!(n.piece_variable(true, Kind::Pawn, 0).to_string(), "Ph2");
    assert_eq!(n.piece_variable(false, Kind::Pawn, 0).to_string(), "ph7");
    assert_eq!(n.piece_variable(false, Kind::Pawn, 2).to_string(), "pe5");
    assert_eq!(n.piece_variable(true, Kind::Queen, 0), Value::Undefined);
    // Black to move: Black is "white", ranks count from Black's side.
    let b = node("4k3/6pp/8/4p3/4P3/8/7P/4K3 b - - 0 1");
    assert_eq!(b.pawn_groups().to_string(), "((ph7 Ph2 pg7) (pe5 Pe4))");
}

#[test]
fn rule_of_the_square_opposition_and_safe() {
    let n = node("8/8/8/8/8/8/P7/K6k w - - 0 1");
    let king = n.piece_variable(false, Kind::King, 0);
    let pawn = n.piece_variable(true, Kind::Pawn, 0);
    // §5.1: r = 2, n = 5, d(h1, a8) = 7, the king's side not to move.
    assert_eq!(
        binary(&n, Binary::InSq, &king, &pawn),
        Ok(Value::Logical(false))
    );
    let near = node("8/8/8/8/2k5/8/P7/K7 w - - 0 1"); // d(c4, a8) = 4
    let king = near.piece_variable(false, Kind::King, 0);
    let pawn = near.piece_variable(true, Kind::Pawn, 0);
    assert_eq!(
        binary(&near, Binary::InSq, &king, &pawn),
        Ok(Value::Logical(true))
    );
    // §11.4: not a king, not a pawn, the same side: runtime errors.
    assert!(binary(&near, Binary::InSq, &pawn, &king).is_err());
    let own = near.piece_variable(true, Kind::King, 0);
    assert!(binary(&near, Binary::InSq, &own, &pawn).is_err());
    // Distant opposition: both differences even, not both zero.
    assert!(engine::opposition(4, 20)); // e1, e3
    assert!(!engine::opposition(4, 12)); // e1, e2
    assert!(!engine::opposition(4, 4));
    let sq = |s| Value::Square(s);
    assert_eq!(
        binary(&n, Binary::Opp, &sq(0), &sq(18)),
        Ok(Value::Logical(true))
    );
    // SAFE (§4): a pawn move is safe when WK is no farther from its
    // destination than BK.
    let race = node("8/8/8/8/8/8/P7/K6k w - - 0 1");
    let push = Value::Move(MoveValue {
        piece: Piece {
            colour: Colour::White,
            kind: Kind::Pawn,
            square: 8,
        },
        to: 24,
        promotion: None,
    });
    assert_eq!(race.test(Test::Safe, &push, &Value::Undefined), Ok(true));
    let kk = node("8/8/8/8/8/8/8/K6k w - - 0 1");
    assert!(kk.test(Test::Safe, &push, &Value::Undefined).is_err());
}

#[test]
fn set_instructions() {
    let n = node("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let a = ints(&[1, 2, 3]);
    let b = ints(&[3, 4, 3]);
    let show = |v: Result<Value, String>| v.unwrap().to_string();
    assert_eq!(show(binary(&n, Binary::Union, &a, &b)), "(1 2 3 4)"); // §11.10: b's
    assert_eq!(
        show(binary(&n, Binary::Union, &ints(&[1]), &b)),
        "(1 3 4 3)"
    ); // duplicates kept
    assert_eq!(show(binary(&n, Binary::Inters, &a, &b)), "(3)");
    assert_eq!(show(binary(&n, Binary::Differ, &a, &b)), "(1 2)");
    assert_eq!(show(binary(&n, Binary::Append, &a, &b)), "(1 2 3 3 4 3)");
    assert_eq!(
        show(binary(&n, Binary::Append, &a, &Value::Integer(9))),
        "(1 2 3 9)"
    );
    assert_eq!(
        show(binary(&n, Binary::GetEl, &a, &Value::Integer(-1))),
        "3"
    );
    assert!(binary(&n, Binary::GetEl, &a, &Value::Integer(0)).is_err());
    assert!(binary(&n, Binary::GetEl, &a, &Value::Integer(4)).is_err());
    assert_eq!(
        show(binary(&n, Binary::MemNum, &Value::Integer(3), &b)),
        "1"
    );
    assert_eq!(show(unary(&n, Unary::Card, &b)), "3");
    // §11.8: INSERT takes card+1, and −1 inserts before the last.
    let i = |at| engine::insert_element(Value::Integer(0), a.clone(), &Value::Integer(at));
    assert_eq!(i(4).unwrap().to_string(), "(1 2 3 0)");
    assert_eq!(i(-1).unwrap().to_string(), "(1 2 0 3)");
    assert!(i(5).is_err());
    let (removed, rest) = engine::remove_element(a.clone(), &Value::Integer(1)).unwrap();
    assert_eq!(
        (removed.to_string(), rest.to_string()),
        ("1".into(), "(2 3)".into())
    );
    // Arithmetic wraps; DIV truncates; MOD has the dividend's sign.
    let int = |v| Value::Integer(v);
    assert_eq!(binary(&n, Binary::Div, &int(-7), &int(2)), Ok(int(-3)));
    assert_eq!(binary(&n, Binary::Mod, &int(-7), &int(2)), Ok(int(-1)));
    assert_eq!(
        binary(&n, Binary::Div, &int(i64::MIN), &int(-1)),
        Ok(int(i64::MIN))
    );
    assert_eq!(
        binary(&n, Binary::Mod, &int(i64::MIN), &int(-1)),
        Ok(int(0))
    );
    assert!(binary(&n, Binary::Div, &int(1), &int(0)).is_err());
    assert_eq!(
        binary(&n, Binary::Dif, &int(i64::MIN), &int(0)),
        Ok(int(i64::MIN))
    );
}

#[test]
fn squares_ranks_and_files() {
    // §3: FILE h = 1 … a = 8; RANK from the side to move's first rank.
    let w = node("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let b = node("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let e2 = Value::Square(12);
    assert_eq!(unary(&w, Unary::Rank, &e2), Ok(Value::Integer(2)));
    assert_eq!(unary(&b, Unary::Rank, &e2), Ok(Value::Integer(7)));
    assert_eq!(unary(&w, Unary::File, &e2), Ok(Value::Integer(4)));
    assert_eq!(unary(&w, Unary::Side, &e2), Ok(Value::Integer(0)));
    assert_eq!(
        unary(&w, Unary::SColor, &Value::Square(0)),
        Ok(Value::Integer(1))
    ); // a1 dark
    // SETSQ rank 1 file 5 is d1 for White, d8 for Black; out of range: #.
    let sq = |n: &Node, r, f| binary(n, Binary::SetSq, &Value::Integer(r), &Value::Integer(f));
    assert_eq!(sq(&w, 1, 5).unwrap().to_string(), "d1");
    assert_eq!(sq(&b, 1, 5).unwrap().to_string(), "d8");
    assert_eq!(sq(&w, 9, 5), Ok(Value::Undefined));
    // An empty square is no piece (§11.3).
    assert!(unary(&w, Unary::Piece, &Value::Square(27)).is_err());
}

// ------------------------------------------------------------ the CLI

fn icp2c(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_icp2c"))
        .args(args)
        .current_dir(support::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = support::wait_limited(child, support::time_limit(), concat!(file!(), ":", line!()));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_runs_an_engine_and_refuses_what_does_not_fit() {
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let (status, out, err) = icp2c(&["run", "examples/krk.cheg", "--fen", fen], "");
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (0, "bestmove a1a5 score 20283\n", "")
    );
    // --lang cheg for a program on standard input.
    let source = std::fs::read_to_string(support::root().join("examples/krk.cheg")).unwrap();
    let (status, out, _) = icp2c(
        &["run", "--lang", "cheg", "-", "--fen", fen, "--perft", "2"],
        &source,
    );
    assert_eq!((status, out.as_str()), (0, "109\n")); // python-chess agrees
    // A bad FEN, a bad depth: exit 2 (§7.4, §11.28).
    let (status, out, err) = icp2c(&["run", "examples/krk.cheg", "--fen", "8/8/8 w - -"], "");
    assert_eq!((status, out.as_str()), (2, ""));
    assert!(err.starts_with("error: "), "{err}");
    let (status, _, _) = icp2c(
        &["run", "examples/krk.cheg", "--fen", fen, "--depth", "21"],
        "",
    );
    assert_eq!(status, 2);
    // --max-steps is not for engines; engine options are not for the
    // other languages; C is the default target, as for every language.
    let (status, _, err) = icp2c(&["run", "examples/krk.cheg", "--max-steps", "9"], "");
    assert_eq!(status, 2);
    assert!(err.contains("--max-steps is not for CHEG"), "{err}");
    let (status, _, err) = icp2c(&["run", "examples/beer.icp", "--fen", fen], "");
    assert_eq!(status, 2);
    assert!(err.contains("--fen is an option of CHEG engines"), "{err}");
    let (status, out, err) = icp2c(&["examples/krk.cheg"], "");
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(out.starts_with("/* Generated by icp2c "), "{out}");
    assert!(out.contains("int main(int argc, char **argv)"), "{out}");
    // UCI through the CLI, the input kept open until `bestmove` (§7.5).
    let kqk = support::root().join("examples/kqk.cheg");
    let ran = support::uci_session(
        std::path::Path::new(env!("CARGO_BIN_EXE_icp2c")),
        &["run", &kqk.display().to_string()],
        b"uci\nisready\nposition startpos moves e2e4\ngo depth 2\n",
    );
    let (status, out) = (ran.status, String::from_utf8_lossy(&ran.stdout));
    assert_eq!(status, 0);
    assert!(out.contains("uciok\nreadyok\ninfo depth 1 score "), "{out}");
    assert!(out.contains("\ninfo depth 2 score "), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
}

/// Generated Rust (one file, `rustc --edition 2021 -O -D warnings`) answers
/// every query and a UCI session as the interpreter does, byte for byte
/// and to the status.
#[test]
#[ignore = "slow (10 s): builds engines with rustc; .ci/run runs it"]
fn generated_rust_answers_as_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let mut names: Vec<&str> = ANSWERS.iter().map(|a| a.0).collect();
    names.dedup();
    for name in names {
        let program = program(name);
        let rs = dir.path().join(format!("{name}.rs"));
        let exe = dir.path().join(name);
        std::fs::write(&rs, program.emit_rust(&format!("{name}.cheg"))).unwrap();
        let built = std::process::Command::new("rustc")
            .args(["--edition", "2021", "-O", "-D", "warnings", "-o"])
            .arg(&exe)
            .arg(&rs)
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        answers_as_the_interpreter(&exe, &program, name);
    }
}

/// Every query of [`engine_queries`] and [`UCI_SESSION`] through the
/// engine `exe` and through the interpreter: the same stdout, stderr and
/// status.
fn answers_as_the_interpreter(exe: &std::path::Path, program: &Program, name: &str) {
    let mut runs: Vec<(Vec<String>, &str)> =
        engine_queries(name).into_iter().map(|q| (q, "")).collect();
    runs.push((Vec::new(), UCI_SESSION));
    runs.push((Vec::new(), COUNTERS_SESSION));
    for (args, input) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let ran = support::uci_session(exe, &args, input.as_bytes());
        let (status, out, err) = named_engine(program, &format!("{name}.cheg"), &args, input);
        assert_eq!(
            (
                ran.status,
                String::from_utf8_lossy(&support::uci_masked(&ran.stdout)).into_owned(),
                String::from_utf8_lossy(&ran.stderr)
            ),
            (
                status,
                String::from_utf8_lossy(&support::uci_masked(out.as_bytes())).into_owned(),
                err.into()
            ),
            "{name} {args:?}"
        );
    }
}

/// The KQK start of the history queries.
const KQK_START: &str = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1";

/// The queries every generated engine must answer as the interpreter does:
/// the examples' answers, perft, `--no-endgame`, and each kind of
/// command-line mistake (§7.4).
fn engine_queries(name: &str) -> Vec<Vec<String>> {
    let owned = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut queries: Vec<Vec<String>> = ANSWERS
        .iter()
        .filter(|a| a.0 == name)
        .map(|(_, fen, depth, _)| owned(&["--fen", fen, "--depth", &depth.to_string()]))
        .collect();
    let bare = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    queries.extend([
        owned(&["--fen", "8/8/8 w - -"]),
        owned(&["--fen", bare, "--perft", "3"]),
        owned(&[
            "--fen",
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "--depth",
            "2",
            "--no-endgame",
        ]),
        owned(&["--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]),
        owned(&["--fen", "7k/8/6QK/8/8/8/8/8 b - - 0 1", "--depth", "1"]),
        owned(&["--fen", bare, "--depth", "0"]),
        owned(&["--fen", bare, "--fen", bare]),
        // FEN counters: any non-negative integer up to the largest
        // counter, 2^64 - 1 (docs/cheg.md).
        owned(&[
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 4294967296 18446744073709551615",
            "--perft",
            "2",
        ]),
        owned(&["--fen", "4k3/8/8/8/8/8/8/4K3 w - - 18446744073709551616 1"]),
        owned(&[
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999999",
        ]),
        owned(&["--depth", "2"]),
        owned(&["--bogus\u{1b}"]),
        owned(&["--fen"]),
        owned(&[
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\u{a0}w KQkq - 0 1",
            "--perft",
            "2",
        ]),
        // The game history (§7.5): moves, their errors, perft after them.
        owned(&[
            "--fen",
            KQK_START,
            "--moves",
            "e1f1 e5e4 f1e1 e4e5",
            "--depth",
            "2",
        ]),
        owned(&[
            "--fen",
            KQK_START,
            "--moves",
            "e1f1  e5e4\te4e4",
            "--depth",
            "2",
        ]),
        owned(&[
            "--fen",
            KQK_START,
            "--moves",
            "e1f1 e5e4 \u{1b}",
            "--perft",
            "1",
        ]),
        owned(&["--fen", KQK_START, "--moves", "", "--perft", "2"]),
        owned(&["--fen", KQK_START, "--moves", "d1d8 e5e4", "--perft", "2"]),
        owned(&["--fen", KQK_START, "--moves", "e1f1", "--moves", "e5e4"]),
        owned(&["--fen", KQK_START, "--moves"]),
        owned(&["--moves", "e1f1"]),
        owned(&["--help"]),
        owned(&["--fen", KQK_START, "-h"]),
    ]);
    queries
}

/// FEN counters past 32 bits, counted on (the fullmove number stays at the
/// largest counter), and one past 64 bits refused (docs/cheg.md).
const COUNTERS_SESSION: &str = "position fen 4k3/8/8/8/8/8/8/4K3 w - - 4294967296 \
    18446744073709551615 moves e1e2 e8e7\nd\n\
    position fen 4k3/8/8/8/8/8/8/4K3 w - - 18446744073709551616 1\nd\n\
    position fen 4k3/8/8/8/8/8/8/4K3 b - - 000000000000000000000000000000042 +7\nd\nquit\n";

/// A UCI session with every command, good and bad (§7.4, §7.5): limits
/// by depth and nodes, a game history, the options. Driven by
/// `support::uci_session`, which waits for each `bestmove` before the next
/// line (the end of the input, like `quit`, would stop the search).
const UCI_SESSION: &str = "uci\nisready\nd\nposition startpos moves e2e4 e7e5\ngo depth 2\n\
    go perft 2\nsetoption name Depth value 2\nsetoption name Endgame value false\ngo\n\
    setoption name Endgame value true\nposition fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1\ngo\n\
    bogus command \u{7f}\nposition fen 8/8 w\ngo depth 2\ngo perft 1\nd\n\
    position startpos moves e2e4 e7e5 e2e5 g1f3\nd\ngo depth 1\ngo depth 0\n\
    go perft 99\nsetoption name Foo value 1\nsetoption name\nucinewgame\nd extra\n\n   \t\n\
    setoption name Hash value 1\nsetoption name Threads value 1\nsetoption name Ponder value true\n\
    position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1 moves e1d1 e5d5 d1e1 d5e5\ngo depth 4\n\
    go nodes 3000\ngo depth 3 nodes 100\ngo nodes 0\nsetoption name Hash value 0\ngo depth 3\n\
    setoption name Move Overhead value 100\nsetoption name move overhead value 5001\n\
    setoption name Clear Hash\nsetoption name Clear  Hash value 1\nsetoption name Foo Bar value 1\n\
    go nodes x\nposition fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\ngo depth 21\n\
    go depth 99999999999999999999\nd\n";

/// Generated C (`cc` with the strict flags, and with ASan/UBSan when the
/// compiler has them) answers every query and a UCI session as the
/// interpreter does: stdout, stderr and status, byte for byte.
#[test]
fn generated_c_answers_as_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let mut names: Vec<&str> = ANSWERS.iter().map(|a| a.0).collect();
    names.dedup();
    let sanitize: &[&str] = if support::batch::sanitizing() {
        &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    } else {
        &[]
    };
    for name in names {
        let program = program(name);
        let c = program.emit_c(&format!("{name}.cheg"));
        let exe =
            support::build_c(&c, dir.path(), name, sanitize).unwrap_or_else(|e| panic!("{e}"));
        answers_as_the_interpreter(&exe, &program, name);
    }
}

/// Sets built one `PAIR` at a time until 300,000 deep, the most one
/// invocation's 1,000,000 statements can build (then any later statement):
/// freeing, comparing and writing them must not recurse (§2).
const DEEP_PAIRS: &str = "ENTRY K,K\n\
        JUMP> DEPTH,\"1,OUT\n\
        SETV I,\"0\n\
L:      PAIR A,A,\"1\n\
        ADD I,I,\"1\n\
        JUMP< I,\"300000,L\n\
        CARD C,A\n\
        BREAK C,I\n\
        VALRET \"0,\"0,\"0\n\
OUT:    LEAVE\n\
END\n";

/// Two sets 100,000 deep built apart and compared; one written out
/// (§9); a 10,000-deep set compared with a literal of the same shape;
/// 50,000 `APPEND`s to a set only one variable holds.
fn deep_sets() -> String {
    let literal = format!("{}#,1{}", "(".repeat(10_000), "),1".repeat(9_999) + ")");
    format!(
        "ENTRY K,K\n\
        JUMP> DEPTH,\"1,OUT\n\
        SETV I,\"0\n\
L:      PAIR A,A,\"1\n\
        ADD I,I,\"1\n\
        JUMP< I,\"100000,L\n\
        SETV I,\"0\n\
M:      PAIR B,B,\"1\n\
        ADD I,I,\"1\n\
        JUMP< I,\"100000,M\n\
        JUMP#= A,B,WRONG\n\
        BREAK A\n\
        SETV I,\"0\n\
T:      PAIR T,T,\"1\n\
        ADD I,I,\"1\n\
        JUMP< I,\"10000,T\n\
        JUMP#= T,\"{literal},WRONG\n\
        SETV I,\"0\n\
        SETV S,\"()\n\
N:      APPEND S,S,I\n\
        ADD I,I,\"1\n\
        JUMP< I,\"50000,N\n\
        GETEL E,S,\"-1\n\
        CARD C,S\n\
        BREAK C,E\n\
        VALRET \"0,\"0,\"0\n\
WRONG:  BREAK \"-1\n\
OUT:    LEAVE\n\
END\n"
    )
}

/// The hostile sets above in the interpreter, generated C (with ASan and
/// UBSan under `ICP2C_SANITIZE=1`, as tests/sanitize.sh runs it) and
/// generated Rust: the same answer and `BREAK` lines, and no crash.
#[test]
fn generated_c_and_rust_free_compare_and_write_deep_sets_as_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let sanitize: &[&str] = if support::batch::sanitizing() {
        &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    } else {
        &[]
    };
    let args = ["--fen", "k7/8/8/8/8/8/8/K7 w - - 0 1", "--depth", "1"];
    for (name, source, breaks) in [
        (
            "deep_pairs",
            DEEP_PAIRS.to_string(),
            "break 8: 2 300000 #\n".to_string(),
        ),
        ("deep_sets", deep_sets(), String::new()),
    ] {
        let program = driver::check(Language::Cheg, &source)
            .unwrap_or_else(|e| panic!("{}", icp2c::diagnostic::render(name, &source, &e)))
            .program;
        let want = engine(&program, &args, "");
        assert_eq!(
            (want.0, want.1.as_str()),
            (0, "bestmove a1b1 score 0\n"),
            "{name}"
        );
        if breaks.is_empty() {
            let lines: Vec<&str> = want.2.lines().collect();
            assert_eq!(lines.len(), 2, "{name}");
            let line = lines[0];
            assert!(line.starts_with("break 12: ((((((((((((((("), "{name}");
            assert!(line.ends_with(" 1) 1) 1) 1) 1) # #"), "{name}");
            assert_eq!(
                &line[10 + 100_000 - 3..10 + 100_000 + 7],
                "(((# 1) 1)",
                "{name}"
            );
            assert_eq!(
                lines[0].len(),
                "break 12: ".len() + 100_000 * 4 + 1 + " # #".len()
            );
            assert_eq!(lines[1], "break 25: 50000 49999 #");
        } else {
            assert_eq!(want.2, breaks, "{name}");
        }
        let c = support::build_c(
            &program.emit_c(&format!("{name}.cheg")),
            dir.path(),
            name,
            sanitize,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let rust = support::build_rust(
            &program.emit_rust(&format!("{name}.cheg")),
            dir.path(),
            name,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for exe in [c, rust] {
            let ran = support::run_exe(&exe, &args, b"");
            assert_eq!(
                (
                    ran.status,
                    String::from_utf8_lossy(&ran.stdout),
                    String::from_utf8_lossy(&ran.stderr)
                ),
                (want.0, want.1.as_str().into(), want.2.as_str().into()),
                "{name}: {}",
                exe.display()
            );
        }
    }
}

/// A program of more than 256 statements: its arithmetic and jumps on
/// variables and integers are outlined in generated C and Rust (one small
/// function per kind and operand shape, so that cc and rustc stay fast on
/// big programs) and cut into functions of statements in both targets; the
/// interpreter, the C and the Rust engines still answer alike, runtime
/// errors included.
#[cfg_attr(
    icp2c_no_rustfmt,
    ignore = "needs rustfmt (rustup component add rustfmt), missing when the tests were built"
)]
#[test]
fn a_long_program_answers_alike_in_every_engine() {
    let mut source = String::from("ENTRY Q,K\n        SETV A,\"1\n        SETV B,\"2\n");
    for k in 0..60 {
        source.push_str(&format!(
            "L{k}:    ADD A,A,B\n        MUL B,\"3,A\n        SUB C,A,\"{k}\n        DIF D,\"7,\"{k}\n        \
             ABS E,C\n        SETV F,\"{k}\n        JUMP< A,B,M{k}\n        JUMP= \"1,\"2,M{k}\n\
             M{k}:    JUMP> C,\"1000000,OUT\n        MAX A,A,\"5\n"
        ));
    }
    source.push_str("        VALRET A,\"0,\"600\nOUT:    VALRET \"0,E,\"600\nEND\n");
    let program = driver::check(Language::Cheg, &source)
        .unwrap_or_else(|e| panic!("{}", icp2c::diagnostic::render("long.cheg", &source, &e)))
        .program;
    let rust = program.emit_rust("long.cheg");
    let c_source = program.emit_c("long.cheg");
    for helper in [
        "fn icp_binary_vv(",
        "fn icp_binary_iv(",
        "fn icp_binary_vi(",
        "fn icp_binary_ii(",
        "fn icp_unary_v(",
        "fn icp_unary_i(",
        "fn icp_jump_vv(",
        "fn icp_jump_ii(",
        "fn icp_jump_vi(",
    ] {
        assert!(rust.contains(helper), "no {helper}");
        let c_helper = format!("int {}", helper.trim_start_matches("fn "));
        assert!(c_source.contains(&c_helper), "no {c_helper} in the C");
    }
    assert!(
        rust.contains("fn icp_step_1("),
        "the statements are not cut into functions"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long_fmt.rs");
    std::fs::write(&file, &rust).unwrap();
    let fmt = std::process::Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        fmt.status.success(),
        "not rustfmt-clean:\n{}",
        String::from_utf8_lossy(&fmt.stdout)
    );
    let c = support::build_c(&c_source, dir.path(), "long", &[]).unwrap_or_else(|e| panic!("{e}"));
    let rs = support::build_rust(&rust, dir.path(), "long").unwrap_or_else(|e| panic!("{e}"));
    for fen in [
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        "8/8/8/8/8/2k5/8/Q3K3 w - - 0 1",
    ] {
        let args = ["--fen", fen, "--depth", "2"];
        let (status, out, err) = named_engine(&program, "long.cheg", &args, "");
        for exe in [&c, &rs] {
            let ran = support::run_exe(exe, &args, b"");
            assert_eq!(
                (
                    ran.status,
                    String::from_utf8_lossy(&ran.stdout).into_owned(),
                    String::from_utf8_lossy(&ran.stderr).into_owned()
                ),
                (status, out.clone(), err.clone()),
                "{} {fen}",
                exe.display()
            );
        }
    }
}
