//! Standard output that cannot be written: a full device (`/dev/full`) or
//! a pipe whose reader has gone (`prog | head`). In both languages the
//! interpreter, the generated C and the generated Rust must end the same
//! way: the one line `error: cannot write standard output…` naming no
//! statement or move (a decision: docs/infchesspro.md §8, docs/finvara.md
//! §6), exit status 1, and never a kill by `SIGPIPE`.

use crate::support;

use icp2c::driver::{self, Language};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Prints a 100-byte line forever (§4.6 text, a rook stepping right).
const LOUD_ICP: &str = "1. x=R0,0\n2. \"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n3. x;0,1?2\n";

/// Prints `0` forever: the printer falls into a hole (§4, value 4) and
/// `checks turn 1` puts it back (§5.3).
const LOUD_FIN: &str = "(k):\n(p 4): (1,0)\n(n 0): (0,0)\n\
+--+--+--+--+\n|  |  |nB|kB|\n+--+--+--+--+\n|pW|  |  |kW|\n+--+--+--+--+\n|##|  |  |  |\n+--+--+--+--+\n\
Turn 1 W: p b1 -> a1\nTurn 1 B: n c3 -> c3\nTurn 2 W: p b1 checks turn 1\n";

/// The command lines that run `source` in each back end.
fn commands(language: Language, source: &str, dir: &Path, name: &str) -> Vec<Vec<PathBuf>> {
    let program = driver::check(language, source).unwrap().program;
    let file = dir.join(name);
    std::fs::write(&file, source).unwrap();
    let stem = name.replace('.', "_");
    let c = support::build_c(&program.emit_c(name), dir, &stem, &[]).unwrap();
    let rust = support::build_rust(&program.emit_rust(name), dir, &stem).unwrap();
    vec![
        vec![
            PathBuf::from(env!("CARGO_BIN_EXE_icp2c")),
            "run".into(),
            file,
        ],
        vec![c],
        vec![rust],
    ]
}

fn command(argv: &[PathBuf]) -> Command {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

#[test]
fn write_failures_end_the_same_way_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    for (language, source, name, want) in [
        (
            Language::InfChessPro,
            LOUD_ICP,
            "loud.icp",
            "error: cannot write standard output (§8)\n",
        ),
        (
            Language::Finvara,
            LOUD_FIN,
            "loud.fin",
            "error: cannot write standard output\n",
        ),
    ] {
        for argv in commands(language, source, dir.path(), name) {
            let shown = format!("{name} via {}", argv[0].display());
            // A full device.
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let child = command(&argv).stdout(full).spawn().unwrap();
            let out = support::wait_limited(child, support::time_limit(), &shown);
            assert_eq!(
                (
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr).as_ref()
                ),
                (Some(1), want),
                "{shown} > /dev/full"
            );
            // A reader that reads a little and goes away.
            let mut child = command(&argv).stdout(Stdio::piped()).spawn().unwrap();
            let mut stdout = child.stdout.take().unwrap();
            let mut first = [0u8; 10];
            stdout.read_exact(&mut first).unwrap();
            drop(stdout);
            let out =
                support::wait_limited(child, support::time_limit(), concat!(file!(), ":", line!()));
            assert_eq!(
                (
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr).as_ref()
                ),
                (Some(1), want),
                "{shown} | head (a None status is a kill by a signal)"
            );
        }
    }
}

/// Runs `argv` through `sh` with `redirect` (`<&-`, `>&-`) applied, under a
/// time limit: (exit status, standard output, standard error).
fn closed_run(argv: &[PathBuf], redirect: &str) -> (Option<i32>, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("exec timeout 60 \"$@\" {redirect}"))
        .arg("sh")
        .args(argv)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// (language, program, its name, arguments, redirect, status, stdout,
/// stderr).
type ClosedCase<'a> = (
    Language,
    String,
    &'a str,
    &'a [&'a str],
    &'a str,
    i32,
    &'a str,
    &'a str,
);

/// A standard input or output closed when the program starts (`<&-`,
/// `>&-`) is a read error at the first read and a write error at the first
/// write, as in C, in the interpreter and the generated Rust too (whose
/// runtime would otherwise put `/dev/null` in its place); a program that
/// never reads runs with its input closed. For a CHEG engine a closed
/// input is the end of input (docs/cheg.md §7.5). Each case pins what the
/// C program does, and every back end must match it to the byte.
#[test]
#[ignore = "slow (25 s of CPU): builds six programs in C and Rust; .ci/run runs it"]
fn closed_streams_end_the_same_way_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let read = |name: &str| std::fs::read_to_string(examples.join(name)).unwrap();
    const HI: &str = "1. \"hi\n";
    const READS: &str = "1. x=R0,*!3\n2. \"got\n3. \"end\n";
    // LOUD_FIN's first two moves: prints `0` once and ends, reading nothing.
    let once_fin = LOUD_FIN.replace("Turn 2 W: p b1 checks turn 1\n", "");
    let krk_fen = ["--fen", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "--depth", "2"];
    let cases: Vec<ClosedCase> = vec![
        (
            Language::InfChessPro,
            HI.into(),
            "hi.icp",
            &[],
            "<&-",
            0,
            "hi\n",
            "",
        ),
        (
            Language::InfChessPro,
            HI.into(),
            "hi.icp",
            &[],
            ">&-",
            1,
            "",
            "error: cannot write standard output (§8)\n",
        ),
        (
            Language::InfChessPro,
            READS.into(),
            "reads.icp",
            &[],
            "<&-",
            1,
            "",
            "error: statement 1: cannot read standard input (§8)\n",
        ),
        (
            Language::InfChessPro,
            LOUD_ICP.into(),
            "loud.icp",
            &[],
            ">&-",
            1,
            "",
            "error: cannot write standard output (§8)\n",
        ),
        (
            Language::Finvara,
            read("add.fin"),
            "add.fin",
            &[],
            "<&-",
            1,
            "",
            "error: turn 1 W: cannot read standard input\n",
        ),
        (
            Language::Finvara,
            LOUD_FIN.into(),
            "loud.fin",
            &[],
            ">&-",
            1,
            "",
            "error: cannot write standard output\n",
        ),
        (
            Language::Finvara,
            once_fin.clone(),
            "once.fin",
            &[],
            "<&-",
            0,
            "0\n",
            "",
        ),
        (
            Language::Cheg,
            read("krk.cheg"),
            "krk.cheg",
            &[],
            "<&-",
            0,
            "",
            "",
        ),
        (
            Language::Cheg,
            read("krk.cheg"),
            "krk.cheg",
            &krk_fen,
            "<&-",
            0,
            "bestmove a1d1 score 19773\n",
            "",
        ),
        (
            Language::Cheg,
            read("krk.cheg"),
            "krk.cheg",
            &krk_fen,
            ">&-",
            0,
            "",
            "",
        ),
        // The engine's answer cannot be written: as the C engine, status 0.
        (
            Language::Cheg,
            read("krk.cheg"),
            "krk.cheg",
            &krk_fen,
            ">/dev/full",
            0,
            "",
            "",
        ),
    ];
    let mut built = std::collections::HashMap::new();
    for (language, source, name, args, redirect, status, stdout, stderr) in cases {
        let argvs = built
            .entry(name)
            .or_insert_with(|| commands(language, &source, dir.path(), name));
        for mut argv in argvs.clone() {
            argv.extend(args.iter().map(PathBuf::from));
            let shown = format!("{name} {args:?} {redirect} via {}", argv[0].display());
            assert_eq!(
                closed_run(&argv, redirect),
                (Some(status), stdout.to_string(), stderr.to_string()),
                "{shown}"
            );
        }
    }
}

/// icp2c itself: generated code written to a standard output closed at
/// start, or a program read from a closed standard input, is an IO error
/// (exit 2), not output lost in silence.
#[test]
fn icp2c_reports_its_own_closed_streams() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hi.icp");
    std::fs::write(&file, "1. \"hi\n").unwrap();
    let icp2c = PathBuf::from(env!("CARGO_BIN_EXE_icp2c"));
    let (status, stdout, stderr) = closed_run(&[icp2c.clone(), file], ">&-");
    assert_eq!((status, stdout.as_str()), (Some(2), ""));
    assert!(
        stderr.starts_with("error: cannot write standard output: "),
        "{stderr}"
    );
    let (status, _, stderr) = closed_run(&[icp2c, "run".into(), "-".into()], "<&-");
    assert_eq!(status, Some(2));
    assert!(
        stderr.starts_with("error: cannot read the program from standard input: "),
        "{stderr}"
    );
}
