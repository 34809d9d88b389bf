//! InfChessPro programs too large for one function of generated code
//! (every program of every language runs end to end in tests/e2e.rs): cut
//! into chunk functions in C and in Rust, they must behave exactly as the
//! interpreter, jumps across chunks and `*` jumps included.

use crate::support;

use icp2c::Outcome;
use icp2c::lang::icp;
use icp2c::lang::icp::backend;
use support::{Case, Ran, build_c, run_exe, show};

fn interpret(case: &Case) -> Ran {
    let text = std::fs::read_to_string(&case.path).unwrap();
    let program = icp::check(&text)
        .unwrap_or_else(|e| panic!("{} rejected: {e:?}", case.name))
        .program;
    let mut stdout = Vec::new();
    let outcome = icp::interp::run(
        &program,
        &mut case.input.as_slice(),
        &mut stdout,
        Some(50_000_000),
        None,
        false,
    );
    let stderr = match &outcome {
        Outcome::RuntimeError(line) => format!("{line}\n").into_bytes(),
        _ => Vec::new(),
    };
    assert!(
        !matches!(outcome, Outcome::StepLimit(_)),
        "{} ran away",
        case.name
    );
    Ran {
        status: outcome.exit_status(),
        stdout,
        stderr,
    }
}

/// A valid program of `n` statements labelled 10, 20, …: places, named
/// moves, texts and counts, forward jumps within a chunk and across chunks
/// (`backend::c::CHUNK` statements each), and at the end a `*` jump read
/// from the input.
fn large_program(n: usize) -> String {
    let label = |i: usize| 10 * (i as i64 + 1);
    let mut src = String::new();
    for i in 0..n - 1 {
        let cmd = match i % 7 {
            0 => format!("\"line {i}"),
            1 => format!("p{}=R{},{}", i % 50, i, i % 13),
            2 if i + 3 < n => format!("p{};0,1?{}", (i + 49) % 50, label(i + 3)),
            3 => format!("%p{}", i % 50),
            4 if i + 700 < n => format!("^?{}", label(i + 700)),
            5 => format!("p{},{},{}!{}", i % 50, i, 99, label(i + 1)),
            _ => format!("\"x{i} {{}} */ %d"),
        };
        src.push_str(&format!("{}. {cmd}\n", label(i)));
    }
    src.push_str(&format!("{}. ^?*\n", label(n - 1)));
    src
}

/// Programs larger than `backend::c::CHUNK` become chunk functions, and
/// larger than `backend::c::LEAN` are compiled by gcc without optimisation
/// of their dispatch: both must behave exactly as the interpreter, jumps
/// across chunks and `*` jumps into another chunk or to no statement
/// included.
#[test]
fn large_programs_in_chunks_agree_with_the_interpreter() {
    let n = backend::c::LEAN + 600;
    let source = large_program(n);
    let program = icp::check(&source).unwrap().program;
    let c = backend::c::emit(&program, "large.icp");
    assert!(
        c.contains("icp_chunk_8") && c.contains("ICP_CHUNK"),
        "not chunked and lean"
    );
    let dir = tempfile::tempdir().unwrap();
    let exe = build_c(&c, dir.path(), "large", &[]).unwrap();
    // Back to statement 40 in chunk 0 once, then to a label no statement has.
    let input = b"40 15".to_vec();
    let case = Case {
        name: "large".into(),
        path: dir.path().join("large.icp"),
        input: input.clone(),
        want_out: None,
        want_status: 1,
        want_err: None,
    };
    std::fs::write(&case.path, &source).unwrap();
    let reference = interpret(&case);
    assert_eq!(reference.status, 1, "{}", show(&reference.stderr));
    assert!(show(&reference.stderr).contains("no statement is labelled 15"));
    assert_eq!(run_exe(&exe, &[], &input), reference);
}

/// Programs larger than `backend::rust::CHUNK` become chunk functions in
/// Rust too (so that rustc's time grows linearly): jumps across them, `*`
/// jumps back into the first, to a missing label inside a middle one's
/// range and past the last label must behave exactly as the interpreter.
#[test]
fn large_programs_in_rust_chunks_agree_with_the_interpreter() {
    let n = 3 * backend::rust::CHUNK + 100;
    let source = large_program(n);
    let program = icp::check(&source).unwrap().program;
    let rs = backend::rust::emit(&program, "large.icp");
    assert!(rs.contains("fn icp_chunk_3<"), "not chunked");
    let dir = tempfile::tempdir().unwrap();
    let exe = support::build_rust(&rs, dir.path(), "large").unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("large.icp");
    std::fs::write(&path, &source).unwrap();
    for input in ["40 15", "40 5005", "40 99995", "40 40 10"] {
        assert_agrees(&exe, &path, input);
    }
}

/// The program at `path`, built as `exe`, prints and exits as the
/// interpreter does on `input`.
fn assert_agrees(exe: &std::path::Path, path: &std::path::Path, input: &str) {
    let case = Case {
        name: "chunks".into(),
        path: path.to_path_buf(),
        input: input.as_bytes().to_vec(),
        want_out: None,
        want_status: 0,
        want_err: None,
    };
    let reference = interpret(&case);
    assert_eq!(
        run_exe(exe, &[], input.as_bytes()),
        reference,
        "input {input}"
    );
}

/// A program of every shape of statement, in blocks of 11 spread over
/// several Rust functions (`backend::rust::CHUNK` statements each):
/// places, a slide loop (optimised into one slide), counts, moves by
/// squares, to a square and by an offset, `*` reads with both outcomes,
/// jumps forward and back, texts; and at the end a `*` jump.
fn every_shape(blocks: usize) -> String {
    let label = |i: usize| 10 * (i as i64 + 1);
    let mut src = String::new();
    for r in 0..blocks {
        let i = 11 * r;
        let lines = [
            format!("\"block {r} {{}} */"),
            format!("b{r}=P{r},5"),
            format!("a{r}=R{r},0"),
            format!("a{r};0,1?{}", label(i + 3)),
            format!("%a{r}"),
            format!("{r},4,{r},3"),
            format!("a{r},{r},2?{}", label(i + 8)),
            format!("a{r};0,-1!{}", label(i + 8)),
            format!("c{r}=n*,*?{}!{}", label(i + 9), label(i + 10)),
            format!("%c{r}?{}", label(i + 11)),
            format!("^!{}", label(i + 5)),
        ];
        for (k, line) in lines.iter().enumerate() {
            src.push_str(&format!("{}. {line}\n", label(i + k)));
        }
    }
    src.push_str(&format!("{}. ^?*\n", label(11 * blocks)));
    src
}

/// Every shape of arm of the Rust back end's functions (one call of a
/// step function, or the statement written out) behaves as the
/// interpreter, optimised slides included.
#[test]
fn every_shape_of_statement_in_rust_chunks_agrees_with_the_interpreter() {
    let every = 0..3 * backend::rust::CHUNK / 11 + 5;
    let source = every_shape(every.len());
    let program = icp::opt::optimise(icp::check(&source).unwrap().program);
    let rs = backend::rust::emit(&program, "shapes.icp");
    assert!(rs.contains("fn icp_chunk_3<"), "not chunked");
    assert!(rs.contains("icp_step_slide("), "no slide");
    let dir = tempfile::tempdir().unwrap();
    let exe = support::build_rust(&rs, dir.path(), "shapes").unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("shapes.icp");
    std::fs::write(&path, &source).unwrap();
    // Knights on negative rows, out of the rooks' way; the last number is
    // the `*` jump's target: back to the first slide, to no statement, or
    // none (end of input).
    let knights: Vec<String> = (1..=2 * every.len())
        .map(|k| format!("-{}", k * 7 % 23 + 1))
        .collect();
    let knights = knights.join(" ");
    for input in [
        String::new(),
        knights.clone(),
        format!("{knights} 40 {knights} 15"),
        format!("{knights} 5"),
        "-3 -4 x".to_string(),
    ] {
        assert_agrees(&exe, &path, &input);
    }
}
