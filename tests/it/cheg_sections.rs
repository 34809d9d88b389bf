//! A CHEG engine carries only the runtime its program uses
//! (`src/lang/cheg/runtime/api.rs`, whose unit tests hold the table
//! against both runtimes; `src/codegen/sections.rs`): an engine of one
//! instruction is a fraction of one of every instruction; and generated
//! engines build with the flags that report anything unused, so the
//! compilers prove that nothing unused is pasted: `cc -std=c99 -Wall
//! -Wextra -Wpedantic -Werror` at `-O0` and `-O2`, one-file Rust with
//! `rustc --edition 2021 -D warnings`, crates with `cargo clippy -- -D
//! warnings`.
//!
//! The programs: the examples, one program per entry of the table (each
//! instruction, condition, ordering, variable and literal alone, and the
//! degenerate shapes: nothing but `END`, a `RETURN` with no call, calls
//! with no `RETURN`, `VALON` without `PLAY`), and random programs of the differential generator
//! (`tests/support/cheg_gen.rs`), which together cover every instruction,
//! condition and ordering. `ICP2C_CHEG_SECTION_PROGRAMS=N` builds N random
//! programs (default 12; from 100 on, the test checks that they use every
//! instruction, condition and ordering between them);
//! `ICP2C_CHEG_SECTION_CRATES=N` builds the first N programs of the list
//! (the examples, then one per entry, then the random ones) as crates
//! under clippy (default 8; each crate is a cargo run).

use crate::support;

use icp2c::codegen::sections::Entry;
use icp2c::codegen::{Layout, Target};
use icp2c::driver::{self, Language, Program};
use icp2c::lang::cheg::{self, backend, runtime::api};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// A program: an `ENTRY K,K` with `body`, then `END`.
fn program(body: &str) -> String {
    format!("ENTRY K,K\n{}\nEND\n", body.trim_end())
}

/// One program per entry point and the degenerate shapes, by name.
fn feature_programs() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |name: &str, body: String| out.push((name.to_string(), program(&body)));
    add("empty", String::new());
    add("leave", "        LEAVE".into());
    add("break", "        BREAK \"1,\"2,\"3".into());
    add("stray_return", "S:      RETURN \"1".into());
    add("cond_empty", "S:      RETURN \"1\n        COND ,S,S".into());
    add(
        "cond_defd",
        "S:      RETURN \"1\n        COND DEFD,S,S".into(),
    );
    add("condv_empty", "        CONDV ,\"1,T\nT:      LEAVE".into());
    add("condt", "S:      RETURN \"T\n        CONDT S,\"1,S".into());
    add("condf", "S:      RETURN \"T\n        CONDF S,\"1,S".into());
    for (name, cmp) in [
        ("lt", "<"),
        ("eq", "="),
        ("gt", ">"),
        ("not_lt", "#<"),
        ("ne", "#="),
        ("not_gt", "#>"),
    ] {
        add(
            &format!("jump_{name}"),
            format!("        JUMP{cmp} \"1,\"2,T\nT:      LEAVE"),
        );
    }
    add("set", "S:      RETURN \"1\n        SET A,S,\"2".into());
    add(
        "select",
        "S:      RETURN \"T\n        SELECT A,S,\"(1,2)".into(),
    );
    add("map", "S:      RETURN \"T\n        MAP A,S,\"(1,2)".into());
    for op in [
        "SETV", "CARD", "PIECE", "SQUARE", "SIDE", "RANK", "FILE", "SCOLOR", "PCOLOR", "ABS",
    ] {
        add(&format!("unary_{op}"), format!("        {op} A,\"1"));
    }
    for op in [
        "SETSQ", "SETMOV", "PAIR", "MEMBER", "MEMNUM", "INTERS", "UNION", "DIFFER", "APPEND",
        "GETEL", "MVDIST", "INSQ", "OPP", "SQ>RNK", "NOR", "AND", "OR", "ADD", "SUB", "MUL", "DIV",
        "MOD", "DIF", "MIN", "MAX",
    ] {
        add(&format!("binary_{op}"), format!("        {op} A,\"1,\"2"));
    }
    add("exch", "        EXCH A,B".into());
    for (name, o) in [("as_given", ""), ("deep", "DEEP"), ("shallow", "#DEEP")] {
        add(&format!("order_{name}"), format!("        ORDER A,B,{o}"));
        add(&format!("play_{name}"), format!("        PLAY LM,,{o}"));
    }
    add("selecc", "        SELECC A,,\"(1)".into());
    add("setel", "        SETEL \"1,A,\"1".into());
    add("insert", "        INSERT \"1,A,\"1".into());
    add("unsert", "        UNSERT B,A,\"1".into());
    add("exchwe", "        EXCHWE B,A,\"1".into());
    add("exchel", "        EXCHEL A,\"1,\"2".into());
    add("playb", "        PLAYB \"(),,".into());
    add("try", "        TRY \"(),,".into());
    add("plan", "T:      LEAVE\n        PLAN T,\"(),\"1".into());
    add("unplan", "        UNPLAN".into());
    add("done", "        DONE".into());
    for kind in ["VALRET", "VALRUT", "VALON", "RETBET"] {
        add(kind, format!("        {kind} \"1,\"2,\"3"));
    }
    add(
        "valon_play",
        "        VALON \"1,\"2,\"3\n        PLAY LM,,".into(),
    );
    for test in [
        "DEFD", "=0", "<0", ">0", "ODD", "T", "EMPTY", "FAR", "RF", "NF", "NNF", "WSQ", "KING",
        "QUEEN", "ROOK", "BISH", "NIGHT", "PAWN", "WPC", "PASSD", "PDP", "CAPT", "CHECK", "SAFE",
        "OPP", "RWK=",
    ] {
        add(
            &format!("test_{test}"),
            format!("        CONDV {test},\"1,T\nT:      LEAVE"),
        );
        add(
            &format!("test_not_{test}"),
            format!("        CONDV #{test},LM,T\nT:      LEAVE"),
        );
    }
    for var in ["X", "DEPTH", "PLIES", "LM", "PG", "SIDE", "WK", "BP2", "A"] {
        add(&format!("var_{var}"), format!("        BREAK {var}"));
    }
    for (name, literal) in [
        ("undefined", "\"#"),
        ("logical", "\"T"),
        ("integer", "\"1"),
        ("set", "\"(1,(T,#))"),
    ] {
        add(
            &format!("literal_{name}"),
            format!("        BREAK {literal}"),
        );
    }
    add("write_side", "        SETV SIDE,\"1".into());
    // Calls that never come back (a program without RETURN).
    add(
        "no_return_set",
        "S:      VALRET \"1,\"0,\"600\n        SET A,S,\"1".into(),
    );
    add("no_return_cond", "S:      LEAVE\n        COND ,S,S".into());
    add("no_return_map", "S:      LEAVE\n        MAP A,S,LM".into());
    add(
        "no_return_select",
        "S:      LEAVE\n        SELECT A,S,\"()\n        CONDT S,\"T,S".into(),
    );
    add(
        "no_return_fence",
        "        SET A,S,\"1\nS:      BREAK X".into(),
    );
    add(
        "pawn_differences",
        "        LEAVE\nENTRY K,K,<1\n        LEAVE\nENTRY K,K,>1\n        LEAVE\nENTRY K,K,=1"
            .into(),
    );
    out
}

/// Every instruction, condition and ordering in one program.
fn everything() -> String {
    let mut body = String::new();
    // One subroutine, one target, every statement of the table.
    body.push_str("S:      RETURN \"T\n");
    for (name, source) in feature_programs() {
        if matches!(name.as_str(), "empty" | "stray_return" | "pawn_differences") {
            continue;
        }
        for line in source.lines() {
            let statement = line.trim();
            if statement.starts_with("ENTRY")
                || statement == "END"
                || statement.starts_with("S:")
                || statement.starts_with("T:")
            {
                continue;
            }
            body.push_str("        ");
            body.push_str(statement);
            body.push('\n');
        }
    }
    body.push_str("T:      LEAVE\n");
    program(&body)
}

fn check(source: &str) -> Program {
    driver::check(Language::Cheg, source)
        .unwrap_or_else(|e| panic!("{}", icp2c::diagnostic::render("p.cheg", source, &e)))
        .program
}

#[test]
fn an_engine_of_one_instruction_is_a_fraction_of_one_of_every_instruction() {
    let one = check(&program("        ADD A,\"1,\"2"));
    let all = check(&everything());
    let lines = |p: &Program, target| p.emit_file(target, "p.cheg").unwrap().lines().count();
    let (c_one, c_all) = (lines(&one, Target::C), lines(&all, Target::C));
    let (rust_one, rust_all) = (lines(&one, Target::Rust), lines(&all, Target::Rust));
    eprintln!("C: {c_one} lines (ADD) vs {c_all} (every instruction)");
    eprintln!("Rust: {rust_one} lines (ADD) vs {rust_all} (every instruction)");
    // Measured when written: C 4,417 lines (ADD) vs 6,606, Rust 4,129 vs
    // 6,916; an engine of nothing but `END` has 4,209 and 4,026. The core
    // (chess, the search, UCI) is most of an engine.
    assert!(c_one * 10 < c_all * 8, "C: {c_one} vs {c_all}");
    assert!(
        rust_one * 10 < rust_all * 7,
        "Rust: {rust_one} vs {rust_all}"
    );
    // Every instruction, condition and ordering is in the big one.
    let ir = all.ir::<cheg::Cheg>().unwrap();
    let (c, rust) = (backend::c::select(ir), backend::select(ir));
    for e in api::ENTRIES {
        if matches!(e.section, "stray" | "enter" | "enter_each" | "core") {
            continue;
        }
        assert!(c.sections.contains(&e.section), "C lacks {}", e.section);
        assert!(
            rust.sections.contains(&e.section),
            "Rust lacks {}",
            e.section
        );
    }
}

/// The entries the random programs must cover between them: every
/// instruction, condition and ordering.
fn instructions_conditions_orderings() -> Vec<&'static Entry> {
    api::ENTRIES
        .iter()
        .filter(|e| {
            !matches!(
                e.section,
                "core"
                    | "stray"
                    | "enter"
                    | "enter_each"
                    | "read"
                    | "next"
                    | "branch"
                    | "call"
                    | "outcome"
            ) && !e.section.starts_with("var_")
                && !matches!(e.section, "val_logical" | "val_integer" | "lit_set")
        })
        .collect()
}

/// The programs this test builds: the examples, one per entry, random
/// ones.
fn programs() -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = Vec::new();
    for case in support::cases(&["examples"], "cheg") {
        all.push((
            case.name.clone(),
            std::fs::read_to_string(&case.path).unwrap(),
        ));
    }
    all.extend(
        feature_programs()
            .into_iter()
            .map(|(n, s)| (format!("f_{n}"), s)),
    );
    let count: usize = std::env::var("ICP2C_CHEG_SECTION_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12);
    let mut rng = support::progen::Rng(0x5ec7_1045_0000_0001);
    for i in 0..count {
        let size = 4 + rng.below(12);
        let generated = support::progen::generate(Language::Cheg, &mut rng, size);
        all.push((format!("random{i}"), generated.source));
    }
    all
}

fn cc(source: &Path, level: &str) -> Result<(), String> {
    let out = Command::new("cc")
        .args([
            "-std=c99",
            level,
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
            "-c",
        ])
        .arg(source)
        .arg("-o")
        .arg(source.with_extension(format!("{}.o", &level[1..])))
        .output()
        .unwrap();
    if out.status.success() && out.stderr.is_empty() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
#[ignore = "slow (80 s): builds one engine per instruction in C and Rust; .ci/run runs it"]
fn every_engine_builds_with_the_flags_that_report_anything_unused() {
    let programs = programs();
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let checked: Vec<Program> = programs.iter().map(|(_, s)| check(s)).collect();
    // The random programs cover every instruction, condition and ordering.
    let mut covered: BTreeSet<&str> = BTreeSet::new();
    for ((name, _), program) in programs.iter().zip(&checked) {
        if name.starts_with("random") {
            let ir = program.ir::<cheg::Cheg>().unwrap();
            covered.extend(backend::c::select(ir).sections);
        }
    }
    let random = programs
        .iter()
        .filter(|p| p.0.starts_with("random"))
        .count();
    if random >= 100 {
        for e in instructions_conditions_orderings() {
            assert!(
                covered.contains(e.section),
                "no random program uses {}",
                e.name
            );
        }
    }
    // C at -O0 and -O2; Rust one file, a batch of programs (each with its
    // own runtime) per rustc.
    let indexes: Vec<usize> = (0..programs.len()).collect();
    let c_failures: Vec<String> = support::parallel(&indexes, |&i| {
        let path = dir.join(format!("p{i}.c"));
        std::fs::write(&path, checked[i].emit_file(Target::C, "p.cheg").unwrap()).unwrap();
        // -O2 as well for the examples and the random programs (the
        // one-entry programs add nothing -O2 could report).
        let levels: &[&str] = if programs[i].0.starts_with("f_") {
            &["-O0"]
        } else {
            &["-O0", "-O2"]
        };
        levels
            .iter()
            .filter_map(|level| cc(&path, level).err())
            .map(|e| format!("{} ({}):\n{e}", programs[i].0, path.display()))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(c_failures.is_empty(), "{}", c_failures.join("\n"));
    const BATCH: usize = 24;
    let batches: Vec<usize> = (0..programs.len().div_ceil(BATCH)).collect();
    let rust_failures: Vec<String> = support::parallel(&batches, |&b| {
        let mut text = String::new();
        let members = b * BATCH..((b + 1) * BATCH).min(programs.len());
        for i in members.clone() {
            let one = checked[i].emit_file(Target::Rust, "p.cheg").unwrap();
            assert!(!one.contains("allow(dead_code)") && !one.contains("@section"));
            text.push_str(&format!(
                "mod p{i} {{\n{}\n}}\n",
                one.replace("fn main()", "pub fn main()")
            ));
        }
        text.push_str("fn main() {\n");
        for i in members {
            text.push_str(&format!(
                "    if std::env::args().count() > 9 {{ p{i}::main(); }}\n"
            ));
        }
        text.push_str("}\n");
        let src = dir.join(format!("batch{b}.rs"));
        std::fs::write(&src, text).unwrap();
        let out = Command::new("rustc")
            .args(["--edition", "2021", "-D", "warnings", "-o"])
            .arg(dir.join(format!("batch{b}")))
            .arg(&src)
            .output()
            .unwrap();
        (!out.status.success() || !out.stderr.is_empty())
            .then(|| format!("batch {b}:\n{}", String::from_utf8_lossy(&out.stderr)))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(rust_failures.is_empty(), "{}", rust_failures.join("\n"));
    // Crates under clippy.
    let crates: usize = std::env::var("ICP2C_CHEG_SECTION_CRATES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8);
    let target = dir.join("target");
    for (i, program) in checked.iter().enumerate().take(crates) {
        let name = format!("sections_{i}");
        let root = dir.join(&name);
        for file in program
            .emit(Target::Rust, Layout::Crate, "p.cheg", &name)
            .unwrap()
        {
            let path = root.join(&file.path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, file.contents).unwrap();
        }
        let clippy = Command::new("cargo")
            .args(["clippy", "--offline", "--quiet", "--", "-D", "warnings"])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(&root)
            .output()
            .unwrap();
        assert!(
            clippy.status.success(),
            "clippy on {}:\n{}",
            programs[i].0,
            String::from_utf8_lossy(&clippy.stderr)
        );
    }
}
