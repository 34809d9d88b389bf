//! Generated crates build with `cargo build --offline` and pass
//! `cargo clippy -- -D warnings`, for every example of every language and
//! for InfChessPro programs whose shape could trip a lint (empty, one
//! statement, a lone self-loop, output only, input only, a `*` failure
//! target, pieces never moved). The built
//! programs must print what the interpreter prints; the wiki's truth
//! machine must print its input once (Finvara §7), for 0 as for 1.
//! A module's `Error`, as a user's code prints it, is the message alone.

use crate::support;

use icp2c::codegen::{Layout, Target};
use icp2c::driver::{self, Language};
use std::process::Command;

const SHAPES: &[(&str, &str)] = &[
    ("empty", "# nothing\n"),
    ("one_statement", "1. ^\n"),
    ("one_text", "1. \"hi {} \\\" \n"),
    ("self_loop", "1. x;0,1?1\n"),
    ("blocked_loop", "1. x=R0,0\n2. b=P0,5\n3. x;0,1?3\n"),
    ("dynamic_only", "1. ^?*\n"),
    ("count_only", "1. %nobody\n"),
    ("star_failure_target", "1. a;0,1!*\n2. \"y\n"),
    ("occupy_only", "1. a=R0,0\n2. b=p0,0!3\n3. %a\n"),
];

fn write_crate(dir: &std::path::Path, name: &str, language: Language, source: &str) {
    let program = driver::check(language, source).unwrap().program;
    for file in program.emit_crate(&format!("{name}.src"), name) {
        let path = dir.join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, file.contents).unwrap();
    }
}

#[test]
#[ignore = "slow (25 s): builds crates with cargo and clippy; .ci/run runs it"]
fn generated_crates_build_and_pass_clippy() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("target");
    let mut programs: Vec<(String, Language, String, Vec<u8>)> = SHAPES
        .iter()
        .map(|(n, s)| {
            (
                n.to_string(),
                Language::InfChessPro,
                s.to_string(),
                b"5".to_vec(),
            )
        })
        .collect();
    for (ext, language) in [
        ("icp", Language::InfChessPro),
        ("fin", Language::Finvara),
        ("cheg", Language::Cheg),
    ] {
        for case in support::cases(&["examples"], ext) {
            // A CHEG engine is driven through UCI (CHEG §7.4), its input
            // kept open until `bestmove` (its end, like `quit`, would stop
            // the search, §7.5).
            let input = match language {
                Language::Cheg => b"uci\nisready\nposition fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1 moves e1d2\ngo depth 3\n".to_vec(),
                _ => case.input.clone(),
            };
            programs.push((
                format!("{}_{ext}", case.name),
                language,
                std::fs::read_to_string(&case.path).unwrap(),
                input,
            ));
        }
    }
    let truth_machine = programs
        .iter()
        .position(|p| p.0 == "seed_truth_machine_fin")
        .expect("the truth machine example");
    for (i, (name, language, source, input)) in programs.iter().enumerate() {
        let dir = work.path().join(name);
        write_crate(&dir, name, *language, source);
        let clippy = Command::new("cargo")
            .args(["clippy", "--offline", "--quiet", "--", "-D", "warnings"])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            clippy.status.success(),
            "clippy on {name}:\n{}",
            String::from_utf8_lossy(&clippy.stderr)
        );
        let build = Command::new("cargo")
            .args(["build", "--offline", "--quiet"])
            .env("CARGO_TARGET_DIR", &target)
            .env("RUSTFLAGS", "-D warnings")
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            build.status.success(),
            "cargo build on {name}:\n{}",
            String::from_utf8_lossy(&build.stderr)
        );
        let exe = target
            .join("debug")
            .join(icp2c::codegen::cargo::crate_name(name));
        let program = driver::check(*language, source).unwrap().program;
        let inputs: Vec<&[u8]> = if i == truth_machine {
            vec![b"0\n", b"1\n"]
        } else {
            vec![input]
        };
        for input in inputs {
            let mut ran = if matches!(language, Language::Cheg) {
                support::uci_session(&exe, &[], input)
            } else {
                support::run_exe(&exe, &[], input)
            };
            let mut want = Vec::new();
            let outcome = if *language == Language::Cheg {
                // The engine's `id name` is its source's stem; `time`
                // and `nps` depend on the clock.
                let options = icp2c::lang::RunOptions {
                    source_name: format!("{name}.src"),
                    ..Default::default()
                };
                let outcome = program
                    .run_with(&mut &input[..], &mut want, &mut Vec::new(), &options)
                    .unwrap();
                want = support::uci_masked(&want);
                ran.stdout = support::uci_masked(&ran.stdout);
                outcome
            } else {
                program.run(&mut &input[..], &mut want, None)
            };
            assert_eq!(
                (ran.status, &ran.stdout),
                (outcome.exit_status(), &want),
                "{name}"
            );
            if i == truth_machine {
                assert_eq!(
                    ran.stdout, input,
                    "§7: the truth machine prints its input once"
                );
            }
        }
    }
}

/// A generated crate inside a user's workspace (docs/generated-code.md):
/// its `Cargo.toml` names no workspace, so as a path dependency of a
/// member in the workspace's folder it is a member too. The member
/// calls its library (`sum::run`; `krk::best_move` and `krk::perft` of
/// a CHEG engine), and `cargo run` in the crate's own folder runs its
/// `main`.
#[test]
#[ignore = "builds a user's workspace with cargo (an external build): .ci/run runs it"]
fn a_generated_crate_is_a_dependency_and_runs_inside_a_workspace() {
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    let example =
        |file: &str| std::fs::read_to_string(support::root().join("examples").join(file)).unwrap();
    write_crate(
        &root.join("sum-crate"),
        "sum",
        Language::InfChessPro,
        &example("sum.icp"),
    );
    write_crate(
        &root.join("krk-crate"),
        "krk",
        Language::Cheg,
        &example("krk.cheg"),
    );
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nmembers = [\"app\"]\nresolver = \"2\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("app/src")).unwrap();
    std::fs::write(
        root.join("app/Cargo.toml"),
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\nsum = { path = \"../sum-crate\" }\nkrk = { path = \"../krk-crate\" }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("app/src/main.rs"),
        "fn main() {\n    \
             let input = std::io::BufReader::new(std::io::stdin());\n    \
             sum::run(input, std::io::stdout()).unwrap();\n    \
             let fen = \"8/8/8/4k3/8/8/8/R3K3 w - - 0 1\";\n    \
             println!(\"perft 2: {}\", krk::perft(fen, 2).unwrap());\n    \
             println!(\"{:?}\", krk::best_move(fen, 1).unwrap());\n\
         }\n",
    )
    .unwrap();
    // `cargo run` in `dir` with `input` on standard input.
    let cargo_run = |dir: &std::path::Path, input: &[u8]| {
        let mut child = Command::new("cargo")
            .args(["run", "--offline", "--quiet"])
            .env_remove("CARGO_TARGET_DIR")
            .current_dir(dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
        // The build too: ten times a program's limit.
        let out = support::wait_limited(
            child,
            support::time_limit() * 10,
            concat!(file!(), ":", line!()),
        );
        assert!(
            out.status.success(),
            "cargo run in {}:\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // What the interpreter answers for the same queries (CHEG §7.3).
    let krk = driver::check(Language::Cheg, &example("krk.cheg"))
        .unwrap()
        .program;
    let query = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let options = icp2c::lang::RunOptions {
            args,
            ..Default::default()
        };
        let mut out = Vec::new();
        krk.run_with(&mut &b""[..], &mut out, &mut Vec::new(), &options)
            .unwrap();
        String::from_utf8(out).unwrap()
    };
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let perft = query(&["--fen", fen, "--perft", "2"]);
    let best = query(&["--fen", fen, "--depth", "1"]);
    let words: Vec<&str> = best.split_whitespace().collect();
    let want = format!(
        "14\nperft 2: {}\n(Some({:?}), {})\n",
        perft.trim(),
        words[1],
        words[3]
    );
    // The member, which calls both libraries.
    assert_eq!(cargo_run(&root.join("app"), b"3 1 4 1 5"), want);
    // The crate's own `main`, run in its folder inside the workspace.
    assert_eq!(cargo_run(&root.join("sum-crate"), b"3 1 4 1 5"), "14\n");
}

/// A user's `main` that includes three modules (InfChessPro, Finvara,
/// CHEG) and prints their errors: `Display` and `Debug` are the message
/// without `error: ` (which only the standalone program's `main` adds), so
/// `println!("add error: {e}")` and `?` in `main` read as they should.
const ERRORS_MAIN: &str = r#"mod sum {
    include!("sum.rs");
}
mod add {
    include!("add.rs");
}
mod krk {
    include!("krk.rs");
}

/// Output that cannot be written.
struct Broken;

impl std::io::Write for Broken {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("broken"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::Error::other("broken"))
    }
}

fn main() -> Result<(), add::Error> {
    if std::env::args().nth(1).is_some() {
        add::run(&b"40 x"[..], std::io::sink())?;
        return Ok(());
    }
    let e = sum::run(&b"x"[..], std::io::sink()).unwrap_err();
    println!("sum error: {e}");
    println!("sum error: {e:?}");
    let e = add::run(&b"40 x"[..], std::io::sink()).unwrap_err();
    println!("add error: {e}");
    println!("add error: {e:?}");
    let e = krk::run(&b"uci\n"[..], Broken).unwrap_err();
    println!("krk error: {e}");
    println!("krk error: {e:?}");
    Ok(())
}
"#;

#[test]
fn a_modules_error_is_its_message_in_display_and_debug() {
    let dir = tempfile::tempdir().unwrap();
    for (stem, language) in [
        ("sum.icp", Language::InfChessPro),
        ("add.fin", Language::Finvara),
        ("krk.cheg", Language::Cheg),
    ] {
        let source = std::fs::read_to_string(support::root().join("examples").join(stem)).unwrap();
        let program = driver::check(language, &source).unwrap().program;
        let (name, _) = stem.split_once('.').unwrap();
        let file = program
            .emit(Target::Rust, Layout::Module, stem, name)
            .unwrap()
            .pop()
            .unwrap();
        std::fs::write(dir.path().join(format!("{name}.rs")), file.contents).unwrap();
    }
    let exe = support::build_rust_at(ERRORS_MAIN, dir.path(), "errors", 0).unwrap();
    let printed = support::run_exe(&exe, &[], b"");
    assert_eq!(
        (printed.status, String::from_utf8_lossy(&printed.stdout)),
        (
            0,
            "sum error: statement 10: input is not a number (§6)\n\
             sum error: statement 10: input is not a number (§6)\n\
             add error: turn 2 W: input is not a number (§4)\n\
             add error: turn 2 W: input is not a number (§4)\n\
             krk error: cannot write standard output\n\
             krk error: cannot write standard output\n"
                .into()
        ),
        "{}",
        String::from_utf8_lossy(&printed.stderr)
    );
    // `?` in `main` prints the error's `Debug` after `Error: `.
    let question = support::run_exe(&exe, &["?"], b"");
    assert_eq!(
        (question.status, String::from_utf8_lossy(&question.stderr)),
        (1, "Error: turn 2 W: input is not a number (§4)\n".into())
    );
}
