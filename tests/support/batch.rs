//! Running one program three ways (interpreter, generated C, generated
//! Rust) cheaply enough to do it for hundreds of programs: the interpreter
//! result is the reference; the C is built per program (cc is fast); the
//! Rust of many programs is built as ONE executable, each program a module
//! of it sharing one copy of each runtime, picked by the first argument
//! (rustc takes 1-2 s per program otherwise).

#![allow(dead_code)] // each test binary uses a different part

use super::{CFLAGS, Ran, run_exe};
use icp2c::Outcome;
use icp2c::codegen::{Layout, Target};
use icp2c::driver::{self, Language, Program};
use std::path::{Path, PathBuf};

/// A program to compare, with its input.
#[derive(Clone, Debug)]
pub struct Prog {
    /// Shown in failure messages.
    pub name: String,
    pub lang: Language,
    pub source: String,
    pub input: Vec<u8>,
}

impl Prog {
    pub fn file_name(&self) -> String {
        format!("{}.{}", self.name, self.lang.extension())
    }

    pub fn checked(&self) -> Program {
        match driver::check(self.lang, &self.source) {
            Ok(c) => c.program,
            Err(e) => panic!(
                "{} is rejected:\n{}\n--- source\n{}",
                self.name,
                icp2c::diagnostic::render(&self.file_name(), &self.source, &e),
                self.source
            ),
        }
    }
}

/// The interpreter's run: stdout, exit status and the error line on
/// stderr, as the CLI prints them. `None` when `max_steps` ran out.
pub fn interpret(program: &Program, input: &[u8], max_steps: u64) -> Option<Ran> {
    let mut stdout = Vec::new();
    let outcome = program.run(&mut &input[..], &mut stdout, Some(max_steps));
    let stderr = match &outcome {
        Outcome::RuntimeError(line) => format!("{line}\n").into_bytes(),
        Outcome::StepLimit(_) => return None,
        Outcome::Halted | Outcome::Reported(_) => Vec::new(),
    };
    Some(Ran {
        status: outcome.exit_status(),
        stdout,
        stderr,
    })
}

/// Extra C flags from the environment: `ICP2C_SANITIZE=1` builds with
/// AddressSanitizer and UndefinedBehaviorSanitizer, any report fatal.
pub fn c_flags() -> Vec<&'static str> {
    if sanitizing() {
        vec![
            "-g",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ]
    } else {
        vec!["-O0"]
    }
}

/// Whether `ICP2C_SANITIZE` asks for sanitized C builds.
pub fn sanitizing() -> bool {
    std::env::var_os("ICP2C_SANITIZE").is_some_and(|v| v != "0")
}

/// Builds the generated C of `program` with the strict flags plus `extra`.
pub fn build_c(
    program: &Program,
    file_name: &str,
    dir: &Path,
    stem: &str,
    extra: &[&str],
) -> Result<PathBuf, String> {
    super::build_c(&program.emit_c(file_name), dir, stem, extra)
}

/// The generated crate's `src/main.rs`, turned into a module of a batch:
/// `mod icp_rt;` becomes a `use` of the batch's shared runtime module and
/// `main` becomes public. Returns the module text and the runtime text.
fn as_module(program: &Program, file_name: &str) -> (String, String) {
    let files = program.emit_crate(file_name, "batch");
    let main = files
        .iter()
        .find(|f| f.path == "src/main.rs")
        .expect("a crate has src/main.rs");
    let rt = files
        .iter()
        .find(|f| f.path == "src/icp_rt.rs")
        .expect("a crate has src/icp_rt.rs");
    let rt_name = format!("rt_{}", program.language().extension());
    let mut text = String::with_capacity(main.contents.len() + 64);
    let (mut uses, mut mains) = (0, 0);
    for line in main.contents.lines() {
        if line == "mod icp_rt;" {
            text.push_str(&format!("use super::{rt_name} as icp_rt;\n"));
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
        "the generated main.rs changed shape; update tests/support/batch.rs"
    );
    (text, rt.contents.clone())
}

/// A module-form program without its `mod icp_rt { … }`, and that
/// module's body (the runtime it carries).
fn shared_runtime(module: &str) -> (String, String) {
    let start = module
        .find("\nmod icp_rt {\n")
        .expect("a module form carries mod icp_rt");
    let body = start + "\nmod icp_rt {\n".len();
    let end = body
        + module[body..]
            .find("\n}\n")
            .expect("mod icp_rt ends with a closing brace at the start of a line");
    let runtime = module[body..end + 1].to_string();
    let rest = format!("{}{}", &module[..start + 1], &module[end + 3..]);
    (rest, runtime)
}

/// Builds the generated Rust of every program as one executable: run it
/// with the program's index as its only argument. Debug assertions and
/// overflow checks are on, so arithmetic bugs in the runtime panic.
///
/// A program of a language with the module form (`--module`) is one
/// module of the batch, `mod pN { … }`, and the batch builds under `-D
/// warnings`: the compiler checks that no program carries anything it
/// does not use. Programs that carry the same runtime text (the same
/// sections) share one copy of it, `mod sK`, which each names as its
/// `icp_rt` (rustc's time grows with the text it compiles). Programs of a
/// language without the module form share one runtime module per
/// language (and the batch allows warnings).
pub fn build_rust_batch(
    programs: &[(&Program, String)],
    dir: &Path,
    stem: &str,
) -> Result<PathBuf, String> {
    let mut shared: Vec<(String, String)> = Vec::new();
    let mut selected: Vec<String> = Vec::new();
    let mut modules = String::new();
    let mut calls = String::new();
    for (i, (program, file_name)) in programs.iter().enumerate() {
        match program.emit(Target::Rust, Layout::Module, file_name, &format!("p{i}")) {
            Ok(mut files) => {
                let module = files.pop().expect("one file").contents;
                let (module, runtime) = shared_runtime(&module);
                let k = match selected.iter().position(|r| *r == runtime) {
                    Some(k) => k,
                    None => {
                        selected.push(runtime);
                        selected.len() - 1
                    }
                };
                modules.push_str(&format!(
                    "mod p{i} {{\nuse super::s{k} as icp_rt;\n{module}}}\n"
                ));
                calls.push_str(&format!("        {i} => run(p{i}::run),\n"));
            }
            Err(_) => {
                let (module, rt) = as_module(program, file_name);
                let rt_name = format!("rt_{}", program.language().extension());
                match shared.iter().find(|(n, _)| *n == rt_name) {
                    Some((_, text)) => assert!(*text == rt, "the runtime differs between programs"),
                    None => shared.push((rt_name, rt)),
                }
                modules.push_str(&format!("mod p{i} {{\n{module}}}\n"));
                calls.push_str(&format!("        {i} => p{i}::main(),\n"));
            }
        }
    }
    let mut file = String::new();
    if !shared.is_empty() {
        file.push_str("#![allow(warnings)]\n");
    }
    for (rt_name, rt) in &shared {
        let path = dir.join(format!("{stem}_{rt_name}.rs"));
        std::fs::write(&path, rt).unwrap();
        file.push_str(&format!(
            "#[path = {:?}]\nmod {rt_name};\n",
            path.to_str().expect("a UTF-8 temp path")
        ));
    }
    for (k, runtime) in selected.iter().enumerate() {
        file.push_str(&format!("mod s{k} {{\n{runtime}}}\n"));
    }
    file.push_str(&modules);
    file.push_str(
        "/// What a generated `main` does with `run`.\n#[allow(dead_code)]\nfn run<E: std::fmt::Display>(run: fn(std::io::StdinLock<'static>, std::io::StdoutLock<'static>) -> Result<(), E>) {\n    if let Err(error) = run(std::io::stdin().lock(), std::io::stdout().lock()) {\n        eprintln!(\"error: {error}\");\n        std::process::exit(1);\n    }\n}\n",
    );
    file.push_str("fn main() {\n    let which: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).expect(\"program number\");\n    match which {\n");
    file.push_str(&calls);
    file.push_str("        _ => std::process::exit(99),\n    }\n}\n");
    // opt-level 0: at opt-level 1 with overflow checks, rustc takes about
    // 50 s on one program of 550 statements (2.6 s at 0).
    super::build_rust_at(&file, dir, stem, 0)
}

/// The C flags, as a test reports them.
pub fn strict_c_flags() -> String {
    CFLAGS.join(" ")
}

/// Compares one back end's run with the reference; a message when they
/// differ.
pub fn compare(prog: &Prog, target: &str, got: &Ran, want: &Ran) -> Option<String> {
    if got == want {
        return None;
    }
    Some(format!(
        "{} [{target}] differs from the interpreter: exit {} vs {}\n--- {target} stdout\n{}\n--- run stdout\n{}\n--- {target} stderr\n{}\n--- run stderr\n{}\n--- input\n{:?}\n--- source\n{}",
        prog.name,
        got.status,
        want.status,
        super::show(&got.stdout),
        super::show(&want.stdout),
        super::show(&got.stderr),
        super::show(&want.stderr),
        String::from_utf8_lossy(&prog.input),
        prog.source
    ))
}

/// Runs a batch executable's program `index`.
pub fn run_batch(exe: &Path, index: usize, input: &[u8]) -> Ran {
    run_exe(exe, &[&index.to_string()], input)
}

/// Runs every program through the interpreter, its C (strict flags plus
/// [`c_flags`]) and its Rust (all in one batch): `[run, c, rust]` for
/// each, in order. A build failure panics.
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
    // Job 0 is the Rust batch, job i + 1 the C of program i.
    let jobs: Vec<usize> = (0..=progs.len()).collect();
    let built = super::parallel(&jobs, |&j| {
        if j == 0 {
            build_rust_batch(&members, dir, "three_ways")
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
