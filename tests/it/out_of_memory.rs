//! Running out of memory is one line on standard error and an exit
//! status, never an abort: `error: out of memory while compiling FILE`
//! (status 2) while icp2c reads, checks or compiles a program, in `--check`,
//! compiling and `run`; and while `run` runs a program, the runtime error
//! its generated programs print (InfChessPro `error: statement N: memory
//! exhausted (§8)`, Finvara `error: turn T C: memory exhausted`, CHEG
//! `error: memory exhausted`; status 1). Each case runs icp2c under
//! `ulimit -v` (its address space), far below what the program needs.
#![cfg(unix)]

use crate::support;

use std::path::Path;
use support::{Ran, run_exe};

/// `icp2c ARGS` with its address space limited to `kb` KB.
fn icp2c_within(kb: u32, args: &[&str], input: &[u8]) -> Ran {
    let script = format!("ulimit -v {kb} && exec \"$0\" \"$@\"");
    let mut all = vec!["-c", &script, env!("CARGO_BIN_EXE_icp2c")];
    all.extend_from_slice(args);
    run_exe(Path::new("sh"), &all, input)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Asserts that `ran` ended with `status` and wrote `line` alone on
/// standard error.
fn assert_one_line(ran: &Ran, status: i32, line: &str, what: &str) {
    assert_eq!(
        (ran.status, text(&ran.stderr)),
        (status, format!("{line}\n")),
        "{what}"
    );
}

/// A million InfChessPro placements (`N. pN=P0,N`, 25 MB): checking it
/// takes about 770 MB (`/usr/bin/time -v`, debug and release builds
/// alike), so 120,000 KB runs out while compiling.
#[test]
fn running_out_while_compiling_is_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.icp");
    let mut source = String::with_capacity(26_000_000);
    for n in 1..=1_000_000 {
        source.push_str(&format!("{n}. p{n}=P0,{n}\n"));
    }
    std::fs::write(&big, &source).unwrap();
    let big_s = big.to_str().unwrap();
    let compiling = format!("error: out of memory while compiling {big_s}");
    let checked = icp2c_within(120_000, &["--check", big_s], b"");
    assert_one_line(&checked, 2, &compiling, "--check");
    let out = dir.path().join("big.c");
    let emitted = icp2c_within(120_000, &[big_s, "-o", out.to_str().unwrap()], b"");
    assert_one_line(&emitted, 2, &compiling, "-o big.c");
    assert!(!out.exists(), "a partial big.c was written");
    let ran = icp2c_within(120_000, &["run", big_s], b"");
    assert_one_line(&ran, 2, &compiling, "run");
    // Standard input is named as diagnostics name it.
    let piped = icp2c_within(120_000, &["--check", "-"], source.as_bytes());
    assert_one_line(
        &piped,
        2,
        "error: out of memory while compiling <stdin>",
        "--check -",
    );
    // Finvara: 600,000 moves (15 MB, about 300 MB to check).
    let moves = dir.path().join("moves.fin");
    let mut fin = String::from(
        "(k):\n(n 0): (0,0)\n+--+--+--+--+\n|  |  |nB|kB|\n+--+--+--+--+\n|nW|  |  |kW|\n+--+--+--+--+\n",
    );
    for t in 1..=300_000 {
        fin.push_str(&format!("Turn {t} W: n a1 -> a1\nTurn {t} B: n b3 -> b3\n"));
    }
    std::fs::write(&moves, fin).unwrap();
    let moves_s = moves.to_str().unwrap();
    let ran = icp2c_within(120_000, &["run", moves_s], b"");
    assert_one_line(
        &ran,
        2,
        &format!("error: out of memory while compiling {moves_s}"),
        "Finvara run",
    );
}

/// A Finvara printer whose notation is a chain of 12 doubling references
/// copied into a `*` body (16,381 units, docs/finvara.md "Limits"): each
/// search over it tracks one path per copy, about 40 MB.
fn finvara_copies() -> String {
    let letters: Vec<char> = ('a'..='z').filter(|c| !"knrp".contains(*c)).collect();
    let mut kinds = format!("({} 0): (1,0)\n", letters[0]);
    for i in 1..12 {
        let below = letters[i - 1];
        kinds.push_str(&format!(
            "({} 0): {{\"{below}\",\"{below}\"}}\n",
            letters[i]
        ));
    }
    format!(
        "(k):\n(n 0): (0,0)\n{kinds}(r 3): (1,0)\n(p 4): [\"{}\"]*\n\
         +--+--+--+--+\n|kB|nB|  |  |\n+--+--+--+--+\n|  |  |  |  |\n+--+--+--+--+\n\
         |rW|pW|  |  |\n+--+--+--+--+\n|##|##|##|kW|\n+--+--+--+--+\n\
         Turn 1 W: r b1 -> a1\nTurn 1 B: n d2 -> d2\nTurn 2 W: p b2 -> a2\n",
        letters[11]
    )
}

/// While `run` runs a program, exhausted memory is the runtime error the
/// generated programs print, with status 1.
#[test]
fn running_out_while_a_program_runs_is_its_runtime_error() {
    let dir = tempfile::tempdir().unwrap();
    // Finvara: the search before the first move runs out.
    let copies = dir.path().join("copies.fin");
    std::fs::write(&copies, finvara_copies()).unwrap();
    let valid = icp2c_within(1_000_000, &["--check", copies.to_str().unwrap()], b"");
    assert_eq!(valid.status, 0, "{}", text(&valid.stderr));
    let fin = icp2c_within(16_000, &["run", copies.to_str().unwrap()], b"42\n");
    let line = text(&fin.stderr);
    assert!(
        fin.status == 1
            && line.starts_with("error: turn ")
            && line.ends_with(": memory exhausted\n")
            && line.lines().count() == 1,
        "status {}: {line}",
        fin.status
    );
    // InfChessPro: a rook placed on every row the input names.
    let rooks = dir.path().join("rooks.icp");
    std::fs::write(&rooks, "1. a=R*,0 ?1\n").unwrap();
    let rows: String = (1..=2_000_000).map(|n| format!("{n}\n")).collect();
    let icp = icp2c_within(30_000, &["run", rooks.to_str().unwrap()], rows.as_bytes());
    assert_one_line(
        &icp,
        1,
        "error: statement 1: memory exhausted (§8)",
        "InfChessPro",
    );
    // CHEG: the engine's transposition table (16 MB) does not fit. Its
    // runtime does not report exhausted memory itself: the line is the
    // one its C engine prints.
    let krk = support::root().join("examples/krk.cheg");
    let cheg = icp2c_within(
        20_000,
        &[
            "run",
            krk.to_str().unwrap(),
            "--fen",
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        ],
        b"",
    );
    assert_one_line(&cheg, 1, "error: memory exhausted", "CHEG");
}
