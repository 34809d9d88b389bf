//! Tests of the engine's command line and UCI loop (`spec/cheg.md` §7.4,
//! §11.17, §11.20, §11.28), on the paths that do not need the search: usage,
//! FEN errors, perft, positions without a legal move, the UCI commands.

use icp2c::lang::cheg::runtime::engine::{Endgame, EntrySpec, Error, Invocation, Step};
use icp2c::lang::cheg::runtime::uci;

/// A program with no `ENTRY`: never consulted, so the engine searches
/// alone.
struct NoProgram;
impl Endgame for NoProgram {
    fn entries(&self) -> &[EntrySpec] {
        &[]
    }
    fn line(&self, _pc: usize) -> u32 {
        0
    }
    fn user_vars(&self) -> usize {
        0
    }
    fn step(&self, _pc: usize, _inv: &mut Invocation<'_, '_>) -> Result<Step, Error> {
        Ok(Step::Fence)
    }
}

/// Runs the engine's main (named `test`) on `input` read in place;
/// returns (status, stdout, stderr).
fn run_bytes(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut input = input;
    let mut commands = uci::LineReader::new(&mut input);
    let mut output = Vec::new();
    let mut errors = Vec::new();
    let status = uci::main(
        "test",
        &args,
        &NoProgram,
        &mut commands,
        &uci::SystemClock::new(),
        &mut output,
        &mut errors,
    );
    (
        status,
        String::from_utf8(output).unwrap(),
        String::from_utf8(errors).unwrap(),
    )
}

fn run(args: &[&str], input: &str) -> (i32, String, String) {
    run_bytes(args, input.as_bytes())
}

/// `text` with the `time` and `nps` fields of its `info` lines removed:
/// the only fields that may differ between two runs (§7.5).
fn masked(text: &str) -> String {
    text.lines()
        .map(|line| {
            let mut words: Vec<&str> = line.split(' ').collect();
            if words.first() == Some(&"info") {
                let mut i = 0;
                while i + 1 < words.len() {
                    if words[i] == "time" || words[i] == "nps" {
                        words.drain(i..i + 2);
                    } else {
                        i += 1;
                    }
                }
            }
            words.join(" ") + "\n"
        })
        .collect()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn perft_queries() {
    assert_eq!(
        run(&["--fen", START, "--perft", "3"], ""),
        (0, "8902\n".into(), String::new())
    );
    // §11.28: --perft 0 prints 1.
    assert_eq!(run(&["--fen", START, "--perft", "0"], "").1, "1\n");
    // Options in any order; --depth and --no-endgame do not change a perft.
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(
        run(
            &[
                "--perft",
                "2",
                "--no-endgame",
                "--depth",
                "7",
                "--fen",
                kiwi
            ],
            ""
        )
        .1,
        "2039\n"
    );
}

#[test]
fn usage_errors_exit_2() {
    let cases: &[&[&str]] = &[
        &["--fen"],
        &["--depth", "3"],
        &["--fen", START, "--depth", "0"],
        &["--fen", START, "--depth", "21"],
        &["--fen", START, "--depth", "x"],
        &["--fen", START, "--depth", "-1"],
        &["--fen", START, "--depth", "+3"],
        &["--fen", START, "--depth"],
        &["--fen", START, "--perft", "-1"],
        &["--fen", START, "--perft", "99"],
        &["--fen", START, "--bogus"],
        &["--fen", START, "--fen", START],
        &["--fen", START, "--no-endgame", "--no-endgame"],
        &["--fen", START, "extra"],
        &[""],
    ];
    for args in cases {
        let (status, out, err) = run(args, "");
        assert_eq!(status, 2, "{args:?}");
        assert_eq!(out, "", "{args:?}");
        assert!(
            err.starts_with("error: ") && err.contains("usage"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn bad_fen_exit_2() {
    for fen in [
        "",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "k6R/8/8/8/8/8/8/K7 w - - 0 1",
        "kP6/8/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 w - e3 0 1",
        "k7/8/8/8/8/8/8/K7 w",
        "garbage",
    ] {
        let (status, out, err) = run(&["--fen", fen, "--perft", "1"], "");
        assert_eq!(status, 2, "{fen}");
        assert_eq!(out, "");
        assert!(
            err.starts_with("error: bad FEN: ") && err.ends_with('\n'),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(run(&["--fen", fen], "").0, 2);
    }
}

#[test]
fn no_legal_move() {
    // §11.17: checkmate −28671, stalemate 0, bestmove 0000.
    let mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
    assert_eq!(run(&["--fen", mate], "").1, "bestmove 0000 score -28671\n");
    let stale = "7k/5Q2/8/8/8/8/8/6K1 b - - 0 1";
    assert_eq!(
        run(&["--fen", stale, "--depth", "5", "--no-endgame"], "").1,
        "bestmove 0000 score 0\n"
    );
    let (status, out, _) = run(
        &[],
        &format!("position fen {mate}\ngo depth 3\nposition fen {stale}\ngo\nquit\n"),
    );
    assert_eq!(status, 0);
    assert_eq!(
        masked(&out),
        "info depth 3 score mate -1 nodes 1\nbestmove 0000\n\
         info depth 4 score cp 0 nodes 1\nbestmove 0000\n"
    );
}

#[test]
fn go_depth_above_20_searches_depth_20() {
    // §7.5: a GUI's `go depth 30` searches depth 20 and says so; 0 and
    // words are still refused (with a bestmove).
    let mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
    let (status, out, _) = run(
        &[],
        &format!(
            "position fen {mate}\ngo depth 30\ngo depth 99999999999999999999999\n\
             go depth 0\ngo depth twenty\n"
        ),
    );
    assert_eq!(status, 0);
    assert_eq!(
        masked(&out),
        "info string go depth 30: searching depth 20, the deepest\n\
         info depth 20 score mate -1 nodes 1\nbestmove 0000\n\
         info string go depth 18446744073709551615: searching depth 20, the deepest\n\
         info depth 20 score mate -1 nodes 1\nbestmove 0000\n\
         info string error: go depth '0': expected a depth from 1\nbestmove 0000\n\
         info string error: go depth 'twenty': expected a depth from 1\nbestmove 0000\n"
    );
}

#[test]
fn options_have_ranges_and_names_with_blanks() {
    // §7.5: a value outside its range is refused and changes nothing; a
    // name may contain blanks; Clear Hash is a button.
    let (status, out, _) = run(
        &[],
        "setoption name Hash value 0\nsetoption name Hash value 1025\n\
         setoption name Move Overhead value 30\nsetoption name MOVE OVERHEAD value 5000\n\
         setoption name Move Overhead value 5001\nsetoption name Move Overhead value -1\n\
         setoption name Clear Hash\nsetoption name Move\nsetoption name Depth\n\
         setoption name Depth value 2 3\nsetoption value 3\n",
    );
    assert_eq!(status, 0);
    assert_eq!(
        out,
        "info string error: Hash 0: expected 1 to 1024\n\
         info string error: Hash 1025: expected 1 to 1024\n\
         info string error: Move Overhead 5001: expected 0 to 5000\n\
         info string error: Move Overhead -1: expected 0 to 5000\n\
         info string error: expected 'setoption name NAME [value VALUE]'\n\
         info string error: expected 'setoption name NAME [value VALUE]'\n\
         info string error: Depth 2 3: expected 1 to 20\n\
         info string error: expected 'setoption name NAME [value VALUE]'\n"
    );
    let (_, out, _) = run(&[], "uci\n");
    assert!(
        out.contains(
            "option name Clear Hash type button\n\
             option name Threads type spin default 1 min 1 max 1\n\
             option name Ponder type check default false\n\
             option name Move Overhead type spin default 30 min 0 max 5000\nuciok\n"
        ),
        "{out}"
    );
}

#[test]
fn uci_scores() {
    // §11.20.
    assert_eq!(uci::uci_score(0), "cp 0");
    assert_eq!(uci::uci_score(128), "cp 100");
    assert_eq!(uci::uci_score(127), "cp 99");
    assert_eq!(uci::uci_score(-127), "cp -99");
    assert_eq!(uci::uci_score(28416), "cp 22200");
    assert_eq!(uci::uci_score(28670), "mate 1");
    assert_eq!(uci::uci_score(28668), "mate 2");
    assert_eq!(uci::uci_score(28417), "mate 128");
    assert_eq!(uci::uci_score(-28671), "mate -1");
    assert_eq!(uci::uci_score(-28669), "mate -2");
    assert_eq!(uci::uci_score(28672), "mate 0");
    assert_eq!(uci::uci_score(-28672), "mate 0");
    // Beyond the mate values (the uncertain VALRET branch, §6.2): centipawns.
    assert_eq!(uci::uci_score(28673), "cp 22400");
    assert_eq!(uci::uci_score(4931553088), "cp 3852775850");
    assert_eq!(uci::uci_score(i64::MAX), "cp 7205759403792793599");
    assert_eq!(uci::uci_score(i64::MIN), "cp -7205759403792793600");
}

#[test]
fn uci_handshake_and_perft() {
    let (status, out, err) = run(
        &[],
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo perft 1\nquit\ngo perft 1\n",
    );
    assert_eq!(status, 0);
    assert_eq!(err, "");
    let mut want = String::from(
        "id name test (icp2c CHEG engine)\nid author icp2c\n\
         option name Depth type spin default 4 min 1 max 20\n\
         option name Endgame type check default true\n\
         option name Hash type spin default 16 min 1 max 1024\n\
         option name Clear Hash type button\n\
         option name Threads type spin default 1 min 1 max 1\n\
         option name Ponder type check default false\n\
         option name Move Overhead type spin default 30 min 0 max 5000\nuciok\nreadyok\n",
    );
    // §7.2 order: K, Q, B, N, N2, pawns h … a.
    for mv in [
        "e1e2", "d1e2", "d1f3", "d1g4", "d1h5", "f1e2", "f1d3", "f1c4", "f1b5", "f1a6", "g1e2",
        "g1f3", "g1h3", "b1a3", "b1c3", "h2h3", "h2h4", "g2g3", "g2g4", "f2f3", "f2f4", "d2d3",
        "d2d4", "c2c3", "c2c4", "b2b3", "b2b4", "a2a3", "a2a4",
    ] {
        want.push_str(&format!("{mv}: 1\n"));
    }
    want.push_str("\nNodes searched: 29\n");
    assert_eq!(out, want);
}

#[test]
fn uci_go_perft_counts() {
    let out = run(&[], "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\ngo perft 3\n").1;
    assert!(out.ends_with("\nNodes searched: 97862\n"), "{out}");
    assert_eq!(out.lines().count(), 48 + 2);
    assert!(out.starts_with("e1c1: "), "{out}");
    assert_eq!(run(&[], "go perft 0\n").1, "\nNodes searched: 1\n");
}

#[test]
fn uci_errors_change_nothing() {
    // (But a refused `position` line: below.)
    let (status, out, err) = run(
        &[],
        "position startpos moves e2e4\n\
         setoption name Depth value 0\n\
         setoption name Depth value 21\n\
         setoption name Endgame value maybe\n\
         setoption name Hash value 1025\n\
         setoption name Threads value 2\n\
         setoption name Ponder value maybe\n\
         setoption name Colour value white\n\
         setoption\n\
         go depth 0\n\
         go depth -1\n\
         go perft x\n\
         go perft 65\n\
         fly\n\
         d extra\n\
         \n\
         \u{0}\u{7f}\n\
         stop\n\
         d\n",
    );
    assert_eq!(status, 0);
    assert_eq!(err, "");
    let lines: Vec<&str> = out.lines().collect();
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(errors, 15, "{out}");
    // A refused `go` still answers (§7.5); a refused `go perft` does not.
    assert_eq!(out.matches("bestmove 0000\n").count(), 2, "{out}");
    // The position is still the one after e2e4.
    assert!(
        out.contains(
            "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nCheckers: \n"
        ),
        "{out}"
    );
}

#[test]
fn a_refused_position_leaves_none_and_bad_moves_stop_at_the_first() {
    // §7.5: after a bad FEN (or a malformed position line) there is no
    // position: go answers `no position` and bestmove 0000, never a move
    // of the older position; in `moves`, those before the first bad one
    // are played.
    for bad in [
        "position fen 8/8/8 w - - 0 1",
        "position",
        "position startpos junk",
    ] {
        let (status, out, _) = run(
            &[],
            &format!(
                "position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1\n{bad}\n\
                 go depth 1\ngo perft 1\nd\nucinewgame\ngo perft 1\n"
            ),
        );
        assert_eq!(status, 0);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("info string error: "), "{bad}: {out}");
        assert_eq!(
            &lines[1..5],
            [
                "info string error: no position",
                "bestmove 0000",
                "info string error: no position",
                "info string error: no position",
            ],
            "{bad}: {out}"
        );
        assert!(out.ends_with("\nNodes searched: 20\n"), "{bad}: {out}");
    }
    let (_, out, _) = run(
        &[],
        "position startpos moves e2e4 e7e5 e2e5 g1f3\nd\n\
         position fen k7/8/8/8/8/8/8/K7 w - - 0 1 moves a1a3 a1b1\nd\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "info string error: illegal move 'e2e5' in \
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    assert!(
        out.contains("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n"),
        "{out}"
    );
    assert!(
        out.contains("info string error: illegal move 'a1a3' in k7/8/8/8/8/8/8/K7 w - - 0 1\n"),
        "{out}"
    );
    assert!(out.contains("Fen: k7/8/8/8/8/8/8/K7 w - - 0 1\n"), "{out}");
}

#[test]
fn uci_display() {
    let out = run(&[], "position fen 4k3/8/8/8/8/8/8/4K2r w - - 0 1\nd\n").1;
    let border = " +---+---+---+---+---+---+---+---+\n";
    let want = format!("\n{border} |   |   |   |   | k |   |   |   | 8\n{border}");
    assert!(out.starts_with(&want), "{out}");
    assert!(out.ends_with(
        " |   |   |   |   | K |   |   | r | 1\n +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n\nFen: 4k3/8/8/8/8/8/8/4K2r w - - 0 1\nCheckers: h1 \n"
    ), "{out}");
}

#[test]
fn uci_end_of_input_and_invalid_utf8() {
    let (status, out, _) = run_bytes(&[], b"isready\n\xff\xfe\nisready");
    assert_eq!(status, 0);
    assert!(
        out.starts_with("readyok\ninfo string error: unknown command"),
        "{out}"
    );
    assert!(out.ends_with("readyok\n"), "{out}");
}

#[test]
fn uci_garbage_never_panics() {
    // Random lines from UCI words and junk (no search: `go` only with
    // perft); the loop answers every line and never stops early.
    let words = [
        "uci",
        "isready",
        "position",
        "startpos",
        "fen",
        "moves",
        "e2e4",
        "e7e5",
        "e1g1",
        "a7a8q",
        "0000",
        "setoption",
        "name",
        "value",
        "Depth",
        "Endgame",
        "true",
        "7",
        "-3",
        "go",
        "perft",
        "2",
        "d",
        "ucinewgame",
        "8/8/8/8/8/8/8/8",
        "k7/8/8/8/8/8/8/K7",
        "w",
        "b",
        "-",
        "KQkq",
        "\u{0}",
        "é",
        "99999999999999999999999",
    ];
    let mut seed = 12345u64;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((seed >> 33) % n as u64) as usize
    };
    let mut input = String::new();
    for _ in 0..400 {
        let n = next(7);
        let mut line: Vec<&str> = (0..n).map(|_| words[next(words.len())]).collect();
        if line.first() == Some(&"go") {
            line.insert(1, "perft");
            line.insert(2, "1");
        } else if line.contains(&"go") {
            line.retain(|w| *w != "go");
        }
        input.push_str(&line.join(" "));
        input.push('\n');
    }
    input.push_str("isready\n");
    let (status, out, _) = run(&[], &input);
    assert_eq!(status, 0);
    assert!(out.ends_with("readyok\n"), "{out}");
}

/// The tactical positions of the conformance suite `chess/perft` (main
/// program alone, depth 3) with their published answers.
const TACTICS: &[(&str, &str)] = &[
    (
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "bestmove d1d8 score 28670",
    ),
    (
        "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1",
        "bestmove b5c7 score 384",
    ),
    ("8/1P6/8/8/8/8/k7/4K3 w - - 0 1", "bestmove e1d1 score 1152"),
    ("4k3/8/8/8/8/8/r7/4K2R w K - 0 1", "bestmove e1f1 score 0"),
    (
        "3r2k1/2P5/8/8/8/8/8/K7 w - - 0 1",
        "bestmove c7d8q score 1152",
    ),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "bestmove e1d1 score 0"),
    (
        "2k5/8/8/8/8/8/1q6/K2R4 w - - 0 1",
        "bestmove a1b2 score 640",
    ),
];

#[test]
fn search_queries() {
    for (fen, want) in TACTICS {
        let (status, out, err) = run(&["--fen", fen, "--depth", "3", "--no-endgame"], "");
        assert_eq!(
            (status, out.as_str(), err.as_str()),
            (0, format!("{want}\n").as_str(), ""),
            "{fen}"
        );
    }
}

#[test]
fn uci_go_transcript() {
    let (status, out, _) = run(
        &[],
        "uci\nisready\nsetoption name Endgame value false\n\
         position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 3 wtime 100000 btime 100000\n",
    );
    assert_eq!(status, 0);
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n >= 2, "{out}");
    // 28670 is mate in 1 (§11.20); one line per depth (§7.5).
    assert!(
        lines[n - 2].starts_with("info depth 3 score mate 1 nodes "),
        "{out}"
    );
    assert!(
        lines[n - 4].starts_with("info depth 1 score mate 1 nodes "),
        "{out}"
    );
    assert!(lines[n - 2].ends_with(" pv d1d8"), "{out}");
    assert_eq!(lines[n - 1], "bestmove d1d8");
}

#[test]
fn go_mate_stops_at_the_first_proven_mate_and_bestmove_names_a_ponder_move() {
    // §7.5: `go mate M` searches up to depth 2M − 1 and stops at a mate in
    // at most M moves; `bestmove M ponder P` when the principal variation
    // has a reply. Mate in 1 (Rd8#) is proven at depth 1.
    let mate_in_one = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let (status, out, _) = run(
        &[],
        &format!(
            "setoption name Endgame value false\nposition fen {mate_in_one}\ngo mate 1\n\
             go mate 3 depth 2\nposition startpos\ngo mate 1\ngo depth 2\n"
        ),
    );
    assert_eq!(status, 0);
    assert_eq!(
        masked(&out),
        "info depth 1 score mate 1 nodes 21 pv d1d8\nbestmove d1d8\n\
         info depth 1 score mate 1 nodes 21 pv d1d8\nbestmove d1d8\n\
         info depth 1 score cp 0 nodes 21 pv g1f3\nbestmove g1f3\n\
         info depth 1 score cp 0 nodes 21 pv g1f3\n\
         info depth 2 score cp 0 nodes 85 pv g1f3 a7a6\nbestmove g1f3 ponder a7a6\n"
    );
}
