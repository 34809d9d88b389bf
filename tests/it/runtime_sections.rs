//! Generated InfChessPro programs carry only the runtime they use: each
//! back end pastes the sections of its runtime that the program's calls
//! reach (`icp2c::lang::icp::runtime::api`), and the compilers prove that
//! nothing unused is pasted. Every example, every test program, the
//! optimiser's programs by hand (read from `tests/it/opt_props.rs`), one
//! program per shape that could leave a part of the runtime unused
//! ([`SHAPES`], and two programs cut into several functions) and random
//! programs of the differential tests' generator:
//!
//! - build as C with `cc -std=c99 -Wall -Wextra -Wpedantic -Werror` at
//!   `-O0` and at `-O2` (an unused `static` function is an error);
//! - build as Rust with `rustc -D warnings` and no lint allowed (dead code
//!   is an error): all of them as one executable whose modules are the
//!   programs, each with its crate's `src/icp_rt.rs` (the same text once).
//!
//! And the generated code is small: the issue's targets for `beer.icp` and
//! a program of three statements. `ICP2C_SECTIONS_RANDOM` (default 40)
//! sets how many random programs.

use crate::support;

use icp2c::driver::{self, Language, Program};
use icp2c::lang::icp;
use support::batch::build_rust_batch;
use support::progen::{self, Rng};

/// Programs made to reach each part of the runtime alone, or in the
/// combinations that could leave a part unused: no statement, no board,
/// a board without pieces, pieces placed and never moved, moves without
/// pieces, each move, slides and loops with and without slides and `^`,
/// input as operands and as jump targets.
const SHAPES: &[(&str, &str)] = &[
    ("empty", "# nothing\n"),
    ("nothing", "1. ^\n"),
    ("text", "1. \"hi\n"),
    ("count_only", "1. %nobody\n"),
    ("occupy", "1. a=R0,0\n"),
    ("occupy_count", "1. a=R0,0\n2. b=p0,0!3\n3. %a\n"),
    ("occupy_input", "1. a=k*,0\n2. %a\n"),
    ("move_squares_only", "1. 0,0,1,1\n"),
    ("move_name_to_only", "1. x,3,4\n"),
    ("move_name_by_only", "1. x;0,1\n"),
    ("slide_only", "1. x;0,1?1\n"),
    ("place_move_squares", "1. a=R0,0\n2. 0,0,0,5\n"),
    ("place_move_name_to", "1. a=N0,0\n2. a,1,2\n"),
    ("place_move_name_by", "1. a=k0,0\n2. a;1,1\n3. \"moved\n"),
    ("blocked_slide", "1. x=R0,0\n2. b=P0,5\n3. x;0,1?3\n4. %x\n"),
    (
        "transfer_loop",
        "1. a=R0,3\n2. b=R1,0\n3. w=P0,-1\n4. a;0,-1!6\n5. b;0,1?4\n6. %b\n",
    ),
    (
        "loop_with_nothing",
        "1. a=R0,3\n2. b=R1,0\n3. w=P0,-1\n4. a;0,-1!7\n5. b;0,1\n6. ^?4\n7. %b\n",
    ),
    (
        "loop_with_slides",
        "1. w=P0,-1\n2. w=P1,-1\n3. x=R0,0\n4. m=R1,3\n5. c=P0,10\n6. x;0,1?6\n\
         7. x;0,-1?7\n8. m;0,-1?6\n9. %m\n",
    ),
    // The kinds and colours a program places choose the move rules it
    // carries: one kind alone, sliders without kings, kings without
    // enemies, and each kind of enemy a king can meet (the check test).
    ("only_knights", "1. n=N0,0\n2. n;1,2\n3. n;2,1?3\n4. %n\n"),
    (
        "only_black_pawns",
        "1. p=p5,0\n2. p;-1,0?2\n3. q=p4,1\n4. q;-1,-1\n5. %p\n",
    ),
    (
        "sliders_without_kings",
        "1. r=R0,0\n2. b=b3,3\n3. r;0,1?3\n4. b;-1,-1\n5. %r\n",
    ),
    ("kings_alone", "1. K=K0,0\n2. K;1,1?2\n3. %K\n"),
    (
        "king_meets_king",
        "1. K=K0,0\n2. k=k2,0\n3. K;1,0\n4. k;-1,0\n5. %K\n",
    ),
    (
        "king_meets_queen",
        "1. K=K0,0\n2. q=q5,5\n3. K;1,1\n4. q,0,5\n5. %q\n",
    ),
    (
        "king_meets_knight_and_pawn",
        "1. K=K0,0\n2. n=n2,1\n3. p=p2,2\n4. K;1,0\n5. K;1,1\n",
    ),
    (
        "black_king_meets_bishop",
        "1. b=B0,0\n2. k=k5,5\n3. k;-1,-1\n4. b;1,1?4\n5. %k\n",
    ),
    ("read_jump", "1. \"x?*\n2. \"y\n"),
    ("read_jump_on_failure", "1. a;0,1!*\n2. \"y\n"),
    ("count_jump", "1. %a?*\n"),
    (
        "read_moves",
        "1. a=Q*,*\n2. a;*,*?2\n3. *,*,0,0\n4. a,*,*\n5. %a\n",
    ),
];

/// A program of `n` statements (several functions in both targets: over
/// 512 statements in C, 256 in Rust) cycling through `commands`, each
/// statement's `{}` its label.
fn long_program(n: usize, commands: &[&str]) -> String {
    (1..=n)
        .map(|i| {
            let command = commands[i % commands.len()].replace("{}", &i.to_string());
            format!("{i}. {command}\n")
        })
        .collect()
}

/// The tests' programs: (name, source).
fn programs() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for dir in ["examples", "tests/programs/icp"] {
        for case in support::cases(&[dir], "icp") {
            let source = std::fs::read_to_string(&case.path).unwrap();
            all.push((format!("{dir}/{}", case.name), source));
        }
    }
    // The optimiser's programs by hand: `source: r#"…"#` in opt_props.rs.
    let props = std::fs::read_to_string(support::root().join("tests/it/opt_props.rs")).unwrap();
    let mut by_hand = 0;
    for part in props.split("source: r#\"").skip(1) {
        let source = part.split("\"#").next().unwrap();
        all.push((format!("opt_props/{by_hand}"), source.to_string()));
        by_hand += 1;
    }
    assert!(by_hand >= 10, "the optimiser's programs by hand: {by_hand}");
    for (name, source) in SHAPES {
        all.push((format!("shape/{name}"), source.to_string()));
    }
    all.push((
        "long/moves".into(),
        long_program(
            600,
            &[
                "a=R0,0", "b=n1,2", "a;0,1", "b,3,3", "0,1,1,1", "%a", "\"t", "c=K*,1", "a;0,1?{}",
            ],
        ),
    ));
    all.push((
        "long/occupy".into(),
        long_program(600, &["a=R0,0", "b=p0,1!3", "%b", "\"t", "^"]),
    ));
    let random = std::env::var("ICP2C_SECTIONS_RANDOM")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40usize);
    for i in 0..random {
        let mut rng = Rng(0x5ec7_1075 ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let size = 5 + rng.below(40);
        let g = progen::generate(Language::InfChessPro, &mut rng, size);
        all.push((format!("random/{i}"), g.source));
    }
    all
}

fn check(name: &str, source: &str) -> Program {
    driver::check(Language::InfChessPro, source)
        .unwrap_or_else(|e| panic!("{name} is rejected: {e:?}"))
        .program
}

#[test]
#[ignore = "slow (18 s): builds every example and test program in C; .ci/run runs it"]
fn generated_c_builds_with_every_warning_an_error() {
    let programs = programs();
    let dir = tempfile::tempdir().unwrap();
    let jobs: Vec<(usize, &str)> = (0..programs.len())
        .flat_map(|i| [(i, "-O0"), (i, "-O2")])
        .collect();
    let failures: Vec<String> = support::parallel(&jobs, |&(i, opt)| {
        let (name, source) = &programs[i];
        let c = check(name, source).emit_c(&format!("{name}.icp"));
        let stem = format!("p{i}{opt}");
        support::build_c(&c, dir.path(), &stem, &[opt])
            .err()
            .map(|e| format!("{name} ({opt}): {e}"))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "slow (10 s): builds every example and test program in Rust; .ci/run runs it"]
fn generated_rust_builds_with_every_warning_an_error() {
    let programs = programs();
    let dir = tempfile::tempdir().unwrap();
    let checked: Vec<(Program, String)> = programs
        .iter()
        .map(|(name, source)| (check(name, source), format!("{name}.icp")))
        .collect();
    let members: Vec<(&Program, String)> = checked.iter().map(|(p, n)| (p, n.clone())).collect();
    if let Err(e) = build_rust_batch(&members, dir.path(), "sections") {
        panic!("{e}");
    }
}

/// The shapes and the long programs (whose layouts vary with what they
/// use: signatures, calls, the runtime's selected lines) are laid out as
/// rustfmt lays them out, as one file and as a crate (whose `src/icp_rt.rs`
/// rustfmt checks through `mod icp_rt;`).
#[cfg_attr(
    icp2c_no_rustfmt,
    ignore = "needs rustfmt (rustup component add rustfmt), missing when the tests were built"
)]
#[test]
fn generated_rust_of_every_shape_is_rustfmt_clean() {
    let dir = tempfile::tempdir().unwrap();
    let programs: Vec<(String, String)> = programs()
        .into_iter()
        .filter(|(name, _)| {
            name.starts_with("shape/") || name.starts_with("long/") || name.starts_with("examples/")
        })
        .collect();
    let failures: Vec<String> = support::parallel(&programs, |(name, source)| {
        let program = check(name, source);
        let stem = name.replace('/', "_");
        let one = dir.path().join(format!("{stem}.rs"));
        std::fs::write(&one, program.emit_rust(&format!("{name}.icp"))).unwrap();
        let krate = dir.path().join(&stem);
        for file in program.emit_crate(&format!("{name}.icp"), "prog") {
            let path = krate.join(&file.path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, file.contents).unwrap();
        }
        [one, krate.join("src/main.rs")]
            .iter()
            .filter_map(|path| {
                let out = std::process::Command::new("rustfmt")
                    .args(["--edition", "2021", "--check"])
                    .arg(path)
                    .output()
                    .expect("rustfmt runs");
                (!out.status.success()).then(|| {
                    format!(
                        "{name} ({}):\n{}",
                        path.display(),
                        String::from_utf8_lossy(&out.stdout)
                    )
                })
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The module every standalone Rust program carries after its `main` (a
/// look at its standard streams before Rust's runtime replaces a closed
/// one), the same whatever the program uses.
const STDIO: &str = include_str!("../../src/codegen/stdio.rs");

/// Lines of the generated C and Rust of `source`, the Rust without
/// [`STDIO`], which the bounds below predate and which
/// `the_standard_streams_module_is_small` bounds on its own.
fn lines(source: &str) -> (usize, usize) {
    let program = check("program", source);
    let rust = program.emit_rust("p.icp");
    assert!(rust.ends_with(STDIO), "the Rust file ends with icp_stdio");
    (
        program.emit_c("p.icp").lines().count(),
        rust.lines().count() - STDIO.lines().count(),
    )
}

/// What a closed standard stream costs every standalone Rust program.
#[test]
fn the_standard_streams_module_is_small() {
    assert!(
        STDIO.lines().count() <= 90,
        "{} lines",
        STDIO.lines().count()
    );
}

/// The generated code of a program with a board but no moves, or with
/// no board, is small: the issue's target for three statements.
#[test]
fn generated_code_is_small() {
    for source in [
        "1. \"Hello\n2. %nobody\n3. \"bye\n",
        "1. a=R0,0\n2. %a\n3. \"placed\n",
    ] {
        let (c, rust) = lines(source);
        assert!(c <= 400, "{source:?}: {c} lines of C");
        assert!(rust <= 400, "{source:?}: {rust} lines of Rust");
    }
}

/// `beer.icp` moves kings and slides a pawn: it carries the rules of §7
/// (the check test, the line indices a slide's fast path asks), 2,225 lines
/// of C and 2,342 of Rust before its runtime was cut into sections. These
/// bounds keep what the sections saved.
#[test]
fn beer_carries_less_than_the_whole_runtime() {
    let beer = std::fs::read_to_string(support::root().join("examples/beer.icp")).unwrap();
    let (c, rust) = lines(&beer);
    assert!(c <= 1600, "beer.icp: {c} lines of C");
    assert!(rust <= 1650, "beer.icp: {rust} lines of Rust");
}

/// The issue's targets for `beer.icp`: its runtime holds the rules of the
/// kinds it places (kings and pawns: no rays, no line indices) and no slide
/// (its colour surely has a king there, so the optimiser leaves it).
#[test]
fn beer_meets_the_issues_targets() {
    let beer = std::fs::read_to_string(support::root().join("examples/beer.icp")).unwrap();
    let (c, rust) = lines(&beer);
    assert!(c <= 700, "beer.icp: {c} lines of C");
    assert!(rust <= 800, "beer.icp: {rust} lines of Rust");
}

/// The pasted runtime is the selection the back end reports, in both
/// targets (and only that: the core of an empty program is small).
#[test]
fn an_empty_program_carries_the_core_alone() {
    let program = check("empty", "");
    let ir = program.ir::<icp::InfChessPro>().unwrap();
    let (c, sections) = icp::backend::c::runtime(ir);
    assert_eq!(
        sections.into_iter().collect::<Vec<_>>(),
        ["core", "prelude_stdout", "prelude_write_failure"]
    );
    assert!(program.emit_c("e.icp").contains(&c));
    let (rust, sections) = icp::backend::rust::runtime(ir);
    assert!(sections.is_empty(), "{sections:?}");
    assert!(!rust.contains("struct Board"));
    assert!(!program.emit_rust("e.icp").contains("fn error_message"));
}
