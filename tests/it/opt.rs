//! The InfChessPro optimiser (issue 13) changes nothing but speed: random
//! programs full of slide loops (`L. name;dr,dc?L`, with captures,
//! blockers of both colours, kings present and absent, names shared by
//! several pieces, far pieces and the i64 edge) run with and without it
//! give the same output, exit status and, under `--max-steps`, stop at
//! the same statement; generated C and Rust (optimised) agree with the
//! interpreter. `ICP2C_OPT_PROGRAMS` sets how many
//! (default 100 in a debug build, 300 in release: `support::scale`).

use crate::support;

use icp2c::Outcome;
use icp2c::driver::{self, Language, Program};
use support::Ran;
use support::batch::{Prog, compare, three_ways};
use support::progen::Rng;

const NAMES: [&str; 3] = ["a", "b", "c"];

/// A program: pieces placed around the origin (some far away, some at the
/// i64 edge), then slide loops, each followed by a probe whose outcome
/// depends on where the pieces ended (an absolute move, printed), and
/// counts (captures show there).
fn program(rng: &mut Rng) -> String {
    let mut lines = Vec::new();
    let mut label = 0;
    let mut next = || {
        label += 10;
        label
    };
    let letters = "KQRBNPkqrbnpRRQQBBPPrrqqbbpp";
    for _ in 0..3 + rng.below(7) {
        let name = NAMES[rng.below(3)];
        let letter = letters.as_bytes()[rng.below(letters.len())] as char;
        let mut r = rng.range(-5, 5);
        let mut c = rng.range(-5, 5);
        match rng.below(8) {
            0 => c += 1_000_000_000_000,
            1 => r = i64::MAX - rng.range(0, 3),
            2 => c = i64::MIN + rng.range(0, 3),
            _ => {}
        }
        lines.push(format!("{}. {name}={letter}{r},{c}", next()));
    }
    for _ in 0..2 + rng.below(5) {
        let name = NAMES[rng.below(3)];
        let (dr, dc) = loop {
            let v = (rng.range(-1, 1), rng.range(-1, 1));
            if v != (0, 0) {
                break if rng.below(10) == 0 { (1, 2) } else { v };
            }
        };
        let l = next();
        lines.push(format!("{l}. {name};{dr},{dc}?{l}"));
        let probe = NAMES[rng.below(3)];
        let (pr, pc) = (rng.range(-6, 6), rng.range(-6, 6));
        let (at, no, skip, yes, count) = (next(), next(), next(), next(), next());
        lines.push(format!("{at}. {probe},{pr},{pc}?{yes}"));
        lines.push(format!("{no}. \"{probe} stays"));
        lines.push(format!("{skip}. ^?{count}"));
        lines.push(format!("{yes}. \"{probe} to {pr},{pc}"));
        lines.push(format!("{count}. %{}", NAMES[rng.below(3)]));
    }
    lines.push(format!("{}. \"end", next()));
    lines.join("\n") + "\n"
}

fn check(source: &str) -> Program {
    driver::check(Language::InfChessPro, source)
        .unwrap_or_else(|e| panic!("invalid program {e:?}:\n{source}"))
        .program
}

fn run(program: &Program, max_steps: u64) -> (Outcome, Vec<u8>) {
    let mut out = Vec::new();
    let outcome = program.run(&mut &b""[..], &mut out, Some(max_steps));
    (outcome, out)
}

fn count() -> usize {
    std::env::var("ICP2C_OPT_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| support::scale(100, 300))
}

#[test]
fn optimised_and_stepped_runs_agree() {
    let mut rng = Rng(0x0917_5113);
    let mut slides = 0;
    for i in 0..count() {
        let source = program(&mut rng);
        let optimised = check(&source);
        let stepped = check(&source).without_optimiser();
        for budget in [1, 2, 7, 40, 300, 5_000] {
            let a = run(&optimised, budget);
            let b = run(&stepped, budget);
            assert_eq!(
                a,
                b,
                "program {i}, --max-steps {budget}:\n{source}\noptimised: {:?}\nstepped: {:?}",
                String::from_utf8_lossy(&a.1),
                String::from_utf8_lossy(&b.1)
            );
        }
        slides += source.matches('?').count();
    }
    assert!(slides > 0);
}

#[test]
fn generated_code_agrees_with_the_interpreter() {
    let mut rng = Rng(0x0c0d_e517);
    let mut cases = Vec::new();
    while cases.len() < 24 {
        let source = program(&mut rng);
        let optimised = check(&source);
        // Only programs that end: a slide with nothing to stop it runs to
        // the i64 edge (2^63 moves), at once only where the fast path
        // applies; the interpreter's budget tells which (its pieces start
        // within a few squares of each other, so one that ends does so
        // well within 50,000 steps, and the debug interpreter spends
        // little time on those that do not).
        if let (Outcome::Halted, out) = run(&optimised, 50_000) {
            cases.push((source, out));
        }
    }
    // The C of each program and the Rust of all in one batch
    // (tests/support/batch.rs).
    let progs: Vec<Prog> = cases
        .iter()
        .enumerate()
        .map(|(i, (source, _))| Prog {
            name: format!("opt{i}"),
            lang: Language::InfChessPro,
            source: source.clone(),
            input: Vec::new(),
        })
        .collect();
    let mut failures = Vec::new();
    for ((prog, (_, out)), ways) in progs.iter().zip(&cases).zip(three_ways(&progs)) {
        let want = Ran {
            status: 0,
            stdout: out.clone(),
            stderr: Vec::new(),
        };
        for (target, got) in ["run", "c", "rust"].into_iter().zip(&ways) {
            failures.extend(compare(prog, target, got, &want));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_long_slide_takes_one_step_of_the_runtime() {
    // 10^12 squares each way, three times: 6·10^12 statements stepped.
    let source =
        std::fs::read_to_string(support::root().join("benches/workloads/counter.icp")).unwrap();
    let program = check(&source);
    let mut out = Vec::new();
    let outcome = program.run(&mut &b"3 1000000000000\n"[..], &mut out, None);
    assert_eq!((outcome, out), (Outcome::Halted, b"done\n".to_vec()));
}
