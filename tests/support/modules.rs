//! The Rust of many programs as one executable, for languages whose
//! generated programs carry only the runtime sections they use
//! (`icp2c::codegen::sections`): each program is a module `pN` of the
//! executable, and each different `src/icp_rt.rs` of their crates a
//! runtime module of its own, shared by the programs whose runtime is the
//! same text (rustc takes 1-2 s per program otherwise). A strict build
//! allows no lint: it fails on dead code, so it proves that every program
//! uses all of its runtime. `batch.rs` does the same for languages whose
//! programs all carry one whole runtime.

#![allow(dead_code)] // each test binary uses a different part

use super::batch::{Prog, build_c, c_flags, interpret, run_batch};
use super::{Ran, run_exe};
use icp2c::driver::Program;
use std::path::{Path, PathBuf};

/// The generated crate's `src/main.rs` as a module of a batch (`mod
/// icp_rt;` becomes a `use` of the runtime module `rt`, `main` becomes
/// public), and the crate's runtime file.
fn as_module(program: &Program, file_name: &str, rt: &dyn Fn(&str) -> String) -> String {
    let files = program.emit_crate(file_name, "batch");
    let file = |path: &str| {
        files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("a crate has {path}"))
            .contents
            .clone()
    };
    let name = rt(&file("src/icp_rt.rs"));
    let mut text = String::new();
    let (mut uses, mut mains) = (0, 0);
    for line in file("src/main.rs").lines() {
        if line == "mod icp_rt;" {
            text.push_str(&format!("use super::{name} as icp_rt;\n"));
            uses += 1;
        } else if line == "fn main() {" {
            text.push_str("pub fn main() {\n");
            mains += 1;
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }
    assert_eq!(
        (uses, mains),
        (1, 1),
        "the generated main.rs changed shape; update tests/support/modules.rs"
    );
    text
}

/// Builds the generated Rust of every program as one executable: run it
/// with the program's index as its only argument. Debug assertions and
/// overflow checks are on, so arithmetic bugs in the runtime panic.
/// `strict`: `-D warnings` with no lint allowed (else every lint is, as
/// the behaviour is what is compared).
pub fn build_rust_modules(
    programs: &[(&Program, String)],
    dir: &Path,
    stem: &str,
    strict: bool,
) -> Result<PathBuf, String> {
    let mut file = String::new();
    if !strict {
        file.push_str("#![allow(warnings)]\n");
    }
    let runtimes = std::cell::RefCell::new(Vec::<String>::new());
    let runtime = |text: &str| {
        let mut list = runtimes.borrow_mut();
        let k = match list.iter().position(|t| t == text) {
            Some(k) => k,
            None => {
                list.push(text.to_string());
                list.len() - 1
            }
        };
        format!("rt{k}")
    };
    let mut modules = String::new();
    for (i, (program, file_name)) in programs.iter().enumerate() {
        let module = as_module(program, file_name, &runtime);
        modules.push_str(&format!("mod p{i} {{\n{module}}}\n"));
    }
    for (k, text) in runtimes.borrow().iter().enumerate() {
        let path = dir.join(format!("{stem}_rt{k}.rs"));
        std::fs::write(&path, text).unwrap();
        file.push_str(&format!(
            "#[path = {:?}]\nmod rt{k};\n",
            path.to_str().expect("a UTF-8 temp path")
        ));
    }
    file.push_str(&modules);
    file.push_str("fn main() {\n    let which: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).expect(\"program number\");\n    match which {\n");
    for i in 0..programs.len() {
        file.push_str(&format!("        {i} => p{i}::main(),\n"));
    }
    file.push_str("        _ => std::process::exit(99),\n    }\n}\n");
    // opt-level 0: at opt-level 1 with overflow checks, rustc takes about
    // 50 s on one program of 550 statements (2.6 s at 0).
    super::build_rust_at(&file, dir, stem, 0)
}

/// Runs every program through the interpreter, its C (strict flags plus
/// [`c_flags`]) and its Rust (all in one executable): `[run, c, rust]`
/// for each, in order. A build failure panics.
pub fn three_ways(progs: &[Prog]) -> Vec<[Ran; 3]> {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let checked: Vec<Program> = progs.iter().map(Prog::checked).collect();
    let extra = c_flags();
    let members: Vec<_> = checked
        .iter()
        .zip(progs)
        .map(|(c, p)| (c, p.file_name()))
        .collect();
    // Job 0 is the Rust, job i + 1 the C of program i.
    let jobs: Vec<usize> = (0..=progs.len()).collect();
    let built = super::parallel(&jobs, |&j| {
        if j == 0 {
            build_rust_modules(&members, dir, "three_ways", false)
        } else {
            build_c(
                &checked[j - 1],
                &progs[j - 1].file_name(),
                dir,
                &format!("c{}", j - 1),
                &extra,
            )
        }
    });
    let exes: Vec<PathBuf> = built
        .into_iter()
        .map(|b| b.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let indexes: Vec<usize> = (0..progs.len()).collect();
    super::parallel(&indexes, |&i| {
        let p = &progs[i];
        let run = interpret(&checked[i], &p.input, 10_000_000).expect("runs away");
        let c = run_exe(&exes[i + 1], &[], &p.input);
        let rust = run_batch(&exes[0], i, &p.input);
        [run, c, rust]
    })
}
