//! The documentation says what is true: every command shown in README.md,
//! docs/*.md and examples/README.md runs and prints what the page shows,
//! every file a page names is in the repository, the README stays short,
//! its commands work in order on a fresh machine (a slow test runs them as
//! written, `cargo install` included), and each language reference covers
//! every command or instruction of its contract.
//!
//! Command blocks are fenced as ```` ```console ````: a line `$ COMMAND`
//! (a `\` at its end continues it on the next line) is followed by what it
//! prints, standard output and standard error together; a line `...`
//! stands for any number of lines, and a last line `[exit N]` says that the
//! command ends with status N (else it must end with 0). A block fenced
//! ```` ```LANG file=NAME ```` is the file NAME that the page asks the
//! reader to write: the runner writes it before running the commands that
//! follow it. ```` ```console norun ```` marks the commands that are not
//! run here (installing, benchmarks that take minutes, the playground):
//! other tests cover them. A shell block of another kind (`sh`, `bash`) is
//! an error, so that no command escapes the runner by its fence.
//!
//! Each page runs in a folder of its own, with `examples/` of the
//! repository beside it, `icp2c` (the binary under test) first on the PATH,
//! `HOME` a fresh empty folder, and a UTF-8 locale. Three commands stand
//! for what the runner itself is: `cargo run --release -- ARGS` runs
//! `icp2c ARGS`, and `cargo install --path .`, `cargo test` and
//! `bash .ci/run` (which install or run these tests) are not run.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The pages whose command blocks run.
fn pages() -> Vec<PathBuf> {
    let root = support::root();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages.push(root.join("examples/README.md"));
    pages
}

/// A fenced block of a page.
struct Block {
    /// 1-based line of its opening fence.
    line: usize,
    /// The words after the fence (```` ```console norun ````: `console`,
    /// `norun`).
    info: Vec<String>,
    body: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        // A fence may be indented (a block inside a list item); its body
        // loses the same indentation.
        let indent = line.len() - line.trim_start().len();
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let mut body = Vec::new();
        for (_, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            let blank = line.len() - line.trim_start().len();
            body.push(line[blank.min(indent)..].to_string());
        }
        out.push(Block {
            line: i + 1,
            info: info.split_whitespace().map(str::to_string).collect(),
            body,
        });
    }
    out
}

/// One command of a console block and what it must print.
struct Step {
    line: usize,
    command: String,
    want: Vec<String>,
    status: i32,
}

fn steps(block: &Block) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut body = block.body.iter().enumerate().peekable();
    while let Some((i, line)) = body.next() {
        if let Some(command) = line.strip_prefix("$ ") {
            let mut command = command.to_string();
            while command.ends_with('\\') {
                command.pop();
                match body.next() {
                    Some((_, next)) => command.push_str(next.trim_start()),
                    None => break,
                }
            }
            out.push(Step {
                line: block.line + 1 + i,
                command,
                want: Vec::new(),
                status: 0,
            });
        } else if let Some(step) = out.last_mut() {
            let status = line
                .strip_prefix("[exit ")
                .and_then(|rest| rest.strip_suffix(']'))
                .and_then(|n| n.parse().ok());
            match status {
                Some(status) => step.status = status,
                None => step.want.push(line.trim_end().to_string()),
            }
        }
    }
    for step in &mut out {
        while step.want.last().is_some_and(String::is_empty) {
            step.want.pop();
        }
    }
    out
}

/// Whether `got` matches `want`, where a `...` line of `want` matches any
/// number of lines.
fn matches(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=got.len()).any(|skip| matches(rest, &got[skip..]))
        }
        Some((first, rest)) => got
            .split_first()
            .is_some_and(|(line, more)| line == first && matches(rest, more)),
    }
}

/// What the runner does with a command: run it as written, run it with
/// `icp2c` for `cargo run --release --`, or leave it (it installs icp2c or
/// runs these tests).
fn as_run(command: &str) -> Option<String> {
    let trimmed = command.trim();
    if trimmed.starts_with("cargo install --path .")
        || trimmed.starts_with("cargo test")
        || trimmed.starts_with("bash .ci/run")
    {
        return None;
    }
    Some(command.replace("cargo run --release -- ", "icp2c "))
}

/// Runs the command blocks of `page`; returns what went wrong.
fn run_page(page: &Path) -> Vec<String> {
    let root = support::root();
    let name = page
        .strip_prefix(&root)
        .unwrap_or(page)
        .display()
        .to_string();
    let text = std::fs::read_to_string(page).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::os::unix::fs::symlink(root.join("examples"), work.join("examples")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_icp2c")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for block in blocks(&text) {
        let kind = block.info.first().map(String::as_str).unwrap_or_default();
        if let Some(file) = block.info.iter().find_map(|w| w.strip_prefix("file=")) {
            let mut contents = block.body.join("\n");
            contents.push('\n');
            std::fs::write(work.join(file), contents).unwrap();
            continue;
        }
        if ["sh", "bash", "shell", "zsh"].contains(&kind) {
            failures.push(format!(
                "{name}:{}: a ```{kind} block: fence commands as ```console (or ```console norun)",
                block.line
            ));
            continue;
        }
        if kind != "console" || block.info.iter().any(|w| w == "norun") {
            continue;
        }
        for step in steps(&block) {
            let Some(command) = as_run(&step.command) else {
                continue;
            };
            let out = Command::new("timeout")
                .arg("300")
                .arg("bash")
                .arg("-c")
                .arg(format!("{{ {command}\n}} 2>&1"))
                .current_dir(&work)
                .env("PATH", &path)
                .env("HOME", &home)
                .env("LANG", "C.UTF-8")
                .env_remove("LC_ALL")
                .env_remove("LC_CTYPE")
                .env("NO_COLOR", "1")
                .env_remove("CARGO_TARGET_DIR")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let got = String::from_utf8_lossy(&out.stdout);
            let got: Vec<&str> = got.lines().map(str::trim_end).collect();
            let mut got = got.as_slice();
            while got.last().is_some_and(|l| l.is_empty()) {
                got = &got[..got.len() - 1];
            }
            let status = out.status.code().unwrap_or(-1);
            if status != step.status || !matches(&step.want, got) {
                failures.push(format!(
                    "{name}:{}: $ {}\n--- exit {status} (want {}), printed\n{}\n--- the page shows\n{}",
                    step.line,
                    step.command,
                    step.status,
                    got.join("\n"),
                    step.want.join("\n")
                ));
            }
        }
    }
    failures
}

#[test]
fn every_command_on_every_page_prints_what_the_page_shows() {
    let pages = pages();
    let failures: Vec<String> = support::parallel(&pages, |page| run_page(page))
        .into_iter()
        .flatten()
        .collect();
    assert!(
        failures.is_empty(),
        "{} commands differ from their pages:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_tutorial_and_the_readme_show_commands() {
    for page in ["README.md", "docs/tutorial.md"] {
        let text = std::fs::read_to_string(support::root().join(page)).unwrap();
        let run: usize = blocks(&text)
            .iter()
            .filter(|b| {
                b.info.first().is_some_and(|k| k == "console")
                    && !b.info.iter().any(|w| w == "norun")
            })
            .map(|b| steps(b).len())
            .sum();
        assert!(run >= 5, "{page}: only {run} commands run");
    }
}

#[test]
fn the_readme_fits_in_150_lines() {
    let text = std::fs::read_to_string(support::root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines < 150, "README.md has {lines} lines");
}

/// Every file a page links to, or names as a path of the repository, is
/// in the repository; no page sends the reader to a file beside it.
#[test]
fn pages_name_only_files_of_the_repository() {
    let root = support::root();
    let mut failures = Vec::new();
    for page in pages() {
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&page).unwrap();
        let base = page.parent().unwrap();
        for (i, line) in text.lines().enumerate() {
            // Markdown links: [text](target).
            for part in line.split("](").skip(1) {
                let target = part.split([')', '#']).next().unwrap_or_default();
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                if !base.join(target).exists() {
                    failures.push(format!("{name}:{}: links to missing {target}", i + 1));
                }
            }
            // Paths in code spans: `docs/x.md`, `src/…`, `examples/…`.
            for (j, span) in line.split('`').enumerate() {
                if j % 2 == 0 {
                    continue;
                }
                let candidate = span.split_whitespace().next().unwrap_or_default();
                let repo_path = [
                    "docs/",
                    "src/",
                    "examples/",
                    "tests/",
                    "benches/",
                    "templates/",
                    ".ci/",
                ]
                .iter()
                .any(|p| candidate.starts_with(p));
                if repo_path
                    && !candidate.contains(['*', '<', '{', '…'])
                    && candidate.contains('.')
                    && !root.join(candidate).exists()
                {
                    failures.push(format!("{name}:{}: names missing {candidate}", i + 1));
                }
            }
            if line.contains("shared/spec") || line.contains("spec/infchesspro.md") {
                failures.push(format!(
                    "{name}:{}: sends the reader to a contract outside the repository",
                    i + 1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The commands or instructions of a contract, read from
/// `../shared/spec/<file>` when it is there; else `kept`, the list this
/// test keeps (checked against the contract whenever it is present).
fn contract_words(file: &str, kept: &[&str], parse: fn(&str) -> Vec<String>) -> Vec<String> {
    let path = support::root().join("../shared/spec").join(file);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let parsed = parse(&text);
            let set: BTreeSet<&str> = parsed.iter().map(String::as_str).collect();
            for word in kept {
                assert!(
                    set.contains(word),
                    "{file}: the test's list has {word}, the contract has not (parsed: {parsed:?})"
                );
            }
            parsed
        }
        Err(_) => {
            eprintln!(
                "note: {} is missing: checking the list kept in tests/it/docs.rs",
                path.display()
            );
            kept.iter().map(|w| w.to_string()).collect()
        }
    }
}

/// The code spans of a reference, each also split into its words.
fn code_words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        for (j, span) in line.split('`').enumerate() {
            if j % 2 == 1 {
                out.insert(span.trim().to_string());
                for word in span.split([' ', ',', '/']) {
                    out.insert(word.trim().to_string());
                }
            }
        }
    }
    for block in blocks(text) {
        for line in block.body {
            // A grammar's quoted tokens: `"r!("`, `"`"`.
            for quoted in line.split('"').skip(1).step_by(2) {
                out.insert(quoted.to_string());
            }
            for word in line.split_whitespace() {
                out.insert(word.to_string());
                // A grammar's quoted token: `"r!("`.
                out.insert(word.trim_matches('"').to_string());
                for part in word.split(',') {
                    out.insert(part.to_string());
                }
            }
        }
    }
    out
}

fn assert_covered(reference: &str, words: &[String]) {
    let text = std::fs::read_to_string(support::root().join(reference)).unwrap();
    let found = code_words(&text);
    let missing: Vec<&String> = words.iter().filter(|w| !found.contains(*w)).collect();
    assert!(
        missing.is_empty(),
        "{reference} shows none of these in code: {missing:?}"
    );
}

/// InfChessPro §4: each command's form, from its heading
/// (`### §4.1 Place — \`name=Lr,c\``).
fn icp_commands(spec: &str) -> Vec<String> {
    spec.lines()
        .filter(|l| l.starts_with("### §4."))
        .filter_map(|l| l.split('`').nth(1).map(str::to_string))
        .collect()
}

/// Finvara: the notation's atoms and operators (§2.1's grammar, every
/// quoted token) and the words of the two kinds of move line (§5.1, §5.3).
fn finvara_items(spec: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut grammar = false;
    for l in spec.lines() {
        let t = l.trim();
        if t.starts_with("set ") && t.contains(":=") {
            grammar = true;
        }
        if grammar {
            let t = t.replace("'\"'", " ");
            for quoted in t.split('"').skip(1).step_by(2) {
                out.push(quoted.to_string());
            }
            if t.starts_with("ranks") {
                grammar = false;
            }
        }
        if l.starts_with("### §5.1") || l.starts_with("### §5.3") {
            for span in l.split('`').skip(1).step_by(2) {
                for word in span.split_whitespace() {
                    if !word.starts_with('<') {
                        out.push(word.to_string());
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

const ICP_COMMANDS: &[&str] = &[
    "name=Lr,c",
    "r1,c1,r2,c2",
    "name,r,c",
    "name;dr,dc",
    "^",
    "\"text",
    "%name",
];

const FINVARA_ITEMS: &[&str] = &[
    "(", ",", "|", ")", "{", "}", "[", "]", "*", "`", "c(", "m(", "r(", "r!(", "p", "->[", "x",
    "->", "=", "checks", "turn",
];

/// CHEG §5.1's instructions (the table's first column) and §4's
/// conditions, with ENTRY and END (§1).
fn cheg_words(spec: &str) -> Vec<String> {
    let mut out = vec!["ENTRY".to_string(), "END".to_string()];
    let mut section = "";
    for l in spec.lines() {
        if l.starts_with("### §5.1") {
            section = "instructions";
        } else if l.starts_with("| condition") {
            section = "conditions";
        } else if l.starts_with('#') || l.is_empty() {
            if section == "conditions" && l.is_empty() {
                section = "";
            }
            if l.starts_with("### §5.2") {
                section = "";
            }
            continue;
        }
        if !l.starts_with("| `") || section.is_empty() {
            continue;
        }
        let cell = l.split('|').nth(1).unwrap_or_default();
        for span in cell.split('`').skip(1).step_by(2) {
            for word in span.split([' ', '/']) {
                let word = word.trim();
                let is_name = !word.is_empty()
                    && word.chars().all(|c| {
                        c.is_ascii_uppercase() || "<=>#".contains(c) || c.is_ascii_digit()
                    })
                    && word
                        .chars()
                        .any(|c| c.is_ascii_uppercase() || "<=>".contains(c));
                if is_name {
                    out.push(word.to_string());
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

const CHEG_WORDS: &[&str] = &[
    "ABS", "ADD", "AND", "APPEND", "BREAK", "CARD", "COND", "CONDF", "CONDT", "CONDV", "DIF",
    "DIFFER", "DIV", "DONE", "END", "ENTRY", "EXCH", "EXCHEL", "EXCHWE", "FILE", "GETEL", "INSERT",
    "INSQ", "INTERS", "JUMP#<", "JUMP#=", "JUMP#>", "JUMP<", "JUMP=", "JUMP>", "LEAVE", "MAP",
    "MAX", "MEMBER", "MEMNUM", "MIN", "MOD", "MUL", "MVDIST", "NOR", "OPP", "OR", "ORDER", "PAIR",
    "PCOLOR", "PIECE", "PLAN", "PLAY", "PLAYB", "RANK", "RETBET", "RETURN", "SCOLOR", "SELECC",
    "SELECT", "SET", "SETEL", "SETMOV", "SETSQ", "SETV", "SIDE", "SQ>RNK", "SQUARE", "SUB", "TRY",
    "UNION", "UNPLAN", "UNSERT", "VALON", "VALRET", "VALRUT", "DEFD", "=0", "<0", ">0", "ODD", "T",
    "EMPTY", "FAR", "RF", "NF", "NNF", "WSQ", "KING", "QUEEN", "ROOK", "BISH", "NIGHT", "PAWN",
    "WPC", "PASSD", "PDP", "CAPT", "CHECK", "SAFE", "RWK=",
];

#[test]
fn each_reference_covers_every_command_of_its_contract() {
    let icp = contract_words("infchesspro.md", ICP_COMMANDS, icp_commands);
    assert!(icp.len() >= 7, "{icp:?}");
    assert_covered("docs/infchesspro.md", &icp);
    let fin = contract_words("finvara.md", FINVARA_ITEMS, finvara_items);
    assert_covered("docs/finvara.md", &fin);
    let cheg = contract_words("cheg.md", CHEG_WORDS, cheg_words);
    assert!(cheg.len() >= 90, "{cheg:?}");
    assert_covered("docs/cheg.md", &cheg);
}

#[test]
fn the_matcher_and_the_block_reader_work() {
    let want: Vec<String> = ["a", "...", "z"].iter().map(|s| s.to_string()).collect();
    assert!(matches(&want, &["a", "b", "c", "z"]));
    assert!(matches(&want, &["a", "z"]));
    assert!(!matches(&want, &["a", "b"]));
    let page = "x\n```console\n$ echo a \\\n  b\na b\n$ false\n[exit 1]\n```\n";
    let blocks = blocks(page);
    assert_eq!(blocks.len(), 1);
    let steps = steps(&blocks[0]);
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].command, "echo a b");
    assert_eq!(steps[0].want, vec!["a b".to_string()]);
    assert_eq!((steps[1].status, steps[1].line), (1, 6));
}

/// The README's install lines work as written on a fresh home: they make
/// the folders they write into, the manual lands in `~/.cargo/share/man`,
/// beside the `~/.cargo/bin` that `cargo install` puts `icp2c` in (where
/// `man` finds it with no `MANPATH`: man-db searches `X/share/man` for each
/// `X/bin` of the `PATH`), and it documents the CHEG engine's options.
#[test]
fn the_readme_install_lines_work_on_a_fresh_home() {
    let text = std::fs::read_to_string(support::root().join("README.md")).unwrap();
    let install = text
        .split("## Install")
        .nth(1)
        .expect("README has an Install section");
    let block = blocks(install)
        .into_iter()
        .find(|b| b.info.first().is_some_and(|k| k == "console"))
        .expect("an install block");
    let home = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_icp2c")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for step in steps(&block) {
        let Some(command) = as_run(&step.command) else {
            continue;
        };
        let out = Command::new("bash")
            .arg("-c")
            .arg(&command)
            .current_dir(home.path())
            .env("HOME", home.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "$ {command}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 2, "only {ran} install lines ran");
    let completion = home
        .path()
        .join(".local/share/bash-completion/completions/icp2c");
    assert!(
        install.contains("`icp2c` in `~/.cargo/bin`"),
        "the README says where `cargo install` puts icp2c"
    );
    let manual = home.path().join(".cargo/share/man/man1/icp2c.1");
    assert!(std::fs::metadata(&completion).is_ok_and(|m| m.len() > 1000));
    let page = std::fs::read_to_string(&manual)
        .unwrap_or_else(|e| panic!("the README installs no manual at {}: {e}", manual.display()));
    let fen_lines = page.lines().filter(|l| l.contains("fen")).count();
    assert!(
        fen_lines >= 2,
        "the manual names the CHEG options: {fen_lines} lines"
    );
    for option in [
        "\\-\\-fen",
        "\\-\\-depth",
        "\\-\\-perft",
        "\\-\\-no\\-endgame",
    ] {
        assert!(page.contains(option), "the manual lacks {option}");
    }
}

/// The README's console commands, in the order a reader meets them.
fn readme_steps() -> Vec<Step> {
    let text = std::fs::read_to_string(support::root().join("README.md")).unwrap();
    blocks(&text)
        .iter()
        .filter(|b| {
            b.info.first().is_some_and(|k| k == "console") && !b.info.iter().any(|w| w == "norun")
        })
        .flat_map(steps)
        .collect()
}

/// Whether `command` calls `icp2c` by name (not `cargo run -- …`, not a
/// path such as `examples/icp2c`).
fn calls_icp2c(command: &str) -> bool {
    command
        .split(|c: char| c.is_whitespace() || "&|;()".contains(c))
        .any(|word| word == "icp2c")
}

/// On a fresh machine `icp2c` is a command only once `cargo install` has
/// put it on the `PATH`: until then the README says `cargo run --release
/// --`.
#[test]
fn the_readme_calls_icp2c_only_after_installing_it() {
    let steps = readme_steps();
    let install = steps
        .iter()
        .position(|s| s.command.trim().starts_with("cargo install --path ."))
        .expect("the README installs icp2c");
    for step in &steps[..install] {
        assert!(
            !calls_icp2c(&step.command),
            "README.md:{}: `{}` calls icp2c before `cargo install` (line {}) puts it on the PATH",
            step.line,
            step.command,
            steps[install].line
        );
    }
    assert!(
        steps[install..].iter().any(|s| calls_icp2c(&s.command)),
        "the README shows icp2c at work after installing it"
    );
    assert!(calls_icp2c("mkdir -p x && icp2c man > y"));
    assert!(!calls_icp2c("cargo run --release -- examples/beer.icp"));
}

/// Whether `line` is one of cargo's own status lines (`   Compiling …`,
/// `    Finished …`, `     Running …`): cargo writes them on standard
/// error, right-aligned, and the README shows only what the commands
/// print.
fn is_cargo_status(line: &str) -> bool {
    const VERBS: &[&str] = &[
        "Adding",
        "Blocking",
        "Building",
        "Checking",
        "Compiling",
        "Downloaded",
        "Downloading",
        "Finished",
        "Fresh",
        "Installed",
        "Installing",
        "Locking",
        "Replaced",
        "Replacing",
        "Running",
        "Updating",
    ];
    line.starts_with(' ')
        && line
            .split_whitespace()
            .next()
            .is_some_and(|verb| VERBS.contains(&verb))
}

/// The README's commands taken in order, top to bottom, as a newcomer
/// types them into a fresh machine: `cargo run --release`, `cargo install
/// --path .` and the `icp2c` they install run for real, each printing what
/// the README shows (cargo's own status lines aside); then `man icp2c`
/// finds the installed page. Only `cargo test` and `bash .ci/run` (which
/// run these tests) are left out.
///
/// The machine is fresh where it matters: `HOME` is an empty folder, and
/// no `icp2c` is on the `PATH` until the README installs one (a `PATH`
/// folder holding another is replaced by a copy without it), so a command
/// that calls `icp2c` too early fails. The checkout is a folder of links
/// to the repository's files, so that the files the commands write
/// (`beer.c`, `krk`, …) stay in the test's folder. What a fresh machine
/// would download or build is reused: `CARGO_HOME` and `RUSTUP_HOME` stay
/// the real ones (the toolchain and the crates already fetched; cargo runs
/// offline), and `CARGO_TARGET_DIR` is the project's target folder, so
/// `cargo run --release` and `cargo install` find icp2c built (cargo
/// builds it here only if it is stale). With `CARGO_HOME` real, `cargo
/// install` would put icp2c in the real `~/.cargo/bin`, changing the
/// machine the test runs on; `CARGO_INSTALL_ROOT` (cargo's own setting for
/// where `cargo install` writes) sends it to the fresh home's
/// `~/.cargo/bin` instead, where a fresh machine's cargo puts it, and the
/// README's command stays what a user types.
#[test]
#[ignore = "slow (5 s; minutes when the release build is stale): runs the README's commands, cargo install included; .ci/run runs it"]
fn the_readme_runs_in_order_on_a_fresh_machine() {
    let root = support::root();
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let checkout = dir.path().join("checkout");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&checkout).unwrap();
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let name = entry.file_name();
        if name != "target" && name != ".git" {
            std::os::unix::fs::symlink(entry.path(), checkout.join(&name)).unwrap();
        }
    }
    let target = Path::new(env!("CARGO_BIN_EXE_icp2c"))
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .to_path_buf();
    let real_home = PathBuf::from(std::env::var_os("HOME").expect("HOME is set"));
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| real_home.join(".cargo"));
    let rustup_home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| real_home.join(".rustup"));
    let installed = home.join(".cargo/bin");
    // The PATH: the fresh home's ~/.cargo/bin (rustup's installer puts it
    // there), then the inherited PATH, each folder that holds an icp2c
    // replaced by links to everything else in it.
    let mut path = vec![installed.clone()];
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    for (i, folder) in std::env::split_paths(&inherited).enumerate() {
        if !folder.join("icp2c").exists() {
            path.push(folder);
            continue;
        }
        let copy = dir.path().join(format!("path-{i}"));
        std::fs::create_dir_all(&copy).unwrap();
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            if entry.file_name() != "icp2c" {
                std::os::unix::fs::symlink(entry.path(), copy.join(entry.file_name())).unwrap();
            }
        }
        path.push(copy);
    }
    let path = std::env::join_paths(&path).unwrap();
    let shell = |command: &str| {
        Command::new("timeout")
            .arg("1200")
            .arg("bash")
            .arg("-c")
            .arg(format!("{{ {command}\n}} 2>&1"))
            .current_dir(&checkout)
            .env("HOME", &home)
            .env("PATH", &path)
            .env("CARGO_HOME", &cargo_home)
            .env("RUSTUP_HOME", &rustup_home)
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_INSTALL_ROOT", home.join(".cargo"))
            .env("CARGO_NET_OFFLINE", "true")
            .env("CARGO_TERM_COLOR", "never")
            .env("LANG", "C.UTF-8")
            .env_remove("LC_ALL")
            .env_remove("LC_CTYPE")
            .env("NO_COLOR", "1")
            .env_remove("MANPATH")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let before = shell("command -v icp2c || echo none");
    assert_eq!(
        String::from_utf8_lossy(&before.stdout).trim(),
        "none",
        "no icp2c on the PATH before the README installs it"
    );
    let mut failures = Vec::new();
    let mut ran = Vec::new();
    for step in readme_steps() {
        let command = step.command.trim();
        if command.starts_with("cargo test") || command.starts_with("bash .ci/run") {
            continue;
        }
        let out = shell(command);
        let printed = String::from_utf8_lossy(&out.stdout);
        let mut got: Vec<&str> = printed
            .lines()
            .filter(|l| !(command.starts_with("cargo ") && is_cargo_status(l)))
            .map(str::trim_end)
            .collect();
        while got.last().is_some_and(|l| l.is_empty()) {
            got.pop();
        }
        let status = out.status.code().unwrap_or(-1);
        if status != step.status || !matches(&step.want, &got) {
            failures.push(format!(
                "README.md:{}: $ {}\n--- exit {status} (want {}), printed\n{}\n--- the README shows\n{}",
                step.line,
                step.command,
                step.status,
                got.join("\n"),
                step.want.join("\n")
            ));
        }
        ran.push(command.to_string());
    }
    assert!(
        failures.is_empty(),
        "{} of the README's commands fail on a fresh machine:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        ran.iter().any(|c| c.starts_with("cargo install --path .")),
        "the README's install ran: {ran:?}"
    );
    assert!(ran.len() >= 8, "only {} commands ran: {ran:?}", ran.len());
    assert!(
        installed.join("icp2c").is_file(),
        "cargo install put icp2c in ~/.cargo/bin"
    );

    // `man icp2c`: man-db looks for pages in X/share/man for each folder
    // X/bin of the PATH, so the page belongs beside the installed binary's
    // folder, whatever man is on this machine.
    let page = home.join(".cargo/share/man/man1/icp2c.1");
    assert!(
        std::fs::read_to_string(&page).is_ok_and(|p| p.contains("\\-\\-fen")),
        "the README installs the manual page at {}, beside {}",
        page.display(),
        installed.display()
    );
    let has = |tool: &str| shell(&format!("command -v {tool}")).status.success();
    if !has("man") {
        eprintln!(
            "note: `man` is not installed here, so `man icp2c` was not run; the page is at {}, \
             where man-db's rule (X/share/man for each X/bin of the PATH) finds it beside {}",
            page.display(),
            installed.display()
        );
        return;
    }
    if has("manpath") {
        let manpath = shell("manpath");
        let manpath = String::from_utf8_lossy(&manpath.stdout);
        let folder = home.join(".cargo/share/man");
        assert!(
            std::env::split_paths(manpath.trim()).any(|p| p == folder),
            "manpath has {}: {manpath}",
            folder.display()
        );
    }
    let man = shell("man icp2c");
    let text = String::from_utf8_lossy(&man.stdout).replace(['\u{2010}', '\u{2212}'], "-");
    assert!(
        man.status.success() && text.contains("icp2c") && text.contains("--fen"),
        "man icp2c (exit {:?}):\n{text}",
        man.status.code()
    );
}
