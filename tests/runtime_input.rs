//! Bad program input at run time (issue 5, part 5): non-numeric text,
//! numbers beyond 64 bits, a `+` sign, CRLF input, end of input inside a
//! statement, a `*` jump to a missing label. Each case states what §6 and
//! §8 of the InfChessPro contract (§4 and §6 of Finvara's) say: stdout and
//! exit status; the interpreter, the generated C and the generated Rust
//! must all do exactly that, with the same error line on stderr.

mod support;

use icp2c::driver::Language;
use support::batch::{Prog, three_ways};

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
