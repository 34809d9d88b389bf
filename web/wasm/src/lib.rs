//! icp2c in the browser: the library's check, run, recorded run and back
//! ends behind plain WebAssembly exports, for the playground page
//! (`web/src/wasm.js` is the JavaScript side).
//!
//! Each operation is a Rust function from strings to a JSON text
//! ([`check`], [`run`], [`debug`] and [`advance`], [`emit`],
//! [`position`]), tested
//! natively; [`icp_call`] is the one export that reaches them. The page
//! writes a request into memory from [`icp_alloc`] as length-prefixed
//! fields (a little-endian `u32` byte count, then the UTF-8 bytes, per
//! field), calls `icp_call(op, ptr, len)` (which frees the request), and
//! reads the answer at [`icp_result_ptr`] for [`icp_result_len`] bytes,
//! valid until the next call.
//!
//! What the browser lacks: no files (the page names the program), no
//! threads and no clock (CHEG searches are bounded by `--depth` alone, and
//! run in a Web Worker that the page can end).

mod json;

use icp2c::Outcome;
use icp2c::codegen::Target;
use icp2c::common::debug::{Debugger, Pause, Stepper, Update};
use icp2c::common::watch::{Content, Shape, Side, Step};
use icp2c::diagnostic::{self, Diagnostic, Severity};
use icp2c::driver::{self, Language, Program};
use icp2c::lang::cheg::runtime::chess::{Colour, Position};
use icp2c::lang::{Glyphs, RunOptions, UsageError};
use icp2c::source;
use json::Json;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::rc::Rc;

/// At most this many bytes of a run's standard error are kept (a CHEG
/// `--trace` of a deep search can be long); a line after them says so.
pub const MAX_ERRORS: usize = 4 << 20;

/// At most this many bytes of a run's standard output are kept: past them
/// a write fails, as into a full disk, and the program ends with its
/// runtime error for a failed write (the page's memory is not endless).
pub const MAX_OUTPUT: usize = 16 << 20;

/// The language `extension` names (`icp`, `fin`, `cheg`).
fn language(extension: &str) -> Result<Language, String> {
    Language::from_name(extension).ok_or_else(|| format!("no language is called {extension:?}"))
}

/// The diagnostics `icp2c` prints for a rejected program, and the line it
/// ends with (as `main.rs` writes them).
fn rejected(name: &str, text: &str, language: Language, errors: &[Diagnostic]) -> String {
    let n = errors.len();
    format!(
        "{}error: {name} rejected ({} program): {n} error{}\n",
        diagnostic::render(name, text, errors),
        language.name(),
        if n == 1 { "" } else { "s" }
    )
}

/// Checks `source` as the language `lang` names: what `icp2c --check NAME`
/// prints (`rendered`) and each diagnostic with its place, as JSON:
///
/// `{"ok":B,"errors":N,"rendered":S,"diagnostics":[{"severity":"error"|
/// "warning","message":S,"line":L,"col":C,"endLine":L,"endCol":C,
/// "from":U,"to":U,"text":S}]}`: lines and columns 1-based (columns count
/// characters, as the CLI's `FILE:LINE:COL`), `from` and `to` in UTF-16
/// code units (the editor's offsets), `text` the diagnostic as the CLI
/// renders it. At most [`diagnostic::MAX_RENDERED`] are listed.
pub fn check(lang: &str, name: &str, source: &[u8]) -> String {
    let language = match language(lang) {
        Ok(l) => l,
        Err(e) => return failure(&e),
    };
    let (text, diagnostics, ok) = match source::decode(source) {
        Err((text, diagnostics)) => (text, diagnostics, false),
        Ok(text) => match driver::check(language, &text) {
            Ok(checked) => (text, checked.warnings, true),
            Err(errors) => (text, errors, false),
        },
    };
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let rendered = if ok {
        diagnostic::render(name, &text, &diagnostics)
    } else {
        rejected(name, &text, language, &diagnostics)
    };
    let shown = &diagnostics[..diagnostics.len().min(diagnostic::MAX_RENDERED)];
    let places = places(&text, shown);
    let mut j = Json::new();
    j.raw("{").key("ok").bool(ok);
    j.raw(",").key("errors").int(errors as i64);
    j.raw(",").key("rendered").string(&rendered);
    j.raw(",").key("diagnostics").raw("[");
    for (i, d) in shown.iter().enumerate() {
        let place = |at: usize| places.get(&at).copied().unwrap_or_default();
        let (start, end) = (place(d.primary.span.start), place(d.primary.span.end));
        if i > 0 {
            j.raw(",");
        }
        j.raw("{").key("severity").string(match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        });
        j.raw(",").key("message").string(&d.message);
        j.raw(",").key("line").int(start.line);
        j.raw(",").key("col").int(start.col);
        j.raw(",").key("endLine").int(end.line);
        j.raw(",").key("endCol").int(end.col);
        j.raw(",").key("from").int(start.utf16);
        j.raw(",").key("to").int(end.utf16);
        j.raw(",")
            .key("text")
            .string(&diagnostic::render(name, &text, std::slice::from_ref(d)));
        j.raw("}");
    }
    j.raw("]}");
    j.finish()
}

/// A place in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    /// 1-based line.
    line: i64,
    /// 1-based column, in characters.
    col: i64,
    /// Offset in UTF-16 code units.
    utf16: i64,
}

impl Default for Place {
    /// The start of the text.
    fn default() -> Place {
        Place {
            line: 1,
            col: 1,
            utf16: 0,
        }
    }
}

/// The place of every span end of `diagnostics` (byte offsets, clamped to
/// the text and moved back to a character boundary), in one pass over
/// the text.
fn places(text: &str, diagnostics: &[Diagnostic]) -> HashMap<usize, Place> {
    let mut offsets: Vec<usize> = diagnostics
        .iter()
        .flat_map(|d| [d.primary.span.start, d.primary.span.end])
        .collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut out = HashMap::new();
    let mut place = Place::default();
    let mut wanted = offsets.iter().peekable();
    for (at, c) in text.char_indices() {
        while let Some(&&o) = wanted.peek() {
            if o > at {
                break;
            }
            out.insert(o, place);
            wanted.next();
        }
        if wanted.peek().is_none() {
            break;
        }
        place.utf16 += c.len_utf16() as i64;
        if c == '\n' {
            place.line += 1;
            place.col = 1;
        } else {
            place.col += 1;
        }
    }
    for &o in wanted {
        out.insert(o, place);
    }
    out
}

/// `{"ok":false,"error":S}`.
fn failure(message: &str) -> String {
    let mut j = Json::new();
    j.raw("{").key("ok").bool(false);
    j.raw(",").key("error").string(message);
    j.raw("}");
    j.finish()
}

/// The checked program, or the JSON answer saying why there is none (the
/// CLI's diagnostics and exit status 2).
fn checked(lang: &str, name: &str, source: &[u8]) -> Result<Program, String> {
    let language = language(lang).map_err(|e| failure(&e))?;
    let rejected_answer = |text: &str, errors: &[Diagnostic]| {
        let mut j = Json::new();
        j.raw("{").key("ok").bool(false);
        j.raw(",").key("status").int(2);
        j.raw(",").key("stdout").string("");
        j.raw(",")
            .key("stderr")
            .string(&rejected(name, text, language, errors));
        j.raw("}");
        j.finish()
    };
    let text = source::decode(source).map_err(|(text, d)| rejected_answer(&text, &d))?;
    driver::check(language, &text)
        .map(|c| c.program)
        .map_err(|errors| rejected_answer(&text, &errors))
}

/// A writer that keeps its first `limit` bytes, and then either drops the
/// rest (`fail` false) or fails; a `streamed` one also hands each write's
/// kept bytes to the page as they come ([`icp_output`], [`icp_errors`]),
/// so that a run's output shows while it runs and stays when the page
/// stops it.
struct Capped {
    bytes: Vec<u8>,
    limit: usize,
    cut: bool,
    fail: bool,
    streamed: Option<Stream>,
}

/// Which of a run's streams a writer is.
#[derive(Clone, Copy)]
enum Stream {
    Output,
    Errors,
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// The page's (`web/src/wasm.js`): `len` bytes of standard output at
    /// `ptr`, valid during the call.
    fn icp_output(ptr: *const u8, len: usize);
    /// The same for standard error.
    fn icp_errors(ptr: *const u8, len: usize);
}

/// Hands `bytes` of `stream` to the page (natively: nothing).
fn stream_out(bytes: &[u8], stream: Stream) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the page's imports only read the bytes during the call.
    unsafe {
        match stream {
            Stream::Output => icp_output(bytes.as_ptr(), bytes.len()),
            Stream::Errors => icp_errors(bytes.as_ptr(), bytes.len()),
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (bytes, stream);
}

impl Capped {
    fn new(limit: usize, fail: bool) -> Capped {
        Capped {
            bytes: Vec::new(),
            limit,
            cut: false,
            fail,
            streamed: None,
        }
    }
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.bytes.len());
        let kept = buf.len().min(room);
        self.bytes.extend_from_slice(&buf[..kept]);
        if let Some(stream) = self.streamed
            && kept > 0
        {
            stream_out(&buf[..kept], stream);
        }
        self.cut |= buf.len() > room;
        if self.fail && kept < buf.len() {
            if kept > 0 {
                return Ok(kept);
            }
            return Err(std::io::Error::other("the page keeps no more output"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capped {
    /// The bytes kept, as text, and a line saying so if some were not.
    fn text(self, stream: &str) -> String {
        let mut text = String::from_utf8_lossy(&self.bytes).into_owned();
        if self.cut {
            text.push_str(&format!("\n… {stream} cut after {} bytes\n", self.limit));
        }
        text
    }
}

/// The line `icp2c run` prints on standard error after a run, if any.
fn report(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Halted | Outcome::Reported(_) => String::new(),
        Outcome::RuntimeError(line) => format!("{line}\n"),
        Outcome::StepLimit(steps) => format!(
            "error: stopped after {steps} steps (--max-steps); the program did not end by itself\n"
        ),
    }
}

/// Runs `source` as `icp2c run` does with `input` on standard input,
/// `max_steps` as `--max-steps` (`None`: no limit), `args` the language's
/// own options (CHEG's `--fen F --depth N`, one a line) and `trace` as
/// `--trace` (drawn with letters, `--glyphs letters`):
///
/// `{"ok":B,"status":N,"stdout":S,"stderr":S}`: `ok` false when the
/// program was rejected or the options refused (then `stderr` says why,
/// as the CLI does, status 2). Standard output is read as UTF-8 (an
/// invalid sequence shows as U+FFFD), its first [`MAX_OUTPUT`] bytes;
/// standard error keeps its first [`MAX_ERRORS`] bytes. Both also reach the
/// page as the program writes them (unbuffered: a print at a time),
/// through the imports [`icp_output`] and [`icp_errors`].
pub fn run(
    lang: &str,
    name: &str,
    source: &[u8],
    input: &[u8],
    max_steps: Option<u64>,
    args: &str,
    trace: bool,
) -> String {
    let program = match checked(lang, name, source) {
        Ok(p) => p,
        Err(answer) => return answer,
    };
    let options = RunOptions {
        max_steps,
        args: args.lines().map(str::to_string).collect(),
        trace,
        glyphs: Glyphs::Letters,
        source_name: name.to_string(),
        unbuffered: true,
        ..RunOptions::default()
    };
    let mut stdout = Capped::new(MAX_OUTPUT, true);
    stdout.streamed = Some(Stream::Output);
    let mut stderr = Capped::new(MAX_ERRORS, false);
    stderr.streamed = Some(Stream::Errors);
    let result = program.run_with(&mut &input[..], &mut stdout, &mut stderr, &options);
    let mut errors = stderr.text("standard error");
    let (ok, status) = match result {
        Ok(outcome) => {
            errors.push_str(&report(&outcome));
            (true, outcome.exit_status())
        }
        Err(UsageError(message)) => {
            errors.push_str(&format!("error: {message}\n"));
            (false, 2)
        }
    };
    if stdout.cut {
        errors.push_str(&format!(
            "(the page keeps the first {MAX_OUTPUT} bytes of standard output: writing more failed)\n"
        ));
    }
    let mut j = Json::new();
    j.raw("{").key("ok").bool(ok);
    j.raw(",").key("status").int(i64::from(status));
    j.raw(",")
        .key("stdout")
        .string(&String::from_utf8_lossy(&stdout.bytes));
    j.raw(",").key("stderr").string(&errors);
    j.raw("}");
    j.finish()
}

/// Numbers the contents a recording uses (0 empty, 1 hole, then pieces).
#[derive(Default)]
struct Contents {
    index: HashMap<Content, usize>,
    list: Vec<Content>,
}

impl Contents {
    fn new() -> Contents {
        let mut c = Contents::default();
        c.of(&Content::Empty);
        c.of(&Content::Hole);
        c
    }

    fn of(&mut self, content: &Content) -> i64 {
        if let Some(&i) = self.index.get(content) {
            return i as i64;
        }
        let i = self.list.len();
        self.list.push(content.clone());
        self.index.insert(content.clone(), i);
        i as i64
    }
}

/// Squares as `[[ROW,COL,CONTENT]…]`, contents numbered by `contents`.
fn start_json(j: &mut Json, squares: &[(i64, i64, Content)], contents: &mut Contents) {
    j.raw("[");
    for (i, (r, c, content)) in squares.iter().enumerate() {
        j.raw(if i > 0 { ",[" } else { "[" });
        j.int(*r)
            .raw(",")
            .int(*c)
            .raw(",")
            .int(contents.of(content));
        j.raw("]");
    }
    j.raw("]");
}

/// Steps as `[[LINE,TRACE,OUT,[R,K,B,A…],STACKS]…]`: each its source
/// line, its `--trace` line, the bytes of output written by its end, its
/// changes as flat quadruples (row, col, content before, content after)
/// and, for Finvara, both stacks as `[[DEPTH,[TOP…]],[DEPTH,[TOP…]]]`
/// (else `null`). Coordinates and stack numbers beyond 2^53 are strings.
fn steps_json(j: &mut Json, steps: &[Step], contents: &mut Contents) {
    j.raw("[");
    for (i, step) in steps.iter().enumerate() {
        j.raw(if i > 0 { ",[" } else { "[" });
        j.int(step.line as i64).raw(",").string(&step.trace);
        j.raw(",").int(step.output as i64).raw(",[");
        for (k, change) in step.changes.iter().enumerate() {
            if k > 0 {
                j.raw(",");
            }
            j.int(change.row).raw(",").int(change.col).raw(",");
            j.int(contents.of(&change.before)).raw(",");
            j.int(contents.of(&change.after));
        }
        j.raw("],");
        match &step.stacks {
            None => {
                j.raw("null");
            }
            Some(stacks) => {
                j.raw("[");
                for (s, stack) in stacks.iter().enumerate() {
                    j.raw(if s > 0 { ",[" } else { "[" });
                    j.int(stack.depth as i64).raw(",[");
                    for (k, n) in stack.top.iter().enumerate() {
                        if k > 0 {
                            j.raw(",");
                        }
                        j.int(*n);
                    }
                    j.raw("]]");
                }
                j.raw("]");
            }
        }
        j.raw("]");
    }
    j.raw("]");
}

/// Contents as `[C…]`: `null` empty, `"hole"`, `[SIDE,SYMBOL,NAME]`.
fn contents_json(j: &mut Json, list: &[Content]) {
    j.raw("[");
    for (i, content) in list.iter().enumerate() {
        if i > 0 {
            j.raw(",");
        }
        match content {
            Content::Empty => j.raw("null"),
            Content::Hole => j.string("hole"),
            Content::Piece(p) => j
                .raw("[")
                .string(match p.side {
                    Side::White => "w",
                    Side::Black => "b",
                })
                .raw(",")
                .string(&p.symbol.to_string())
                .raw(",")
                .string(&p.name)
                .raw("]"),
        };
    }
    j.raw("]");
}

// -- the debugger --------------------------------------------------------

/// The steps a debugged run keeps for stepping back (the page keeps as
/// many).
pub const DEBUG_HISTORY: usize = 100_000;

/// Standard output of a debugged run: handed to the page as it is written
/// ([`icp_output`]), its first [`MAX_OUTPUT`] bytes, past which a write
/// fails as [`run`]'s does.
struct Streamed {
    written: usize,
    cut: Rc<Cell<bool>>,
}

impl Write for Streamed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let kept = buf.len().min(MAX_OUTPUT - self.written);
        if kept < buf.len() {
            self.cut.set(true);
        }
        if kept == 0 && !buf.is_empty() {
            return Err(std::io::Error::other("the page keeps no more output"));
        }
        stream_out(&buf[..kept], Stream::Output);
        self.written += kept;
        Ok(kept)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The run being debugged, between calls.
struct Session {
    debugger: Debugger<Box<dyn Stepper>>,
    /// The contents numbered so far: an answer sends the new ones.
    contents: Contents,
    cut: Rc<Cell<bool>>,
}

thread_local! {
    /// The run being debugged ([`debug`], [`advance`]).
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Starts debugging `source` ([`Program::debugger`]) with `input`,
/// keeping its last `keep` steps (at most [`DEBUG_HISTORY`]), before its
/// first step; ends the run debugged before. `{"ok":true,"width":W,
/// "height":H,"start":[[R,K,I]…],"contents":[C…],"next":LINE|null}`:
/// `width` and `height` 0 for InfChessPro's unbounded board; squares
/// (row, col, content) hold indices into the contents, 0 empty, 1 a hole,
/// then pieces as `[SIDE,SYMBOL,NAME]` (`"w"`/`"b"`, the kind's letter,
/// the name), numbered for the whole session; `{"ok":false,…}` as
/// [`run`] for a rejected program or CHEG.
///
/// The session outlives the call, so it holds the program for good
/// (leaked): the page gives each debugged run a fresh worker, and what a
/// session holds goes with it.
pub fn debug(lang: &str, name: &str, source: &[u8], input: &[u8], keep: usize) -> String {
    SESSION.with(|s| s.borrow_mut().take());
    let program: &'static Program = match checked(lang, name, source) {
        Ok(p) => Box::leak(Box::new(p)),
        Err(answer) => return answer,
    };
    let options = RunOptions {
        glyphs: Glyphs::Letters,
        ..RunOptions::default()
    };
    let cut = Rc::new(Cell::new(false));
    let output = Streamed {
        written: 0,
        cut: cut.clone(),
    };
    let input = std::io::Cursor::new(input.to_vec());
    let keep = keep.clamp(1, DEBUG_HISTORY);
    let Some(debugger) = program.debugger(Box::new(input), Box::new(output), &options, keep) else {
        return failure(&format!(
            "{} programs have no board to step through: run a search to see the statements it ran",
            program.language().name()
        ));
    };
    let mut contents = Contents::new();
    let mut j = Json::new();
    let (width, height) = match debugger.shape() {
        Shape::Unbounded => (0, 0),
        Shape::Grid { width, height } => (width, height),
    };
    j.raw("{").key("ok").bool(true);
    j.raw(",").key("width").int(width as i64);
    j.raw(",").key("height").int(height as i64);
    j.raw(",").key("start");
    start_json(&mut j, &debugger.board(), &mut contents);
    j.raw(",").key("contents");
    contents_json(&mut j, &contents.list);
    j.raw(",").key("next");
    line_json(&mut j, debugger.next_line());
    j.raw("}");
    SESSION.with(|s| {
        *s.borrow_mut() = Some(Session {
            debugger,
            contents,
            cut,
        })
    });
    j.finish()
}

fn line_json(j: &mut Json, line: Option<usize>) {
    match line {
        Some(line) => j.int(line as i64),
        None => j.raw("null"),
    };
}

/// Runs the debugged run on ([`Debugger::advance`]): at most `most`
/// steps, stopping before a line of `breakpoints` (but for the first step
/// when `leave`). `{"ok":true,"pause":"breakpoint"|"slice"|"ended",
/// "ran":N,"next":LINE|null,"first":N,"start":[…]|null,"steps":[…],
/// "contents":[C…],"status":N|null,"stderr":S,"error_line":LINE|null,
/// "end":S|null}`: the steps not sent before, from the `first`-th (with
/// `start`, the board before them, when they replace the history the page
/// has), the contents numbered since the last answer (appended to the
/// page's list), and once ended its exit status, standard error and the
/// line of a runtime error. Standard output is streamed as it is written.
pub fn advance(most: u64, breakpoints: &str, leave: bool, send_steps: bool) -> String {
    let breakpoints: BTreeSet<usize> = breakpoints
        .split(',')
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    SESSION.with(|s| {
        let mut s = s.borrow_mut();
        let Some(session) = s.as_mut() else {
            return failure("no run is being debugged");
        };
        let pause = session.debugger.advance(most, &breakpoints, leave);
        let update = if send_steps {
            session.debugger.update()
        } else {
            Update {
                start: None,
                steps: Vec::new(),
                first: session.debugger.ran(),
            }
        };
        let known = session.contents.list.len();
        let mut j = Json::new();
        j.raw("{").key("ok").bool(true);
        j.raw(",").key("pause").string(match pause {
            Pause::Breakpoint => "breakpoint",
            Pause::Slice => "slice",
            Pause::Ended => "ended",
        });
        j.raw(",").key("ran").int(session.debugger.ran() as i64);
        j.raw(",").key("next");
        line_json(&mut j, session.debugger.next_line());
        j.raw(",").key("first").int(update.first as i64);
        j.raw(",").key("start");
        match &update.start {
            Some(start) => start_json(&mut j, start, &mut session.contents),
            None => {
                j.raw("null");
            }
        }
        j.raw(",").key("steps");
        steps_json(&mut j, &update.steps, &mut session.contents);
        j.raw(",").key("contents");
        contents_json(&mut j, &session.contents.list[known..]);
        let ended = session.debugger.ended();
        j.raw(",").key("status");
        match ended {
            Some(e) => j.int(i64::from(e.outcome.exit_status())),
            None => j.raw("null"),
        };
        let mut stderr = ended.map(|e| report(&e.outcome)).unwrap_or_default();
        if ended.is_some() && session.cut.get() {
            stderr.push_str(&format!(
                "(the page keeps the first {MAX_OUTPUT} bytes of standard output: writing more failed)\n"
            ));
        }
        j.raw(",").key("stderr").string(&stderr);
        j.raw(",").key("error_line");
        line_json(&mut j, ended.and_then(|e| e.line));
        j.raw(",").key("end");
        match session.debugger.end_line() {
            Some(line) => j.string(&line),
            None => j.raw("null"),
        };
        j.raw("}");
        j.finish()
    })
}

/// Generates one file of `target` (`c` or `rust`) for `source`, `name`
/// written in its header, as `icp2c NAME` and `icp2c --target rust NAME`
/// print it: `{"ok":true,"text":S}`, or `{"ok":false,"error":S}` with the
/// diagnostics of a rejected program or the back end's refusal.
pub fn emit(lang: &str, name: &str, source: &[u8], target: &str) -> String {
    let target = match target {
        "c" => Target::C,
        "rust" => Target::Rust,
        other => return failure(&format!("no target is called {other:?}")),
    };
    let language = match language(lang) {
        Ok(l) => l,
        Err(e) => return failure(&e),
    };
    let text = match source::decode(source) {
        Ok(text) => text,
        Err((text, d)) => return failure(&rejected(name, &text, language, &d)),
    };
    let program = match driver::check(language, &text) {
        Ok(checked) => checked.program,
        Err(errors) => return failure(&rejected(name, &text, language, &errors)),
    };
    match program.emit_file(target, name) {
        Ok(generated) => {
            let mut j = Json::new();
            j.raw("{").key("ok").bool(true);
            j.raw(",").key("text").string(&generated);
            j.raw("}");
            j.finish()
        }
        Err(unsupported) => failure(&format!("error: {unsupported}")),
    }
}

/// The position a FEN describes (CHEG §7.4), for a board diagram:
/// `{"ok":true,"side":"w"|"b","fen":S,"pieces":[[SQUARE,LETTER]…]}` with
/// squares 0 (a1) to 63 (h8) and letters upper case for white, or
/// `{"ok":false,"error":S}` with the engine's message for a bad FEN.
pub fn position(fen: &str) -> String {
    let position = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(message) => return failure(&format!("error: {message}")),
    };
    let mut j = Json::new();
    j.raw("{").key("ok").bool(true);
    let side = match position.side_to_move() {
        Colour::White => "w",
        Colour::Black => "b",
    };
    j.raw(",").key("side").string(side);
    j.raw(",").key("fen").string(&position.to_fen());
    j.raw(",").key("pieces").raw("[");
    let mut first = true;
    for square in 0..64u8 {
        if let Some(piece) = position.piece_at(square) {
            let letter = piece.kind.letter();
            let letter = match piece.colour {
                Colour::White => letter,
                Colour::Black => letter.to_ascii_lowercase(),
            };
            j.raw(if first { "[" } else { ",[" });
            j.int(i64::from(square))
                .raw(",")
                .string(&letter.to_string());
            j.raw("]");
            first = false;
        }
    }
    j.raw("]}");
    j.finish()
}

/// The library's version and languages: `{"version":S,"languages":
/// [[EXTENSION,NAME]…]}`.
pub fn about() -> String {
    let mut j = Json::new();
    j.raw("{").key("version").string(icp2c::codegen::VERSION);
    j.raw(",").key("languages").raw("[");
    for (i, l) in Language::ALL.iter().enumerate() {
        j.raw(if i > 0 { ",[" } else { "[" });
        j.string(l.extension()).raw(",").string(l.name()).raw("]");
    }
    j.raw("]}");
    j.finish()
}

// -- the exports ---------------------------------------------------------

thread_local! {
    /// The answer of the last call.
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Reserves `len` bytes for a request; [`icp_call`] frees them.
#[unsafe(no_mangle)]
pub extern "C" fn icp_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn icp_result_ptr() -> *const u8 {
    RESULT.with(|r| r.borrow().as_ptr())
}

/// How many bytes the last answer has.
#[unsafe(no_mangle)]
pub extern "C" fn icp_result_len() -> usize {
    RESULT.with(|r| r.borrow().len())
}

/// The fields of a request: each a little-endian `u32` length and that
/// many bytes. A short field ends the list.
pub fn fields(request: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = request;
    while rest.len() >= 4 {
        let n = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
        let Some(field) = rest.get(4..4 + n) else {
            break;
        };
        out.push(field);
        rest = &rest[4 + n..];
    }
    out
}

/// Answers request `op` with the fields of a request: 0 [`about`]; 1
/// [`check`] (lang, name, source); 2 [`run`] (lang, name, source, input,
/// max steps or empty, args, trace `1` or empty); 4 [`emit`] (lang,
/// name, source, target); 5 [`position`] (fen); 6 [`debug`] (lang, name,
/// source, input, steps kept); 7 [`advance`] (most steps, breakpoints'
/// lines separated by commas, leave and send steps each `1` or empty).
/// Missing fields are empty; 3 (a whole recorded run, which the
/// debugger replaced) is no operation any more.
pub fn call(op: u32, request: &[u8]) -> String {
    let f = fields(request);
    let bytes = |i: usize| f.get(i).copied().unwrap_or_default();
    let text = |i: usize| String::from_utf8_lossy(bytes(i)).into_owned();
    let steps = |i: usize| text(i).trim().parse::<u64>().ok();
    match op {
        0 => about(),
        1 => check(&text(0), &text(1), bytes(2)),
        2 => run(
            &text(0),
            &text(1),
            bytes(2),
            bytes(3),
            steps(4),
            &text(5),
            text(6) == "1",
        ),
        4 => emit(&text(0), &text(1), bytes(2), &text(3)),
        5 => position(&text(0)),
        6 => debug(
            &text(0),
            &text(1),
            bytes(2),
            bytes(3),
            steps(4).unwrap_or(DEBUG_HISTORY as u64) as usize,
        ),
        7 => advance(
            steps(0).unwrap_or(1),
            &text(1),
            text(2) == "1",
            text(3) == "1",
        ),
        _ => failure(&format!("no operation {op}")),
    }
}

/// Answers request `op` whose fields are the `len` bytes at `ptr` (from
/// [`icp_alloc`], freed here); the answer is at [`icp_result_ptr`].
///
/// # Safety
/// `ptr` must come from `icp_alloc(len)` and be passed here once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn icp_call(op: u32, ptr: *mut u8, len: usize) {
    // SAFETY: `ptr` is a buffer of capacity `len.max(1)` from `icp_alloc`,
    // whose first `len` bytes the page wrote; it is freed once, here.
    let request = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = call(op, &request);
    drop(request);
    RESULT.with(|r| *r.borrow_mut() = answer.into_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(fields: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for f in fields {
            out.extend_from_slice(&(f.len() as u32).to_le_bytes());
            out.extend_from_slice(f.as_bytes());
        }
        out
    }

    #[test]
    fn requests_are_length_prefixed_fields() {
        let r = request(&["icp", "", "1. \"hi\"\n"]);
        assert_eq!(fields(&r), vec![&b"icp"[..], b"", b"1. \"hi\"\n"]);
        assert_eq!(fields(&r[..r.len() - 1]).len(), 2);
    }

    #[test]
    fn a_run_answers_what_icp2c_run_prints() {
        let answer = call(2, &request(&["icp", "p.icp", "1. \"hi\n", "", "", "", ""]));
        assert_eq!(
            answer,
            r#"{"ok":true,"status":0,"stdout":"hi\n","stderr":""}"#
        );
        let answer = call(2, &request(&["icp", "p.icp", "1. ^?1\n", "", "5"]));
        assert!(answer.contains(r#""status":3"#), "{answer}");
        assert!(answer.contains("stopped after 5 steps"), "{answer}");
    }

    #[test]
    fn output_past_the_pages_limit_is_a_failed_write() {
        let mut out = Capped::new(4, true);
        assert_eq!(out.write(b"abcdef").unwrap(), 4);
        assert!(out.write(b"ef").is_err());
        assert!(out.cut);
        let mut errors = Capped::new(4, false);
        assert_eq!(errors.write(b"abcdef").unwrap(), 6);
        assert_eq!(
            errors.text("standard error"),
            "abcd\n… standard error cut after 4 bytes\n"
        );
    }

    #[test]
    fn a_rejected_program_has_the_clis_diagnostics_and_places() {
        let answer = check("icp", "bad.icp", "1. \"hi\"\n2. x=X0,0\n".as_bytes());
        assert!(answer.starts_with(r#"{"ok":false,"errors":1"#), "{answer}");
        assert!(answer.contains("bad.icp:2:"), "{answer}");
        assert!(
            answer.contains("error: bad.icp rejected (InfChessPro program): 1 error"),
            "{answer}"
        );
        assert!(answer.contains(r#""line":2"#), "{answer}");
    }

    #[test]
    fn places_count_characters_and_utf16_units() {
        let text = "é𝄞\nab";
        let d = [Diagnostic::error(7..9, "x"), Diagnostic::error(0..2, "y")];
        let p = places(text, &d);
        assert_eq!(
            p[&0],
            Place {
                line: 1,
                col: 1,
                utf16: 0
            }
        );
        assert_eq!(
            p[&2],
            Place {
                line: 1,
                col: 2,
                utf16: 1
            }
        );
        assert_eq!(
            p[&7],
            Place {
                line: 2,
                col: 1,
                utf16: 4
            }
        );
        assert_eq!(
            p[&9],
            Place {
                line: 2,
                col: 3,
                utf16: 6
            }
        );
    }

    #[test]
    fn a_debugged_run_pauses_at_breakpoints_and_sends_each_step_once() {
        let program = b"1. x=K0,0\n2. x;0,1\n3. x;0,1\n4. \"done\n";
        let started = debug("icp", "p.icp", program, b"", 10);
        assert_eq!(
            started,
            r#"{"ok":true,"width":0,"height":0,"start":[],"contents":[null,"hole"],"next":1}"#
        );
        // To the breakpoint on line 3: two steps, and a new content.
        let a = advance(100, "3", false, true);
        assert!(a.starts_with(r#"{"ok":true,"pause":"breakpoint","ran":2,"next":3,"first":0,"start":null,"steps":[[1,"#), "{a}");
        assert!(a.contains(r#""contents":[["w","k","x"]]"#), "{a}");
        // Leaving it, to the end: the two steps after, no content again.
        let b = advance(100, "3", true, true);
        assert!(b.starts_with(r#"{"ok":true,"pause":"ended","ran":4,"next":null,"first":2,"start":null,"steps":[[3,"#), "{b}");
        assert!(
            b.contains(r#""contents":[],"status":0,"stderr":"","error_line":null"#),
            "{b}"
        );
        // Steps not sent wait for an answer that sends them.
        debug("icp", "p.icp", program, b"", 10);
        let quiet = advance(2, "", false, false);
        assert!(quiet.contains(r#""steps":[]"#), "{quiet}");
        let sent = advance(0, "", false, true);
        assert!(
            sent.contains(r#""first":0,"start":null,"steps":[[1,"#),
            "{sent}"
        );
        // A runtime error names its line.
        debug("icp", "p.icp", b"1. ^?*\n", b"7\n", 10);
        let e = advance(10, "", false, true);
        assert!(
            e.contains(r#""status":1"#) && e.contains(r#""error_line":1"#),
            "{e}"
        );
        // CHEG has no board.
        let kpk = include_bytes!("../../../examples/kpk.cheg");
        assert!(debug("cheg", "k.cheg", kpk, b"", 10).contains("no board"));
        assert!(advance(1, "", false, true).contains("no run is being debugged"));
    }

    #[test]
    fn generated_code_and_positions() {
        let c = emit("icp", "p.icp", b"1. \"hi\"\n", "c");
        assert!(c.contains("from p.icp (InfChessPro)"), "{c}");
        let p = position("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1");
        assert!(p.contains(r#""pieces":[[4,"K"],[12,"P"],[20,"k"]]"#), "{p}");
        assert!(position("nonsense").starts_with(r#"{"ok":false"#));
    }
}
