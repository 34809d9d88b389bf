//! `icp2c fmt` and `driver::format`: the layout is canonical and changes
//! no program.
//!
//! - Every example is formatted already; every test program (errors/
//!   included) formats to a text that formats to itself and checks to
//!   the same IR (the lines' texts aside: no line moves, so line numbers
//!   are compared too); a program that does not check gets the
//!   diagnostics `check` gives.
//! - Random programs of every language (tests/support/progen.rs and
//!   cheg_gen.rs) keep their IR, and the same programs with their blanks
//!   scrambled wherever the language allows them format to the same
//!   text; a few hundred run the same before and after (output, runtime
//!   error, exit status).
//! - `--renumber` keeps InfChessPro's behaviour but for the labels its
//!   runtime errors name, and refuses programs with `?*` or `!*`.
//! - Mutated examples never make the formatter panic.
//! - The command: in place, `-`, `--check` and its diff, errors, the
//!   byte-order mark and CRLF.
//!
//! The quick tests take a few hundred random programs of each language;
//! the `#[ignore]`d ones (.ci/run) take thousands: `ICP2C_FMT_PROGRAMS=N`
//! of each language (default 3000; a third of them run before and after,
//! a thirtieth of CHEG's, whose runs are searches).

use crate::support;

use icp2c::Outcome;
use icp2c::diagnostic::Diagnostic;
use icp2c::driver::{self, Language, Program};
use icp2c::lang::{FormatOptions, Renumber, RunOptions, cheg, finvara, icp};
use std::path::{Path, PathBuf};
use support::cheg_gen::cheg_position;
use support::progen::{self, Rng};
use support::{Ran, root, run_exe};

/// Random programs per language in the quick tests.
const QUICK: usize = 200;

/// Random programs per language in the slow tests: `ICP2C_FMT_PROGRAMS`,
/// else 3000.
fn slow_programs_per_language() -> usize {
    std::env::var("ICP2C_FMT_PROGRAMS")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(3000)
}

/// The extension's language.
fn language_of(path: &Path) -> Language {
    Language::from_path(path)
}

fn checked(language: Language, source: &str, what: &str) -> Program {
    match driver::check(language, source) {
        Ok(checked) => checked.program,
        Err(e) => panic!(
            "{what} does not check:\n{source}\n{}",
            icp2c::diagnostic::render(what, source, &e)
        ),
    }
}

/// The program's IR without the source lines' texts (kept for comments
/// in generated code, and what formatting changes) and with Finvara's
/// notations as written (for comments too) without their blanks: labels,
/// line numbers, names, commands, targets, paths are all there.
#[derive(Debug, PartialEq, Eq)]
enum Ir {
    InfChessPro(icp::ir::Program),
    Finvara(finvara::ir::Program),
    Cheg(cheg::ir::Program),
}

fn ir(program: &Program) -> Ir {
    if let Some(p) = program.ir::<icp::InfChessPro>() {
        let mut p = p.clone();
        p.statements.iter_mut().for_each(|s| s.text.clear());
        Ir::InfChessPro(p)
    } else if let Some(p) = program.ir::<finvara::Finvara>() {
        let mut p = p.clone();
        p.moves.iter_mut().for_each(|m| m.text.clear());
        for kind in &mut p.kinds {
            kind.notation.retain(|c| c != ' ' && c != '\t');
        }
        Ir::Finvara(p)
    } else if let Some(p) = program.ir::<cheg::Cheg>() {
        let mut p = p.clone();
        p.statements.iter_mut().for_each(|s| s.text.clear());
        Ir::Cheg(p)
    } else {
        panic!(
            "a language the test does not know: {:?}",
            program.language()
        )
    }
}

/// `source` formatted; the properties every formatting has: formatting
/// again changes nothing, and the program checks to the same IR.
fn formatted(language: Language, source: &str, what: &str) -> String {
    let once = driver::format(language, source).unwrap_or_else(|e| {
        panic!(
            "{what} does not format:\n{source}\n{}",
            icp2c::diagnostic::render(what, source, &e)
        )
    });
    let twice = driver::format(language, &once).expect("a formatted program checks");
    assert_eq!(twice, once, "{what}: formatting twice changes it\n{source}");
    let before = ir(&checked(language, source, what));
    let after = ir(&checked(language, &once, what));
    if after != before {
        panic!(
            "{what}: formatting changes the program\n--- before\n{source}\n--- after\n{once}\n--- IR before\n{before:?}\n--- IR after\n{after:?}"
        );
    }
    once
}

/// Every program file under `dir`, recursively, sorted.
fn program_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("icp" | "fin" | "cheg")
            ) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_example_is_formatted() {
    let examples = program_files(&root().join("examples"));
    assert!(examples.len() >= 15, "{examples:?}");
    for path in examples {
        let source = std::fs::read_to_string(&path).unwrap();
        let what = path.display().to_string();
        let once = formatted(language_of(&path), &source, &what);
        if once != source {
            let diff = similar_lines(&source, &once);
            panic!("{what} is not formatted (icp2c fmt {what}):\n{diff}");
        }
    }
}

/// The lines of `a` and `b` that differ, for a failure message.
fn similar_lines(a: &str, b: &str) -> String {
    a.lines()
        .zip(b.lines())
        .filter(|(x, y)| x != y)
        .map(|(x, y)| format!("- {x}\n+ {y}\n"))
        .collect()
}

#[test]
fn every_test_program_formats_to_the_same_program_or_its_diagnostics() {
    let files = program_files(&root().join("tests/programs"));
    assert!(files.len() > 100, "{}", files.len());
    let (mut good, mut bad) = (0, 0);
    for path in files {
        let language = language_of(&path);
        let what = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(source) = String::from_utf8(bytes) else {
            continue; // a not-UTF-8 case: the CLI's decoding reports it
        };
        match driver::check(language, &source) {
            Ok(_) => {
                formatted(language, &source, &what);
                good += 1;
            }
            Err(errors) => {
                let got = driver::format(language, &source).expect_err(&what);
                assert_eq!(shown(&got), shown(&errors), "{what}");
                bad += 1;
            }
        }
    }
    assert!(good > 50 && bad > 50, "{good} programs, {bad} error cases");
}

fn shown(diagnostics: &[Diagnostic]) -> String {
    format!("{diagnostics:?}")
}

/// A random blank run: `min..=max` spaces and tabs.
fn blanks(rng: &mut Rng, min: usize, max: usize) -> String {
    let n = min + rng.below(max - min + 1);
    (0..n)
        .map(|_| if rng.chance(20) { '\t' } else { ' ' })
        .collect()
}

/// Maybe a blank run (`chance` percent), else nothing.
fn some_blanks(rng: &mut Rng, chance: u32) -> String {
    if rng.chance(chance) {
        blanks(rng, 1, 3)
    } else {
        String::new()
    }
}

/// The line end of `text` and its lines.
fn split(text: &str) -> (&'static str, Vec<&str>) {
    let end = if text.contains("\r\n") { "\r\n" } else { "\n" };
    (end, text.lines().collect())
}

/// A formatted InfChessPro program with blanks added wherever §1 and §2
/// allow them: before a line, after a label's `.`, around `,` `;` `=` `?`
/// `!` `%` and a piece letter, at the end of a line (not of a text
/// command's, whose blanks are text).
fn scramble_icp(rng: &mut Rng, text: &str) -> String {
    let (end, lines) = split(text);
    let mut out = String::new();
    for line in lines {
        let lead = some_blanks(rng, 30);
        if line.is_empty() {
            out.push_str(&some_blanks(rng, 30));
        } else if line.starts_with('#') {
            out.push_str(&format!("{lead}{line}{}", some_blanks(rng, 30)));
        } else {
            let (label, command) = line.split_once(". ").expect("a statement");
            out.push_str(&format!("{lead}{label}.{}", some_blanks(rng, 60)));
            if command.starts_with('"') {
                out.push_str(command);
            } else {
                let punct = |c: char| ",;=?!%".contains(c);
                let chars: Vec<char> = command.chars().collect();
                for (i, &c) in chars.iter().enumerate() {
                    out.push(c);
                    let next = chars.get(i + 1).copied();
                    let letter = i > 0 && chars[i - 1] == '=';
                    if next.is_some() && (punct(c) || next.is_some_and(punct) || letter) {
                        out.push_str(&some_blanks(rng, 30));
                    }
                }
                out.push_str(&some_blanks(rng, 30));
            }
        }
        out.push_str(end);
    }
    out
}

/// A formatted Finvara program with blanks added wherever §1, §2 and §5
/// allow them: before every line, between the tokens of a definition and
/// of a notation, between a move's words (and none around `->`, `=` and
/// before `:`), and in any width before a trailing comment.
fn scramble_fin(rng: &mut Rng, text: &str) -> String {
    let (end, lines) = split(text);
    let mut out = String::new();
    for line in lines {
        let (code, comment) = match line.find('#') {
            // `##` in a board row is a hole, not a comment.
            Some(at) if !line.starts_with('|') => (&line[..at], Some(&line[at..])),
            _ => match line.starts_with('|').then(|| line.find(" #")).flatten() {
                Some(at) => (&line[..at], Some(&line[at + 1..])),
                None => (line, None),
            },
        };
        let code = code.trim_end();
        out.push_str(&some_blanks(rng, 30));
        if code.starts_with('(') {
            let tokens = "(){}[],|*`:";
            let chars: Vec<char> = code.chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                out.push(c);
                if let Some(&next) = chars.get(i + 1)
                    && (tokens.contains(c) || tokens.contains(next))
                {
                    out.push_str(&some_blanks(rng, 25));
                }
            }
        } else if code.starts_with("Turn") {
            let words: Vec<&str> = code.split(' ').collect();
            for (i, word) in words.iter().enumerate() {
                if i > 0 {
                    let tight = ["->", "="].contains(word) || ["->", "="].contains(&words[i - 1]);
                    let gap = if tight || i == 2 || i == 3 {
                        if rng.chance(50) {
                            String::new()
                        } else {
                            blanks(rng, 1, 3)
                        }
                    } else {
                        blanks(rng, 1, 3)
                    };
                    out.push_str(&gap);
                }
                match word.strip_suffix(':') {
                    Some(colour) => out.push_str(&format!("{colour}{}:", some_blanks(rng, 40))),
                    None => out.push_str(word),
                }
            }
        } else {
            out.push_str(code);
        }
        if let Some(comment) = comment {
            // A row's comment keeps 3 blanks: `|  | #|` would be a cell.
            let min = if code.starts_with('|') { 3 } else { 1 };
            out.push_str(&blanks(rng, min, min + 6));
            out.push_str(comment);
        }
        if !code.is_empty() || comment.is_some() {
            out.push_str(&some_blanks(rng, 30));
        }
        out.push_str(end);
    }
    out
}

/// A formatted CHEG program with its columns and separators scrambled as
/// §1 allows: any indentation, any blanks after a tag's colon, commas
/// with blanks around them or runs of blanks between two arguments, any
/// blanks before a comment; comment lines anywhere within their column.
fn scramble_cheg(rng: &mut Rng, text: &str) -> String {
    let (end, lines) = split(text);
    let mut out = String::new();
    for line in lines {
        let (code, comment) = match line.find(';') {
            Some(at) => (line[..at].trim_end(), Some(&line[at..])),
            None => (line, None),
        };
        if code.is_empty() {
            if let Some(comment) = comment {
                let indent = line.len() - line.trim_start().len();
                let indent = match indent {
                    0 => 0,
                    8 => 1 + rng.below(39),
                    _ => 40 + rng.below(10),
                };
                out.push_str(&" ".repeat(indent));
                out.push_str(comment);
            }
            out.push_str(end);
            continue;
        }
        let (tag, rest) = match code.split_once(':') {
            Some((tag, rest)) if !tag.starts_with(' ') && !tag.contains(' ') => {
                (Some(tag), rest.trim_start())
            }
            _ => (None, code.trim_start()),
        };
        match tag {
            Some(tag) => out.push_str(&format!("{tag}:{}", some_blanks(rng, 70))),
            None => out.push_str(&some_blanks(rng, 70)),
        }
        let (name, args) = rest.split_once(' ').unwrap_or((rest, ""));
        out.push_str(name);
        if !args.is_empty() {
            // Split at the commas outside set literals.
            let mut parts = vec![String::new()];
            let mut depth = 0;
            for c in args.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(String::new());
                        continue;
                    }
                    _ => {}
                }
                parts.last_mut().unwrap().push(c);
            }
            out.push_str(&blanks(rng, 1, 3));
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    if !part.is_empty() && !parts[i - 1].is_empty() && rng.chance(30) {
                        out.push_str(&blanks(rng, 1, 3));
                    } else {
                        let before = some_blanks(rng, 30);
                        let after = some_blanks(rng, 30);
                        out.push_str(&format!("{before},{after}"));
                    }
                }
                out.push_str(part);
            }
        }
        if let Some(comment) = comment {
            out.push_str(&blanks(rng, 1, 8));
            out.push_str(comment);
        } else {
            out.push_str(&some_blanks(rng, 30));
        }
        out.push_str(end);
    }
    out
}

fn scramble(language: Language, rng: &mut Rng, text: &str) -> String {
    // A byte-order mark is not text: it stays first.
    let (bom, text) = match text.strip_prefix('\u{FEFF}') {
        Some(rest) => ("\u{FEFF}", rest),
        None => ("", text),
    };
    let scrambled = match language {
        Language::InfChessPro => scramble_icp(rng, text),
        Language::Finvara => scramble_fin(rng, text),
        Language::Cheg => scramble_cheg(rng, text),
    };
    format!("{bom}{scrambled}")
}

/// A random program of `language` with its input, as the differential
/// tests generate them.
fn random_program(language: Language, rng: &mut Rng) -> progen::Generated {
    let size = match language {
        Language::InfChessPro => 4 + rng.below(30),
        Language::Finvara => 2 + rng.below(10),
        Language::Cheg => 2 + rng.below(8),
    };
    progen::generate(language, rng, size)
}

#[test]
fn random_programs_keep_their_ir_and_scrambled_blanks_format_back() {
    keep_ir_and_format_back(QUICK, 0xf0_4a77);
}

#[test]
#[ignore = "slow (50 s): 3000 random programs of each language; .ci/run runs it"]
fn thousands_of_random_programs_keep_their_ir_and_format_back() {
    keep_ir_and_format_back(slow_programs_per_language(), 0x7e57_f0f0);
}

/// `n` random programs of each language (seeded by `seed`) keep their IR,
/// and scrambling their blanks changes nothing of their formatting.
fn keep_ir_and_format_back(n: usize, seed: u64) {
    for &language in Language::ALL {
        let mut rng = Rng(seed ^ language.extension().len() as u64);
        let mut changed = 0;
        for i in 0..n {
            let generated = random_program(language, &mut rng);
            let what = format!("{} program {i}", language.name());
            let once = formatted(language, &generated.source, &what);
            changed += usize::from(once != generated.source);
            let scrambled = scramble(language, &mut rng, &once);
            let what = format!("{what}, scrambled");
            let again = formatted(language, &scrambled, &what);
            assert_eq!(
                again, once,
                "{what}: blanks change the layout\n--- scrambled\n{scrambled}"
            );
        }
        // The generators' own layouts are not all canonical: the
        // formatter has work to do.
        assert!(
            changed > 0,
            "{}: every program formatted already",
            language.name()
        );
    }
}

/// How a program ran: output, runtime error line, exit status.
fn run(language: Language, program: &Program, input: &[u8], rng_fen: &str) -> Ran {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = if language == Language::Cheg {
        let options = RunOptions {
            args: ["--fen", rng_fen, "--depth", "1"]
                .map(String::from)
                .to_vec(),
            source_name: "gen.cheg".into(),
            ..RunOptions::default()
        };
        program
            .run_with(&mut &input[..], &mut out, &mut err, &options)
            .expect("engine options are accepted")
            .exit_status()
    } else {
        let outcome = program.run(&mut &input[..], &mut out, Some(100_000));
        if let Outcome::RuntimeError(line) = &outcome {
            err = line.clone().into_bytes();
        }
        outcome.exit_status()
    };
    Ran {
        status,
        stdout: out,
        stderr: err,
    }
}

#[test]
fn random_programs_run_the_same_after_formatting() {
    run_the_same(&[120, 120, 16], 0x5a3e_0f00);
}

#[test]
#[ignore = "slow (12 s): 1000 random programs of InfChessPro and Finvara and 100 of CHEG run; .ci/run runs it"]
fn a_thousand_random_programs_of_each_language_run_the_same_after_formatting() {
    let n = slow_programs_per_language() / 3;
    run_the_same(&[n, n, n / 10], 0x0bad_5eed);
}

/// `counts[k]` random programs of the `k`-th language (seeded by `seed`)
/// run the same (output, runtime error, exit status) before and after
/// their blanks are scrambled and they are formatted; CHEG's are searched
/// at depth 1 from a random position.
fn run_the_same(counts: &[usize], seed: u64) {
    for (&language, &count) in Language::ALL.iter().zip(counts) {
        let mut rng = Rng(seed ^ language.extension().len() as u64);
        for i in 0..count {
            let generated = random_program(language, &mut rng);
            let fen = cheg_position(&mut rng);
            let what = format!("{} program {i}", language.name());
            let scrambled = scramble(
                language,
                &mut rng,
                &formatted(language, &generated.source, &what),
            );
            let once = formatted(language, &scrambled, &what);
            let before = run(
                language,
                &checked(language, &generated.source, &what),
                &generated.input,
                &fen,
            );
            let after = run(
                language,
                &checked(language, &once, &what),
                &generated.input,
                &fen,
            );
            assert_eq!(after, before, "{what} runs differently\n{once}");
        }
    }
}

fn renumbered(source: &str, start: i64, step: i64) -> Result<String, Vec<Diagnostic>> {
    let options = FormatOptions {
        renumber: Some(Renumber { start, step }),
    };
    driver::format_with(Language::InfChessPro, source, &options)
}

/// `error: statement N: …` with N what `map` makes of it.
fn relabel(line: &[u8], map: impl Fn(i64) -> i64) -> Vec<u8> {
    let text = String::from_utf8_lossy(line);
    match text
        .strip_prefix("error: statement ")
        .and_then(|rest| rest.split_once(':'))
    {
        Some((label, rest)) => {
            let label: i64 = label.parse().expect("a label");
            format!("error: statement {}:{rest}", map(label)).into_bytes()
        }
        None => line.to_vec(),
    }
}

#[test]
fn renumbering_keeps_behaviour_but_the_labels_and_refuses_jumps_read_from_input() {
    let n = 300;
    let mut rng = Rng(0x7e_2b3e);
    let (mut renumbered_count, mut refused) = (0, 0);
    for i in 0..n {
        let generated = random_program(Language::InfChessPro, &mut rng);
        let what = format!("InfChessPro program {i}");
        let source = &generated.source;
        let program = checked(Language::InfChessPro, source, &what);
        let ir = program.ir::<icp::InfChessPro>().unwrap();
        let star = ir.statements.iter().any(|s| {
            [s.on_success, s.on_failure]
                .iter()
                .any(|t| matches!(t, Some(icp::ir::Target::Input(_))))
        });
        let (start, step) = (rng.range(0, 1000), rng.range(1, 50));
        match renumbered(source, start, step) {
            Err(errors) => {
                assert!(star, "{what}: refused\n{errors:?}\n{source}");
                assert_eq!(errors.len(), 1);
                assert_eq!(&source[errors[0].primary.span.clone()], "*", "{what}");
                refused += 1;
            }
            Ok(text) => {
                assert!(!star, "{what}: a `*` jump renumbered\n{text}");
                let new = checked(Language::InfChessPro, &text, &what);
                let new_ir = new.ir::<icp::InfChessPro>().unwrap();
                let old_labels: Vec<i64> = ir.statements.iter().map(|s| s.label).collect();
                let labels: Vec<i64> = new_ir.statements.iter().map(|s| s.label).collect();
                let want: Vec<i64> = (0..labels.len() as i64).map(|k| start + k * step).collect();
                assert_eq!(labels, want, "{what}");
                assert_eq!(
                    driver::format(Language::InfChessPro, &text).unwrap(),
                    text,
                    "{what}: a renumbered program is formatted"
                );
                let before = run(Language::InfChessPro, &program, &generated.input, "");
                let after = run(Language::InfChessPro, &new, &generated.input, "");
                let map = |label: i64| {
                    old_labels
                        .binary_search(&label)
                        .map_or(label, |k| labels[k])
                };
                let want = Ran {
                    stderr: relabel(&before.stderr, map),
                    ..before
                };
                assert_eq!(
                    after, want,
                    "{what}: renumbered, it runs differently\n{text}"
                );
                renumbered_count += 1;
            }
        }
    }
    assert!(
        renumbered_count > 0 && refused > 0,
        "{renumbered_count} renumbered, {refused} refused"
    );
}

/// One random edit of `text`: a character inserted, deleted or replaced,
/// a line duplicated or dropped, blanks inserted.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return "x".into();
    }
    let at = rng.below(chars.len());
    let pick = |rng: &mut Rng| {
        *rng.pick(&[
            ' ', '\t', '\n', '\r', ',', ';', ':', '#', '"', '(', ')', '*', '?', '!', '-', '0', '9',
            'a', 'K', '|', '+', '\u{FEFF}', 'é', '\u{0}',
        ])
    };
    let mut out = chars.clone();
    match rng.below(5) {
        0 => out.insert(at, pick(rng)),
        1 => {
            out.remove(at);
        }
        2 => out[at] = pick(rng),
        3 => {
            let lines: Vec<&str> = text.split('\n').collect();
            let k = rng.below(lines.len());
            let mut lines = lines.clone();
            if rng.chance(50) {
                lines.insert(k, lines[k]);
            } else {
                lines.remove(k);
            }
            return lines.join("\n");
        }
        _ => {
            for _ in 0..1 + rng.below(3) {
                out.insert(at, ' ');
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn mutated_examples_never_make_the_formatter_panic() {
    mutations(300, 0xbad_f00d);
}

#[test]
#[ignore = "slow (22 s): 5000 mutated examples; .ci/run runs it"]
fn thousands_of_mutated_examples_never_make_the_formatter_panic() {
    mutations(slow_programs_per_language() * 5 / 3, 0xdead_f00d);
}

/// `n` examples, each with a few random edits (seeded by `seed`): a
/// program that still checks formats as every program does; one that
/// does not gets `check`'s diagnostics; no text panics the formatter of
/// any language.
fn mutations(n: usize, seed: u64) {
    let examples = program_files(&root().join("examples"));
    let mut rng = Rng(seed);
    let (mut ok, mut rejected) = (0, 0);
    for round in 0..n {
        let path = rng.pick(&examples).clone();
        let language = language_of(&path);
        let mut text = std::fs::read_to_string(&path).unwrap();
        for _ in 0..1 + rng.below(4) {
            text = mutate(&mut rng, &text);
        }
        let what = format!("{} mutated ({round})", path.display());
        match driver::check(language, &text) {
            Ok(_) => {
                formatted(language, &text, &what);
                ok += 1;
            }
            Err(errors) => {
                let got = driver::format(language, &text).expect_err(&what);
                assert_eq!(shown(&got), shown(&errors), "{what}");
                rejected += 1;
            }
        }
        // Any language on any text: diagnostics or a formatting, no panic.
        for &other in Language::ALL {
            let _ = driver::format(other, &text);
        }
    }
    assert!(
        ok > 0 && rejected > 0,
        "{ok} formatted, {rejected} rejected"
    );
}

// ---------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------

fn icp2c(args: &[&str], input: &[u8]) -> Ran {
    run_exe(Path::new(env!("CARGO_BIN_EXE_icp2c")), args, input)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const MESSY_ICP: &str = "  1.x = R0 , 5 ? 2\n# note  \n2.  ^\n";
const TIDY_ICP: &str = "1. x=R0,5?2\n# note\n2. ^\n";

#[test]
fn fmt_rewrites_files_in_place_and_leaves_formatted_ones_alone() {
    let dir = tempfile::tempdir().unwrap();
    let messy = dir.path().join("messy.icp");
    let tidy = dir.path().join("tidy.icp");
    std::fs::write(&messy, MESSY_ICP).unwrap();
    std::fs::write(&tidy, TIDY_ICP).unwrap();
    let before = std::fs::metadata(&tidy).unwrap().modified().unwrap();
    let r = icp2c(
        &["fmt", messy.to_str().unwrap(), tidy.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert!(r.stdout.is_empty() && r.stderr.is_empty(), "{r:?}");
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), TIDY_ICP);
    assert_eq!(std::fs::read_to_string(&tidy).unwrap(), TIDY_ICP);
    let after = std::fs::metadata(&tidy).unwrap().modified().unwrap();
    assert_eq!(before, after, "a formatted file is not written");
}

#[test]
fn fmt_dash_reads_standard_input_and_writes_standard_output() {
    let r = icp2c(&["fmt", "-"], MESSY_ICP.as_bytes());
    assert_eq!((r.status, text(&r.stdout)), (0, TIDY_ICP.to_string()));
    let r = icp2c(
        &["fmt", "--lang", "cheg", "-"],
        b"ENTRY K,K\nA: LEAVE ;x\nEND\n",
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert_eq!(
        text(&r.stdout),
        format!("ENTRY K,K\nA:      LEAVE{};x\nEND\n", " ".repeat(27))
    );
}

#[test]
fn fmt_check_writes_nothing_and_shows_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let messy = dir.path().join("messy.icp");
    let tidy = dir.path().join("tidy.icp");
    std::fs::write(&messy, MESSY_ICP).unwrap();
    std::fs::write(&tidy, TIDY_ICP).unwrap();
    let r = icp2c(&["fmt", "--check", tidy.to_str().unwrap()], b"");
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert!(r.stdout.is_empty());
    let r = icp2c(
        &[
            "fmt",
            "--check",
            tidy.to_str().unwrap(),
            messy.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.status, 1, "{}", text(&r.stderr));
    let diff = text(&r.stdout);
    let name = messy.display().to_string();
    assert!(
        diff.starts_with(&format!("--- {name}\n+++ {name} (formatted)\n@@")),
        "{diff}"
    );
    assert!(
        diff.contains("\n-  1.x = R0 , 5 ? 2\n") && diff.contains("\n+1. x=R0,5?2\n"),
        "{diff}"
    );
    assert!(!diff.contains("tidy.icp"), "{diff}");
    assert!(
        text(&r.stderr).contains("1 of 2 programs"),
        "{}",
        text(&r.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        MESSY_ICP,
        "--check writes nothing"
    );
    let r = icp2c(&["fmt", "--check", "-"], MESSY_ICP.as_bytes());
    assert_eq!(r.status, 1);
    assert!(
        text(&r.stdout).starts_with("--- <stdin>\n"),
        "{}",
        text(&r.stdout)
    );
}

#[test]
fn fmt_leaves_a_program_with_errors_untouched_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.fin");
    let good = dir.path().join("good.icp");
    let source = "(k):   # royal\n(q 9): {(1,0),\n+--+\n|kW|\n|qX|\n+--+\n";
    std::fs::write(&bad, source).unwrap();
    std::fs::write(&good, MESSY_ICP).unwrap();
    let r = icp2c(&["fmt", bad.to_str().unwrap(), good.to_str().unwrap()], b"");
    assert_eq!(r.status, 2);
    let err = text(&r.stderr);
    // Every diagnostic at once, as the compiler shows them.
    assert!(
        err.contains("bad.fin:2:") && err.contains("bad.fin:5:"),
        "{err}"
    );
    assert!(
        err.contains("rejected (Finvara program): 2 errors"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), source);
    // The other files are still formatted.
    assert_eq!(std::fs::read_to_string(&good).unwrap(), TIDY_ICP);
    let r = icp2c(&["fmt", "--check", bad.to_str().unwrap()], b"");
    assert_eq!(r.status, 2);
}

#[test]
fn fmt_reports_a_file_it_cannot_read_or_write_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.icp");
    let r = icp2c(&["fmt", missing.to_str().unwrap()], b"");
    assert_eq!(r.status, 2);
    let err = text(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot read") && err.contains("missing.icp"),
        "{err}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.path().join("locked.icp");
        std::fs::write(&locked, MESSY_ICP).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
        // (root may write a read-only file: then there is nothing to see)
        if std::fs::OpenOptions::new()
            .write(true)
            .open(&locked)
            .is_err()
        {
            let r = icp2c(&["fmt", locked.to_str().unwrap()], b"");
            assert_eq!(r.status, 2);
            let err = text(&r.stderr);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("cannot write"), "{err}");
        }
    }
}

#[test]
fn fmt_keeps_the_byte_order_mark_and_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &[u8]); 3] = [
        (
            "bom.icp",
            b"\xef\xbb\xbf1.  ^\n2. ^\n",
            b"\xef\xbb\xbf1. ^\n2. ^\n",
        ),
        (
            "crlf.icp",
            b"1.  ^\r\n# c \r\n2. ^",
            b"1. ^\r\n# c\r\n2. ^\r\n",
        ),
        (
            "both.cheg",
            b"\xef\xbb\xbfENTRY K,K\r\n  LEAVE\r\nEND\r\n",
            b"\xef\xbb\xbfENTRY K,K\r\n        LEAVE\r\nEND\r\n",
        ),
    ];
    for (name, before, after) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, before).unwrap();
        let r = icp2c(&["fmt", path.to_str().unwrap()], b"");
        assert_eq!(r.status, 0, "{name}: {}", text(&r.stderr));
        assert_eq!(text(&std::fs::read(&path).unwrap()), text(after), "{name}");
        let r = icp2c(
            &["fmt", "-", "--lang", &name[name.find('.').unwrap() + 1..]],
            before,
        );
        assert_eq!(text(&r.stdout), text(after), "{name} through -");
    }
}

#[test]
fn fmt_renumber_relabels_or_refuses_with_a_diagnostic() {
    let r = icp2c(
        &["fmt", "--renumber", "10,5", "-"],
        b"1. x=R0,0?3\n3. x;0,1!1\n",
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "10. x=R0,0?15\n15. x;0,1!10\n");
    let r = icp2c(
        &["fmt", "--renumber", "10,5", "-"],
        b"1. ^\n2. x=R0,*?1!*\n",
    );
    assert_eq!(r.status, 2);
    assert!(r.stdout.is_empty());
    let err = text(&r.stderr);
    assert!(
        err.contains("<stdin>:2:13") && err.contains("reads its target"),
        "{err}"
    );
    for bad in ["10", "-1,1", "1,0", "a,b"] {
        let r = icp2c(&["fmt", "--renumber", bad, "-"], b"1. ^\n");
        assert_eq!(r.status, 2, "{bad}");
    }
    let r = icp2c(
        &["fmt", "--renumber", "1,1", "--lang", "fin", "-"],
        b"(k):\n+--+\n|kW|\n+--+\n",
    );
    assert_eq!(r.status, 2);
    assert!(text(&r.stderr).contains("no labels"), "{}", text(&r.stderr));
}

#[test]
fn fmt_is_in_the_help_and_the_manual_page() {
    let help = text(&icp2c(&["--help"], b"").stdout);
    assert!(help.contains("fmt"), "{help}");
    let fmt_help = text(&icp2c(&["fmt", "--help"], b"").stdout);
    for option in ["--check", "--renumber", "--lang"] {
        assert!(fmt_help.contains(option), "{fmt_help}");
    }
    let page = text(&icp2c(&["man"], b"").stdout);
    assert!(page.contains("ICP2C FMT"), "the manual page lacks fmt");
    assert!(
        page.contains("\\-\\-renumber"),
        "the manual page lacks --renumber"
    );
}
