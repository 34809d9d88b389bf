//! What the three function-level twin checkers share
//! (`tests/it/{cheg,icp,fin}_twins.rs`): each runs an operation script
//! through its language's Rust runtime in the test process and through a
//! C driver (`tests/c/*_twins.c`) that includes the C runtime whole, and
//! compares the lines. Here: building a driver, running it on a script
//! within a time limit, finding the first difference, and laying out a
//! copy of the sources with one line patched (the checkers' tests of
//! themselves and their mutants).

use super::CFLAGS;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// Bytes as lower-case hex, two digits each (the scripts' byte strings).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of `text`, hex two digits each (`-`, a word for no bytes,
/// is none too).
pub fn unhex(text: &str) -> Vec<u8> {
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// Builds the driver `driver` (a path like `tests/c/icp_twins.c`) found
/// under `root` (the checkout, or a copy laid out alike) into `dir`, named
/// after it: one `$CC` (default `cc`) with the strict flags and `extra`,
/// every index of an array of known size checked (UBSan's `bounds`, which
/// ends the driver: a read past a table shows even where the value read
/// happens not to matter). Errors: the compiler's complaint, or that it
/// could not be run (then nothing is compared).
pub fn build_driver(
    root: &Path,
    driver: &str,
    dir: &Path,
    extra: &[String],
) -> Result<PathBuf, String> {
    let name = Path::new(driver).file_stem().unwrap();
    let exe = dir.join(name);
    let built = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".to_string()))
        .args(CFLAGS)
        .args(["-fsanitize=bounds", "-fno-sanitize-recover=bounds"])
        .args(extra)
        .arg(root.join(driver))
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("cannot run cc ({e}): {driver} is not built, nothing is compared"))?;
    if built.status.success() && built.stderr.is_empty() {
        Ok(exe)
    } else {
        Err(format!(
            "{driver} does not build:\n{}",
            String::from_utf8_lossy(&built.stderr)
        ))
    }
}

/// How a driver may end besides with status 0 and nothing on standard
/// error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Any other ending is a failure of the driver.
    Clean,
    /// Status 1 with one `error: ` line on standard error is a runtime
    /// error the C runtime reports as a generated program would (it
    /// `exit`s): that line is the script's last.
    RuntimeError,
}

/// The driver's lines for `script` (on its standard input; `args` on its
/// command line): its standard output, then a runtime error's line (see
/// [`Ending`]), or a line saying the driver failed or took more than
/// `limit` and was stopped (which no Rust line equals).
pub fn run_driver(
    exe: &Path,
    args: &[&std::ffi::OsStr],
    script: &str,
    ending: Ending,
    limit: Duration,
) -> Vec<String> {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
    let mut stdin = child.stdin.take().unwrap();
    let input = script.as_bytes().to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let status = match child.wait_timeout(limit).unwrap() {
        Some(status) => Some(status),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            None
        }
    };
    feeder.join().unwrap();
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    let err = String::from_utf8_lossy(&err);
    let mut lines: Vec<String> = String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_string)
        .collect();
    let runtime_error = ending == Ending::RuntimeError
        && err.starts_with("error: ")
        && err.ends_with('\n')
        && err.lines().count() == 1;
    match status {
        None => lines.push(format!(
            "(the C driver took more than {} s and was stopped)",
            limit.as_secs()
        )),
        Some(status) if status.code() == Some(1) && runtime_error => {
            lines.push(err.trim_end().to_string())
        }
        Some(status) if !status.success() || !err.is_empty() => lines.push(format!(
            "(the C driver ended with {status}: {})",
            err.trim_end()
        )),
        Some(_) => {}
    }
    lines
}

/// The first difference between the Rust half's lines (each with the
/// index of the script line that printed it) and the C driver's, both
/// seen through `mask` (what may differ, such as a clock's fields,
/// removed): the script line, as `describe` shows it (given the script's
/// lines and the index), and both lines. `None`: the same lines.
pub fn first_difference(
    script: &str,
    rust: &[(usize, String)],
    c: &[String],
    mask: impl Fn(&str) -> String,
    describe: impl Fn(&[&str], usize) -> String,
) -> Option<String> {
    let ops: Vec<&str> = script.lines().collect();
    for i in 0..rust.len().max(c.len()) {
        let r = rust.get(i).map(|(_, l)| mask(l));
        let k = c.get(i).map(|l| mask(l));
        if r == k {
            continue;
        }
        let at = rust.get(i).or_else(|| rust.last()).map_or(0, |(op, _)| *op);
        return Some(format!(
            "script line {}: {}\n  Rust: {}\n  C:    {}",
            at + 1,
            describe(&ops, at),
            r.as_deref().unwrap_or("(nothing)"),
            k.as_deref().unwrap_or("(nothing)"),
        ));
    }
    None
}

/// The script line `at` as it is (the plain `describe` of
/// [`first_difference`]).
pub fn line_as_is(ops: &[&str], at: usize) -> String {
    ops.get(at).copied().unwrap_or("").to_string()
}

/// A copy under `dir` of what `driver` builds from: the driver, the C
/// prelude and the runtime files `files` (paths under `runtime_dir`),
/// laid out as in the checkout, with `from` replaced by `to` in `file`
/// (one of `files`; `from` must occur there once). Returns the copy's
/// root, for [`build_driver`].
pub fn patched_copy(
    root: &Path,
    dir: &Path,
    driver: &str,
    runtime_dir: &str,
    files: &[&str],
    (file, from, to): (&str, &str, &str),
) -> PathBuf {
    let copy = dir.join("copy");
    let runtime = files
        .iter()
        .map(|&name| (format!("{runtime_dir}/{name}"), Some(name)));
    let driver = [driver, "src/codegen/prelude.c"].map(|path| (path.to_string(), None));
    for (path, name) in driver.into_iter().chain(runtime) {
        let mut source = std::fs::read_to_string(root.join(&path)).unwrap();
        if name == Some(file) {
            assert_eq!(source.matches(from).count(), 1, "{file}: {from:?} once");
            source = source.replacen(from, to, 1);
        }
        let target = copy.join(&path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, source).unwrap();
    }
    copy
}

/// A checker's quick test: the scripts of seeds `first..first + count`
/// (`count` from the environment variable `variable`, else `scripts`),
/// made by `script`, each run through both halves by `compare`; panics
/// with the first difference, naming `language`, the seed and `file` (the
/// checker's source).
pub fn agree(
    (language, file, variable): (&str, &str, &str),
    (first, scripts): (u64, u64),
    script: impl Fn(u64) -> String,
    compare: impl Fn(&str) -> Option<String>,
) {
    let count: u64 = std::env::var(variable)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(scripts);
    let mut operations = 0;
    let started = std::time::Instant::now();
    for seed in first..first + count {
        let script = script(seed);
        operations += script.lines().count();
        if let Some(difference) = compare(&script) {
            panic!(
                "{language}'s C and Rust runtimes differ on the script of seed {seed:#x} ({file}):\n{difference}"
            );
        }
    }
    eprintln!(
        "{count} scripts, {operations} operations in {:.1} s: the C and Rust runtimes agree",
        started.elapsed().as_secs_f64()
    );
}

/// A checker's test of its mutants: each of `mutants` (named by `name`)
/// built into a driver by `build` (given a folder of its own) and run on
/// `scripts` (seed, script) by `compare` until a difference shows; panics
/// naming every mutant no script saw.
pub fn mutants_seen<M>(
    mutants: &[M],
    name: impl Fn(&M) -> String,
    build: impl Fn(&Path, &M) -> PathBuf,
    scripts: &[(u64, String)],
    compare: impl Fn(&Path, &str) -> Option<String>,
) {
    let dir = tempfile::tempdir().unwrap();
    let mut unseen = Vec::new();
    for (n, mutant) in mutants.iter().enumerate() {
        let at = dir.path().join(format!("mutant{n}"));
        std::fs::create_dir_all(&at).unwrap();
        let exe = build(&at, mutant);
        let seen = scripts
            .iter()
            .find_map(|(seed, s)| compare(&exe, s).map(|d| (seed, d)));
        match seen {
            Some((seed, difference)) => {
                eprintln!("{}: seen (seed {seed:#x}):\n{difference}", name(mutant))
            }
            None => unseen.push(name(mutant)),
        }
    }
    assert!(
        unseen.is_empty(),
        "mutants not seen:\n{}",
        unseen.join("\n")
    );
}
