//! Bad program input at run time (issue 5, part 5): non-numeric text,
//! numbers beyond 64 bits, a `+` sign, CRLF input, end of input inside a
//! statement, a `*` jump to a missing label. Each case states what §6 and
//! §8 of the InfChessPro contract (§4 and §6 of Finvara's) say: stdout and
//! exit status; the interpreter, the generated C and the generated Rust
//! must all do exactly that, with the same error line on stderr.

use crate::support;

use icp2c::driver::Language;
use support::batch::Prog;
use support::batch::three_ways;

struct Expect {
    prog: Prog,
    stdout: &'static str,
    status: i32,
    /// Text the error line must contain (status 1 only).
    error: &'static str,
}

fn icp(
    name: &str,
    source: &str,
    input: &str,
    stdout: &'static str,
    status: i32,
    error: &'static str,
) -> Expect {
    Expect {
        prog: Prog {
            name: name.to_string(),
            lang: Language::InfChessPro,
            source: source.to_string(),
            input: input.as_bytes().to_vec(),
        },
        stdout,
        status,
        error,
    }
}

fn fin(
    name: &str,
    source: &str,
    input: &str,
    stdout: &'static str,
    status: i32,
    error: &'static str,
) -> Expect {
    Expect {
        prog: Prog {
            name: name.to_string(),
            lang: Language::Finvara,
            source: source.to_string(),
            input: input.as_bytes().to_vec(),
        },
        stdout,
        status,
        error,
    }
}

/// Reads one number into a piece's row, prints `ok` and the row back
/// through a relative move, or `eof`.
const READ_ONE: &str = "1. a=K*,0 !5\n2. \"ok\n3. a;1,0 ?4\n4. %a\n5. \"end\n";

/// Reads numbers until end of input, printing a count each time.
const READ_ALL: &str = "1. a=K0,* !3\n2. %a ?1\n3. \"eof\n";

/// A Finvara reader: white's `r` falls into the hole at a1 (value 3:
/// read), then `p` falls into a2 (value 4: print the top).
const FIN_READ: &str = "(k):\n(r 3): (1,0)\n(p 4): (1,0)\n(n 0): (0,0)\n\
+--+--+--+\n|nB|  |kB|\n+--+--+--+\n|rW|pW|  |\n+--+--+--+\n|##|##|kW|\n+--+--+--+\n\
Turn 1 W: r b1 -> a1\nTurn 1 B: n c1 -> c1\nTurn 2 W: p b2 -> a2\n";

fn cases() -> Vec<Expect> {
    vec![
        // §6: blanks, then an optional sign and digits.
        icp("plain", READ_ONE, "5", "ok\n1\nend\n", 0, ""),
        icp("plus_sign", READ_ONE, "+5\n", "ok\n1\nend\n", 0, ""),
        icp("minus_sign", READ_ONE, "  \t-5", "ok\n1\nend\n", 0, ""),
        icp("crlf", READ_ONE, "\r\n7\r\n", "ok\n1\nend\n", 0, ""),
        icp(
            "min_i64",
            READ_ONE,
            "-9223372036854775808",
            "ok\n1\nend\n",
            0,
            "",
        ),
        // The relative move from row i64::MAX leaves the range: it fails.
        icp(
            "max_i64",
            READ_ONE,
            "9223372036854775807",
            "ok\n1\nend\n",
            0,
            "",
        ),
        icp(
            "leading_zeros",
            READ_ONE,
            "00000000000000000000000012",
            "ok\n1\nend\n",
            0,
            "",
        ),
        // §6: not a number, or out of range: a runtime error naming the
        // statement; nothing printed by it.
        icp("letters", READ_ONE, "abc", "", 1, "statement 1"),
        icp("lone_plus", READ_ONE, "+", "", 1, "statement 1"),
        icp("lone_minus", READ_ONE, "- 5", "", 1, "statement 1"),
        icp("plus_minus", READ_ONE, "+-5", "", 1, "statement 1"),
        icp(
            "too_big",
            READ_ONE,
            "9223372036854775808",
            "",
            1,
            "statement 1",
        ),
        icp(
            "too_small",
            READ_ONE,
            "-9223372036854775809",
            "",
            1,
            "statement 1",
        ),
        icp(
            "far_too_big",
            READ_ONE,
            "184467440737095516160000",
            "",
            1,
            "statement 1",
        ),
        icp("unicode_digit", READ_ONE, "\u{661}", "", 1, "statement 1"),
        // The number ends at the first non-digit; the next read meets it.
        icp(
            "number_then_letters",
            READ_ALL,
            "3x",
            "1\n",
            1,
            "statement 1",
        ),
        // End of input: the command is not performed and fails.
        icp("empty_input", READ_ONE, "", "end\n", 0, ""),
        icp("blank_input", READ_ONE, " \r\n\t\n", "end\n", 0, ""),
        icp(
            "read_all",
            READ_ALL,
            "1 2\r\n3\t4",
            "1\n2\n3\n4\neof\n",
            0,
            "",
        ),
        // End of input inside a statement: with some `*` read and some not,
        // the command is not performed.
        icp(
            "eof_mid_statement",
            "1. a=K0,0\n2. 0,0,*,* !4\n3. \"moved\n4. %a\n5. a,1,1 ?7\n6. \"stuck\n7. \"end\n",
            "1",
            "1\nend\n",
            0,
            "",
        ),
        // A `*` jump to a missing label is a runtime error.
        icp(
            "star_to_missing",
            "1. \"a\n2. ^ ?*\n3. \"b\n",
            "9",
            "a\n",
            1,
            "statement 2",
        ),
        icp(
            "star_to_negative",
            "1. ^ ?*\n2. \"b\n",
            "-3",
            "",
            1,
            "statement 1",
        ),
        icp(
            "star_to_label",
            "1. ^ ?*\n2. \"b\n3. \"c\n",
            "3",
            "c\n",
            0,
            "",
        ),
        // `?*` at end of input: the command fails, no `!`: next statement.
        icp(
            "star_success_eof",
            "1. ^ ?*\n2. \"next\n",
            "",
            "next\n",
            0,
            "",
        ),
        // `!*` at end of input: a runtime error.
        icp(
            "star_failure_eof",
            "1. ^ !*\n2. \"next\n",
            "",
            "",
            1,
            "statement 1",
        ),
        // A count whose `*` target finds end of input is not performed:
        // nothing printed (found by the differential test; the C and Rust
        // back ends used to print it).
        icp(
            "count_star_eof",
            "1. a=K0,0\n2. %a ?*\n3. \"next\n",
            "",
            "next\n",
            0,
            "",
        ),
        icp(
            "count_star_ok",
            "1. a=K0,0\n2. %a ?*\n3. \"next\n4. \"four\n",
            "4",
            "1\nfour\n",
            0,
            "",
        ),
        // Finvara §4: end of input pushes −1; bad text is a runtime error.
        fin("fin_read", FIN_READ, "42", "42\n", 0, ""),
        fin("fin_plus", FIN_READ, "+42\r\n", "42\n", 0, ""),
        fin("fin_eof", FIN_READ, "", "-1\n", 0, ""),
        fin(
            "fin_min",
            FIN_READ,
            "-9223372036854775808",
            "-9223372036854775808\n",
            0,
            "",
        ),
        fin("fin_letters", FIN_READ, "abc", "", 1, "turn 1 W"),
        fin(
            "fin_too_big",
            FIN_READ,
            "9223372036854775808",
            "",
            1,
            "turn 1 W",
        ),
        fin("fin_lone_minus", FIN_READ, "-", "", 1, "turn 1 W"),
    ]
}

#[test]
fn bad_input_behaves_as_the_contract_says_in_every_back_end() {
    let cases = cases();
    let progs: Vec<Prog> = cases.iter().map(|c| c.prog.clone()).collect();
    let results = three_ways(&progs);
    let mut failures = Vec::new();
    for (case, runs) in cases.iter().zip(&results) {
        for (target, ran) in ["run", "c", "rust"].iter().zip(runs) {
            let stderr = String::from_utf8_lossy(&ran.stderr);
            let ok = ran.stdout == case.stdout.as_bytes()
                && ran.status == case.status
                && if case.status == 1 {
                    stderr.lines().count() == 1
                        && stderr.contains(case.error)
                        && stderr.starts_with("error")
                } else {
                    stderr.is_empty()
                };
            if !ok {
                failures.push(format!(
                    "{} [{target}]: exit {} (want {}), stdout {:?} (want {:?}), stderr {:?}",
                    case.prog.name,
                    ran.status,
                    case.status,
                    String::from_utf8_lossy(&ran.stdout),
                    case.stdout,
                    stderr
                ));
            }
        }
        if runs[1].stderr != runs[0].stderr || runs[2].stderr != runs[0].stderr {
            failures.push(format!(
                "{}: error lines differ: run {:?}, c {:?}, rust {:?}",
                case.prog.name,
                String::from_utf8_lossy(&runs[0].stderr),
                String::from_utf8_lossy(&runs[1].stderr),
                String::from_utf8_lossy(&runs[2].stderr)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Reads a knight's row; prints `wrong` unless it can then jump to (9, 1)
/// (from row 7), then `seven` and `end`.
const READ_SEVEN: &str = "1. a=N*,0 !5\n2. a,9,1 ?4\n3. \"wrong\n4. \"seven\n5. \"end\n";

/// Program input of InfChessPro (§6) and Finvara (§4) is read as a stream
/// of bytes: a newline is a blank, so a line may be of any length, and a
/// number token is never held whole. A 100 MB number (leading zeros, then
/// 7) is 7; a 100 MB number of nines is the contract's out-of-range error.
/// Each back end runs under `ulimit -v` 64 MB (the address space, not
/// timed): a reader that held the token would run out of memory.
#[test]
#[ignore = "slow (8 s): streams 100 MB through every back end; .ci/run runs it"]
fn a_100_mb_number_is_read_as_a_stream_in_every_back_end() {
    const SIZE: usize = 100_000_000;
    // Sanitized builds reserve terabytes of address space: no limit then.
    let limit = if support::batch::sanitizing() {
        String::new()
    } else {
        "ulimit -v 65536; ".to_string()
    };
    let dir = tempfile::tempdir().unwrap();
    let icp2c = env!("CARGO_BIN_EXE_icp2c");
    let mut failures = Vec::new();
    for (lang, source, seven, range) in [
        (
            Language::InfChessPro,
            READ_SEVEN,
            "seven\nend\n",
            "outside the signed 64-bit range (§6)",
        ),
        (
            Language::Finvara,
            FIN_READ,
            "7\n",
            "outside the signed 64-bit range (§4)",
        ),
    ] {
        let prog = Prog {
            name: format!("long_{}", lang.extension()),
            lang,
            source: source.to_string(),
            input: Vec::new(),
        };
        let file = dir.path().join(prog.file_name());
        std::fs::write(&file, source).unwrap();
        let program = prog.checked();
        let c = support::batch::build_c(
            &program,
            &prog.file_name(),
            dir.path(),
            &prog.name,
            &support::batch::c_flags(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let rust = support::build_rust(
            &program.emit_rust(&prog.file_name()),
            dir.path(),
            &prog.name,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let targets = [
            ("run", format!("exec {icp2c} run {}", file.display())),
            ("c", format!("exec {}", c.display())),
            ("rust", format!("exec {}", rust.display())),
        ];
        for (digit, tail, stdout, error) in [
            (b'0', &b"7\n"[..], seven, ""),
            (b'9', &b"\n"[..], "", range),
        ] {
            for (target, command) in &targets {
                let mut child = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(format!("{limit}{command}"))
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                let mut stdin = child.stdin.take().unwrap();
                let writer = std::thread::spawn(move || {
                    use std::io::Write;
                    let chunk = vec![digit; 1 << 20];
                    // The reader may stop early (an error ends it): a
                    // broken pipe is fine.
                    for _ in 0..SIZE / chunk.len() {
                        if stdin.write_all(&chunk).is_err() {
                            return;
                        }
                    }
                    let _ = stdin.write_all(&chunk[..SIZE % chunk.len()]);
                    let _ = stdin.write_all(tail);
                });
                let out = support::wait_limited(
                    child,
                    support::time_limit(),
                    concat!(file!(), ":", line!()),
                );
                writer.join().unwrap();
                let stderr = String::from_utf8_lossy(&out.stderr);
                let status = out.status.code();
                let ok = if error.is_empty() {
                    status == Some(0) && out.stdout == stdout.as_bytes() && stderr.is_empty()
                } else {
                    status == Some(1)
                        && out.stdout.is_empty()
                        && stderr.lines().count() == 1
                        && stderr.contains(error)
                };
                if !ok {
                    failures.push(format!(
                        "{} [{target}] on 100 MB of {}: exit {status:?}, stdout {:?}, stderr {stderr:?}",
                        prog.name, digit as char, String::from_utf8_lossy(&out.stdout)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
