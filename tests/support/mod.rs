//! Shared helpers for the integration tests: finding test programs,
//! building generated code with the strict flags, running it.

#![allow(dead_code)] // each test binary uses a different part

pub mod batch;
pub mod cheg_gen;
pub mod progen;
pub mod twins;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// Strict C flags every generated C file must pass (cbindgen-style).
pub const CFLAGS: &[&str] = &[
    "-std=c99",
    "-O1",
    "-Wall",
    "-Wextra",
    "-Wpedantic",
    "-Werror",
];

/// A test program with its expectations.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub path: PathBuf,
    pub input: Vec<u8>,
    /// Expected stdout, when a `.out` file exists.
    pub want_out: Option<Vec<u8>>,
    pub want_status: i32,
    /// The expected runtime error line, when a `.err` file exists.
    pub want_err: Option<String>,
}

/// What a run printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    pub status: i32,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// When `dir` (relative to the crate root) is in `../shared` and that
/// folder is missing, says so once per test binary: the acceptance cases
/// are then not used, and the tests run on the project's own programs.
pub fn note_if_shared_missing(dir: &str) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if dir.starts_with("../shared") && !root().join("../shared").is_dir() {
        ONCE.call_once(|| {
            eprintln!(
                "note: ../shared is missing: its acceptance cases are not used, only the project's own programs"
            )
        });
    }
}

/// Every `*.{ext}` program in `dirs` (relative to the crate root), sorted.
pub fn cases(dirs: &[&str], ext: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for dir in dirs {
        note_if_shared_missing(dir);
        let dir = root().join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.extension().and_then(|e| e.to_str()) != Some(ext) {
                continue;
            }
            let read = |e: &str| std::fs::read(path.with_extension(e)).ok();
            out.push(Case {
                name: path.file_stem().unwrap().to_string_lossy().into_owned(),
                input: read("in").unwrap_or_default(),
                want_out: read("out"),
                want_status: read("status")
                    .map(|s| {
                        String::from_utf8_lossy(&s)
                            .trim()
                            .parse()
                            .expect("a .status file holds a number")
                    })
                    .unwrap_or(0),
                want_err: read("err").map(|e| String::from_utf8_lossy(&e).trim_end().to_string()),
                path,
            });
        }
    }
    out
}

/// The size of a random test: `quick` in a debug build (the README's
/// `cargo test`, which must stay quick), `full` in a release build of the
/// tests (`.ci/run` runs these tests again so, at full size, after the
/// quick suite).
pub fn scale(quick: usize, full: usize) -> usize {
    if cfg!(debug_assertions) { quick } else { full }
}

/// How long one run of a program in a test may take before it is killed
/// and its test fails: a program that loops (a mutant, a regression)
/// fails its test instead of hanging the suite. 120 s, far above any
/// test's program in a debug build; `ICP2C_TEST_TIME_LIMIT` (seconds)
/// sets another.
pub fn time_limit() -> Duration {
    let seconds = std::env::var("ICP2C_TEST_TIME_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    Duration::from_secs(seconds)
}

/// Waits at most `limit` for `child` to end, reading its standard output
/// and error (those that are piped) meanwhile. A child still running then
/// is killed, and the test panics, naming `what`. The caller feeds or
/// closes standard input itself.
pub fn wait_limited(mut child: Child, limit: Duration, what: &str) -> Output {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut all = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut all);
            }
            all
        })
    }
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    match child.wait_timeout(limit).unwrap() {
        Some(status) => Output {
            status,
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
        },
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still ran after {} s: killed", limit.as_secs());
        }
    }
}

/// `command.output()` with the time limit of [`wait_limited`]: standard
/// input empty, output and error captured.
pub fn output_limited(command: &mut Command, limit: Duration, what: &str) -> Output {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    wait_limited(child, limit, what)
}

/// Runs `exe` with `input` on stdin, within [`time_limit`].
pub fn run_exe(exe: &Path, args: &[&str], input: &[u8]) -> Ran {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = wait_limited(child, time_limit(), &exe.display().to_string());
    feeder.join().unwrap();
    Ran {
        status: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: out.stderr,
    }
}

/// Compiles C source with the strict flags (plus `extra`); returns the
/// executable or the compiler's complaint.
pub fn build_c(source: &str, dir: &Path, name: &str, extra: &[&str]) -> Result<PathBuf, String> {
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(format!("{name}_c"));
    std::fs::write(&c, source).unwrap();
    let out = Command::new("cc")
        .args(CFLAGS)
        .args(extra)
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    if out.status.success() && out.stderr.is_empty() {
        Ok(exe)
    } else {
        Err(format!(
            "cc failed on {name}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Compiles one Rust file with `rustc -D warnings` (edition 2021, as users
/// are told to); debug build, so overflow checks catch arithmetic bugs.
pub fn build_rust(source: &str, dir: &Path, name: &str) -> Result<PathBuf, String> {
    build_rust_at(source, dir, name, 1)
}

/// [`build_rust`] at rustc's `opt-level` `opt_level`, overflow checks and
/// debug assertions on.
pub fn build_rust_at(
    source: &str,
    dir: &Path,
    name: &str,
    opt_level: u8,
) -> Result<PathBuf, String> {
    let rs = dir.join(format!("{name}.rs"));
    let exe = dir.join(format!("{name}_rs"));
    std::fs::write(&rs, source).unwrap();
    let out = Command::new("rustc")
        .args([
            "--edition",
            "2021",
            "-D",
            "warnings",
            "-C",
            &format!("opt-level={opt_level}"),
            "-C",
            "debug-assertions=on",
            "-C",
            "overflow-checks=on",
        ])
        .arg(&rs)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    if out.status.success() && out.stderr.is_empty() {
        Ok(exe)
    } else {
        Err(format!(
            "rustc failed on {name}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Runs `work` over `items` on all cores, returning the results in order.
pub fn parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = work(item);
                    *results[i].lock().unwrap() = Some(r);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|m| m.into_inner().unwrap().unwrap())
        .collect()
}

pub fn show(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    if s.len() > 1500 {
        format!("{}…", &s[..s.floor_char_boundary(1500)])
    } else {
        s.into_owned()
    }
}

/// A CHEG engine's UCI output as the back ends must agree on it (§7.5):
/// the `time` and `nps` fields of `info` lines removed (the only fields
/// that depend on the clock), and the `readyok` lines moved to the end (an
/// `isready` that arrives during a search is answered at once, so where
/// its answer lands among the search's lines depends on timing).
pub fn uci_masked(output: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(output);
    let mut out = String::new();
    let mut ready = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches('\n') == "readyok" {
            ready += 1;
            continue;
        }
        if line.starts_with("info ") {
            let mut words: Vec<&str> = line.split(' ').collect();
            let mut i = 0;
            while i + 1 < words.len() {
                if words[i] == "time" || words[i] == "nps" {
                    words.drain(i..i + 2);
                } else {
                    i += 1;
                }
            }
            let masked = words.join(" ");
            out.push_str(&masked);
            if line.ends_with('\n') && !masked.ends_with('\n') {
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    for _ in 0..ready {
        out.push_str("readyok\n");
    }
    out.into_bytes()
}

/// Runs the UCI engine `exe` on the session `input` as a GUI would: one
/// line at a time, waiting after each `go` for its answer (`bestmove`;
/// after `go perft`, `Nodes searched` or its error) before the next line,
/// and closing the input only then. The end of a live input stops a
/// search (§7.5), so a session piped whole would get the depth finished
/// when the pipe closed; this one gets every answer whole. A `go infinite`
/// or `go ponder` is answered after the `stop`, `ponderhit` or `quit`
/// that follows it, which is waited for in the same way.
pub fn uci_session(exe: &Path, args: &[&str], input: &[u8]) -> Ran {
    use std::io::BufRead;
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut all = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut all);
        all
    });
    let (sender, lines) = std::sync::mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut stdout = std::io::BufReader::new(stdout);
        let mut all = Vec::new();
        loop {
            let mut line = Vec::new();
            match stdout.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    all.extend_from_slice(&line);
                    let _ = sender.send(line);
                }
            }
        }
        all
    });
    // Waits for a line for which `done` is true (or for the engine's end);
    // false if the session's time limit passed first.
    let deadline = std::time::Instant::now() + time_limit();
    let wait = |done: &dyn Fn(&[u8]) -> bool| loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if done(&line) => return true,
            Ok(_) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return true,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return false,
        }
    };
    let bestmove = |line: &[u8]| line.starts_with(b"bestmove");
    let mut open_search = false;
    for line in input.split_inclusive(|&b| b == b'\n') {
        if stdin.write_all(line).and_then(|()| stdin.flush()).is_err() {
            break;
        }
        let text = String::from_utf8_lossy(line);
        let words: Vec<&str> = text.split_whitespace().collect();
        let answered = match words.first().copied() {
            Some("go") if words.contains(&"perft") => wait(&|l: &[u8]| {
                l.starts_with(b"Nodes searched")
                    || l.starts_with(b"info string error: go perft")
                    || l.starts_with(b"info string error: no position")
            }),
            Some("go") if words.contains(&"infinite") || words.contains(&"ponder") => {
                open_search = true;
                true
            }
            Some("go") => wait(&bestmove),
            Some("stop" | "ponderhit" | "quit") if open_search => {
                open_search = false;
                wait(&bestmove)
            }
            _ => true,
        };
        if !answered {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{}: no answer to {:?} within {} s: killed",
                exe.display(),
                text.trim_end(),
                time_limit().as_secs()
            );
        }
    }
    drop(stdin);
    let left = deadline.saturating_duration_since(std::time::Instant::now());
    let Some(status) = child.wait_timeout(left).unwrap() else {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "{}: still ran {} s after its session began: killed",
            exe.display(),
            time_limit().as_secs()
        );
    };
    Ran {
        status: status.code().unwrap_or(-1),
        stdout: reader.join().unwrap(),
        stderr: errors.join().unwrap(),
    }
}
