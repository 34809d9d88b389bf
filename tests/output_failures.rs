//! Standard output that cannot be written: a full device (`/dev/full`) or
//! a pipe whose reader has gone (`prog | head`). In both languages the
//! interpreter, the generated C and the generated Rust must end the same
//! way: the one line `error: cannot write standard output…` naming no
//! statement or move (a decision: docs/infchesspro.md §8, docs/finvara.md
//! §6), exit status 1, and never a kill by `SIGPIPE`.

mod support;

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
            let out = command(&argv).stdout(full).output().unwrap();
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
            let out = child.wait_with_output().unwrap();
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
