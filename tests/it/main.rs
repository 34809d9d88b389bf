//! The integration tests: one crate, so that `cargo test` links one test
//! binary instead of one per file (each file of this folder is a module;
//! `tests/acceptance.rs`, which has its own harness, is the other).
//! `cargo test --test it MODULE::` runs one module's tests.

#[path = "../support/mod.rs"]
mod support;

mod build_api;
mod cheg;
mod cheg_chess;
mod cheg_differential;
mod cheg_play;
mod cheg_sections;
mod cheg_twins;
mod cheg_uci;
mod cli;
mod complexity;
mod debug;
mod differential;
mod docs;
mod e2e;
mod fin_twins;
mod finvara;
mod fmt;
mod fuzz;
mod generated_bytes;
mod icp_chunks;
mod icp_twins;
mod injection;
mod lsp;
mod opt;
mod opt_props;
mod out_of_memory;
mod output_failures;
mod runtime_input;
mod runtime_sections;
mod runtimes_in_step;
mod rust_crate;
mod rustfmt;
mod snapshots;
mod watch;
