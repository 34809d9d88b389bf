//! Generated crates build with `cargo build --offline` and pass
//! `cargo clippy -- -D warnings`, for every example and for programs whose
//! shape could trip a lint (empty, one statement, a lone self-loop, output
//! only, input only). The built programs must print what the interpreter
//! prints.

mod support;

use icp2c::{backend, icp};
use std::process::Command;

const SHAPES: &[(&str, &str)] = &[
    ("empty", "# nothing\n"),
    ("one_statement", "1. ^\n"),
    ("one_text", "1. \"hi {} \\\" \n"),
    ("self_loop", "1. x;0,1?1\n"),
    ("blocked_loop", "1. x=R0,0\n2. b=P0,5\n3. x;0,1?3\n"),
    ("dynamic_only", "1. ^?*\n"),
    ("count_only", "1. %nobody\n"),
];

fn write_crate(dir: &std::path::Path, name: &str, source: &str) {
    let program = icp::check(source).unwrap().program;
    for file in backend::rust::emit_crate(&program, &format!("{name}.icp"), name) {
        let path = dir.join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, file.contents).unwrap();
    }
}

#[test]
fn generated_crates_build_and_pass_clippy() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("target");
    let mut programs: Vec<(String, String, Vec<u8>)> = SHAPES
        .iter()
        .map(|(n, s)| (n.to_string(), s.to_string(), b"5".to_vec()))
        .collect();
    for case in support::cases(&["examples"], "icp") {
        programs.push((
            case.name.clone(),
            std::fs::read_to_string(&case.path).unwrap(),
            case.input.clone(),
        ));
    }
    for (name, source, input) in &programs {
        let dir = work.path().join(name);
        write_crate(&dir, name, source);
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
        let package = backend::rust::crate_name(name);
        let ran = support::run_exe(&target.join("debug").join(&package), &[], input);
        let program = icp::check(source).unwrap().program;
        let mut want = Vec::new();
        let outcome = icp::interp::run(&program, &mut input.as_slice(), &mut want, None);
        assert_eq!(
            (ran.status, &ran.stdout),
            (outcome.exit_status(), &want),
            "{name}"
        );
    }
}
