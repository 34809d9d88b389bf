//! Finvara integration tests (spec: shared/spec/finvara.md; § numbers below
//! refer to it).
//!
//! - Every program (examples, tests/programs/finvara, the shared cases)
//!   runs in the interpreter, C and Rust in tests/e2e.rs, with the other
//!   languages; here: what is Finvara's own.
//! - Every file in tests/programs/finvara/errors (first line
//!   `# error: LINE: …`) and shared/conformance/finvara-errors must be
//!   rejected with a diagnostic on that line.
//! - Front-end robustness: garbage, deep nesting and huge numbers give
//!   diagnostics, never a panic.

use crate::support;

use icp2c::Outcome;
use icp2c::diagnostic;
use icp2c::lang::Lang;
use icp2c::lang::finvara;
use icp2c::lang::finvara::runtime::board as fin_board;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::Case;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Finvara program: examples, the project's and the shared cases.
fn all_cases() -> Vec<Case> {
    support::cases(
        &[
            "examples",
            "tests/programs/finvara",
            "../shared/conformance/finvara",
        ],
        "fin",
    )
}

fn check_file(path: &Path) -> finvara::Checked {
    let source = std::fs::read_to_string(path).unwrap();
    match finvara::check(&source) {
        Ok(c) => c,
        Err(errors) => panic!(
            "{} does not compile:\n{}",
            path.display(),
            diagnostic::render(&path.display().to_string(), &source, &errors)
        ),
    }
}

/// Interprets a case: (stdout, status, error line).
fn interpret(case: &Case) -> (Vec<u8>, i32, Option<String>) {
    let checked = check_file(&case.path);
    let mut input = std::io::Cursor::new(case.input.clone());
    let mut output = Vec::new();
    let outcome = finvara::interp::run(
        &checked.program,
        &mut input,
        &mut output,
        Some(10_000_000),
        None,
    );
    let err = match &outcome {
        Outcome::RuntimeError(line) => Some(line.clone()),
        _ => None,
    };
    (output, outcome.exit_status(), err)
}

#[test]
fn runtime_errors_name_the_turn_and_colour() {
    let cases = support::cases(&["tests/programs/finvara"], "fin");
    let find = |name: &str| cases.iter().find(|c| c.name == name).unwrap();
    let case = find("input_not_number");
    let (_, status, err) = interpret(case);
    assert_eq!(status, 1);
    assert_eq!(
        err.as_deref(),
        Some("error: turn 2 W: input is not a number (§4)")
    );
    let (_, _, err) = interpret(find("input_out_of_range"));
    assert_eq!(
        err.as_deref(),
        Some("error: turn 1 B: input number is outside the signed 64-bit range (§4)")
    );
}

#[test]
fn step_limit_counts_moves() {
    let checked = check_file(&root().join("examples/countdown.fin"));
    let mut input = std::io::Cursor::new(b"1000\n".to_vec());
    let mut output = Vec::new();
    let outcome = finvara::interp::run(&checked.program, &mut input, &mut output, Some(7), None);
    assert_eq!(outcome, Outcome::StepLimit(7));
    assert_eq!(output, b"1000\n");
    assert_eq!(outcome.exit_status(), 3);
}

/// (first line of the file, its `# error: LINE:` number).
fn expected_error_line(source: &str) -> Option<usize> {
    let first = source.lines().next()?;
    let rest = first.strip_prefix("# error: ")?;
    rest.split(':').next()?.trim().parse().ok()
}

fn line_of(source: &str, offset: usize) -> usize {
    source.as_bytes()[..offset.min(source.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[test]
fn compile_errors_are_reported_on_their_line() {
    let mut files = Vec::new();
    for dir in [
        "tests/programs/finvara/errors",
        "../shared/conformance/finvara-errors",
    ] {
        support::note_if_shared_missing(dir);
        if let Ok(entries) = std::fs::read_dir(root().join(dir)) {
            files.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    files.sort();
    assert!(files.len() >= 20, "only {} error cases", files.len());
    let mut failures = Vec::new();
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(line) = expected_error_line(&source) else {
            failures.push(format!("{name}: no `# error: LINE:` header"));
            continue;
        };
        match finvara::check(&source) {
            Ok(_) => failures.push(format!("{name}: accepted")),
            Err(errors) => {
                assert!(errors.iter().all(|d| d.is_error()));
                let text = diagnostic::render(&name, &source, &errors);
                if !text.contains(&format!("{name}:{line}:")) {
                    failures.push(format!("{name}: nothing on line {line}:\n{text}"));
                }
                let lines: Vec<usize> = errors
                    .iter()
                    .map(|d| line_of(&source, d.primary.span.start))
                    .collect();
                if lines.iter().any(|&l| l != line) {
                    failures.push(format!(
                        "{name}: errors on lines {lines:?}, want only {line}:\n{text}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Compiles `source` and returns its diagnostics' (line, message).
fn diagnostics(source: &str) -> Vec<(usize, String)> {
    match finvara::check(source) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|d| (line_of(source, d.primary.span.start), d.message.clone()))
            .collect(),
    }
}

const BOARD: &str = "+--+--+--+\n|kW|nW|kB|\n+--+--+--+\n";

#[test]
fn every_error_kind_of_section_6() {
    let head = "(k): {(1,0),(1,1)}\n(n 0): (0,0)\n";
    let cases: Vec<(String, usize, &str)> = vec![
        // notation syntax (§2.1)
        (
            format!("(k): {{(1,0),(1,1)}}\n(n 0): (0,0\n{BOARD}"),
            2,
            "unclosed leap",
        ),
        (
            format!("(k): {{(1,0),(1,1)}}\n(n 0): {{(0,0)]\n{BOARD}"),
            2,
            "expected `,` or `}`",
        ),
        (
            format!("(k): {{(1,0),(1,1)}}\n(n 0): r((1,0))\n{BOARD}"),
            2,
            "expected `,` and the ranks",
        ),
        (
            format!("(k): {{(1,0),(1,1)}}\n(n 0): ->[N]\n{BOARD}"),
            2,
            "expected a kind symbol",
        ),
        (
            format!("(k): {{(1,0),(1,1)}}\n(n 0): q\n{BOARD}"),
            2,
            "expected a leap",
        ),
        // undefined or redefined symbol (§2)
        (
            format!("(k): {{(1,0),(1,1)}}\n(n 0): \"z\"\n{BOARD}"),
            2,
            "no kind z is defined",
        ),
        (
            format!("(n 0): \"k\"\n(k): {{(1,0),(1,1)}}\n{BOARD}"),
            1,
            "kind k is not defined before this line",
        ),
        (
            format!("{head}(n 1): (0,0)\n{BOARD}"),
            3,
            "kind n is defined twice",
        ),
        (
            format!("{head}{BOARD}Turn 1 W: z a2 -> a2\n"),
            6,
            "no kind z is defined",
        ),
        // ragged board, unknown piece (§3)
        (
            format!("{head}+--+--+--+\n|kW|nW|kB|\n|kW|\n"),
            5,
            "every board row has the same number of cells",
        ),
        (
            format!("{head}+--+--+--+\n|kW|qW|kB|\n+--+--+--+\n"),
            4,
            "no kind q is defined",
        ),
        // square off the board (§3)
        (
            format!("{head}{BOARD}Turn 1 W: n a4 -> a2\n"),
            6,
            "a4 is off the board",
        ),
        (
            format!("{head}{BOARD}Turn 1 W: n a2 -> b2\n"),
            6,
            "b2 is off the board",
        ),
        // bad turn order (§5)
        (
            format!("{head}{BOARD}Turn 1 B: n a2 -> a2\n"),
            6,
            "Turn 1 W expected",
        ),
        (
            format!(
                "{head}{BOARD}Turn 1 W: n a2 -> a2\nTurn 1 B: k a3 -> a3\nTurn 3 W: n a2 -> a2\n"
            ),
            8,
            "Turn 2 W expected",
        ),
        // missing jump target (§5.3)
        (
            format!("{head}{BOARD}Turn 1 W: n a2 checks turn 2\n"),
            6,
            "there is no Turn 2 W",
        ),
        (
            format!("{head}{BOARD}Turn 1 W: n a2 -> a2\nTurn 1 B: n a2 checks turn 0\n"),
            7,
            "there is no Turn 0 B",
        ),
    ];
    for (source, line, message) in cases {
        let found = diagnostics(&source);
        assert!(
            found.iter().any(|(l, m)| *l == line && m.contains(message)),
            "want `{message}` on line {line}, got {found:?} for:\n{source}"
        );
    }
}

#[test]
fn all_errors_are_reported_at_once() {
    let source = "(k): {(1,0),(1,1)}\n(n 0): (0,0\n(n 1): (1,0)\n+--+--+--+\n|kW|qW|kB|\n+--+--+--+\n\
                  Turn 1 W: k a9 -> a1\nTurn 2 W: k a1 -> a1\n";
    let lines: Vec<usize> = diagnostics(source).iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, vec![2, 3, 5, 7, 8], "{:?}", diagnostics(source));
}

#[test]
fn hash_inside_cells_is_a_hole_and_a_comment_elsewhere() {
    let source = "(k): {(1,0),(1,1)} # royal\n+--+--+--+ # rule\n|kW|##|kB| # cells\n+--+--+--+\n";
    let checked = finvara::check(source).unwrap();
    assert_eq!(checked.program.cells, vec![1, -1, 2]);
}

#[test]
fn squares_are_named_by_row_letters_and_column_numbers() {
    use finvara::ir::{row_letters, square_name};
    assert_eq!(row_letters(1), "a");
    assert_eq!(row_letters(26), "z");
    assert_eq!(row_letters(27), "aa");
    assert_eq!(row_letters(52), "az");
    assert_eq!(row_letters(53), "ba");
    assert_eq!(square_name(2 * 4 + 2, 4), "c3");
    // 28 rows: the top row is `ab`.
    let mut source = String::from("(k):\n(n 0): (0,0)\n");
    for r in 0..28 {
        source.push_str(if r == 0 {
            "|kB|nB|\n"
        } else if r == 27 {
            "|kW|  |\n"
        } else {
            "|  |  |\n"
        });
    }
    source.push_str("Turn 1 W: k a1 -> a1\nTurn 1 B: n ab2 -> ab2\nTurn 2 W: k ac1 -> a1\n");
    let found = diagnostics(&source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("ac1 is off the board"));
}

/// A tiny deterministic generator for the robustness tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn no_panic_on_garbage_or_mutated_programs() {
    let mut seeds: Vec<String> = all_cases()
        .iter()
        .map(|c| std::fs::read_to_string(&c.path).unwrap())
        .collect();
    seeds.dedup();
    let alphabet: Vec<char> =
        "()[]{},|^v<>*`!\"-=x p c m r # \n+|WB0123456789abkqnTurn: ->checks turn é\u{0}\r\t"
            .chars()
            .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..1500 {
        let mut text: Vec<char> = seeds[round % seeds.len()].chars().collect();
        for _ in 0..1 + rng.below(6) {
            if text.is_empty() {
                break;
            }
            let at = rng.below(text.len());
            match rng.below(3) {
                0 => {
                    text.remove(at);
                }
                1 => text.insert(at, alphabet[rng.below(alphabet.len())]),
                _ => text[at] = alphabet[rng.below(alphabet.len())],
            }
        }
        let source: String = text.into_iter().collect();
        if let Ok(checked) = finvara::check(&source) {
            let mut input = std::io::Cursor::new(b"3 -2 x".to_vec());
            let mut output = Vec::new();
            let _ =
                finvara::interp::run(&checked.program, &mut input, &mut output, Some(200), None);
        } else if let Err(errors) = finvara::check(&source) {
            assert!(!errors.is_empty());
            let _ = diagnostic::render("fuzz.fin", &source, &errors);
        }
    }
    // Raw bytes, read the way a command line reads a file.
    for _ in 0..300 {
        let bytes: Vec<u8> = (0..rng.below(400)).map(|_| rng.next() as u8).collect();
        let source = String::from_utf8_lossy(&bytes);
        if let Err(errors) = finvara::check(&source) {
            let _ = diagnostic::render("bytes.fin", &source, &errors);
        }
    }
}

#[test]
fn huge_numbers_are_diagnostics_and_any_nesting_is_fine() {
    // The contract sets no nesting limit (§2.1): 100,000 brackets are a
    // notation like any other (the parser and every walk use explicit
    // stacks); unclosed, they are still an error.
    let deep = format!(
        "(k): {}(1,0){}\n(n 0): (0,0)\n{BOARD}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(diagnostics(&deep), Vec::new());
    let deep = format!("(k): {}\n{BOARD}", "{".repeat(100_000));
    assert!(!diagnostics(&deep).is_empty());
    let big = format!(
        "(k): ({},1)\n(n 0): r((1,0),{})\n{BOARD}",
        "9".repeat(40),
        "9".repeat(40)
    );
    let found = diagnostics(&big);
    assert_eq!(found.len(), 2, "{found:?}");
    // A leap longer than the board is fine: it never lands.
    let far = format!("(k): (18446744073709551615,1)\n(n 0): (0,0)\n{BOARD}Turn 1 W: k a1 -> a1\n");
    assert!(finvara::check(&far).is_ok());
    let turn = format!("(k):\n(n 0): (0,0)\n{BOARD}Turn 99999999999999999999 W: n a2 -> a2\n");
    assert!(!diagnostics(&turn).is_empty());
}

/// `{"s","s"}` chained 24 deep: 2^24 leaps were references copied.
fn doubling_chain(last: &str) -> String {
    let mut chain = String::from("(a 0): (1,0)\n");
    let mut prev = 'a';
    for c in "bcdefghijklmnopqrstuvwxy".chars() {
        chain.push_str(&format!("({c} 0): {{\"{prev}\",\"{prev}\"}}\n"));
        prev = c;
    }
    chain.push_str(&format!("(z): {last}\n+--+--+\n|zW|zB|\n+--+--+\n"));
    chain
}

#[test]
fn references_are_shared_and_copies_are_limited() {
    // Outside a `*`, a reference is shared: the chain costs a unit a link,
    // compiles to small path programs and runs (tests/programs/finvara/
    // deep_and_shared.fin runs one in every back end).
    let chain = doubling_chain("\"y\"");
    let checked = finvara::check(&chain).expect("a shared chain compiles");
    let words: usize = checked
        .program
        .kinds
        .iter()
        .map(|k| k.code[0].len() + k.code[1].len())
        .sum();
    assert!(words < 1_000, "{words} words of path code");
    // Inside a `*` each reference is a copy (every copy repeats the vectors
    // of its own first round). A copy of kind number n (a = 0) of the
    // chain is 4 * 2^n - 3 units: s (n = 18) is 1,048,573, past the limit,
    // a diagnostic on the kind that passes it, never an expansion; r is
    // 524,285, within it.
    let over = doubling_chain("[\"s\"]*");
    let found = diagnostics(&over);
    assert!(
        found.iter().any(|(line, m)| *line == 26
            && m.contains("copy too much: 1048573 units")
            && m.contains("at most 1000000")),
        "{found:?}"
    );
    let under = doubling_chain("[\"r\"]*");
    assert_eq!(diagnostics(&under), Vec::new());
}

/// Programs with every reference copied, as icp2c lowered them before
/// references were shared: the oracle for sharing and its tabulated calls.
fn copied(source: &str, program: &finvara::ir::Program) -> finvara::ir::Program {
    use finvara::ir::Colour;
    let (file, _) = finvara::syntax::parse(source);
    let notations: Vec<(char, &finvara::ast::Notation)> = file
        .definitions
        .iter()
        .map(|d| (d.symbol, &d.notation))
        .collect();
    let mut copy = program.clone();
    for (k, kind) in copy.kinds.iter_mut().enumerate() {
        assert_eq!(kind.symbol, notations[k].0);
        kind.code = [Colour::White, Colour::Black].map(|colour| {
            finvara::lower::lower_with(
                &notations,
                k,
                colour,
                program.width,
                program.height,
                0,
                false,
            )
        });
    }
    copy
}

fn run_program(program: &finvara::ir::Program, input: &[u8]) -> (Outcome, Vec<u8>) {
    let mut out = Vec::new();
    let outcome = finvara::interp::run(program, &mut &input[..], &mut out, Some(100_000), None);
    (outcome, out)
}

#[test]
#[ignore = "slow (10 s): builds programs in C and Rust; .ci/run runs it"]
fn shared_references_run_as_copies_would() {
    // Random programs (their notations reference earlier kinds).
    let mut rng = support::progen::Rng(0x5eed_1c0d_e000_0021);
    let mut compared = 0;
    for _ in 0..100 {
        let g = support::progen::generate(icp2c::driver::Language::Finvara, &mut rng, 6);
        let checked = finvara::check(&g.source).expect("generated programs are valid");
        let copy = copied(&g.source, &checked.program);
        let shared = run_program(&checked.program, &g.input);
        assert_eq!(shared, run_program(&copy, &g.input), "{}", g.source);
        compared += 1;
    }
    assert_eq!(compared, 100);
    // Hand-made notations where sharing could go wrong: references inside
    // `*` (copies with registers of their own), inside `` ` `` inside `*`
    // (calls while registers are set), chains of calls, `p` inside a
    // called kind (any kind but the moving one), `x`, `c(…)`, `m(…)` and
    // `r(…)` around calls. Every move of every piece to every square,
    // with and without each promotion, on random boards with holes: the
    // same verdict, board and stacks either way.
    let definitions = "(k): {(1,0),(1,1)}\n\
        (a 1): {(1,0),(1,1)}\n\
        (b 2): [\"a\"(0,1)]`\n\
        (c 3): {\"a\",\"b\"}\n\
        (d 4): [\"a\"[\"a\"]`]*p\n\
        (e 5): {\"d\",r(\"c\",[1,2]),c(\"b\"),(1,1)x\"a\"}\n\
        (f 7): [\"c\"]*\"e\"\n";
    let symbols = ['k', 'a', 'b', 'c', 'd', 'e', 'f'];
    let (width, height) = (5, 5);
    let mut steps = 0;
    let mut valid = 0;
    for _ in 0..3 {
        let mut source = String::from(definitions);
        let rule = format!("+{}\n", "--+".repeat(width));
        source.push_str(&rule);
        for _ in 0..height {
            source.push('|');
            for _ in 0..width {
                source.push_str(&match rng.below(8) {
                    0 => "##".to_string(),
                    1..=3 => format!("{}{}", rng.pick(&symbols[1..]), rng.pick(&['W', 'B'])),
                    _ => "  ".to_string(),
                });
                source.push('|');
            }
            source.push('\n');
            source.push_str(&rule);
        }
        let checked = finvara::check(&source).expect("the board is valid");
        let program = &checked.program;
        let copy = copied(&source, program);
        let (kinds, copy_kinds) = (
            finvara::interp::runtime_kinds(program),
            finvara::interp::runtime_kinds(&copy),
        );
        for from in 0..width * height {
            let cell = program.cells[from];
            if cell <= 0 {
                continue;
            }
            let (kind, colour) = ((cell - 1) / 2, ((cell - 1) % 2) as usize);
            // A third of the squares (each move searches every path of
            // the piece; the target only picks among them).
            for to in (0..width * height)
                .filter(|_| rng.chance(33))
                .collect::<Vec<_>>()
            {
                // No promotion, and into d (`p` is in d's notation).
                for promo in [-1, 4] {
                    let mut results = Vec::new();
                    for kinds in [&kinds, &copy_kinds] {
                        let mut out = Vec::new();
                        let mut input = &b"3 4"[..];
                        let mut game = fin_board::Game::new(kinds, width, height, &program.cells);
                        game.read_from(&mut input);
                        game.write_to(&mut out);
                        let verdict = game.step(1, colour, [kind, from as i32, to as i32, promo]);
                        let state = (
                            verdict,
                            game.board().to_vec(),
                            game.stack(0).to_vec(),
                            game.stack(1).to_vec(),
                        );
                        drop(game);
                        results.push((state, out));
                    }
                    steps += 1;
                    valid += usize::from(results[0].0.0 == Ok(true));
                    assert_eq!(
                        results[0], results[1],
                        "{source}{} {from} -> {to} = {promo}",
                        symbols[kind as usize]
                    );
                }
            }
        }
    }
    assert!(valid > 30 && steps > 150, "{valid} valid moves of {steps}");
}

#[test]
fn generated_code_is_deterministic_and_comments_are_safe() {
    let checked = check_file(&root().join("tests/programs/finvara/stack_wrap.fin"));
    let name = "we*/ird??=/*name\n.fin";
    let c1 = finvara::backend::emit_c(&checked.program, name);
    let c2 = finvara::backend::emit_c(&checked.program, name);
    assert_eq!(c1, c2);
    assert!(!c1.contains("??"), "trigraph in generated C");
    assert!(!c1.contains("ird*/"));
    let rust = |layout| {
        let request = icp2c::codegen::EmitRequest {
            target: icp2c::codegen::Target::Rust,
            layout,
            source_name: name,
            stem: "stack_wrap",
            no_opt: false,
        };
        let mut files = finvara::Finvara::emit(&checked.program, &request).unwrap();
        files.pop().unwrap().contents
    };
    let r1 = rust(icp2c::codegen::Layout::File);
    let r2 = rust(icp2c::codegen::Layout::File);
    assert_eq!(r1, r2);
    assert!(r1.contains("mod icp_rt {"));
    // No `unsafe` but the binary's one look at its standard streams
    // (`icp_stdio`, after `main`: a call of fcntl before Rust's runtime
    // starts), which the module and the library forms do not have.
    let (program, stdio) = r1.split_once("\nmod icp_stdio {").unwrap();
    assert!(!program.contains("unsafe {") && !program.contains("unsafe fn"));
    assert!(
        include_str!("../../src/codegen/stdio.rs").contains(stdio),
        "only the reviewed src/codegen/stdio.rs follows main"
    );
    let module = rust(icp2c::codegen::Layout::Module);
    assert!(!module.contains("unsafe {") && !module.contains("unsafe fn"));
    let request = icp2c::codegen::EmitRequest {
        target: icp2c::codegen::Target::Rust,
        layout: icp2c::codegen::Layout::Crate,
        source_name: name,
        stem: "stack_wrap",
        no_opt: false,
    };
    let crate_files = finvara::Finvara::emit(&checked.program, &request).unwrap();
    let crate_files = &crate_files[2..];
    let paths: Vec<&str> = crate_files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec!["src/lib.rs", "src/main.rs", "src/icp_rt.rs"]);
    assert!(crate_files[0].contents.contains("\nmod icp_rt;\n"));
    assert!(crate_files[1].contents.contains("stack_wrap::run("));
    let runtime = &crate_files[2].contents;
    assert!(runtime.starts_with("// Runtime of icp2c "), "{runtime:.80}");
    assert!(!runtime.contains("allow(dead_code)"));
    // One case per move, each with its source line in a comment.
    let program_part = &c1[c1.find("---- the program ----").unwrap()..];
    assert_eq!(
        program_part.matches("\n    case ").count(),
        checked.program.moves.len()
    );
    assert!(c1.contains("case 0: /* line 27: Turn 1 W: r b1 -> a1 */"));
    for line in c1.lines() {
        assert!(line.len() < 4000);
    }
}

fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("finvara-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds `program` as `dir/{stem}_c` (strict C flags plus `c_opt`) and
/// `dir/{stem}_rs` (`rustc -O -D warnings`): each executable, or the
/// compiler's complaint.
fn build_both(
    program: &finvara::ir::Program,
    name: &str,
    dir: &Path,
    stem: &str,
    c_opt: &str,
) -> [(&'static str, Result<PathBuf, String>); 2] {
    let build = |target: &str, file: PathBuf, text: String, compiler: &mut Command| {
        let exe = dir.join(format!("{stem}_{target}"));
        std::fs::write(&file, text).unwrap();
        let out = compiler.arg(&file).arg("-o").arg(&exe).output().unwrap();
        if out.status.success() {
            Ok(exe)
        } else {
            Err(format!(
                "{target} build failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    let rust = icp2c::codegen::rust::file(&finvara::backend::emit_rust(program, name));
    [
        (
            "c",
            build(
                "c",
                dir.join(format!("{stem}.c")),
                finvara::backend::emit_c(program, name),
                Command::new("cc").args([
                    "-std=c99",
                    c_opt,
                    "-Wall",
                    "-Wextra",
                    "-Wpedantic",
                    "-Werror",
                ]),
            ),
        ),
        (
            "rust",
            build(
                "rs",
                dir.join(format!("{stem}.rs")),
                rust,
                Command::new("rustc").args(["--edition", "2021", "-O", "-D", "warnings"]),
            ),
        ),
    ]
}

/// A program that grows white's stack forever: the reader falls into a
/// hole at end of input (pushing −1, §4) and `checks turn 1` puts it back.
const ENDLESS_PUSH: &str = "(k):\n(i 3): (1,0)\n(n 0): (0,0)\n\
+--+--+--+--+\n|  |  |nB|kB|\n+--+--+--+--+\n|iW|  |  |kW|\n+--+--+--+--+\n|##|  |  |  |\n+--+--+--+--+\n\
Turn 1 W: i b1 -> a1\nTurn 1 B: n c3 -> c3\nTurn 2 W: i b1 checks turn 1\n";

/// §6: memory exhausted is a runtime error (one line naming the move,
/// exit 1) in generated C and in generated Rust, which shares its runtime
/// with the interpreter; never an abort. Run under `ulimit -v` (8 MB).
#[cfg_attr(
    icp2c_no_cc,
    ignore = "needs the C compiler $CC (default cc), missing when the tests were built"
)]
#[test]
fn memory_exhaustion_is_a_runtime_error() {
    let checked = finvara::check(ENDLESS_PUSH).unwrap_or_else(|e| panic!("{e:?}"));
    let dir = scratch_dir("oom");
    for (target, exe) in build_both(&checked.program, "push.fin", &dir, "push", "-O2") {
        let exe = exe.unwrap_or_else(|e| panic!("{e}"));
        let out = crate::support::output_limited(
            Command::new("sh")
                .arg("-c")
                .arg("ulimit -v 8000 && exec \"$0\" < /dev/null")
                .arg(&exe),
            crate::support::time_limit(),
            &exe.display().to_string(),
        );
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(1), "error: turn 1 W: memory exhausted\n"),
            "{target}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
