//! icp2c's build script: which of the tools some tests need are on this
//! machine, so that a test whose tool is missing is reported as ignored,
//! with the reason, and never passes having tested nothing. It only sets
//! `cfg`s, read by `#[cfg_attr(icp2c_no_…, ignore = "…")]` in tests/it;
//! the library and the command line ignore them.
//!
//! - `icp2c_no_rustfmt`: `rustfmt --version` fails (a minimal Rust
//!   toolchain: `rustup component add rustfmt`).
//! - `icp2c_no_cc`: the C compiler `$CC` (default `cc`) fails
//!   `--version`.
//!
//! It probes again when `PATH` or `CC` changes.

use std::process::Command;

fn works(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success())
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(icp2c_no_rustfmt)");
    println!("cargo::rustc-check-cfg=cfg(icp2c_no_cc)");
    println!("cargo::rerun-if-changed=tests/support/tools.rs");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CC");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    if !works(&cc) {
        println!("cargo::rustc-cfg=icp2c_no_cc");
        println!("cargo::warning=`{cc} --version` failed: the tests that build C are ignored");
    }
    if !works("rustfmt") {
        println!("cargo::rustc-cfg=icp2c_no_rustfmt");
        println!("cargo::warning=rustfmt is missing: the tests that run it are ignored");
    }
}
