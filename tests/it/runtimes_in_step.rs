//! Each language's twin runtimes, kept in step mechanically: all five
//! pairs, InfChessPro's and Finvara's `runtime/board.rs` with its C port
//! `board.c`, and CHEG's `chess`, `engine` and `uci` (each file with its
//! parts, `NAME/*.rs` and `NAME/*.c`, where a runtime is cut by concern).
//! This test parses both sides and fails when a constant or a message they
//! share differs.
//!
//! - Constants: every `const NAME` of the Rust runtime whose C twin
//!   `#define ICP_NAME` exists must have the same value; the names each
//!   language lists in [`RUNTIMES`] must exist on both sides (so that a
//!   rename cannot silently skip the comparison).
//! - Messages: every string literal of the Rust runtime that ends with a
//!   section reference `(§N)` (the error causes), and every `&str`
//!   constant, must appear in the C runtime (C literals are concatenated,
//!   octal escapes decoded, `ICP_SECT` read as `§`, and a `%" PRId64 "`
//!   conversion matches Rust's `{}` or `{NAME}`).
//!
//! Also: the C runtime unit tests (`tests/c/runtime_test.c`) are compiled
//! with `cc` and run here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One language's runtimes and the constants that must be in both.
struct Runtimes {
    folder: &'static str,
    /// The runtime's files in `runtime/` (each `NAME.rs` with its C twin
    /// `NAME.c`, and the parts each `include!`s from `NAME/`), compared as
    /// one text per side.
    files: &'static [&'static str],
    required: &'static [&'static str],
    /// Messages the C back end takes from the Rust runtime when it
    /// generates the C (so they are written once, in Rust), rather than
    /// from the C runtime.
    generated: &'static [&'static str],
}

const RUNTIMES: &[Runtimes] = &[
    Runtimes {
        folder: "icp",
        files: &["board"],
        required: &[
            "NIL",
            "MAX_SLOTS",
            "PROBE",
            "SLIDER_SCAN",
            "KNIGHT_SCAN",
            "MAX_LOOP",
        ],
        generated: &[],
    },
    Runtimes {
        folder: "finvara",
        files: &["board"],
        required: &[
            "OP_END",
            "OP_LEAP",
            "OP_FORK",
            "OP_JUMP",
            "OP_RANK",
            "OP_NOT_RANK",
            "OP_ENEMY",
            "OP_EMPTY",
            "OP_TAKE",
            "OP_PROMOTE",
            "OP_RESET",
            "OP_CALL",
            "OP_PROMOTE_ANY",
            "HOLE",
            "EMPTY",
            "VALUE_X",
            "VALUE_Y",
            "S_PC",
            "S_SQ",
            "S_FLAGS",
            "S_KIND",
            "S_HOLE",
            "S_HOLE_NCAP",
            "S_HOLE_KIND",
            "S_CODE",
            "S_CTX",
            "S_NREGS",
            "F_NULL",
            "F_PROMOTED",
            "NOT_A_NUMBER",
            "OUT_OF_RANGE",
            "CANNOT_READ",
            "CANNOT_WRITE",
            "NO_MEMORY",
        ],
        generated: &[],
    },
    Runtimes {
        folder: "cheg",
        files: &["chess", "engine", "uci"],
        required: &[
            "BLACK_BIT",
            "BLACK_KINGSIDE",
            "BLACK_QUEENSIDE",
            "BOUND_EXACT",
            "BOUND_LOWER",
            "BOUND_UPPER",
            "DEFAULT_DEPTH",
            "DEFAULT_HASH",
            "ENTRY_BYTES",
            "MATE",
            "MAX_CALLS",
            "MAX_DEPTH",
            "MAX_HASH",
            "MAX_LINE",
            "MAX_MOVE_OVERHEAD",
            "MAX_PENDING",
            "MAX_PERFT",
            "MAX_PLY",
            "MAX_STATEMENTS",
            "MOVE_OVERHEAD",
            "POLL_INTERVAL",
            "WHITE_KINGSIDE",
            "WHITE_QUEENSIDE",
            "ZOBRIST_CASTLING",
            "ZOBRIST_EN_PASSANT",
            "ZOBRIST_SEED",
            "ZOBRIST_SIDE",
            "ZOBRIST_SIZE",
        ],
        generated: &[],
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A runtime as generated code carries it: for each of `files`, `NAME.rs`
/// (without its unit tests, which may write anything) or `NAME.c`, then
/// the parts that `NAME.rs` `include!`s (`NAME/*.rs`, or their C twins
/// `NAME/*.c`), in its order, a blank line between.
fn runtime(dir: &Path, files: &[&str], ext: &str) -> String {
    let mut text = String::new();
    for name in files {
        let rust = read(&dir.join(format!("{name}.rs")));
        let own = read(&dir.join(format!("{name}.{ext}")));
        text.push_str(own.split("#[cfg(test)]").next().unwrap_or(&own));
        let prefix = format!("include!(\"{name}/");
        for line in rust.lines() {
            let part = line.strip_prefix(prefix.as_str());
            if let Some(part) = part.and_then(|p| p.strip_suffix(".rs\");")) {
                text.push('\n');
                text.push_str(&read(&dir.join(format!("{name}/{part}.{ext}"))));
            }
        }
        text.push('\n');
    }
    text
}

/// A value written the same way on both sides: integers as decimal,
/// the all-ones u32 as `u32::MAX`, strings as their text.
fn normalise(value: &str) -> String {
    let v = value.trim().trim_end_matches(';').trim();
    let v = v.replace("UINT32_MAX", "u32::MAX").replace(" as usize", "");
    // No comments (C: `30 /* ms */`), blanks or digit separators (`1_000`).
    let v = match v.find("/*") {
        Some(at) => &v[..at],
        None => v.as_str(),
    };
    let v: String = v
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    // A shift of two integers (`1 << 20`) is its value.
    let v = match v
        .split_once("<<")
        .map(|(a, b)| (a.parse::<u64>(), b.parse::<u32>()))
    {
        Some((Ok(a), Ok(b))) if b < 64 => (a << b).to_string(),
        _ => v,
    };
    let mut v = v.as_str();
    while v.starts_with('(') && v.ends_with(')') && balanced(&v[1..v.len() - 1]) {
        v = &v[1..v.len() - 1];
    }
    // Integer suffixes: 8u, 1u.
    let mut out = String::new();
    let chars: Vec<char> = v.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let after_digit = i > 0 && chars[i - 1].is_ascii_digit();
        if c == 'u' && after_digit && chars.get(i + 1).is_none_or(|n| !n.is_alphanumeric()) {
            continue;
        }
        out.push(c);
    }
    out
}

fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Rust string literal bodies in `text` (no raw strings in the runtimes),
/// unescaped enough for messages: `\"`, `\\`, `\n`.
fn rust_strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut in_comment = false;
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        if in_comment {
            if c == '\n' {
                in_comment = false;
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'/') {
            in_comment = true;
            continue;
        }
        if c == '\'' && prev != '\\' {
            // A char literal such as '"': skip it.
            let rest: String = chars.clone().take(3).collect();
            if rest.len() >= 2 && (rest.as_bytes()[1] == b'\'' || rest.starts_with('\\')) {
                let skip = if rest.starts_with('\\') { 3 } else { 2 };
                for _ in 0..skip {
                    chars.next();
                }
                prev = '\'';
                continue;
            }
        }
        if c == '"' {
            let mut s = String::new();
            while let Some(d) = chars.next() {
                match d {
                    '\\' => match chars.next() {
                        Some('n') => s.push('\n'),
                        Some(e) => s.push(e),
                        None => break,
                    },
                    '"' => break,
                    d => s.push(d),
                }
            }
            out.push(s);
            prev = '"';
            continue;
        }
        prev = c;
    }
    out
}

/// The C source with comments removed and adjacent string literals (and
/// `ICP_SECT`, `PRId64` between them) joined: returns every literal run.
fn c_strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut run: Option<Vec<u8>> = None;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
            continue;
        }
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if rest.starts_with("'\"'") {
            i += 3;
            continue;
        }
        let c = bytes[i];
        if c == b'"' {
            let buf = run.get_or_insert_with(Vec::new);
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                if bytes[i] == b'\\' {
                    let e = bytes[i + 1];
                    if e.is_ascii_digit() {
                        let oct = &text[i + 1..i + 4];
                        buf.push(u8::from_str_radix(oct, 8).expect("octal escape"));
                        i += 4;
                        continue;
                    }
                    buf.push(match e {
                        b'n' => b'\n',
                        other => other,
                    });
                    i += 2;
                    continue;
                }
                buf.push(bytes[i]);
                i += 1;
            }
            i += 1;
            continue;
        }
        if let Some(buf) = run.as_mut() {
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if rest.starts_with("ICP_SECT") {
                buf.extend_from_slice("§".as_bytes());
                i += "ICP_SECT".len();
                continue;
            }
            if rest.starts_with("PRId64") || rest.starts_with("PRIu64") {
                buf.extend_from_slice(b"d");
                i += 6;
                continue;
            }
            out.push(String::from_utf8_lossy(&run.take().unwrap()).into_owned());
        }
        i += 1;
    }
    if let Some(buf) = run {
        out.push(String::from_utf8_lossy(&buf).into_owned());
    }
    out
}

/// `const NAME: TYPE = VALUE;` of the Rust runtime (top level or not).
fn rust_consts(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        let line = line.strip_prefix("pub ").unwrap_or(line);
        let Some(rest) = line.strip_prefix("const ") else {
            continue;
        };
        let Some((name, rest)) = rest.split_once(':') else {
            continue;
        };
        let Some((ty, value)) = rest.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_end_matches(';');
        let value = if ty.trim() == "&str" {
            rust_strings(value).concat()
        } else {
            normalise(value)
        };
        out.insert(name.trim().to_string(), value);
    }
    out
}

/// `#define ICP_NAME VALUE` of the C runtime, under `NAME`.
fn c_defines(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("#define ICP_") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(char::is_whitespace) else {
            continue;
        };
        let value = if value.trim_start().starts_with('"') {
            c_strings(value).concat()
        } else {
            normalise(value)
        };
        out.insert(name.to_string(), value);
    }
    out
}

/// A Rust format string as its C twin writes it: each `{}` or `{NAME}` an
/// integer conversion, `%d`.
fn c_format(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        match rest[open..].find('}') {
            Some(close) => {
                out.push_str("%d");
                rest = &rest[open + close + 1..];
            }
            None => {
                rest = &rest[open..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The differences between one language's runtimes (empty: in step).
fn differences(rust: &str, c: &str, required: &[&str], generated: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    let rc = rust_consts(rust);
    let cd = c_defines(c);
    for name in required {
        if !rc.contains_key(*name) {
            problems.push(format!("the Rust runtime has no const {name}"));
        }
        if !cd.contains_key(*name) {
            problems.push(format!("the C runtime has no #define ICP_{name}"));
        }
    }
    for (name, value) in &rc {
        if let Some(c_value) = cd.get(name)
            && c_value != value
        {
            problems.push(format!(
                "{name}: Rust says {value:?}, C (ICP_{name}) says {c_value:?}"
            ));
        }
    }
    // Messages: Rust literals ending in a section reference, and &str
    // constants, must be C literals too.
    let c_text = c_strings(c).join("\n");
    let messages = rust_strings(rust)
        .into_iter()
        .filter(|s| s.ends_with(')') && s.contains("(§"))
        .filter(|s| !generated.contains(&s.as_str()));
    for message in messages {
        let wanted = c_format(&message);
        if !c_text.contains(&wanted) {
            problems.push(format!("message {message:?} is not in the C runtime"));
        }
    }
    problems
}

#[test]
fn each_language_has_its_c_and_rust_runtimes_in_step() {
    for r in RUNTIMES {
        let dir = root().join("src/lang").join(r.folder).join("runtime");
        let rust = runtime(&dir, r.files, "rs");
        let c = runtime(&dir, r.files, "c");
        let problems = differences(&rust, &c, r.required, r.generated);
        assert!(
            problems.is_empty(),
            "src/lang/{}/runtime: the Rust and C runtimes ({}) differ:\n  {}",
            r.folder,
            r.files.join(", "),
            problems.join("\n  ")
        );
    }
}

#[test]
fn the_check_itself_sees_a_difference() {
    let rust = "pub const OP_END: i32 = 0;\npub const NO_MEMORY: &str = \"memory exhausted\";\nfn f() -> &'static str { \"bad input (§4)\" }\n";
    let same = "#define ICP_OP_END 0\n#define ICP_NO_MEMORY \"memory exhausted\"\nstatic const char *m = \"bad input (\" ICP_SECT \"4)\";\n";
    assert!(differences(rust, same, &["OP_END", "NO_MEMORY"], &[]).is_empty());
    let value = same.replace("ICP_OP_END 0", "ICP_OP_END 1");
    assert_eq!(differences(rust, &value, &["OP_END"], &[]).len(), 1);
    let text = same.replace("\"memory exhausted\"", "\"memory gone\"");
    assert_eq!(differences(rust, &text, &[], &[]).len(), 1);
    let message = same.replace("bad input", "bad");
    assert_eq!(differences(rust, &message, &[], &[]).len(), 1);
    let missing = same.replace("#define ICP_OP_END 0\n", "");
    assert_eq!(differences(rust, &missing, &["OP_END"], &[]).len(), 1);
    let octal = "#define ICP_X \"a (\\302\\2474)\"\n";
    assert_eq!(c_defines(octal)["X"], "a (§4)");
    assert_eq!(
        normalise("(UINT32_MAX - 1u)"),
        normalise("(u32::MAX - 1) as usize")
    );
    assert_eq!(normalise("1 << 20"), normalise("1048576"));
    assert_eq!(normalise("1_000"), normalise("1000 /* calls */"));
    assert_eq!(
        c_format("more than {MAX} in {} (§5)"),
        "more than %d in %d (§5)"
    );
}

/// `tests/c/runtime_test.c`: the C runtime's own unit and differential
/// tests, built with warnings as errors and run (a small random batch).
#[test]
fn c_runtime_unit_tests_pass() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("runtime_test");
    let built = Command::new("cc")
        .args([
            "-std=c99",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
        ])
        .arg(root().join("tests/c/runtime_test.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("cc runs");
    assert!(
        built.status.success(),
        "tests/c/runtime_test.c does not build:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = crate::support::output_limited(
        Command::new(&exe).arg("100"),
        crate::support::time_limit(),
        "tests/c/runtime_test.c",
    );
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "tests/c/runtime_test.c failed:\n{out}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
