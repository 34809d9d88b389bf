//! Random CHEG programs (`tests/support/cheg_gen.rs`) on random legal
//! positions, run by the interpreter, the generated C engine and the
//! generated Rust engine; random UCI sessions (garbage, bytes that are not
//! UTF-8, illegal moves, huge depths, a FEN with nine queens) fed to the
//! three. They must agree byte for byte on standard output and standard
//! error and on the exit status (issue 12, §7.4), and no engine may crash.
//!
//! `ICP2C_CHEG_PROGRAMS=N` runs N programs (default 24); `ICP2C_SANITIZE=1`
//! builds the C engines with ASan and UBSan.

use crate::support;

use icp2c::driver::{self, Language, Program};
use icp2c::lang::RunOptions;
use support::Ran;
use support::cheg_gen::{cheg_position, uci_session};
use support::progen::Rng;
use support::progen::generate;

struct Case {
    source: String,
    program: Program,
    /// Engine arguments; an empty list is the UCI session.
    queries: Vec<Vec<String>>,
    session: Vec<u8>,
}

fn interpret(program: &Program, args: &[String], input: &[u8]) -> Ran {
    let options = RunOptions {
        args: args.to_vec(),
        source_name: "gen.cheg".to_string(),
        ..RunOptions::default()
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = program
        .run_with(&mut &input[..], &mut out, &mut err, &options)
        .expect("engine options are accepted");
    Ran {
        status: outcome.exit_status(),
        stdout: out,
        stderr: err,
    }
}

fn cases() -> Vec<Case> {
    let count: usize = std::env::var("ICP2C_CHEG_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(24);
    let mut rng = Rng(0x0c4e_6197_3000_0001);
    (0..count)
        .map(|_| {
            let size = 4 + rng.below(10);
            let generated = generate(Language::Cheg, &mut rng, size);
            let source = generated.source;
            let program = match driver::check(Language::Cheg, &source) {
                Ok(checked) => checked.program,
                Err(e) => panic!(
                    "the generator wrote an invalid program:\n{source}\n{}",
                    icp2c::diagnostic::render("gen.cheg", &source, &e)
                ),
            };
            let mut queries = Vec::new();
            for _ in 0..3 {
                let fen = cheg_position(&mut rng);
                let depth = rng.range(1, 2).to_string();
                queries.push(vec!["--fen".into(), fen, "--depth".into(), depth]);
            }
            let fen = cheg_position(&mut rng);
            queries.push(vec![
                "--fen".into(),
                fen.clone(),
                "--depth".into(),
                "2".into(),
                "--no-endgame".into(),
            ]);
            queries.push(vec!["--fen".into(), fen, "--perft".into(), "2".into()]);
            let session = uci_session(&mut rng);
            Case {
                source,
                program,
                queries,
                session,
            }
        })
        .collect()
}

/// Programs per Rust batch: each carries its own runtime (the sections its
/// program uses), so a batch is as long as its programs' engines.
const BATCH: usize = 12;

/// Executables holding the programs' Rust engines, `BATCH` a batch: each
/// program a module with its own runtime, as its one-file Rust has it, the
/// first argument picks it. Built with `-D warnings` and no `allow`: each
/// runtime holds only what its program uses. Returns, for each case, its
/// executable and its number in it.
fn build_rust_batches(cases: &[Case], dir: &std::path::Path) -> Vec<(std::path::PathBuf, usize)> {
    let batches: Vec<usize> = (0..cases.len().div_ceil(BATCH)).collect();
    let exes = support::parallel(&batches, |&b| {
        let members = &cases[b * BATCH..((b + 1) * BATCH).min(cases.len())];
        let mut text = String::new();
        for (i, case) in members.iter().enumerate() {
            let program = case.program.emit_rust("gen.cheg");
            assert!(program.contains("\nmod icp_rt {") && program.contains(".skip(1)"));
            let module = program
                .replace("fn main()", "pub fn main()")
                .replace(".skip(1)", ".skip(2)");
            text.push_str(&format!("mod p{i} {{\n{module}\n}}\n"));
        }
        text.push_str(
            "fn main() {\n    match std::env::args().nth(1).unwrap_or_default().as_str() {\n",
        );
        for i in 0..members.len() {
            text.push_str(&format!("        \"{i}\" => p{i}::main(),\n"));
        }
        text.push_str("        _ => std::process::exit(99),\n    }\n}\n");
        let src = dir.join(format!("batch{b}.rs"));
        let exe = dir.join(format!("batch{b}"));
        std::fs::write(&src, text).unwrap();
        let out = std::process::Command::new("rustc")
            .args([
                "--edition",
                "2021",
                "-D",
                "warnings",
                "-C",
                "opt-level=1",
                "-o",
            ])
            .arg(&exe)
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "rustc failed on batch {b}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        exe
    });
    (0..cases.len())
        .map(|i| (exes[i / BATCH].clone(), i % BATCH))
        .collect()
}

fn differ(case: &Case, what: &str, engine: &str, got: &Ran, want: &Ran) -> Option<String> {
    (got != want).then(|| {
        format!(
            "{engine} differs from the interpreter on {what}\n--- program\n{}\n--- {engine}: status {}\n{}\n{}\n--- interpreter: status {}\n{}\n{}",
            case.source,
            got.status,
            support::show(&got.stdout),
            support::show(&got.stderr),
            want.status,
            support::show(&want.stdout),
            support::show(&want.stderr)
        )
    })
}

#[test]
#[ignore = "slow (48 s): builds random engines in C and Rust; .ci/run runs it"]
fn random_programs_and_sessions_agree_in_every_engine() {
    let cases = cases();
    let dir = tempfile::tempdir().unwrap();
    let sanitize: &[&str] = if support::batch::sanitizing() {
        &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    } else {
        &[]
    };
    let rust = build_rust_batches(&cases, dir.path());
    let indices: Vec<usize> = (0..cases.len()).collect();
    let failures: Vec<String> = support::parallel(&indices, |&i| {
        let case = &cases[i];
        let c = support::build_c(
            &case.program.emit_c("gen.cheg"),
            dir.path(),
            &format!("gen{i}"),
            sanitize,
        )
        .unwrap_or_else(|e| panic!("{e}\n{}", case.source));
        let mut problems = Vec::new();
        let mut runs: Vec<(String, Vec<String>, Vec<u8>)> = case
            .queries
            .iter()
            .map(|q| (q.join(" "), q.clone(), Vec::new()))
            .collect();
        runs.push(("a UCI session".into(), Vec::new(), case.session.clone()));
        for (what, args, input) in runs {
            let want = interpret(&case.program, &args, &input);
            let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let got_c = support::uci_session(&c, &arg_refs, &input);
            let (rust_exe, number) = &rust[i];
            let mut rust_args = vec![number.to_string()];
            rust_args.extend(args.iter().cloned());
            let rust_refs: Vec<&str> = rust_args.iter().map(String::as_str).collect();
            let mut got_rust = support::uci_session(rust_exe, &rust_refs, &input);
            let (mut got_c, mut want) = (got_c, want);
            if args.is_empty() {
                // `time`, `nps` and where `readyok` lands depend on the
                // clock (§7.5).
                for ran in [&mut want, &mut got_c, &mut got_rust] {
                    ran.stdout = support::uci_masked(&ran.stdout);
                }
            }
            problems.extend(differ(case, &what, "C", &got_c, &want));
            problems.extend(differ(case, &what, "Rust", &got_rust, &want));
            if args.is_empty() {
                // A session never crashes and ends with status 0; every bad
                // line is answered on standard output.
                assert_eq!(want.status, 0, "{}", case.source);
            }
        }
        problems
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches; the first:\n{}",
        failures.len(),
        failures[0]
    );
}

/// The generator's programs reach what they are meant to: runtime errors
/// in some searches, and in at least a third of them a search that runs
/// to its answer (a program runs at every node, and one error anywhere
/// ends the search, so finished searches are the harder half to get).
#[test]
fn the_generator_makes_searches_that_finish_and_some_that_fail() {
    let cases = cases();
    let (mut ok, mut failed) = (0, 0);
    for case in &cases {
        for q in &case.queries[..3] {
            match interpret(&case.program, q, b"").status {
                0 => ok += 1,
                1 => {
                    failed += 1;
                    if std::env::var_os("ICP2C_SHOW_ERRORS").is_some() {
                        let err = interpret(&case.program, q, b"").stderr;
                        eprintln!(
                            "{}",
                            String::from_utf8_lossy(&err).lines().next().unwrap_or("")
                        );
                    }
                }
                s => panic!("status {s} on {q:?}\n{}", case.source),
            }
        }
    }
    assert!(3 * ok > ok + failed, "{ok} finished, {failed} failed");
    assert!(failed > 0, "no runtime error in {} searches", ok);
}
