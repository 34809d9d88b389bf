//! Generated Rust is laid out as rustfmt lays it out (issue 14): for every
//! InfChessPro and Finvara example, and for programs made to reach the
//! layout limits (long texts, 20-digit literals, wide characters, a
//! program cut into several functions), the one-file Rust and every Rust
//! file of the crate pass `rustfmt --edition 2021
//! --check` (the edition the generated code names).
//!
//! CHEG's statements are nested expressions: besides its examples, random
//! programs from the differential tests' generator (every instruction,
//! sets, conditions, piece variables) are checked too.

use crate::support;

use icp2c::driver::{self, Language};
use std::path::Path;
use std::process::Command;

/// Runs `rustfmt --check` on `path` (and the modules it declares);
/// returns rustfmt's diff on failure.
fn rustfmt_check(path: &Path, name: &str) -> Result<(), String> {
    let out = Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .arg(path)
        .output()
        .expect("rustfmt runs (it is part of the Rust toolchain: rustup component add rustfmt)");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{name} is not rustfmt-clean:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Writes the generated Rust of `source` (named `file`) under `dir`, as
/// one file and as a crate, and checks both.
fn check(file: &str, source: &str, dir: &Path) -> Vec<String> {
    let language = Language::from_path(Path::new(file));
    let program = driver::check(language, source)
        .unwrap_or_else(|d| panic!("{file} does not compile: {d:?}"))
        .program;
    let mut failures = Vec::new();
    let one = dir.join(format!("{file}.rs"));
    std::fs::write(&one, program.emit_rust(file)).expect("write generated file");
    failures.extend(rustfmt_check(&one, file).err());
    let krate = dir.join(format!("{file}.crate"));
    let files = program.emit_crate(file, "prog");
    for f in &files {
        let path = krate.join(&f.path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("create folder");
        std::fs::write(&path, &f.contents).expect("write generated file");
    }
    // Every Rust file of the crate, each on its own (`lib.rs`, `main.rs`,
    // the runtime module).
    let rust_files: Vec<_> = files.iter().filter(|f| f.path.ends_with(".rs")).collect();
    assert!(
        rust_files.len() >= 3,
        "{file}: a crate of {} Rust files",
        rust_files.len()
    );
    for f in rust_files {
        let name = format!("{file} (crate's {})", f.path);
        failures.extend(rustfmt_check(&krate.join(&f.path), &name).err());
    }
    failures
}

fn check_all(programs: &[(String, String)]) {
    let dir = tempfile::tempdir().expect("temp dir");
    let failures: Vec<String> = programs
        .iter()
        .flat_map(|(file, source)| check(file, source, dir.path()))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg_attr(
    icp2c_no_rustfmt,
    ignore = "needs rustfmt (rustup component add rustfmt), missing when the tests were built"
)]
#[test]
fn examples_are_rustfmt_clean() {
    let mut programs = Vec::new();
    let dir = support::root().join("examples");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".icp") || n.ends_with(".fin") || n.ends_with(".cheg"))
        .collect();
    names.sort();
    for name in names {
        let source = std::fs::read_to_string(dir.join(&name)).expect("read example");
        programs.push((name, source));
    }
    assert!(programs.len() >= 12, "examples found: {}", programs.len());
    check_all(&programs);
}

#[cfg_attr(
    icp2c_no_rustfmt,
    ignore = "needs rustfmt (rustup component add rustfmt), missing when the tests were built"
)]
#[test]
fn programs_at_the_layout_limits_are_rustfmt_clean() {
    let long_text = format!("1. \"{}\n", "x".repeat(47));
    let longer_text = format!("1. \"{}\n", "y".repeat(48));
    let wide_text = "1. \"♔♕♖♗♘♙ 日本語のテキスト é ∞ — wide and narrow glyphs side by side\n";
    let huge = "1. a=Q-9223372036854775808,9223372036854775807\n\
                2. a,-9223372036854775808,9223372036854775807?1\n\
                3. -9223372036854775808,1,9223372036854775807,2!4\n\
                4. a;*,*?*\n\
                5. bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb=n*,*!5\n\
                6. %bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb?*\n";
    // More statements than fit in one function: several, and a dispatch.
    let mut many = String::new();
    for i in 1..=600 {
        many.push_str(&format!("{}. r{}=R{},{}\n", i * 1000, i % 7, i, -i));
    }
    // Every shape of statement in a program of several functions (arms
    // that are one call of a step function, and the others), with
    // 19-digit labels and 20-digit literals.
    let mut shapes = String::new();
    let label = |i: i64| 9_223_372_036_854_000_000 + 10 * i;
    let long = "b".repeat(50);
    for i in 0..700 {
        let (at, next, far) = (label(i), label(i + 1), label((i + 7).min(699)));
        let command = match i % 13 {
            0 => format!("\"{}", "x".repeat(40 + (i % 11) as usize)),
            1 => format!("a=Q-9223372036854775808,9223372036854775807?{far}"),
            2 => format!("a,-9223372036854775808,9223372036854775807?{far}!{next}"),
            3 => format!("-9223372036854775808,1,9223372036854775807,2!{far}"),
            4 => format!("%{long}"),
            5 => format!("{long};1,-9223372036854775808?{far}"),
            6 => format!("a;0,1?{at}"),
            7 => format!("^?{far}"),
            8 => "a;*,*?*".to_string(),
            9 => format!("{long}=n*,*!{far}"),
            10 => format!("%{long}?*"),
            11 => "♔♕♖♗♘♙ 日本語のテキスト é ∞ — wide and narrow glyphs".to_string(),
            _ => format!("p{i}=k{i},-{i}"),
        };
        let command = if i % 13 == 11 {
            format!("\"{command}")
        } else {
            command
        };
        shapes.push_str(&format!("{at}. {command}\n"));
    }
    shapes.push_str(&format!("{}. a=P1,1?{}\n", label(700), label(3)));
    let programs = [
        long_text,
        longer_text,
        wide_text.to_string(),
        huge.to_string(),
        many,
        shapes,
    ]
    .into_iter()
    .enumerate()
    .map(|(i, source)| (format!("limits{i}.icp"), source))
    .collect::<Vec<_>>();
    check_all(&programs);
}

#[cfg_attr(
    icp2c_no_rustfmt,
    ignore = "needs rustfmt (rustup component add rustfmt), missing when the tests were built"
)]
#[test]
fn random_cheg_programs_are_rustfmt_clean() {
    let mut rng = support::progen::Rng(0x00c4_e6f0);
    let programs: Vec<(String, String)> = (0..support::scale(15, 60))
        .map(|i| {
            let source = support::progen::generate(Language::Cheg, &mut rng, 6 + i % 20).source;
            (format!("random{i}.cheg"), source)
        })
        .collect();
    check_all(&programs);
}
