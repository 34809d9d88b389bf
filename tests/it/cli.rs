//! The `icp2c` command as users meet it: options, exit statuses, files
//! written or not written, standard input.

use crate::support;

use std::path::Path;
use std::process::Command;
use support::{Ran, run_exe};

fn icp2c(args: &[&str], input: &[u8]) -> Ran {
    run_exe(Path::new(env!("CARGO_BIN_EXE_icp2c")), args, input)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn help_explains_every_option_with_examples() {
    let r = icp2c(&["--help"], b"");
    assert_eq!(r.status, 0);
    let help = text(&r.stdout);
    for needle in [
        "--output",
        "--target",
        "--crate",
        "--check",
        "--lang",
        "run",
        "Examples:",
        "Exit status",
        ".icp",
        ".fin",
    ] {
        assert!(help.contains(needle), "--help lacks {needle}:\n{help}");
    }
    let run_help = text(&icp2c(&["run", "--help"], b"").stdout);
    assert!(run_help.contains("--max-steps"), "{run_help}");
}

#[test]
fn compiles_to_stdout_and_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("beer.c");
    let to_stdout = icp2c(&["examples/beer.icp"], b"");
    assert_eq!(to_stdout.status, 0, "{}", text(&to_stdout.stderr));
    assert!(text(&to_stdout.stdout).contains("int main(void)"));
    let to_file = icp2c(&["examples/beer.icp", "-o", out.to_str().unwrap()], b"");
    assert_eq!(to_file.status, 0);
    assert!(to_file.stdout.is_empty());
    assert_eq!(
        std::fs::read(&out).unwrap(),
        to_stdout.stdout,
        "deterministic output"
    );
}

#[test]
fn reads_the_program_from_stdin_with_dash() {
    let r = icp2c(&["run", "-"], b"1. \"hello\n");
    assert_eq!((r.status, text(&r.stdout)), (0, "hello\n".to_string()));
    let r = icp2c(&["-"], b"1. \"hello\n");
    assert_eq!(r.status, 0);
    assert!(text(&r.stdout).contains("hello"));
}

#[test]
fn rejected_programs_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.icp");
    std::fs::write(&src, "1. x=X0,0\n2. ^?9\n").unwrap();
    let out = dir.path().join("bad.c");
    let r = icp2c(&[src.to_str().unwrap(), "-o", out.to_str().unwrap()], b"");
    assert_eq!(r.status, 2);
    assert!(r.stdout.is_empty());
    assert!(!out.exists(), "no output file on a compile error");
    let err = text(&r.stderr);
    assert!(err.contains("bad.icp:1:6"), "{err}");
    assert!(err.contains("bad.icp:2:6"), "all errors at once: {err}");
    // An existing output file is left untouched.
    std::fs::write(&out, "keep me").unwrap();
    assert_eq!(
        icp2c(&[src.to_str().unwrap(), "-o", out.to_str().unwrap()], b"").status,
        2
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
}

#[test]
fn check_only_validates() {
    let r = icp2c(&["--check", "examples/beer.icp"], b"");
    assert_eq!((r.status, r.stdout.len()), (0, 0));
    let r = icp2c(&["--check", "-"], b"1. ^?2\n");
    assert_eq!(r.status, 2);
    assert!(
        text(&r.stderr).contains("<stdin>:1:"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn warnings_do_not_stop_compilation() {
    let r = icp2c(&["--check", "-"], b"1. %ghost\n");
    assert_eq!(r.status, 0);
    assert!(text(&r.stderr).contains("warning"), "{}", text(&r.stderr));
}

#[test]
fn missing_files_and_bad_bytes_are_clear_errors() {
    let r = icp2c(&["no/such/file.icp"], b"");
    assert_eq!(r.status, 2);
    assert!(text(&r.stderr).contains("cannot read no/such/file.icp"));
    let r = icp2c(&["-"], b"1. \"a\xff\n\x00\x01\x02");
    assert_eq!(r.status, 2);
    assert!(
        text(&r.stderr).contains("not UTF-8 text"),
        "{}",
        text(&r.stderr)
    );
    let r = icp2c(&[], b"");
    assert_eq!(r.status, 2);
}

/// A binary file gets one diagnostic, at its first bad byte, not one per
/// line of mojibake (issue 14).
#[test]
fn a_binary_file_is_one_diagnostic() {
    let mut binary: Vec<u8> = Vec::new();
    for i in 0..4000u32 {
        binary.push((i.wrapping_mul(2654435761) >> 24) as u8);
        if i % 37 == 0 {
            binary.push(b'\n');
        }
    }
    let r = icp2c(&["--check", "-"], &binary);
    assert_eq!(r.status, 2);
    let err = text(&r.stderr);
    assert_eq!(err.matches("not UTF-8 text").count(), 1, "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error")).count(),
        1,
        "{err}"
    );
    assert!(err.contains("is this a binary file?"), "{err}");
}

/// A `\r` inside a line is shown as `␍` in the snippet, not as U+FFFD, and
/// the caret stays under the right column (issue 14).
#[test]
fn control_characters_are_shown_visibly() {
    let r = icp2c(&["--check", "-"], b"1. x\r;0,1?zz\n");
    assert_eq!(r.status, 2);
    let err = text(&r.stderr);
    assert!(err.contains('\u{240d}'), "{err}");
    assert!(!err.contains('\u{fffd}') && !err.contains('\r'), "{err}");
}

/// `icp2c prog.icp | head`: a closed standard output ends icp2c quietly,
/// as it ends `cat` (issue 14); the generated programs and `run` keep
/// their own documented behaviour.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_icp2c"))
        .arg("examples/beer.icp")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away at once
    let out = support::wait_limited(child, support::time_limit(), concat!(file!(), ":", line!()));
    assert_eq!(text(&out.stderr), "", "no message");
    assert_eq!(out.status.code(), Some(0));
}

/// An unknown extension compiles as InfChessPro and says how to choose
/// another language; `run --input FILE` gives a program read from
/// standard input its own input (issue 14).
#[test]
fn lang_hint_and_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("prog.txt");
    std::fs::write(&prog, "1. \"hi\"\n").unwrap();
    let r = icp2c(&["--check", prog.to_str().unwrap()], b"");
    assert_eq!(r.status, 0);
    assert!(text(&r.stderr).contains("--lang"), "{}", text(&r.stderr));
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "7 9\n").unwrap();
    let source = std::fs::read(support::root().join("examples/multiply.icp")).unwrap();
    let r = icp2c(&["run", "-", "--input", input.to_str().unwrap()], &source);
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "63\n");
    let r = icp2c(&["run", "-", "--input", "no/such/input"], &source);
    assert_eq!(r.status, 2);
    assert!(
        text(&r.stderr).contains("cannot read no/such/input"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn run_exit_statuses() {
    let r = icp2c(&["run", "-"], b"1. \"a\n2. x=R*,0\n");
    assert_eq!(r.status, 0, "end of input is not an error");
    let r = icp2c(&["run", "-", "--max-steps", "1000"], b"1. ^?1\n");
    assert_eq!(r.status, 3);
    assert!(text(&r.stderr).contains("1000"));
}

#[test]
fn runtime_errors_exit_1_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("p.icp");
    std::fs::write(&prog, "1. \"before\n7. x=R*,0\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_icp2c"))
        .args(["run", prog.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"abc").unwrap();
    let out = support::wait_limited(child, support::time_limit(), concat!(file!(), ":", line!()));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "before\n");
    assert_eq!(
        text(&out.stderr),
        "error: statement 7: input is not a number (§6)\n"
    );
}

#[test]
fn crate_output_refuses_foreign_folders() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("c");
    let args = [
        "--target",
        "rust",
        "--crate",
        "-o",
        target.to_str().unwrap(),
        "examples/beer.icp",
    ];
    assert_eq!(icp2c(&args, b"").status, 0);
    assert!(target.join("Cargo.toml").exists() && target.join("src/main.rs").exists());
    assert_eq!(
        icp2c(&args, b"").status,
        0,
        "an earlier icp2c crate may be overwritten"
    );
    let foreign = dir.path().join("mine");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "precious").unwrap();
    let r = icp2c(
        &[
            "--target",
            "rust",
            "--crate",
            "-o",
            foreign.to_str().unwrap(),
            "examples/beer.icp",
        ],
        b"",
    );
    assert_eq!(r.status, 2);
    assert!(
        text(&r.stderr).contains("refusing to overwrite"),
        "{}",
        text(&r.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(foreign.join("notes.txt")).unwrap(),
        "precious"
    );
    // A crate is Rust: --crate alone writes one, --target c contradicts it.
    let alone = dir.path().join("x");
    let r = icp2c(
        &[
            "--crate",
            "-o",
            alone.to_str().unwrap(),
            "examples/beer.icp",
        ],
        b"",
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert!(alone.join("src/main.rs").exists());
    let r = icp2c(
        &[
            "--crate",
            "--target",
            "c",
            "-o",
            dir.path().join("y").to_str().unwrap(),
            "examples/beer.icp",
        ],
        b"",
    );
    assert_eq!(r.status, 2);
    assert!(
        text(&r.stderr).contains("--crate writes a Rust crate"),
        "{}",
        text(&r.stderr)
    );
    assert!(!dir.path().join("y").exists());
}

/// A Finvara program that prints its input (Finvara §4: a value-3 piece
/// reads, a value-4 piece prints, each by falling into a hole).
/// Black's pieces stand where no white piece attacks them (§5.4).
const ECHO_FIN: &str = "(k):\n(i 3): (1,0)\n(p 4): (1,0)\n(n 0): (0,0)\n\
+--+--+--+--+\n|  |  |nB|kB|\n+--+--+--+--+\n|iW|pW|  |kW|\n+--+--+--+--+\n|##|##|  |  |\n+--+--+--+--+\n\
Turn 1 W: i b1 -> a1\nTurn 1 B: n c3 -> c3\nTurn 2 W: p b2 -> a2\n";

#[test]
fn finvara_is_chosen_by_extension_or_by_lang() {
    let dir = tempfile::tempdir().unwrap();
    let fin = dir.path().join("echo.fin");
    std::fs::write(&fin, ECHO_FIN).unwrap();
    let fin = fin.to_str().unwrap();
    let r = icp2c(&["run", fin], b"42\n");
    assert_eq!(
        (r.status, text(&r.stdout)),
        (0, "42\n".to_string()),
        "{}",
        text(&r.stderr)
    );
    // From standard input the extension says nothing: --lang does.
    let r = icp2c(&["run", "--lang", "fin", "-"], ECHO_FIN.as_bytes());
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    let r = icp2c(&["--lang", "fin", "--check", "-"], ECHO_FIN.as_bytes());
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    // Without it, `-` is InfChessPro, which rejects this text.
    let r = icp2c(&["--check", "-"], ECHO_FIN.as_bytes());
    assert_eq!(r.status, 2);
    assert!(
        text(&r.stderr).contains("InfChessPro"),
        "{}",
        text(&r.stderr)
    );
    // C, Rust and a crate, like InfChessPro.
    let c = icp2c(&[fin], b"");
    assert_eq!(c.status, 0);
    assert!(text(&c.stdout).contains("int main(void)"));
    let rust = icp2c(&["--target", "rust", fin], b"");
    assert_eq!(rust.status, 0);
    assert!(text(&rust.stdout).contains("fn main()"));
    let out = dir.path().join("echo-crate");
    let r = icp2c(
        &[
            "--target",
            "rust",
            "--crate",
            "-o",
            out.to_str().unwrap(),
            fin,
        ],
        b"",
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    // The files --crate writes, and --help names every one of them.
    let mut written = Vec::new();
    let mut folders = vec![out.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let relative = path.strip_prefix(&out).unwrap();
                written.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    written.sort();
    assert_eq!(
        written,
        [
            ".gitignore",
            "Cargo.toml",
            "src/icp_rt.rs",
            "src/lib.rs",
            "src/main.rs"
        ]
    );
    let help = text(&icp2c(&["--help"], b"").stdout);
    let crate_help = help
        .split_once("\n      --crate\n")
        .and_then(|(_, after)| after.split("\n\n").next())
        .unwrap_or_default();
    for file in &written {
        assert!(
            crate_help.contains(file.as_str()),
            "--crate's help does not name {file}:\n{crate_help}"
        );
    }
}

#[test]
fn finvara_errors_exit_2_with_every_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.fin");
    // Line 2: an unclosed leap; line 6: a square off the board (§6).
    std::fs::write(
        &src,
        "(k):\n(n 0): (0,0\n+--+\n|kW|\n+--+\nTurn 1 W: k z9 -> a1\n",
    )
    .unwrap();
    let out = dir.path().join("bad.c");
    let r = icp2c(&[src.to_str().unwrap(), "-o", out.to_str().unwrap()], b"");
    assert_eq!(r.status, 2);
    assert!(r.stdout.is_empty() && !out.exists());
    let err = text(&r.stderr);
    assert!(err.contains("bad.fin:2:"), "{err}");
    assert!(err.contains("bad.fin:6:"), "all errors at once: {err}");
    assert!(err.contains("Finvara"), "{err}");
}

#[test]
fn finvara_runtime_errors_exit_1_naming_turn_and_colour() {
    let dir = tempfile::tempdir().unwrap();
    let fin = dir.path().join("echo.fin");
    std::fs::write(&fin, ECHO_FIN).unwrap();
    let r = icp2c(&["run", fin.to_str().unwrap()], b"forty-two\n");
    assert_eq!(r.status, 1);
    let err = text(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("turn 1 W"), "{err}");
}

#[test]
fn dash_output_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let beer = support::root().join("examples/beer.icp");
    let r = run_exe(
        Path::new(env!("CARGO_BIN_EXE_icp2c")),
        &[beer.to_str().unwrap(), "-o", "-"],
        b"",
    );
    assert_eq!(r.status, 0);
    assert_eq!(r.stdout, icp2c(&[beer.to_str().unwrap()], b"").stdout);
    // A crate is a folder: `-` is refused, and no folder `-` appears.
    let r = Command::new(env!("CARGO_BIN_EXE_icp2c"))
        .args(["--target", "rust", "--crate", "-o", "-"])
        .arg(&beer)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r.stderr).contains("--crate writes a folder"));
    assert!(!dir.path().join("-").exists());
}

#[test]
fn never_overwrites_the_program_itself() {
    // Issue 14: `-o` onto the input (by name or through a link) is refused,
    // exit 2, and the program is left as it was.
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("self.icp");
    std::fs::write(&prog, "1. \"hi\"\n").unwrap();
    let link = dir.path().join("link.icp");
    std::os::unix::fs::symlink(&prog, &link).unwrap();
    for (input, output) in [(&prog, &prog), (&link, &prog), (&prog, &link)] {
        let r = icp2c(
            &[input.to_str().unwrap(), "-o", output.to_str().unwrap()],
            b"",
        );
        assert_eq!(r.status, 2, "{}", text(&r.stderr));
        assert!(text(&r.stderr).contains("is the program itself"));
        assert_eq!(std::fs::read_to_string(&prog).unwrap(), "1. \"hi\"\n");
    }
}

#[test]
fn the_target_follows_the_output_extension() {
    let dir = tempfile::tempdir().unwrap();
    let rs = dir.path().join("beer.rs");
    let c = dir.path().join("beer.c");
    let r = icp2c(&["examples/beer.icp", "-o", rs.to_str().unwrap()], b"");
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert!(std::fs::read_to_string(&rs).unwrap().contains("fn main()"));
    let r = icp2c(&["examples/beer.icp", "-o", c.to_str().unwrap()], b"");
    assert_eq!(r.status, 0);
    assert!(
        std::fs::read_to_string(&c)
            .unwrap()
            .contains("int main(void)")
    );
    // A --target that contradicts the extension is an error; nothing is written.
    let clash = dir.path().join("clash.rs");
    let r = icp2c(
        &[
            "examples/beer.icp",
            "--target",
            "c",
            "-o",
            clash.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.status, 2);
    assert!(text(&r.stderr).contains("contradicts"));
    assert!(!clash.exists());
}

#[test]
fn two_programs_get_a_clear_message() {
    let r = icp2c(&["examples/beer.icp", "examples/sum.icp"], b"");
    assert_eq!(r.status, 2);
    let err = text(&r.stderr);
    assert!(err.contains("one program at a time"), "{err}");
    assert!(!err.contains("subcommand"), "{err}");
    assert!(r.stdout.is_empty());
}

/// Diagnostics are coloured on a terminal and with `--color always`, plain
/// into a pipe, with `--color never` and under `NO_COLOR` (issue 14).
#[test]
fn colour_follows_the_terminal_and_no_color() {
    let bad = b"1. x;0,1?zz\n";
    let coloured = |r: &Ran| r.stderr.windows(2).any(|w| w == b"\x1b[");
    let r = icp2c(&["--check", "-", "--color", "always"], bad);
    assert_eq!(r.status, 2);
    assert!(coloured(&r), "{}", text(&r.stderr));
    assert!(!coloured(&icp2c(&["--check", "-"], bad)), "a pipe is plain");
    assert!(!coloured(&icp2c(
        &["--check", "-", "--color", "never"],
        bad
    )));
    // A real terminal, through util-linux `script` (a pseudo-terminal).
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("bad.icp");
    std::fs::write(&prog, bad).unwrap();
    let command = format!("{} --check {}", env!("CARGO_BIN_EXE_icp2c"), prog.display());
    let on_tty = |no_color: bool| {
        let mut cmd = std::process::Command::new("script");
        cmd.args(["-qc", &command, "/dev/null"])
            .env_remove("NO_COLOR");
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        cmd.output()
    };
    match on_tty(false) {
        Ok(out) => {
            assert!(
                out.stdout.windows(2).any(|w| w == b"\x1b["),
                "a terminal is coloured"
            );
            let out = on_tty(true).unwrap();
            assert!(
                !out.stdout.windows(2).any(|w| w == b"\x1b["),
                "NO_COLOR is plain"
            );
        }
        // Without `script` there is no terminal to test on; the pipe and
        // the flags above are still checked.
        Err(e) => eprintln!("colour on a terminal not checked: cannot run script: {e}"),
    }
}

/// `icp2c completions SHELL` and `icp2c man` come from the clap definition
/// (clap_complete, clap_mangen): they name every option, and the bash
/// script is valid bash (issue 14).
#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let r = icp2c(&["completions", shell], b"");
        assert_eq!(r.status, 0, "{}", text(&r.stderr));
        let script = text(&r.stdout);
        for option in ["--target", "--crate", "--check", "--lang", "--color"] {
            assert!(
                script.contains(option.trim_start_matches('-')),
                "{shell}: {option}"
            );
        }
        if shell == "bash" {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("icp2c.bash");
            std::fs::write(&path, &script).unwrap();
            let out = Command::new("bash").arg("-n").arg(&path).output().unwrap();
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
    }
    let r = icp2c(&["completions", "tcsh-9"], b"");
    assert_eq!(r.status, 2);
    let r = icp2c(&["man"], b"");
    assert_eq!(r.status, 0);
    let page = text(&r.stdout);
    assert!(page.contains(".TH icp2c 1"), "{page}");
    for option in ["target", "crate", "check", "lang", "color", "output"] {
        assert!(
            page.contains(&format!("\\-\\-{option}")),
            "man page lacks --{option}"
        );
    }
    assert!(
        page.contains("CHEG"),
        "the man page describes every language"
    );
    // One page documents every subcommand and its options: it names no
    // other page (icp2c-run(1) was never installed).
    assert!(
        !page.contains("icp2c\\-"),
        "refers to another page:\n{page}"
    );
    for heading in [
        "ICP2C RUN",
        "ICP2C COMPLETIONS",
        "ICP2C MAN",
        "EXAMPLES",
        "EXIT STATUS",
    ] {
        assert!(page.contains(heading), "man page lacks {heading}");
    }
    for option in [
        "max\\-steps",
        "input",
        "trace",
        "board",
        "glyphs",
        "fen",
        "depth",
        "perft",
        "no\\-endgame",
    ] {
        assert!(
            page.contains(&format!("\\-\\-{option}")),
            "man page lacks run --{option}"
        );
    }
}

/// `run --trace --board` (issue 14): the trace and the pictures go to
/// standard error, the program's output is untouched, and `--glyphs
/// auto` follows the locale.
#[test]
fn trace_and_board_go_to_standard_error() {
    let prog = "1. k=K0,0\n2. r=R0,1\n3. r;5,0\n4. %r\n";
    let run = |extra: &[&str], locale: &str| {
        let mut args = vec!["run", "-", "--input", "/dev/null"];
        args.extend_from_slice(extra);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_icp2c"));
        cmd.args(&args)
            .env_remove("LC_ALL")
            .env_remove("LC_CTYPE")
            .env("LANG", locale);
        let out = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(prog.as_bytes())?;
                Ok(support::wait_limited(
                    child,
                    support::time_limit(),
                    concat!(file!(), ":", line!()),
                ))
            })
            .unwrap();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let plain = run(&[], "C");
    assert_eq!(plain, (Some(0), "1\n".to_string(), String::new()));
    let (status, stdout, trace) = run(&["--trace", "--board"], "C");
    assert_eq!((status, stdout.as_str()), (Some(0), "1\n"));
    assert!(
        trace.contains("3. r;5,0  r R(0,1)->(5,1) ok -> 4"),
        "{trace}"
    );
    assert!(trace.contains("4. %r  count r = 1 ok -> end"), "{trace}");
    assert!(trace.contains("  5 | . R"), "{trace}");
    let (_, _, unicode) = run(&["--board"], "en_GB.UTF-8");
    assert!(unicode.contains("♖") && unicode.contains("♔"), "{unicode}");
    assert!(
        !unicode.contains("ok ->"),
        "--board alone draws only: {unicode}"
    );
    let (_, _, letters) = run(&["--board", "--glyphs", "letters"], "en_GB.UTF-8");
    assert!(
        letters.contains(" R") && !letters.contains("♖"),
        "{letters}"
    );
    let (_, _, forced) = run(&["--board", "--glyphs", "unicode"], "C");
    assert!(forced.contains("♖"), "{forced}");
}

/// A byte-order mark before the first line is not text, in every language
/// (issue 10: it was stripped by the InfChessPro parser only).
#[test]
fn a_byte_order_mark_is_not_text_in_any_language() {
    let root = support::root();
    for (example, input, args) in [
        ("examples/sum.icp", "3 4\n", vec![]),
        ("examples/add.fin", "40 2\n", vec![]),
        (
            "examples/krk.cheg",
            "",
            vec!["--fen", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"],
        ),
    ] {
        let source = std::fs::read(root.join(example)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let ext = example.rsplit('.').next().unwrap();
        let marked = dir.path().join(format!("marked.{ext}"));
        let mut bytes = b"\xef\xbb\xbf".to_vec();
        bytes.extend_from_slice(&source);
        std::fs::write(&marked, bytes).unwrap();
        let run = |path: &Path| {
            let mut all = vec!["run", path.to_str().unwrap()];
            all.extend(&args);
            icp2c(&all, input.as_bytes())
        };
        let plain = run(&root.join(example));
        let with_mark = run(&marked);
        assert_eq!(plain.status, 0, "{example}");
        assert_eq!(
            (with_mark.status, text(&with_mark.stdout)),
            (0, text(&plain.stdout)),
            "{example}: {}",
            text(&with_mark.stderr)
        );
    }
}

/// `-O0` / `--no-opt` (issue 13): generated code and runs without the
/// optimiser; by default a slide loop is one call of the runtime.
#[test]
fn minus_o0_turns_the_optimiser_off() {
    let prog = b"1. x=R0,0\n2. w=P0,9\n3. x;0,1?3\n4. %x\n";
    let optimised = text(&icp2c(&["-"], prog).stdout);
    assert!(
        optimised.contains("icp_slide(0, 0, 1, UINT64_MAX)"),
        "{optimised}"
    );
    for flag in ["-O0", "--no-opt"] {
        let plain = text(&icp2c(&[flag, "-"], prog).stdout);
        assert!(!plain.contains("icp_slide(0"), "{flag}: {plain}");
        assert!(plain.contains("icp_move_name_by(0, 0, 1)"), "{flag}");
        // The same steps either way: eight moves and the failing ninth.
        let run = icp2c(&["run", flag, "-", "--max-steps", "9"], prog);
        assert_eq!(run.status, 3, "{flag}");
    }
    assert_eq!(icp2c(&["run", "-", "--max-steps", "9"], prog).status, 3);
    assert_eq!(text(&icp2c(&["run", "-"], prog).stdout), "1\n");
    assert_eq!(icp2c(&["-O2", "-"], prog).status, 2, "only 0 and 1");
}

/// A file that cannot be read is reported as diagnostics are: in colour
/// with `--color always`, plain with `--color never` (and into a pipe).
#[test]
fn io_errors_are_coloured_as_diagnostics() {
    let missing = "no/such/prog.icp";
    let always = icp2c(&["--color", "always", missing], b"");
    assert_eq!(always.status, 2);
    let coloured = text(&always.stderr);
    assert!(coloured.contains("\x1b["), "{coloured:?}");
    assert!(
        coloured.contains("cannot read no/such/prog.icp"),
        "{coloured:?}"
    );
    for args in [&["--color", "never", missing][..], &[missing][..]] {
        let plain = icp2c(args, b"");
        assert_eq!(plain.status, 2);
        assert!(
            text(&plain.stderr).starts_with("error: cannot read no/such/prog.icp: "),
            "{}",
            text(&plain.stderr)
        );
        assert!(!plain.stderr.contains(&0x1b));
    }
    let run = icp2c(&["run", "--color", "always", missing], b"");
    assert_eq!(run.status, 2);
    assert!(text(&run.stderr).contains("\x1b["));
}

/// A program on standard input is read as InfChessPro; one in another
/// language gets one line naming the `--lang` to use, not a diagnostic
/// per line.
#[test]
fn stdin_in_another_language_names_its_lang_once() {
    let fin = std::fs::read("examples/add.fin").unwrap();
    let r = icp2c(&["-"], &fin);
    assert_eq!(r.status, 2);
    assert_eq!(
        text(&r.stderr),
        "error: <stdin> is not an InfChessPro program, but it reads as a Finvara program: use --lang fin\n"
    );
    assert!(r.stdout.is_empty());
    let r = icp2c(&["run", "-", "--input", "/dev/null"], &fin);
    assert_eq!(r.status, 2);
    assert_eq!(text(&r.stderr).lines().count(), 1, "{}", text(&r.stderr));
    // A CHEG program with a mistake: its own errors are the useful ones.
    let cheg = std::fs::read_to_string("examples/kqk.cheg")
        .unwrap()
        .replacen("CONDV", "CONDX", 1);
    let r = icp2c(&["-"], cheg.as_bytes());
    assert_eq!(r.status, 2);
    let err = text(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("looks like a CHEG program with 1 error: use --lang cheg"),
        "{err}"
    );
    // With --lang, or in InfChessPro, the diagnostics are shown as ever.
    let r = icp2c(&["--lang", "fin", "-"], &fin);
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    let r = icp2c(&["-"], b"1. x\n");
    assert!(
        text(&r.stderr).contains("<stdin>:1:5"),
        "{}",
        text(&r.stderr)
    );
}

/// Finvara's trace ends with a line saying how the game ended (§5, §5.4):
/// the player who lost, or the moves running out.
#[test]
fn finvara_trace_says_how_the_game_ended() {
    let last_line = |example: &str, input: &[u8]| {
        let r = icp2c(&["run", "--trace", example], input);
        assert_eq!(r.status, 0, "{}", text(&r.stderr));
        text(&r.stderr)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        last_line("examples/add.fin", b"40 2"),
        "end: the moves ran out (§5)"
    );
    // Black's queen attacks White's only royal piece after Black's move.
    assert_eq!(
        last_line("examples/seed_truth_machine.fin", b"1"),
        "end: White has lost: its royal pieces are all attacked (§5.4)"
    );
    // Before the first move: the white rook attacks the black king.
    let r = icp2c(
        &["run", "--trace", "--lang", "fin", "-"],
        b"(k):\n(r 5): (1,0)*\n+--+--+\n|kB|  |\n+--+--+\n|rW|kW|\n+--+--+\nTurn 1 W: r a1 -> a1\n",
    );
    assert_eq!(
        text(&r.stderr),
        "end: Black has lost: its royal pieces are all attacked (§5.4)\n"
    );
    // Both kings attacked at once.
    let r = icp2c(
        &["run", "--trace", "--lang", "fin", "-"],
        b"(k):\n(r 5): (1,0)*\n+--+--+\n|kB|rB|\n+--+--+\n|rW|kW|\n+--+--+\nTurn 1 W: r a1 -> a1\n",
    );
    assert_eq!(
        text(&r.stderr),
        "end: White and Black have lost: their royal pieces are all attacked (§5.4)\n"
    );
    // A colour with no royal piece has lost before the first move.
    let r = icp2c(
        &["run", "--trace", "--lang", "fin", "-"],
        b"(k):\n(n 0): (0,0)\n+--+--+\n|kW|nB|\n+--+--+\nTurn 1 W: k a1 -> a1\n",
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    assert!(
        text(&r.stderr).ends_with("end: Black has lost: it has no royal piece (§5.4)\n"),
        "{}",
        text(&r.stderr)
    );
}

/// Finvara's trace names a promotion, and says a piece fell into a hole
/// only when it did (a promoted piece is not a lost one).
#[test]
fn finvara_trace_shows_promotions() {
    let program = "(k):\n(w 0): (1,0|^)->[q]\n(q 4): (1,0)\n(n 0): (0,0)\n\
+--+--+--+--+\n|  |##|kB|nB|\n+--+--+--+--+\n|wW|  |  |  |\n+--+--+--+--+\n|  |  |  |kW|\n+--+--+--+--+\n\
Turn 1 W: w b1 -> c1 = q\nTurn 1 B: n c4 -> c4\nTurn 2 W: q c1 -> c2\n";
    let r = icp2c(
        &["run", "--trace", "--lang", "fin", "-"],
        program.as_bytes(),
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    let trace = text(&r.stderr);
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(
        lines[0],
        "Turn 1 W: w b1 -> c1 = q  valid; becomes qW; stacks W [] B []"
    );
    assert_eq!(
        lines[2],
        "Turn 2 W: q c1 -> c2  valid; falls into a hole (§4); stacks W [] B []"
    );
}

/// Finvara's trace says whether `checks turn` put a piece down (§5.3): on
/// a square that holds a piece or is a hole it places nothing, and the
/// trace says so instead of naming the piece already there.
#[test]
fn finvara_trace_shows_whether_a_placement_was_made() {
    let program = "(k):\n(n 0): (0,0)\n|kB|nB|##|\n|nW|  |kW|\n\
Turn 1 W: n a1 checks turn 2\nTurn 1 B: n b2 -> b2\nTurn 2 W: n a2 checks turn 3\n\
Turn 2 B: n b2 -> b2\nTurn 3 W: n b3 checks turn 4\nTurn 3 B: n b2 -> b2\nTurn 4 W: n a2 -> a2\n";
    let r = icp2c(
        &["run", "--trace", "--lang", "fin", "-"],
        program.as_bytes(),
    );
    assert_eq!(r.status, 0, "{}", text(&r.stderr));
    let trace = text(&r.stderr);
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "Turn 1 W: n a1 checks turn 2  a1 holds nW: places nothing; stacks W [] B []",
            "Turn 2 W: n a2 checks turn 3  places nW on a2; stacks W [] B []",
            "Turn 3 W: n b3 checks turn 4  b3 is a hole: places nothing; stacks W [] B []",
        ],
        "{trace}"
    );
}

/// `--verify` (for CI): exit 0 when the file named by `-o` is what icp2c
/// generates now, 1 with a unified diff on standard output when it differs
/// or one line on standard error when it is missing, 2 for a rejected
/// program, an unreadable file or no `-o`; it never writes.
#[test]
fn verify_compares_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("beer.c");
    let out_s = out.to_str().unwrap();
    let verify = |args: &[&str]| icp2c(args, b"");
    // Missing: one line saying so (not the whole program as a diff),
    // nothing written.
    let missing = verify(&["examples/beer.icp", "-o", out_s, "--verify"]);
    assert_eq!(
        (missing.status, text(&missing.stdout), text(&missing.stderr)),
        (
            1,
            String::new(),
            format!("error: {out_s} does not exist: run without --verify to write it\n")
        )
    );
    assert!(!out.exists(), "--verify wrote {out_s}");
    // Up to date: exit 0, silent.
    assert_eq!(icp2c(&["examples/beer.icp", "-o", out_s], b"").status, 0);
    let same = verify(&["examples/beer.icp", "-o", out_s, "--verify"]);
    assert_eq!(
        (same.status, same.stdout.len()),
        (0, 0),
        "{}",
        text(&same.stderr)
    );
    // Stale: the diff shows the line as it is and as it would be.
    let written = std::fs::read_to_string(&out).unwrap();
    let stale = written.replace("bottles of beer.", "bottles of wine.");
    std::fs::write(&out, &stale).unwrap();
    let differs = verify(&["examples/beer.icp", "-o", out_s, "--verify"]);
    assert_eq!(differs.status, 1);
    let diff = text(&differs.stdout);
    assert!(diff.contains(&format!("--- {out_s}\n")), "{diff}");
    assert!(
        diff.contains("\n-        case 8: /* 8. \"bottles of wine. */\n"),
        "{diff}"
    );
    assert!(
        diff.contains("\n+        case 8: /* 8. \"bottles of beer. */\n"),
        "{diff}"
    );
    assert!(text(&differs.stderr).contains("differs from what icp2c generates now"));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        stale,
        "--verify wrote"
    );
    // Usage and input errors: 2.
    assert_eq!(verify(&["examples/beer.icp", "--verify"]).status, 2);
    assert_eq!(
        verify(&["examples/beer.icp", "-o", "-", "--verify"]).status,
        2
    );
    assert_eq!(verify(&["no-such.icp", "-o", out_s, "--verify"]).status, 2);
    let bad = dir.path().join("bad.icp");
    std::fs::write(&bad, "1. x=Z0,0\n").unwrap();
    assert_eq!(
        verify(&[bad.to_str().unwrap(), "-o", out_s, "--verify"]).status,
        2
    );
    let folder = dir.path().join("a-folder.c");
    std::fs::create_dir(&folder).unwrap();
    let unreadable = verify(&[
        "examples/beer.icp",
        "-o",
        folder.to_str().unwrap(),
        "--verify",
    ]);
    assert_eq!(unreadable.status, 2, "{}", text(&unreadable.stderr));
    // A crate: the files icp2c writes; others (Cargo.lock, target/) are
    // not compared.
    let krate = dir.path().join("add-crate");
    let k = krate.to_str().unwrap();
    assert_eq!(
        icp2c(&["--crate", "-o", k, "examples/add.fin"], b"").status,
        0
    );
    std::fs::write(krate.join("Cargo.lock"), "# not ours\n").unwrap();
    std::fs::create_dir_all(krate.join("target/debug")).unwrap();
    assert_eq!(
        verify(&["--crate", "-o", k, "examples/add.fin", "--verify"]).status,
        0
    );
    // Partly missing: each missing file named on standard error, the
    // files that differ diffed on standard output.
    std::fs::remove_file(krate.join(".gitignore")).unwrap();
    std::fs::remove_file(krate.join("src/icp_rt.rs")).unwrap();
    let main = krate.join("src/main.rs");
    let edited = std::fs::read_to_string(&main).unwrap() + "// edited\n";
    std::fs::write(&main, edited).unwrap();
    let crate_diff = verify(&["--crate", "-o", k, "examples/add.fin", "--verify"]);
    assert_eq!(crate_diff.status, 1);
    let main_s = main.to_str().unwrap();
    assert_eq!(
        text(&crate_diff.stderr),
        format!(
            "error: {} does not exist: run without --verify to write it\n\
             error: {} does not exist: run without --verify to write it\n\
             error: 1 of 5 generated files differs from what icp2c generates now (the diff is on standard output)\n",
            krate.join(".gitignore").display(),
            krate.join("src/icp_rt.rs").display(),
        )
    );
    let diff = text(&crate_diff.stdout);
    assert!(diff.starts_with(&format!("--- {main_s}\n")), "{diff}");
    assert!(diff.contains("\n-// edited\n"), "{diff}");
    assert!(
        !diff.contains("+/target\n"),
        "a missing file diffed:\n{diff}"
    );
    // A crate folder that is missing altogether: one line for it.
    let nowhere = dir.path().join("no-crate");
    let no_crate = verify(&[
        "--crate",
        "-o",
        nowhere.to_str().unwrap(),
        "examples/add.fin",
        "--verify",
    ]);
    assert_eq!(
        (
            no_crate.status,
            text(&no_crate.stdout),
            text(&no_crate.stderr)
        ),
        (
            1,
            String::new(),
            format!(
                "error: {} does not exist: run without --verify to write it\n",
                nowhere.display()
            )
        )
    );
    assert!(!nowhere.exists());
}

/// The header names the program by its file name alone, so the bytes are
/// the same whatever folder icp2c runs in and however the path is spelt.
#[test]
fn output_is_the_same_from_any_folder_and_path() {
    let root = support::root();
    let absolute = root.join("examples/beer.icp");
    let elsewhere = tempfile::tempdir().unwrap();
    let exe = Path::new(env!("CARGO_BIN_EXE_icp2c"));
    let from = |cwd: &Path, path: &str, args: &[&str]| {
        let out = Command::new(exe)
            .current_dir(cwd)
            .args(args)
            .arg(path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        out.stdout
    };
    for args in [&[][..], &["--target", "rust"][..]] {
        let relative = from(&root, "examples/beer.icp", args);
        assert!(
            text(&relative)
                .lines()
                .next()
                .unwrap()
                .contains(" from beer.icp (InfChessPro)")
        );
        assert_eq!(
            relative,
            from(&root, "./examples/../examples/beer.icp", args)
        );
        assert_eq!(relative, from(&root.join("examples"), "beer.icp", args));
        assert_eq!(
            relative,
            from(elsewhere.path(), absolute.to_str().unwrap(), args)
        );
    }
    let piped = icp2c(&["--lang", "icp", "-"], b"1. \"hi\n");
    assert!(
        text(&piped.stdout)
            .lines()
            .next()
            .unwrap()
            .contains(" from <stdin> (InfChessPro)")
    );
}

#[test]
fn the_language_server_names_what_broke_its_connection() {
    // Not a header, then a body that is not JSON: the reader's reason is
    // reported, not the channel it left disconnected.
    for (input, reason) in [
        (&b"garbage\r\n\r\n"[..], "malformed header"),
        (
            &b"Content-Length: 5\r\n\r\nhello"[..],
            "malformed LSP payload",
        ),
    ] {
        let r = icp2c(&["lsp"], input);
        assert_eq!(r.status, 1);
        let stderr = text(&r.stderr);
        assert!(
            stderr.starts_with("error: language server: ") && stderr.contains(reason),
            "{stderr}"
        );
        assert!(!stderr.contains("disconnected channel"), "{stderr}");
    }
}
