//! Running out of memory ends `icp2c` with one line on standard error and
//! an exit status, never an abort (part of the binary, not of the library:
//! a build script or the WebAssembly build keeps its own allocator).
//!
//! Stable Rust aborts when an allocation that cannot fail does fail
//! (`memory allocation of N bytes failed`, SIGABRT); the only place a
//! program can act first is its global allocator. [`Allocator`] wraps the
//! system's and, when a request fails, does what the last [`Plan`] `main`
//! set says: write the plan's line, rendered in advance (nothing is
//! allocated or formatted then), and end the process with the plan's
//! status. An allocator cannot tell `Vec::try_reserve`, which reports a
//! failure to its caller, from `Vec::push`, which aborts; so while a
//! program of a language whose interpreter asks for its growing memory
//! fallibly runs, the plan hands the first failure back to the caller
//! (the runtime reports the language's own line), and only a later one
//! ends the process (docs/architecture.md, "Out of memory").

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// The system allocator, ending the process as the current [`Plan`] says
/// when a request fails.
pub struct Allocator;

#[global_allocator]
static ALLOCATOR: Allocator = Allocator;

/// What a failed allocation does.
struct Plan {
    /// The line to write on standard error, newline included.
    line: String,
    /// The exit status.
    status: i32,
    /// Whether the first failure is handed back to the code that asked
    /// (a null pointer), for it to report.
    first_to_caller: bool,
}

/// The current plan; null until `main` sets one (a failure then aborts as
/// Rust's own allocator does). Plans are leaked when replaced: a failing
/// allocation on another thread may be reading the old one, and `main`
/// sets at most three.
static PLAN: AtomicPtr<Plan> = AtomicPtr::new(ptr::null_mut());

/// Whether an allocation has failed and been handed back to its caller.
static HANDED_BACK: AtomicBool = AtomicBool::new(false);

/// From now on a failed allocation writes `line` (rendered as `main`'s
/// `error` renders it, ending in a newline) on standard error and ends the
/// process with `status`. With `first_to_caller`, the first failure is
/// handed back to the code that asked instead (the runtimes of languages
/// that report exhausted memory themselves); a later one ends the process.
pub fn on_failure(line: String, status: u8, first_to_caller: bool) {
    let plan = Box::new(Plan {
        line,
        status: i32::from(status),
        first_to_caller,
    });
    PLAN.store(Box::into_raw(plan), Ordering::Release);
}

/// A request failed: hand it back (null) or end the process.
#[cold]
fn failed() -> *mut u8 {
    let plan = PLAN.load(Ordering::Acquire);
    if plan.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: a plan, once stored, is never freed.
    let plan = unsafe { &*plan };
    if plan.first_to_caller && !HANDED_BACK.swap(true, Ordering::AcqRel) {
        return ptr::null_mut();
    }
    exit_with(plan.line.as_bytes(), plan.status)
}

/// Writes `line` on standard error and ends the process with `status`,
/// allocating nothing and running no exit handlers: Rust's standard
/// output may be locked by the thread whose allocation failed (what it
/// buffered is lost, as it is in an abort).
#[cfg(unix)]
fn exit_with(line: &[u8], status: i32) -> ! {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    unsafe extern "C" {
        fn _exit(status: std::ffi::c_int) -> !;
    }
    // SAFETY: descriptor 2 is standard error; ManuallyDrop never closes it.
    let mut stderr = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(2) });
    let _ = stderr.write_all(line);
    // SAFETY: `_exit` ends the process at once; it is async-signal-safe
    // and touches no state of this program.
    unsafe { _exit(status) }
}

/// Writes `line` on standard error and ends the process with `status`.
#[cfg(not(unix))]
fn exit_with(line: &[u8], status: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stderr().write_all(line);
    std::process::exit(status)
}

// SAFETY: every request goes to `System` unchanged; a failure either
// returns null, as `System` did, or never returns.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() { failed() } else { p }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() { failed() } else { p }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `alloc`; on failure `block` is left as it was.
        let p = unsafe { System.realloc(block, layout, new_size) };
        if p.is_null() { failed() } else { p }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from `System` through this allocator.
        unsafe { System.dealloc(block, layout) }
    }
}
