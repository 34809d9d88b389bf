//! CHEG engines playing games (`spec/cheg.md` §7.5): `stop`, `isready`
//! and `quit` during a search in the interpreter (`icp2c run`), the
//! generated C and the generated Rust engine; searches limited by depth or
//! nodes printing the same lines everywhere; the transposition table
//! changing no answer; the game history; long lines and arguments;
//! `--help`.
//!
//! Two tests are `#[ignore]`d because they need more than `cargo test`
//! has; `.ci/run` runs them (`cargo test --release --test cheg_play --
//! --ignored`): a gigabyte-long line through every engine, measuring peak
//! memory, and python-chess (installed by `benches/setup.sh`) driving
//! every engine through timed searches, node and depth limits, a game
//! with a clock and an analysis stopped by `stop`.

use crate::support;

use icp2c::driver::{self, Language, Program};
use icp2c::lang::RunOptions;
use icp2c::lang::cheg::runtime::chess::{Colour, Kind, Piece, Position};
use icp2c::lang::cheg::runtime::engine::{self, History, MoveValue, Value, value_key};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const KRK: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
const KQK: &str = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn program(name: &str) -> Program {
    let path = support::root().join(format!("examples/{name}.cheg"));
    let source = std::fs::read_to_string(path).unwrap();
    driver::check(Language::Cheg, &source).unwrap().program
}

/// The interpreter in this process, its UCI commands read in place:
/// (status, stdout, stderr).
fn interpret(name: &str, args: &[&str], input: &[u8]) -> (i32, String, String) {
    let options = RunOptions {
        args: args.iter().map(|s| s.to_string()).collect(),
        source_name: format!("{name}.cheg"),
        ..RunOptions::default()
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = program(name)
        .run_with(&mut &input[..], &mut out, &mut err, &options)
        .unwrap();
    (
        outcome.exit_status(),
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// The three engines of `examples/krk.cheg`: `icp2c run`, generated C,
/// generated Rust (built once per test binary), each as a command line.
fn engines() -> &'static [(&'static str, Vec<String>)] {
    static ENGINES: OnceLock<Vec<(&'static str, Vec<String>)>> = OnceLock::new();
    ENGINES.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cheg-play");
        std::fs::create_dir_all(&dir).unwrap();
        let krk = program("krk");
        // With ASan and UBSan under tests/sanitize.sh (ICP2C_SANITIZE=1).
        let sanitize: &[&str] = if support::batch::sanitizing() {
            &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
        } else {
            &[]
        };
        let c = support::build_c(&krk.emit_c("krk.cheg"), &dir, "krk", sanitize).unwrap();
        let rust = support::build_rust_at(&krk.emit_rust("krk.cheg"), &dir, "krk", 2).unwrap();
        let text = |p: &Path| p.display().to_string();
        vec![
            (
                "icp2c run",
                vec![
                    env!("CARGO_BIN_EXE_icp2c").to_string(),
                    "run".to_string(),
                    text(&support::root().join("examples/krk.cheg")),
                ],
            ),
            ("C", vec![text(&c)]),
            ("Rust", vec![text(&rust)]),
        ]
    })
}

fn exe_path(command: &[String]) -> PathBuf {
    PathBuf::from(&command[0])
}

/// Runs an engine to the end of `input`: (status, stdout, stderr).
fn run(command: &[String], args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut all: Vec<&str> = command[1..].iter().map(String::as_str).collect();
    all.extend_from_slice(args);
    let ran = support::uci_session(&exe_path(command), &all, input);
    (
        ran.status,
        String::from_utf8_lossy(&ran.stdout).into_owned(),
        String::from_utf8_lossy(&ran.stderr).into_owned(),
    )
}

/// An engine spoken to line by line while it runs.
struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Live {
    fn start(command: &[String]) -> Live {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Live {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Waits up to `limit` for a line starting with `prefix`; the lines
    /// before it are kept in `seen`.
    fn wait_for(&mut self, prefix: &str, limit: Duration) -> Option<String> {
        let end = Instant::now() + limit;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.starts_with(prefix) {
                        return Some(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    return None;
                }
            }
        }
    }

    /// The lines that arrive within `limit`.
    fn drain(&mut self, limit: Duration) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut out = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            out.push(line);
        }
        out
    }

    /// Waits up to `limit` for the engine to end.
    fn exits_within(&mut self, limit: Duration) -> bool {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a loaded test machine may take to answer what an idle one
/// answers in a few milliseconds (the engines poll their input every 256
/// nodes or program statements).
const PROMPTLY: Duration = Duration::from_millis(1500);

#[test]
fn stop_isready_and_quit_reach_a_running_search() {
    for (what, command) in engines() {
        let mut engine = Live::start(command);
        engine.send("uci\n");
        assert!(
            engine.wait_for("uciok", Duration::from_secs(20)).is_some(),
            "{what}: no uciok"
        );
        // go infinite answers only after stop; isready is answered at once.
        engine.send(&format!("position fen {KRK}\ngo infinite\n"));
        let early = engine.drain(Duration::from_millis(400));
        assert!(
            !early.iter().any(|l| l.starts_with("bestmove")),
            "{what}: go infinite answered before stop: {early:?}"
        );
        engine.seen.clear();
        engine.send("isready\n");
        assert!(
            engine.wait_for("readyok", PROMPTLY).is_some(),
            "{what}: isready not answered during the search"
        );
        assert!(
            !engine.seen.iter().any(|l| l.starts_with("bestmove")),
            "{what}: {:?}",
            engine.seen
        );
        engine.send("stop\n");
        let best = engine.wait_for("bestmove ", PROMPTLY);
        assert!(best.is_some(), "{what}: stop did not end go infinite");
        // stop ends a search limited by depth too, with the deepest
        // completed depth's move.
        engine.send(&format!("position fen {KIWIPETE}\ngo depth 20\n"));
        std::thread::sleep(Duration::from_millis(300));
        engine.send("stop\n");
        let best = engine.wait_for("bestmove ", PROMPTLY);
        assert!(best.is_some(), "{what}: stop did not end go depth 20");
        // go movetime answers in its time.
        let asked = Instant::now();
        engine.send("go movetime 300\n");
        assert!(
            engine
                .wait_for("bestmove ", Duration::from_millis(300) + PROMPTLY)
                .is_some(),
            "{what}: go movetime 300 took over {:?}",
            asked.elapsed()
        );
        // quit during a search ends the engine.
        engine.send("go infinite\n");
        std::thread::sleep(Duration::from_millis(200));
        engine.send("quit\n");
        assert!(
            engine.exits_within(PROMPTLY),
            "{what}: quit did not end the engine during a search"
        );
    }
}

#[test]
fn the_end_of_the_input_stops_every_search() {
    // §7.5: the end of standard input stops a search as `stop` does: its
    // info lines and bestmove, then exit status 0, in every state.
    let sessions = [
        "go depth 20\n",
        "go nodes 100000000000\n",
        "go infinite\n",
        "go ponder\n",
        "go wtime 100000000 btime 100000000\n",
        "go depth 20\ngo depth 20\ngo infinite\n",
        "go perft 9\n",
    ];
    for (what, command) in engines() {
        for session in sessions {
            let mut engine = Live::start(command);
            engine.send(&format!("position fen {KIWIPETE}\n{session}"));
            std::thread::sleep(Duration::from_millis(300));
            engine.stdin = None;
            let closed = Instant::now();
            assert!(
                engine.exits_within(PROMPTLY),
                "{what}: {session:?} still running after its input ended"
            );
            let status = engine.child.wait().unwrap();
            assert_eq!(status.code(), Some(0), "{what}: {session:?}");
            let lines = engine.drain(PROMPTLY);
            let answers = lines.iter().filter(|l| l.starts_with("bestmove ")).count();
            let gos = session.matches("go ").count();
            let perft = session.contains("perft");
            assert_eq!(
                answers,
                if perft { 0 } else { gos },
                "{what}: {session:?} after {:?}: {lines:?}",
                closed.elapsed()
            );
            assert!(
                !lines.iter().any(|l| l.starts_with("Nodes searched")),
                "{what}: {session:?} was not abandoned: {lines:?}"
            );
        }
    }
}

#[test]
fn a_go_without_the_movers_clock_searches_to_the_depth_option() {
    // §7.5: `go btime T` with White to move (and `go wtime T` with Black)
    // searches as a bare `go` does: to the Depth option, not until quit.
    let black = "8/8/8/4k3/8/8/8/R3K3 b - - 0 1";
    let clockless = format!(
        "setoption name Depth value 3\nposition fen {KRK}\ngo btime 1000 binc 10\n\
         position fen {black}\ngo wtime 5 movestogo 1\n"
    );
    let bare =
        format!("setoption name Depth value 3\nposition fen {KRK}\ngo\nposition fen {black}\ngo\n");
    for (what, command) in engines() {
        let started = Instant::now();
        let (status, out, _) = run(command, &[], clockless.as_bytes());
        assert_eq!(status, 0, "{what}");
        assert!(started.elapsed() < Duration::from_secs(60), "{what}");
        let (_, want, _) = run(command, &[], bare.as_bytes());
        assert_eq!(
            support::uci_masked(out.as_bytes()),
            support::uci_masked(want.as_bytes()),
            "{what}"
        );
        assert_eq!(out.matches("info depth 3 ").count(), 2, "{what}: {out}");
    }
}

/// Sessions whose searches are limited by depth or nodes, and positions
/// they search: the program at every node (KRK), Kiwipete's quiescence,
/// mates, a game history.
const LIMITED: &str = "uci\n\
    position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1\ngo depth 7\ngo nodes 20000\n\
    position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n\
    go depth 4\ngo nodes 5000\ngo nodes 1\n\
    position startpos moves e2e4 b8a6 f1a6 c7c5 a6f1 g8h6 f1a6 h6g8\ngo depth 4\n\
    position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 5\n\
    setoption name Endgame value false\nposition fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1\n\
    go depth 6 nodes 50000\nsetoption name Hash value 1\ngo depth 6\n";

#[test]
fn depth_and_node_limits_print_the_same_everywhere() {
    let (status, want, _) = interpret("krk", &[], LIMITED.as_bytes());
    assert_eq!(status, 0);
    let want = String::from_utf8(support::uci_masked(want.as_bytes())).unwrap();
    // Every search answered, every depth reported with its variation.
    assert_eq!(want.matches("bestmove ").count(), 9, "{want}");
    assert!(
        want.contains("info depth 7 score ") && want.contains("info depth 4 score "),
        "{want}"
    );
    for line in want.lines().filter(|l| l.starts_with("info depth")) {
        assert!(line.contains(" pv "), "{line}");
        let nodes: u64 = line
            .split(" nodes ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes > 0, "{line}");
    }
    for (what, command) in engines() {
        let (status, got, err) = run(command, &[], LIMITED.as_bytes());
        assert_eq!((status, err.as_str()), (0, ""), "{what}");
        let got = String::from_utf8(support::uci_masked(got.as_bytes())).unwrap();
        assert_eq!(got, want, "{what} differs from the interpreter");
    }
}

#[test]
fn a_node_limit_is_never_exceeded() {
    for limit in [1u64, 2, 50, 1000, 20000] {
        let input = format!("position fen {KIWIPETE}\ngo nodes {limit}\n");
        let (_, out, _) = interpret("krk", &[], input.as_bytes());
        assert!(out.contains("bestmove "), "{out}");
        for line in out.lines().filter(|l| l.starts_with("info depth")) {
            let nodes: u64 = line
                .split(" nodes ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(nodes <= limit, "{limit}: {line}");
        }
    }
}

/// The last `info` line's depth, score and first move, the `bestmove`, and
/// the nodes of the whole search.
fn answer(out: &str) -> (String, u64) {
    let info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    let nodes = info
        .split(" nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let score = info.split(" nodes ").next().unwrap().to_string();
    // The move, without the ponder move: that comes from the principal
    // variation, which the table may cut short.
    let last = out.lines().last().unwrap();
    let best = last.split(" ponder ").next().unwrap();
    (format!("{score} / {best}"), nodes)
}

#[test]
fn the_table_changes_no_answer_and_saves_nodes() {
    let cases: &[(&str, &str, u32)] = &[
        ("krk", KRK, 7),
        ("krk", "8/8/8/8/8/2k5/8/R3K3 b - - 0 1", 6),
        ("kqk", KQK, 6),
        ("kpk", "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", 8),
        ("krk", KIWIPETE, 4),
        ("krk", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ];
    let (mut with_total, mut without_total) = (0, 0);
    for (name, fen, depth) in cases {
        let session = format!("position fen {fen}\ngo depth {depth}\n");
        let (_, with, _) = interpret(name, &[], session.as_bytes());
        let (with_answer, with_nodes) = answer(&with);
        // Without a table: `Hash` is at least 1 MB in UCI (§7.5), so the
        // search is run as `go depth` runs it, with a table of 0 entries.
        let checked = program(name);
        let ir = checked.ir::<icp2c::lang::cheg::Cheg>().unwrap();
        let endgame = icp2c::lang::cheg::interp::Interpreter::new(ir);
        let position = Position::from_fen(fen).unwrap();
        let limits = engine::Limits {
            depth: *depth,
            from: 1,
            nodes: None,
            exact: true,
        };
        let without = engine::search(
            &position,
            limits,
            Some(&endgame),
            &mut engine::Table::new(0),
            &History::new(),
            &mut engine::Unwatched,
            &mut Vec::new(),
        )
        .unwrap();
        let without_answer = format!(
            "info depth {depth} score {} / bestmove {}",
            icp2c::lang::cheg::runtime::uci::uci_score(without.score),
            without.best.unwrap().to_uci()
        );
        let without_nodes = without.nodes;
        assert_eq!(with_answer, without_answer, "{name} {fen}");
        assert!(
            with_nodes <= without_nodes,
            "{name} {fen}: {with_nodes} > {without_nodes}"
        );
        with_total += with_nodes;
        without_total += without_nodes;
        // And the --fen answer, the plain §7.3 value, is the same.
        let (_, fen_answer, _) =
            interpret(name, &["--fen", fen, "--depth", &depth.to_string()], b"");
        let best = with
            .lines()
            .last()
            .unwrap()
            .split(" ponder ")
            .next()
            .unwrap();
        assert!(fen_answer.starts_with(best), "{fen_answer} / {best}");
    }
    assert!(
        with_total * 3 < without_total * 2,
        "the table saves too little: {with_total} against {without_total} nodes"
    );
}

#[test]
fn a_move_that_repeats_the_game_is_avoided() {
    // White has won a knight; without a history the engine retreats the
    // bishop to f1. After the bishop went f1 and back and the black knight
    // g8-h6-g8, Bf1 would repeat a position of the game (a draw, §7.5):
    // the engine keeps its advantage with another move.
    let fresh = "position startpos moves e2e4 b8a6 f1a6 c7c5\ngo depth 3\n";
    let again = "position startpos moves e2e4 b8a6 f1a6 c7c5 a6f1 g8h6 f1a6 h6g8\ngo depth 3\n";
    let (_, out, _) = interpret("krk", &[], fresh.as_bytes());
    assert!(
        out.lines().last().unwrap().starts_with("bestmove a6f1 "),
        "{out}"
    );
    assert!(out.contains("info depth 3 score cp 300 "), "{out}");
    let (_, out, _) = interpret("krk", &[], again.as_bytes());
    let best = out.lines().last().unwrap();
    assert!(
        best.starts_with("bestmove ") && !best.starts_with("bestmove a6f1"),
        "{out}"
    );
    assert!(out.contains("info depth 3 score cp 300 "), "{out}");
    // The same position without the game: the plain answer.
    let (_, out, _) = interpret(
        "krk",
        &[
            "--fen",
            "r1bqkbnr/pp1ppppp/B7/2p5/4P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3",
            "--depth",
            "3",
        ],
        b"",
    );
    assert_eq!(out, "bestmove a6f1 score 384\n");
    for (what, command) in engines() {
        let (_, got, _) = run(command, &[], again.as_bytes());
        assert_eq!(got.lines().last(), Some(best), "{what}");
    }
}

#[test]
fn the_game_history_is_the_positions_since_the_last_capture_or_pawn_move() {
    let start = Position::from_fen(KQK).unwrap();
    let play = |texts: &[&str]| {
        let mut p = start.clone();
        let mut moves = Vec::new();
        for t in texts {
            let mv = p.parse_move(t).unwrap();
            p = p.play(mv);
            moves.push(mv);
        }
        History::game(&start, &moves)
    };
    // The start and every position after it, the root excluded.
    let (root, history) = play(&["e1f1", "e5e4", "f1e1", "e4e5"]);
    assert_eq!(history.len(), 4);
    let again = ["e1f1", "e5e4", "f1e1", "e4e5"]
        .iter()
        .fold(start.clone(), |p, t| p.play_uci(t));
    assert_eq!(root, again);
    assert!(history.contains(&start));
    assert!(!history.contains(&root.play_uci("e1d2")));
    assert!(history.contains(&root.play_uci("e1f1")));
    // A pawn move starts the game's history again.
    let pawn = Position::from_fen("8/8/8/4k3/8/8/P7/3QK3 w - - 0 1").unwrap();
    let moves: Vec<_> = ["a2a3", "e5e4", "e1f1", "e4e5"]
        .iter()
        .scan(pawn.clone(), |p, t| {
            let mv = p.parse_move(t).unwrap();
            *p = p.play(mv);
            Some(mv)
        })
        .collect();
    let (_, history) = History::game(&pawn, &moves);
    assert_eq!(history.len(), 3);
    assert!(!history.contains(&pawn));
    // An en-passant square counts only when a capture there is legal.
    let a = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
    let b = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").unwrap();
    assert!(a.same_game_position(&b));
    assert_eq!(a.repetition_key(), b.repetition_key());
    let c = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    let d = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").unwrap();
    assert!(!c.same_game_position(&d));
    assert_ne!(c.repetition_key(), d.repetition_key());
}

trait PlayUci {
    fn play_uci(&self, text: &str) -> Position;
}

impl PlayUci for Position {
    fn play_uci(&self, text: &str) -> Position {
        self.play(self.parse_move(text).unwrap())
    }
}

#[test]
fn plan_values_are_keyed_by_value_without_recursion() {
    let piece = Piece {
        colour: Colour::White,
        kind: Kind::Rook,
        square: 0,
    };
    let values = [
        Value::Undefined,
        Value::Logical(true),
        Value::Logical(false),
        Value::Integer(1),
        Value::Integer(-1),
        Value::Square(0),
        Value::Piece(piece),
        Value::Move(MoveValue {
            piece,
            to: 8,
            promotion: None,
        }),
        Value::Set(vec![].into()),
        Value::Set(vec![Value::Integer(1)].into()),
        Value::Set(vec![Value::Set(vec![].into()), Value::Integer(1)].into()),
        Value::Set(vec![Value::Set(vec![Value::Integer(1)].into())].into()),
    ];
    for (i, a) in values.iter().enumerate() {
        assert_eq!(value_key(a), value_key(&a.clone()));
        for b in &values[i + 1..] {
            assert_ne!(value_key(a), value_key(b), "{a} / {b}");
        }
    }
    // A set nested 100,000 deep is keyed (and dropped) with an explicit
    // stack: on a thread of 64 KiB, where a recursive walk would overflow.
    let (first, again) = std::thread::Builder::new()
        .stack_size(64 << 10)
        .spawn(|| {
            let mut deep = Value::Integer(7);
            for _ in 0..100_000 {
                deep = Value::Set(vec![deep].into());
            }
            let copy = deep.clone();
            (value_key(&deep), value_key(&copy))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(first, again);
}

#[test]
fn long_lines_and_arguments_are_refused_briefly() {
    let long = vec![b'x'; (1 << 20) + 1];
    let mut input = b"isready\n".to_vec();
    input.extend_from_slice(&long);
    input.extend_from_slice(b"\nisready\n");
    let want = "readyok\ninfo string error: command longer than 1048576 bytes, skipped\nreadyok\n";
    assert_eq!(interpret("krk", &[], &input).1, want);
    for (what, command) in engines() {
        assert_eq!(run(command, &[], &input).1, want, "{what}");
    }
    // A line of exactly 1 MB is read (and refused as a command).
    let mut input = vec![b'x'; 1 << 20];
    input.push(b'\n');
    let out = interpret("krk", &[], &input).1;
    assert!(
        out.starts_with("info string error: unknown command 'xxx"),
        "{}",
        &out[..60]
    );
    // An argument that long is a usage error, not echoed.
    let arg = "x".repeat((1 << 20) + 1);
    let (status, out, err) = interpret("krk", &["--fen", &arg], b"");
    assert_eq!((status, out.as_str()), (2, ""));
    assert!(
        err.starts_with("error: argument 2 is longer than 1048576 bytes\nusage: ")
            && err.len() < 300,
        "{err}"
    );
}

#[test]
fn an_engine_prints_its_help() {
    for (what, command) in engines().iter().skip(1) {
        let (status, out, err) = run(command, &["--help"], b"");
        assert_eq!((status, err.as_str()), (0, ""), "{what}");
        assert!(
            out.starts_with("krk (icp2c CHEG engine)\nusage: ENGINE [--fen FEN [--moves MOVES]"),
            "{what}: {out}"
        );
        assert!(
            out.contains("\n  --moves MOVES  first play these moves"),
            "{what}: {out}"
        );
        assert_eq!(run(command, &["-h"], b"").1, out, "{what}");
    }
    let (status, out, _) = interpret("krk", &["--help"], b"");
    assert_eq!(status, 0);
    assert_eq!(out, run(&engines()[1].1, &["--help"], b"").1);
}

#[test]
fn the_engine_is_named_after_its_program() {
    let (_, out, _) = interpret("kqk", &[], b"uci\n");
    assert!(
        out.starts_with("id name kqk (icp2c CHEG engine)\n"),
        "{out}"
    );
    assert_eq!(icp2c::lang::cheg::engine_name("<stdin>"), "<stdin>");
    assert_eq!(icp2c::lang::cheg::engine_name("a/b/krk.cheg"), "krk");
    assert_eq!(icp2c::lang::cheg::engine_name("bad\nname.cheg"), "bad?name");
    assert_eq!(icp2c::lang::cheg::engine_name(""), "program");
    // From standard input, through the CLI.
    let source = std::fs::read_to_string(support::root().join("examples/krk.cheg")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_icp2c"))
        .args(["--target", "rust", "--lang", "cheg", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let out = support::wait_limited(child, support::time_limit(), concat!(file!(), ":", line!()));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("const ICP_NAME: &str = \"<stdin>\";"),
        "no <stdin> name"
    );
}

/// Peak memory (VmHWM) of a running process, in kB.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[ignore = "writes a gigabyte through each engine; Linux (/proc); run by .ci/run"]
fn a_gigabyte_line_keeps_memory_small() {
    for (what, command) in engines() {
        let mut engine = Live::start(command);
        {
            let chunk = vec![b'x'; 1 << 20];
            let stdin = engine.stdin.as_mut().unwrap();
            for _ in 0..1024 {
                stdin.write_all(&chunk).unwrap();
            }
        }
        engine.send("\nisready\n");
        let ready = engine.wait_for("readyok", Duration::from_secs(60));
        assert!(ready.is_some(), "{what}: no answer after the long line");
        assert_eq!(
            engine.seen,
            [
                "info string error: command longer than 1048576 bytes, skipped",
                "readyok"
            ],
            "{what}"
        );
        let peak = peak_kb(engine.child.id()).expect("/proc/PID/status");
        assert!(peak < 64 * 1024, "{what}: peak RSS {peak} kB");
        eprintln!("{what}: peak RSS {peak} kB after a 1 GB line");
        engine.stdin = None;
        assert!(engine.exits_within(Duration::from_secs(10)), "{what}");
    }
}

#[test]
#[ignore = "needs python-chess (bash benches/setup.sh installs it): run by .ci/run"]
fn python_chess_drives_every_engine() {
    let python = support::root().join("benches/.venv/bin/python");
    assert!(
        python.exists(),
        "python-chess is missing: run `bash benches/setup.sh` first"
    );
    for (what, command) in engines() {
        // Several searches and a game with a clock: five times a
        // program's limit.
        let out = support::output_limited(
            Command::new(&python)
                .arg(support::root().join("tests/cheg_python_chess.py"))
                .args(command),
            support::time_limit() * 5,
            what,
        );
        assert!(
            out.status.success(),
            "{what}:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!("{what}:\n{}", String::from_utf8_lossy(&out.stdout));
    }
}

/// §11.23 with iterative deepening: a program that reads `PLIES` fails at
/// a node that only the depth-3 search visits (the lone king to move with
/// 2 plies left). A `--fen` query is one depth-4 search, and `go depth 4`
/// goes straight on to depth 4 after the error, so both answer as the
/// plain §7.3 search at depth 4 does; a search limited by nodes reports
/// the error it met. The same in the interpreter, C and Rust.
#[test]
fn an_error_of_a_shallower_depth_is_not_the_answer_of_go_depth() {
    const SOURCE: &str =
        "ENTRY K,Q\n      JUMP= PLIES,\"2,BAD\n      LEAVE\nBAD:  DIV A,\"1,\"0\nEND\n";
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cheg-plies");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("plies.cheg");
    std::fs::write(&source, SOURCE).unwrap();
    let plies = driver::check(Language::Cheg, SOURCE).unwrap().program;
    let c = support::build_c(&plies.emit_c("plies.cheg"), &dir, "plies", &[]).unwrap();
    let rust = support::build_rust_at(&plies.emit_rust("plies.cheg"), &dir, "plies", 2).unwrap();
    let text = |p: &Path| p.display().to_string();
    let commands = [
        vec![
            env!("CARGO_BIN_EXE_icp2c").to_string(),
            "run".to_string(),
            text(&source),
        ],
        vec![text(&c)],
        vec![text(&rust)],
    ];
    let position = format!("position fen {KQK}\n");
    for command in &commands {
        let fen = run(command, &["--fen", KQK, "--depth", "4"], b"");
        assert_eq!(
            fen,
            (0, "bestmove e1f1 score 1152\n".to_string(), String::new()),
            "{command:?}"
        );
        let (status, out, _) = run(command, &[], format!("{position}go depth 4\n").as_bytes());
        assert_eq!(status, 0);
        assert!(!out.contains("error"), "{command:?}: {out}");
        assert!(
            out.contains("info depth 4 ")
                && out.lines().last().unwrap().starts_with("bestmove e1f1"),
            "{command:?}: {out}"
        );
        let (_, out, err) = run(
            command,
            &[],
            format!("{position}go nodes 100000\n").as_bytes(),
        );
        assert!(
            out.contains("info string error: 4: division by zero"),
            "{command:?}: {out}"
        );
        assert!(out.ends_with("bestmove 0000\n"), "{command:?}: {out}");
        assert!(
            err.contains("error: 4: division by zero"),
            "{command:?}: {err}"
        );
    }
}
