//! Front-end fuzzing (issue 5, part 1), for both languages: arbitrary
//! bytes and near-valid programs (mutations of every program of the
//! project and of generated ones) go through decoding, the parser, the
//! validator, and, when accepted, the interpreter (bounded) and both code
//! generators. Nothing may panic, hang or overflow the stack; every
//! rejected input gets at least one diagnostic whose span lies inside the
//! text, and the diagnostics render.
//!
//! The regression corpus tests/fuzz-corpus/{icp,fin,cheg}/ (hostile inputs and
//! anything the fuzzer ever found) runs first, whole. Then a fixed-seed
//! batch: `ICP2C_FUZZ_CASES` executions per language (default 600 in a debug
//! build, 3000 in release: `support::scale`); set it
//! higher to fuzz more, `ICP2C_FUZZ_SEED` for other seeds. A failing input
//! is written to target/fuzz-failures/ for adding to the corpus.

use crate::support;

use icp2c::codegen::Target;
use icp2c::driver::{self, Language};
use icp2c::lang::RunOptions;
use icp2c::{diagnostic, source};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use support::progen::{EDGES, HOSTILE, Rng, generate};
use support::root;

/// One input's whole trip through the front end and back ends.
fn exercise(lang: Language, bytes: &[u8]) {
    let file = &format!("fuzz.{}", lang.extension());
    let text = match source::decode(bytes) {
        Ok(text) => text,
        Err((lossy, errors)) => {
            assert!(!errors.is_empty(), "undecodable input without a diagnostic");
            check_spans(&lossy, &errors);
            let _ = diagnostic::render(file, &lossy, &errors);
            lossy
        }
    };
    check_outline(&text, &lang.outline(&text));
    match driver::check(lang, &text) {
        Err(errors) => {
            assert!(!errors.is_empty(), "rejected without a diagnostic");
            check_spans(&text, &errors);
            let rendered = diagnostic::render(file, &text, &errors);
            assert!(!rendered.is_empty());
        }
        Ok(checked) if lang == Language::Cheg => {
            // An engine's run is a search (tests/it/cheg.rs); here the front
            // end, and the engine's command line on a bad query.
            check_spans(&text, &checked.warnings);
            let options = RunOptions {
                args: vec!["--fen".into(), "8/8/8 w - -".into()],
                ..RunOptions::default()
            };
            let mut out = Vec::new();
            let ran =
                checked
                    .program
                    .run_with(&mut &b""[..], &mut out, &mut std::io::sink(), &options);
            assert_eq!(ran.map(|o| o.exit_status()), Ok(2));
            let c = checked.program.emit_file(Target::C, file).unwrap();
            assert!(c.contains("int main(int argc, char **argv)"));
            let rs = checked.program.emit_file(Target::Rust, file).unwrap();
            assert!(rs.contains("fn main()"));
        }
        Ok(checked) => {
            check_spans(&text, &checked.warnings);
            let mut out = Vec::new();
            let input = b"3 -2 1 0 9223372036854775807 x";
            let _ = checked.program.run(&mut &input[..], &mut out, Some(2_000));
            let c = checked.program.emit_c(file);
            assert!(c.contains("int main(void)"));
            let rs = checked.program.emit_rust(file);
            assert!(rs.contains("fn main()"));
            let files = checked.program.emit_crate(file, "fuzz");
            assert_eq!(files[0].path, "Cargo.toml");
            assert!(files.iter().any(|f| f.path == "src/main.rs"));
        }
    }
}

/// What an editor is told of the text (`icp2c lsp`) keeps the outline's
/// promises: every span inside the text on character boundaries; tokens
/// sorted, apart, each within one line; every use and definition where
/// its name is written.
fn check_outline(text: &str, outline: &icp2c::common::outline::Outline) {
    let inside = |span: &std::ops::Range<usize>, what: &str| {
        assert!(
            span.start <= span.end
                && span.end <= text.len()
                && text.is_char_boundary(span.start)
                && text.is_char_boundary(span.end),
            "{what} span {span:?} is not a range of the {} bytes of text",
            text.len()
        );
    };
    let mut end = 0;
    for token in &outline.tokens {
        inside(&token.span, "token");
        assert!(
            token.span.start >= end,
            "tokens overlap at {:?}",
            token.span
        );
        assert!(
            !text[token.span.clone()].contains('\n'),
            "token {:?} crosses a line",
            token.span
        );
        end = token.span.end;
    }
    for s in &outline.symbols {
        inside(&s.span, "symbol");
        inside(&s.extent, "symbol extent");
    }
    for r in &outline.references {
        inside(&r.span, "reference");
    }
    for h in &outline.hovers {
        inside(&h.span, "hover");
    }
    for f in &outline.folds {
        inside(f, "fold");
    }
    if let Some((span, _)) = &outline.rename_blocker {
        inside(span, "rename blocker");
    }
}

/// Every diagnostic points inside the text, on character boundaries.
fn check_spans(text: &str, diagnostics: &[diagnostic::Diagnostic]) {
    for d in diagnostics {
        let span = &d.primary.span;
        assert!(
            span.start <= span.end && span.end <= text.len(),
            "span {span:?} outside a text of {} bytes: {}",
            text.len(),
            d.message
        );
        assert!(
            text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
            "span {span:?} splits a character: {}",
            d.message
        );
    }
}

/// Runs `cases` on a worker thread with a 2 MiB stack (smaller than a
/// command line's main thread: a recursion that fits here fits there),
/// catching each panic and watching for a hang: no single input may take
/// more than `limit`. Returns the number of executions.
fn run_guarded(cases: Vec<(Language, Vec<u8>)>, limit: Duration) -> usize {
    let total = cases.len();
    let current: &'static Mutex<Option<(usize, Instant)>> = Box::leak(Box::new(Mutex::new(None)));
    let cases: &'static [(Language, Vec<u8>)] = Box::leak(cases.into_boxed_slice());
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut failures = Vec::new();
            for (i, (lang, bytes)) in cases.iter().enumerate() {
                *current.lock().unwrap() = Some((i, Instant::now()));
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    exercise(*lang, bytes)
                }));
                if let Err(e) = caught {
                    let msg = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    let saved = save_failure(*lang, bytes);
                    failures.push(format!(
                        "{} input {i} panicked: {msg}\n  saved as {}\n  input: {:?}",
                        lang.name(),
                        saved.display(),
                        String::from_utf8_lossy(&bytes[..bytes.len().min(600)])
                    ));
                }
            }
            *current.lock().unwrap() = None;
            failures
        })
        .unwrap();
    loop {
        if worker.is_finished() {
            let failures = worker.join().expect("the worker died (stack overflow?)");
            assert!(
                failures.is_empty(),
                "{} of {total} inputs failed:\n{}",
                failures.len(),
                failures.join("\n")
            );
            return total;
        }
        if let Some((i, since)) = *current.lock().unwrap()
            && since.elapsed() > limit
        {
            let (lang, bytes) = &cases[i];
            let saved = save_failure(*lang, bytes);
            panic!(
                "{} input {i} hangs (over {limit:?}); saved as {}",
                lang.name(),
                saved.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn save_failure(lang: Language, bytes: &[u8]) -> PathBuf {
    let dir = root().join("target/fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let ext = lang.extension();
    let path = dir.join(format!("{hash:016x}.{ext}"));
    let _ = std::fs::write(&path, bytes);
    path
}

fn corpus(dir: &str) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    paths
        .iter()
        .filter(|p| p.is_file())
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

/// The seeds mutations start from: every program of the project (and the
/// shared conformance programs when present) and the corpus.
fn seeds(lang: Language) -> Vec<Vec<u8>> {
    let (ext, dirs): (&str, &[&str]) = match lang {
        Language::InfChessPro => (
            "icp",
            &[
                "examples",
                "tests/programs/icp",
                "tests/programs/icp/errors",
                "../shared/conformance/icp",
                "../shared/conformance/icp-errors",
            ],
        ),
        Language::Finvara => (
            "fin",
            &[
                "examples",
                "tests/programs/finvara",
                "tests/programs/finvara/errors",
                "../shared/conformance/finvara",
                "../shared/conformance/finvara-errors",
            ],
        ),
        Language::Cheg => (
            "cheg",
            &[
                "examples",
                "tests/programs/cheg",
                "tests/programs/cheg/errors",
                "../shared/conformance/cheg",
                "../shared/conformance/cheg-errors",
            ],
        ),
    };
    let mut out = Vec::new();
    for dir in dirs {
        support::note_if_shared_missing(dir);
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().and_then(|e| e.to_str()) == Some(ext) {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }
    out.extend(corpus(&format!("tests/fuzz-corpus/{ext}")));
    out
}

/// Tokens a mutation inserts: each language's punctuation and keywords,
/// numbers at the 64-bit edges and beyond, hostile text.
fn tokens(lang: Language) -> Vec<String> {
    let mut t: Vec<String> = match lang {
        Language::Cheg => [
            ",",
            " ",
            "\t",
            ":",
            ";",
            "\n",
            "\r\n",
            "\"",
            "\"(",
            ")",
            "(",
            "#",
            "&",
            "&P",
            "&10P",
            "=",
            "<",
            ">",
            "-",
            "+",
            "ENTRY ",
            "END",
            "K,K",
            "R&0P,K,>1",
            "X",
            "LM",
            "PG",
            "DEPTH",
            "PLIES",
            "SIDE",
            "WK",
            "BP8",
            "WR2",
            "L1:",
            "SETV ",
            "JUMP= ",
            "JUMP#< ",
            "SQ>RNK ",
            "COND ",
            "CONDT ",
            "SET ",
            "SELECT ",
            "MAP ",
            "SELECC ",
            "TRY ",
            "PLAY ",
            "PLAYB ",
            "PLAN ",
            "UNPLAN",
            "DONE",
            "LEAVE",
            "VALRET ",
            "RETBET ",
            "RETURN ",
            "INSERT ",
            "UNSERT ",
            "EXCHWE ",
            "DEEP",
            "#DEEP",
            "CAPT",
            "#EMPTY",
            "RWK=",
            "\"9223372036854775808",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        Language::InfChessPro => [
            ".", ",", ";", "=", "?", "!", "*", "^", "\"", "%", "#", "-", "+", " ", "\t", "\n",
            "\r\n", "\r", "K", "q", "R", "b", "N", "p", "X", "x_1", "1.", "99.", "?*", "!*",
            "?1!2", "=K0,0", ";1,1", ",0,0,1,1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        Language::Finvara => [
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ",",
            "|",
            "^",
            "v",
            "<",
            ">",
            "*",
            "`",
            "\"",
            "c(",
            "m(",
            "r(",
            "r!(",
            "p",
            "->[",
            "x",
            "y",
            "(1,0)",
            "(0,0)",
            "(k):",
            "(a 4):",
            "+--+",
            "|##|",
            "|kW|",
            "|aB|",
            "|  |",
            "Turn 1 W: ",
            "Turn 2 B: ",
            " -> ",
            " checks turn ",
            " = ",
            "a1",
            "zz99",
            "#",
            "\n",
            "\r\n",
            " ",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    };
    t.extend(EDGES.iter().map(|v| v.to_string()));
    t.extend(
        [
            "9223372036854775808",
            "-9223372036854775809",
            "18446744073709551616",
            "99999999999999999999999999999999",
            "0000000000000000000000000000001",
            "\u{0}",
            "\u{FEFF}",
            "\u{202e}",
            "é",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    t.extend(HOSTILE.iter().map(|s| s.to_string()));
    t
}

/// A few byte-level and token-level edits of `seed`.
fn mutate(rng: &mut Rng, seed: &[u8], tokens: &[String], other: &[u8]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = if b.is_empty() {
            0
        } else {
            rng.below(b.len() + 1)
        };
        match rng.below(9) {
            0 if !b.is_empty() => {
                let end = (at + 1 + rng.below(8)).min(b.len());
                b.drain(at.min(end)..end);
            }
            1 if at < b.len() => b[at] = rng.next() as u8,
            2 => {
                let t = rng.pick(tokens).clone();
                b.splice(at..at, t.into_bytes());
            }
            3 => {
                // Repeat a slice many times (deep nesting, long lines).
                let end = (at + 1 + rng.below(4)).min(b.len());
                let piece = b[at.min(end)..end].to_vec();
                let most = if rng.chance(5) { 20_000 } else { 50 };
                let times = 1 + rng.below(most);
                let rep: Vec<u8> = piece
                    .iter()
                    .copied()
                    .cycle()
                    .take(piece.len() * times)
                    .collect();
                b.splice(at..at, rep);
            }
            4 if !other.is_empty() => {
                // Splice in part of another program.
                let s = rng.below(other.len());
                let e = (s + rng.below(200)).min(other.len());
                b.splice(at..at, other[s..e].iter().copied());
            }
            5 => {
                // Duplicate a line (labels out of order, redefinitions).
                let text = String::from_utf8_lossy(&b).into_owned();
                let lines: Vec<&str> = text.split('\n').collect();
                let l = rng.below(lines.len());
                let mut v: Vec<&str> = lines.clone();
                v.insert(rng.below(lines.len() + 1), lines[l]);
                b = v.join("\n").into_bytes();
            }
            6 => {
                // Replace a number by an edge value.
                if let Some(p) = (at..b.len()).find(|&i| b[i].is_ascii_digit()) {
                    let e = (p..b.len())
                        .find(|&i| !b[i].is_ascii_digit())
                        .unwrap_or(b.len());
                    let t = rng.pick(tokens).clone();
                    b.splice(p..e, t.into_bytes());
                }
            }
            7 => b.truncate(at),
            _ => {
                let t = rng.pick(tokens).clone();
                b.splice(at..at, t.into_bytes());
            }
        }
    }
    b
}

fn fuzz_cases() -> usize {
    std::env::var("ICP2C_FUZZ_CASES")
        .ok()
        .map(|v| v.trim().parse().expect("ICP2C_FUZZ_CASES must be a number"))
        .unwrap_or_else(|| crate::support::scale(600, 3000))
}

fn fuzz_seed() -> u64 {
    std::env::var("ICP2C_FUZZ_SEED")
        .ok()
        .map(|v| v.trim().parse().expect("ICP2C_FUZZ_SEED must be a number"))
        .unwrap_or(0xf022)
}

/// The inputs of one fuzz batch: a tenth random bytes, a tenth random
/// text from the language's tokens, the rest mutations of seeds and of
/// freshly generated valid programs.
fn batch(lang: Language, n: usize, seed: u64) -> Vec<(Language, Vec<u8>)> {
    let seeds = seeds(lang);
    assert!(
        seeds.len() >= 10,
        "too few seed programs for {}",
        lang.name()
    );
    let tokens = tokens(lang);
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let bytes = match i % 10 {
            0 => (0..rng.below(300)).map(|_| rng.next() as u8).collect(),
            1 => {
                let mut s = String::new();
                for _ in 0..rng.below(80) {
                    let t: &String = rng.pick(&tokens);
                    s.push_str(t);
                }
                s.into_bytes()
            }
            2 | 3 => {
                let size = match lang {
                    Language::InfChessPro => 1 + rng.below(30),
                    Language::Finvara => 1 + rng.below(8),
                    Language::Cheg => 2 + rng.below(8),
                };
                let source = generate(lang, &mut rng, size).source.into_bytes();
                let other = seeds[rng.below(seeds.len())].clone();
                mutate(&mut rng, &source, &tokens, &other)
            }
            _ => {
                let s = &seeds[rng.below(seeds.len())];
                let other = &seeds[rng.below(seeds.len())];
                mutate(&mut rng, s, &tokens, other)
            }
        };
        out.push((lang, bytes));
    }
    out
}

#[test]
fn regression_corpus_never_crashes() {
    let mut cases = Vec::new();
    for (dir, lang) in [
        ("tests/fuzz-corpus/icp", Language::InfChessPro),
        ("tests/fuzz-corpus/fin", Language::Finvara),
        ("tests/fuzz-corpus/cheg", Language::Cheg),
    ] {
        let files = corpus(dir);
        assert!(files.len() >= 5, "{dir} is missing");
        // Each file in both languages: a file in the wrong language must
        // be rejected gracefully too.
        for f in files {
            cases.push((lang, f.clone()));
            for other in Language::ALL.iter().filter(|l| **l != lang) {
                cases.push((*other, f.clone()));
            }
        }
    }
    let n = run_guarded(cases, Duration::from_secs(20));
    eprintln!("fuzz corpus: {n} executions");
}

#[test]
fn fuzz_infchesspro_front_end() {
    let cases = batch(Language::InfChessPro, fuzz_cases(), fuzz_seed());
    let started = Instant::now();
    let n = run_guarded(cases, Duration::from_secs(20));
    eprintln!(
        "InfChessPro: {n} fuzz executions in {:.1?}",
        started.elapsed()
    );
}

#[test]
fn fuzz_finvara_front_end() {
    let cases = batch(Language::Finvara, fuzz_cases(), fuzz_seed() ^ 0xf1);
    let started = Instant::now();
    let n = run_guarded(cases, Duration::from_secs(20));
    eprintln!("Finvara: {n} fuzz executions in {:.1?}", started.elapsed());
}

#[test]
fn fuzz_cheg_front_end() {
    let cases = batch(Language::Cheg, fuzz_cases(), fuzz_seed() ^ 0xc4e9);
    let started = Instant::now();
    let n = run_guarded(cases, Duration::from_secs(20));
    eprintln!("CHEG: {n} fuzz executions in {:.1?}", started.elapsed());
}

#[test]
fn the_span_check_can_fail() {
    // The span check must be able to fail: a span past the end, and one
    // that splits a character.
    let bad = diagnostic::Diagnostic::error(5..50, "out of range");
    assert!(std::panic::catch_unwind(|| check_spans("short", &[bad])).is_err());
    let split = diagnostic::Diagnostic::error(1..2, "inside é");
    assert!(std::panic::catch_unwind(|| check_spans("é", &[split])).is_err());
    let fine = diagnostic::Diagnostic::error(0..2, "all of é");
    check_spans("é", &[fine]);
}
