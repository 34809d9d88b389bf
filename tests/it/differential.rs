//! Differential testing (issue 5, part 2): random valid programs of both
//! languages run through the interpreter, the generated C and the
//! generated Rust; stdout, the stderr error line and the exit status must
//! be identical byte for byte.
//!
//! The generators (tests/support/progen.rs) make InfChessPro programs whose
//! literal jumps only go forward (a `*` jump may go back, but each reads
//! input, so the finite input bounds it), with pieces crowded on a few
//! squares and each command's outcome printed; and Finvara programs on
//! small boards with random notations, holes of every stack action and
//! `checks turn` only forward, its moves mostly ones found valid by
//! playing the game on the runtime while generating. Inputs include `*`
//! reads, end of input and bad input text.
//!
//! CI runs a fixed seed and `ICP2C_DIFF_PROGRAMS` programs of each language
//! (default 30 in a debug build, 100 in release: `support::scale`); set it higher to run more, and `ICP2C_DIFF_SEED` to
//! explore other seeds. `ICP2C_SANITIZE=1` builds the C with ASan and
//! UBSan and compares only the C (tests/sanitize.sh does). The Rust of
//! up to 120 programs is built as one executable (tests/support/batch.rs).

use crate::support;

use icp2c::driver::{self, Language};
use support::batch::build_rust_batch;
use support::batch::{Prog, build_c, c_flags, compare, interpret, run_batch, sanitizing};
use support::progen::{self, Rng};
use support::{Ran, parallel, run_exe};

/// Statements (InfChessPro) or moves (Finvara) after which a generated
/// program counts as running away: a generator bug, as they all halt.
const MAX_STEPS: u64 = 1_000_000;

/// Programs per Rust batch executable.
const BATCH: usize = 120;

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}")),
        Err(_) => default,
    }
}

fn programs_per_language() -> usize {
    env_number("ICP2C_DIFF_PROGRAMS", crate::support::scale(30, 100) as u64) as usize
}

fn seed() -> u64 {
    env_number("ICP2C_DIFF_SEED", 0x1c92_c0de)
}

/// Generates `n` programs of `lang` with their reference runs.
fn generate(lang: Language, n: usize, seed: u64) -> Vec<(Prog, Ran)> {
    let mut out = Vec::with_capacity(n);
    let mut boring = 0;
    for i in 0..n {
        let mut rng = Rng(seed ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let mut attempt = 0;
        loop {
            attempt += 1;
            let size = match lang {
                // Now and then a long program: over 512 statements the C
                // back end cuts the program into functions.
                Language::InfChessPro if rng.chance(3) => 300 + rng.below(100),
                Language::InfChessPro => 8 + rng.below(40),
                Language::Finvara => 3 + rng.below(14),
                Language::Cheg => {
                    panic!("CHEG engines are compared in tests/it/cheg_differential.rs")
                }
            };
            let g = progen::generate(lang, &mut rng, size);
            let prog = Prog {
                name: format!("{}_{i}", lang.name().to_lowercase()),
                lang,
                source: g.source,
                input: g.input,
            };
            let program = prog.checked();
            let reference = interpret(&program, &prog.input, MAX_STEPS)
                .unwrap_or_else(|| panic!("{} runs away:\n{}", prog.name, prog.source));
            // A Finvara game often ends before its first move (a royal
            // piece attacked on the drawn board): try again a few times.
            if lang == Language::Finvara
                && attempt < 4
                && interpret(&program, &prog.input, 1).is_some()
            {
                boring += 1;
                continue;
            }
            out.push((prog, reference));
            break;
        }
    }
    eprintln!(
        "{}: {boring} programs regenerated (game over at once)",
        lang.name()
    );
    out
}

/// Builds and runs every program through C and Rust; returns the failure
/// messages.
fn differ(progs: &[(Prog, Ran)], tag: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let extra = c_flags();
    let checked: Vec<_> = progs.iter().map(|(p, _)| p.checked()).collect();
    let indexes: Vec<usize> = (0..progs.len()).collect();
    // C: one executable per program; Rust: one per batch, built in
    // parallel with the C (the batches are the long pole).
    // Under sanitizers only the C is of interest (the Rust was compared
    // by the plain run).
    let chunks: Vec<Vec<usize>> = if sanitizing() {
        Vec::new()
    } else {
        indexes.chunks(BATCH).map(|c| c.to_vec()).collect()
    };
    let jobs: Vec<Job> = chunks
        .iter()
        .enumerate()
        .map(|(k, _)| Job::Rust(k))
        .chain(indexes.iter().map(|&i| Job::C(i)))
        .collect();
    let built = parallel(&jobs, |job| match *job {
        Job::Rust(k) => {
            let members: Vec<_> = chunks[k]
                .iter()
                .map(|&i| (&checked[i], progs[i].0.file_name()))
                .collect();
            let stem = format!("{tag}_batch{k}");
            Built::Rust(build_rust_batch(&members, dir, &stem))
        }
        Job::C(i) => Built::C(build_c(
            &checked[i],
            &progs[i].0.file_name(),
            dir,
            &format!("{tag}_{i}"),
            &extra,
        )),
    });
    let mut rust_exes = Vec::new();
    let mut c_exes = Vec::new();
    for b in built {
        match b {
            Built::Rust(r) => rust_exes.push(r),
            Built::C(c) => c_exes.push(c),
        }
    }
    let results = parallel(&indexes, |&i| {
        let (prog, want) = &progs[i];
        let mut failures = Vec::new();
        match &c_exes[i] {
            Err(e) => failures.push(format!(
                "{} [c]: {e}\n--- source\n{}",
                prog.name, prog.source
            )),
            Ok(exe) => {
                let got = run_exe(exe, &[], &prog.input);
                failures.extend(compare(prog, "c", &got, want));
            }
        }
        match rust_exes.get(i / BATCH).unwrap_or(&Err(String::new())) {
            Err(e) if e.is_empty() => {}
            // One failure per batch is enough.
            Err(e) => {
                if i % BATCH == 0 {
                    failures.push(format!("[rust] {e}"));
                }
            }
            Ok(exe) => {
                let got = run_batch(exe, i % BATCH, &prog.input);
                failures.extend(compare(prog, "rust", &got, want));
            }
        }
        failures
    });
    results.into_iter().flatten().collect()
}

enum Job {
    Rust(usize),
    C(usize),
}

enum Built {
    Rust(Result<std::path::PathBuf, String>),
    C(Result<std::path::PathBuf, String>),
}

fn summary(progs: &[(Prog, Ran)]) -> (usize, usize, usize) {
    let errors = progs.iter().filter(|(_, r)| r.status == 1).count();
    let printed = progs.iter().filter(|(_, r)| !r.stdout.is_empty()).count();
    let bytes = progs.iter().map(|(_, r)| r.stdout.len()).sum();
    (errors, printed, bytes)
}

fn assert_agree(progs: &[(Prog, Ran)], tag: &str) {
    let started = std::time::Instant::now();
    let failures = differ(progs, tag);
    let (errors, printed, bytes) = summary(progs);
    eprintln!(
        "{tag}: {} programs compared across run/C/Rust in {:.1?} ({errors} end in a runtime error, {printed} print, {bytes} bytes of output)",
        progs.len(),
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
#[ignore = "slow (10 s): builds hundreds of random programs; .ci/run runs it"]
fn random_infchesspro_programs_agree_across_back_ends() {
    let n = programs_per_language();
    let progs = generate(Language::InfChessPro, n, seed());
    // The generator must exercise what it claims: failures, successes,
    // runtime errors, counts.
    if n >= 100 {
        let all: Vec<u8> = progs.iter().flat_map(|(_, r)| r.stdout.clone()).collect();
        let text = String::from_utf8_lossy(&all);
        let (errors, _, _) = summary(&progs);
        assert!(errors >= 3, "only {errors} runtime errors");
        assert!(
            text.matches("\nF ").count() >= 50,
            "too few failed commands"
        );
        assert!(
            text.matches("\nS ").count() >= 50,
            "too few successful commands"
        );
        assert!(text.contains("\n2\n"), "no count of 2");
        let statements = |s: &str| {
            s.lines()
                .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                .count()
        };
        assert!(
            progs.iter().any(|(p, _)| statements(&p.source) > 512),
            "no program long enough for the C back end's chunks"
        );
    }
    assert_agree(&progs, "icp");
}

#[test]
fn random_finvara_programs_agree_across_back_ends() {
    let n = programs_per_language();
    let progs = generate(Language::Finvara, n, seed() ^ 0xf1);
    if n >= 100 {
        let (_, printed, _) = summary(&progs);
        assert!(printed >= n / 5, "only {printed} of {n} programs print");
    }
    assert_agree(&progs, "fin");
}

#[test]
fn generators_make_valid_programs() {
    // Cheap and wide: many more programs than are compiled, each must pass
    // the checker (the generators' contract) and halt in the interpreter.
    let mut rng = Rng(seed());
    for i in 0..600 {
        let size = 1 + rng.below(60);
        let g = progen::generate(Language::InfChessPro, &mut rng, size);
        let checked = driver::check(Language::InfChessPro, &g.source);
        assert!(checked.is_ok(), "icp program {i} rejected:\n{}", g.source);
        let program = checked.unwrap().program;
        assert!(
            interpret(&program, &g.input, MAX_STEPS).is_some(),
            "runs away:\n{}",
            g.source
        );
        let turns = 1 + rng.below(20);
        let g = progen::generate(Language::Finvara, &mut rng, turns);
        match driver::check(Language::Finvara, &g.source) {
            Ok(c) => assert!(
                interpret(&c.program, &g.input, MAX_STEPS).is_some(),
                "runs away:\n{}",
                g.source
            ),
            Err(e) => panic!(
                "fin program {i} rejected:\n{}\n{}",
                icp2c::diagnostic::render("gen.fin", &g.source, &e),
                g.source
            ),
        }
    }
}
