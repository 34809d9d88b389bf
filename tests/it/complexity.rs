//! Tests (not benchmarks) that protect the board runtime's costs
//! (docs/runtime-design.md, "Data structures and costs"; issue 4): each
//! finishes in the normal test time only if no operation walks the distance
//! of a slide or scans the pieces. A runtime that stepped along a 10^18-square
//! ray, or looked at every piece per check test, would not finish at all.
//!
//! The interpreter runs on the shared Rust runtime (the one generated Rust
//! embeds); the generated C carries its own runtime, so it is compiled with
//! `cc` and run too (skipped, with a note, when no `cc` is found).

use crate::support;
use icp2c::Outcome;
use icp2c::lang::icp::{self, backend};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Pieces placed before the slides.
const PIECES: u64 = 100_000;
/// Rounds of `ROUNDS_PROGRAM`: 4 moves each (2 slides of ~10^18 squares,
/// 2 refused moves), plus the round counter's step, all under check rules.
const ROUNDS: u64 = 20_000;

/// Places PIECES black pawns read from input (half of them on row 0 beyond
/// the black rook, so the king's row holds 5·10^4 pieces; half on column 1
/// far below the king, so the shield's column does too), then runs the
/// shared `guarded_slides` workload: a white rook pinned between its king on
/// (0, 0) and a black rook on (0, 10^18) slides 10^18 − 2 squares along the
/// pin and back, and two moves off the line (one of 10^12 squares) are
/// refused because they would expose the king.
const ROUNDS_PROGRAM: &str = "\
1. p=p*,*!3
2. ^?1
3. K=K0,0
4. shield=R0,1
5. foe=r0,1000000000000000000
6. rounds=R5,*
7. wall=P5,-1
8. shield,0,999999999999999999
9. shield,0,1
10. shield,1000000000000,1!11
11. shield;-777777777777,0!12
12. rounds;0,-1?8
13. %p
14. \"done
";

/// The input: the pawns' squares; then the first square again, which is
/// occupied, so its placement fails and ends the placing loop; then the
/// number of rounds.
fn input() -> String {
    let mut s = String::new();
    for i in 0..PIECES as i64 {
        if i % 2 == 0 {
            // Row 0 beyond the foe.
            s.push_str(&format!("0 {}\n", 1_000_000_000_000_000_001 + i * 3));
        } else {
            // Column 1, far below the king.
            s.push_str(&format!("{} 1\n", -100_000_000_000_000_000 - i * 5));
        }
    }
    // An occupied square ends the placing loop (its `!` target).
    s.push_str(&format!("0 {}\n", 1_000_000_000_000_000_001i64));
    s.push_str(&format!("{ROUNDS}\n"));
    s
}

fn expected() -> String {
    format!("{PIECES}\ndone\n")
}

#[test]
fn interpreter_slides_do_not_walk_the_distance() {
    let program = icp::check(ROUNDS_PROGRAM).expect("valid").program;
    let input = input();
    let mut out = Vec::new();
    let t = Instant::now();
    let outcome = icp::interp::run(&program, &mut input.as_bytes(), &mut out, None, None, false);
    assert_eq!(outcome, Outcome::Halted);
    assert_eq!(String::from_utf8(out).unwrap(), expected());
    eprintln!(
        "interpreter: {PIECES} pieces, {ROUNDS} rounds of 10^18-square slides in {:.2?}",
        t.elapsed()
    );
}

#[cfg_attr(
    icp2c_no_cc,
    ignore = "needs the C compiler $CC (default cc), missing when the tests were built"
)]
#[test]
fn generated_c_slides_do_not_walk_the_distance() {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let program = icp::check(ROUNDS_PROGRAM).expect("valid").program;
    let dir = std::env::temp_dir().join(format!("icp2c-complexity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c_path = dir.join("slides.c");
    let exe = dir.join("slides");
    std::fs::write(&c_path, backend::c::emit(&program, "slides.icp")).unwrap();
    let status = Command::new(&cc)
        .args([
            "-std=c99",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
        ])
        .arg(&c_path)
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc failed on the generated C");
    let t = Instant::now();
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let input = input();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = support::wait_limited(child, support::time_limit(), concat!(file!(), ":", line!()));
    feeder.join().unwrap().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected());
    eprintln!(
        "generated C: {PIECES} pieces, {ROUNDS} rounds of 10^18-square slides in {:.2?}",
        t.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Many kings and many sliders: the check test must use fixed-offset
/// look-ups and ray queries, never a scan over the pieces. 200 white kings
/// stand on a diagonal far away, 2·10^4 black rooks on rows and columns
/// that meet no king; a white knight hops back and forth 500 times, each
/// hop tested against every king (4 ray queries per king, O(1) each on an
/// empty line; a scan over the rooks would cost 4·10^6 per hop).
#[test]
fn check_test_does_not_scan_the_pieces() {
    use icp2c::lang::icp::runtime::board::{Board, Colour, Kind};
    let kings = 200i64;
    let rooks = 20_000i64;
    let mut b = Board::new(3);
    for i in 0..kings {
        let d = 1_000_000_000 + i * 1_000;
        assert_eq!(b.place(0, Colour::White, Kind::King, d, d), Ok(true));
    }
    for i in 0..rooks {
        // Rows and columns far from every king's row, column and diagonals.
        let r = -4_000_000_000_000 - i * 7;
        let c = 3_000_000_000_000 + i * 11;
        assert_eq!(b.place(1, Colour::Black, Kind::Rook, r, c), Ok(true));
    }
    assert_eq!(b.place(2, Colour::White, Kind::Knight, 0, 0), Ok(true));
    let t = Instant::now();
    for i in 0..500 {
        let (dr, dc) = if i % 2 == 0 { (1, 2) } else { (-1, -2) };
        assert_eq!(b.move_name_by(2, dr, dc), Ok(true));
    }
    eprintln!(
        "{kings} kings, {rooks} enemy rooks: 500 knight hops in {:.2?}",
        t.elapsed()
    );
}
