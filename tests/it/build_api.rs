//! The build-script API as a user meets it (`icp2c::build::compile` in a
//! `build.rs`): a crate of its own, built by cargo (offline, icp2c as a
//! path dependency without its command-line feature), whose `main` runs
//! `beer.icp`, `multiply.icp`, `add.fin` and the `krk.cheg` engine through
//! their modules' `run`. Also: cargo runs the build script again only when
//! a program changes, a rejected program fails the build with the CLI's
//! diagnostics, and the build takes no clap.
//!
//! It starts cargo several times (a minute, most of it building the
//! library once), so `cargo test` skips it; `.ci/run` runs it.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MAIN: &str = r#"mod beer {
    include!(concat!(env!("OUT_DIR"), "/beer.rs"));
}
mod multiply {
    include!(concat!(env!("OUT_DIR"), "/multiply.rs"));
}
mod add {
    include!(concat!(env!("OUT_DIR"), "/add.rs"));
}
mod krk {
    include!(concat!(env!("OUT_DIR"), "/krk.rs"));
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let input = std::io::BufReader::new(std::io::stdin());
    let result = match which.as_str() {
        "beer" => beer::run(input, std::io::stdout()).map_err(|e| e.to_string()),
        "multiply" => multiply::run(input, std::io::stdout()).map_err(|e| e.to_string()),
        "add" => add::run(input, std::io::stdout()).map_err(|e| e.to_string()),
        "krk" => krk::run(input, std::io::stdout()).map_err(|e| e.to_string()),
        _ => Err(format!("which program? {which}")),
    };
    if let Err(error) = result {
        eprintln!("error: {error}");
        std::process::exit(1);
    }
}
"#;

const BUILD: &str = r#"fn main() {
    icp2c::build::compile("programs/beer.icp").unwrap();
    icp2c::build::compile("programs/multiply.icp").unwrap();
    icp2c::build::compile("programs/add.fin").unwrap();
    icp2c::build::compile("programs/krk.cheg").unwrap();
}
"#;

fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO"))
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("CARGO_MAKEFLAGS")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn run(exe: &Path, which: &str, input: &[u8]) -> support::Ran {
    support::run_exe(exe, &[which], input)
}

/// Whether the last `cargo build -v` ran the build script.
fn ran_build_script(out: &Output) -> bool {
    text(&out.stderr).contains("build-script-build`")
}

#[test]
#[ignore = "builds a user crate with cargo (about a minute): .ci/run runs it"]
fn a_build_script_compiles_programs_into_modules() {
    let root = support::root();
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path();
    // A target folder kept between runs, so the library is built once.
    let target: PathBuf = root.join("target/build-api-test");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::create_dir_all(krate.join("programs")).unwrap();
    for file in ["beer.icp", "multiply.icp", "add.fin", "krk.cheg"] {
        std::fs::copy(
            root.join("examples").join(file),
            krate.join("programs").join(file),
        )
        .unwrap();
    }
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"user\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[build-dependencies]\nicp2c = {{ path = {:?}, default-features = false }}\n",
            root.to_str().unwrap()
        ),
    )
    .unwrap();
    // The versions icp2c itself was built with (cargo is offline).
    std::fs::copy(root.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    std::fs::write(krate.join("build.rs"), BUILD).unwrap();
    std::fs::write(krate.join("src/main.rs"), MAIN).unwrap();

    let built = cargo(krate, &target, &["build", "-v"]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(ran_build_script(&built));
    let exe = target.join("debug/user");
    let beer = run(&exe, "beer", b"");
    assert_eq!(beer.status, 0, "{}", text(&beer.stderr));
    assert_eq!(
        beer.stdout,
        std::fs::read(root.join("examples/beer.out")).unwrap()
    );
    let multiply = run(&exe, "multiply", b"6 7");
    assert_eq!(text(&multiply.stdout), "42\n");
    assert_eq!(text(&run(&exe, "add", b"40 2").stdout), "42\n");
    // A runtime error is `run`'s Err, its text the standalone program's
    // message (which the standalone program prints after `error: `).
    let bad = run(&exe, "add", b"40 x");
    assert_eq!(bad.status, 1);
    assert_eq!(
        text(&bad.stderr),
        "error: turn 2 W: input is not a number (§4)\n"
    );
    let engine = run(
        &exe,
        "krk",
        b"uci\nposition fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1\ngo depth 3\nquit\n",
    );
    let answers = text(&engine.stdout);
    assert!(
        answers.contains("id name krk (icp2c CHEG engine)"),
        "{answers}"
    );
    assert!(answers.contains("\nbestmove "), "{answers}");

    // Nothing changed: the build script does not run again.
    let again = cargo(krate, &target, &["build", "-v"]);
    assert!(again.status.success());
    assert!(!ran_build_script(&again), "{}", text(&again.stderr));
    // A program changed: it does, and the binary follows.
    let beer_src = krate.join("programs/beer.icp");
    let changed = std::fs::read_to_string(&beer_src).unwrap().replace(
        "bottles of beer on the wall.",
        "bottles of tea on the wall.",
    );
    std::fs::write(&beer_src, changed).unwrap();
    let rebuilt = cargo(krate, &target, &["build", "-v"]);
    assert!(rebuilt.status.success(), "{}", text(&rebuilt.stderr));
    assert!(ran_build_script(&rebuilt));
    assert!(text(&run(&exe, "beer", b"").stdout).contains("bottles of tea on the wall."));

    // A rejected program fails the build, showing the diagnostics.
    std::fs::write(&beer_src, "1. x=Z0,0\n").unwrap();
    let rejected = cargo(krate, &target, &["build"]);
    assert!(!rejected.status.success());
    let shown = text(&rejected.stderr);
    assert!(shown.contains("programs/beer.icp:1:6"), "{shown}");
    assert!(
        shown.contains("rejected (InfChessPro program): 1 error"),
        "{shown}"
    );

    // The build takes the library alone: no clap.
    let tree = cargo(krate, &target, &["tree", "-e", "normal,build"]);
    assert!(tree.status.success(), "{}", text(&tree.stderr));
    let tree = text(&tree.stdout);
    assert!(tree.contains("icp2c v"), "{tree}");
    assert!(!tree.contains("clap"), "{tree}");
}
