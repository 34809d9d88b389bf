//! Injection (issue 5, part 4): statement text, comments, move lines and
//! file names built to break out of C and Rust string literals and
//! comments (`"`, `\`, `*/`, `??/` trigraphs, `{}`, NUL, `#include`, CR,
//! escapes that look valid or not, right-to-left marks). The generated
//! code must compile with the strict flags (cc -Werror, rustc -D warnings,
//! single file) and print exactly the text.

use crate::support;

use icp2c::driver::{self, Language};
use support::progen::HOSTILE;
use support::{build_c, build_rust, run_exe};

/// Pieces of hostile text, on top of the generators' list.
const MORE: &[&str] = &[
    "\0",
    "a\0b",
    "\r",
    "a\rb",
    "\u{7}\u{8}\u{1b}[31m",
    "\\\\\"\\",
    "\\q\\z\\8\\u{zz}\\x",
    "\"#;",
    "*/ int main(void) { return 3; } /*",
    "\"); std::process::exit(3); //",
    "\"#); std::process::exit(3); (r#\"",
    "'\\''",
    "??( ??) ??< ??> ??! ??' ??-",
    "#define icp_init exit",
    "%",
    "%%",
    "}",
    "{",
    "\u{2028}\u{2029}",
    "\u{200f}\u{202b}\u{2066}",
    "\u{FEFF}",
    "\u{10FFFF}",
    "/* nested /* comment */",
    "// line comment \\",
    "trailing blanks   \t",
];

/// A file name that tries to break out of the header comment.
const NAME: &str = "we*/ird??/\n#include \"x\"\r*/ name {}.icp";

fn texts() -> Vec<String> {
    let mut all: Vec<String> = HOSTILE.iter().chain(MORE).map(|s| s.to_string()).collect();
    // Every pair of neighbours too (`?` then `?/`, `*` then `/`).
    for w in HOSTILE.windows(2) {
        all.push(format!("{}{}", w[0], w[1]));
    }
    all.push("?".repeat(5) + "/");
    all.push("*".repeat(3) + "/");
    all
}

/// An InfChessPro program printing each text (a text command takes the
/// rest of its line verbatim, §4.6), with the hostile text also in
/// comments and in the statement lines that generated code copies into
/// comments.
fn icp_program() -> (String, Vec<u8>) {
    let mut src = String::from("# */ ??/ \" \\ #include <x> \u{202e}\n");
    let mut want = Vec::new();
    let mut label = 1;
    for t in texts() {
        // A text line may not hold a newline; CR is only dropped before LF.
        src.push_str(&format!("{label}. \"{t}\n"));
        // §1: a `\r` just before the line's end is not text.
        want.extend_from_slice(t.strip_suffix('\r').unwrap_or(&t).as_bytes());
        want.push(b'\n');
        label += 1;
        // A statement whose line (copied into a comment) ends in `\` and
        // `??/`: a C line splice would swallow the next line.
        src.push_str(&format!("{label}. ^ ?{}\n", label + 1));
        label += 1;
    }
    src.push_str(&format!("{label}. x_y=K0,0\n"));
    label += 1;
    src.push_str(&format!("{label}. %x_y\n"));
    want.extend_from_slice(b"1\n");
    (src, want)
}

#[test]
fn hostile_text_prints_exactly_and_compiles() {
    let (src, want) = icp_program();
    let checked = driver::check(Language::InfChessPro, &src).expect("valid program");
    let mut out = Vec::new();
    let outcome = checked.program.run(&mut &b""[..], &mut out, None);
    assert_eq!(outcome.exit_status(), 0);
    assert_eq!(out, want, "the interpreter");
    let dir = tempfile::tempdir().unwrap();
    let c = checked.program.emit_c(NAME);
    for bad in ["??/", "??=", "??("] {
        assert!(!c.contains(bad), "a trigraph {bad} in the generated C");
    }
    let rs = checked.program.emit_rust(NAME);
    let (c_exe, rs_exe) = std::thread::scope(|s| {
        let c = s.spawn(|| build_c(&c, dir.path(), "inject", &[]));
        let r = s.spawn(|| build_rust(&rs, dir.path(), "inject"));
        (c.join().unwrap(), r.join().unwrap())
    });
    for (target, exe) in [("c", c_exe), ("rust", rs_exe)] {
        let exe = exe.unwrap_or_else(|e| panic!("{target}: {e}"));
        let got = run_exe(&exe, &[], b"");
        assert_eq!(
            got.status,
            0,
            "{target}: {}",
            String::from_utf8_lossy(&got.stderr)
        );
        assert!(got.stderr.is_empty(), "{target} wrote to stderr");
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want),
            "{target} output"
        );
        assert_eq!(got.stdout, want, "{target} output bytes");
    }
}

#[test]
fn hostile_finvara_comments_and_names_compile() {
    // Finvara prints no text, but comments, move lines and the file name
    // reach the generated code's comments.
    let mut src = String::new();
    for t in texts() {
        src.push_str(&format!("# {t}\n"));
    }
    src.push_str("(k): # */ ??/\n(p 4): (1,0) # \\\n(n 0): (0,0)   # \"\n");
    src.push_str("+--+--+--+\n|  |nB|kB|  # ??/ */\n+--+--+--+\n|pW|  |  |\n+--+--+--+\n|##|  |kW|\n+--+--+--+\n");
    src.push_str("Turn 1 W: p b1 -> a1 # */ \"); exit(3); /* ??/\n");
    src.push_str("Turn 1 B: n c2 -> c2 # \\\n");
    src.push_str("Turn 2 W: p b1 -> a1 # \u{202e} {} #include <x>\n");
    let checked = driver::check(Language::Finvara, &src).expect("valid program");
    let mut want = Vec::new();
    checked.program.run(&mut &b""[..], &mut want, None);
    assert_eq!(want, b"0\n", "the interpreter");
    let dir = tempfile::tempdir().unwrap();
    let name = NAME.replace(".icp", ".fin");
    let c = checked.program.emit_c(&name);
    assert!(!c.contains("??/"));
    let rs = checked.program.emit_rust(&name);
    let (c_exe, rs_exe) = std::thread::scope(|s| {
        let c = s.spawn(|| build_c(&c, dir.path(), "inject_fin", &[]));
        let r = s.spawn(|| build_rust(&rs, dir.path(), "inject_fin"));
        (c.join().unwrap(), r.join().unwrap())
    });
    for (target, exe) in [("c", c_exe), ("rust", rs_exe)] {
        let exe = exe.unwrap_or_else(|e| panic!("{target}: {e}"));
        let got = run_exe(&exe, &[], b"");
        assert_eq!((got.status, got.stdout), (0, want.clone()), "{target}");
    }
}
