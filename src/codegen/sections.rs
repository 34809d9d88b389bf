//! Runtime sections: how a generated program carries only the runtime it
//! uses.
//!
//! Every language's runtimes (the Rust one, which the interpreter runs and
//! generated Rust pastes, and its C port) are cut into *sections* by marker
//! lines. A marker is a whole line (blanks around it allowed):
//!
//! ```text
//! // @section NAME: NEEDED NEEDED …        (Rust)   /* @section NAME: NEEDED … */   (C)
//! // @end NAME                            (Rust)   /* @end NAME */                 (C)
//! ```
//!
//! - The lines between a `@section NAME` and its `@end NAME` are a region
//!   of section NAME. A section may have many regions, anywhere in the
//!   runtime: a function, an enum variant, the arm that matches it, a
//!   `use` line. Regions nest; a line is kept when every region around it
//!   is kept, so a region inside section A that is also marked B is kept
//!   only with both.
//! - `: NEEDED …` names the sections that section NAME needs (what its
//!   code calls). The needs of all of a section's regions add up. Lines
//!   outside every region are the runtime's core, kept in every program;
//!   a section named `core` is kept in every program too, and is where the
//!   core states what it needs (`// @section core: alloc`).
//! - [`Runtime::select`] keeps the regions of the sections a back end
//!   records ([`Uses`]) and of every section they need, transitively, and
//!   drops the markers and the rest. It leaves no two blank lines in a row
//!   and no blank line just inside a `{ … }`, as rustfmt lays code out.
//!
//! `cargo fmt` may join a `// @end` that follows a block arm onto the
//! arm's closing `}`, where it is no longer a marker line: keep a
//! comma-ended arm (or a statement) last before a marker.
//!
//! A language's runtime *entry points* (what generated code calls) are one
//! table, `src/lang/<lang>/runtime/api.rs`, of [`Entry`] rows: the Rust
//! path, the C symbol and the section holding both. A back end spells a
//! call through its row ([`Uses::c`], [`Uses::rust`]), which records the
//! section. Generated C must build under `-Wall -Wextra -Werror` (an unused
//! `static` function is an error) and generated Rust under `-D warnings`
//! (dead code is an error), so the compilers prove that a selection holds
//! nothing unused; the tests build every example and test program so.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The section every program keeps, whatever it uses: its needs are
/// the core's.
pub const CORE: &str = "core";

/// The comment syntax of a runtime's markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markers {
    /// `// @section NAME: …` and `// @end NAME` (Rust).
    Rust,
    /// `/* @section NAME: … */` and `/* @end NAME */` (C).
    C,
}

/// One row of a language's table of runtime entry points: an operation
/// that generated code calls, spelt for each target, and the section that
/// holds it in both runtimes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The operation, as the table and tests name it (`"place"`).
    pub name: &'static str,
    /// How generated Rust reaches it, relative to the runtime module
    /// (`"Board::place"`, `"write_text"`).
    pub rust: &'static str,
    /// Its C symbol (`"icp_place"`): a function, or a constant or type a
    /// generated program names.
    pub c: &'static str,
    /// The section of both runtimes that defines it.
    pub section: &'static str,
}

/// What a program carries of a runtime in one target: the text its
/// generated code pastes (markers removed), and the sections that text
/// holds, in name order ([`crate::driver::Program::runtime`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selected {
    /// The runtime text, markers removed.
    pub text: String,
    /// The sections kept.
    pub sections: Vec<&'static str>,
}

/// The sections a generated program uses, recorded as its back end spells
/// calls through [`Entry`] rows. Ordered, so generated text never depends
/// on hash order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    sections: BTreeSet<&'static str>,
}

impl Uses {
    /// Nothing used yet: a selection then holds the core alone.
    pub fn new() -> Uses {
        Uses::default()
    }

    /// Records that the program uses `entry`.
    pub fn add(&mut self, entry: &Entry) {
        self.sections.insert(entry.section);
    }

    /// Records `entry` and returns its C symbol.
    pub fn c(&mut self, entry: &Entry) -> &'static str {
        self.add(entry);
        entry.c
    }

    /// Records `entry` and returns its Rust path.
    pub fn rust(&mut self, entry: &Entry) -> &'static str {
        self.add(entry);
        entry.rust
    }

    /// Records a section by name, for what a template writes itself
    /// rather than through a row (the program's `main`).
    pub fn section(&mut self, section: &'static str) {
        self.sections.insert(section);
    }

    /// Everything `other` recorded too.
    pub fn extend(&mut self, other: &Uses) {
        self.sections.extend(other.sections.iter().copied());
    }

    /// The recorded sections, in name order.
    pub fn sections(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.sections.iter().copied()
    }
}

/// A runtime whose markers did not parse: a mismatched `@end`, a region
/// left open, a need naming no section. Only a bug in a runtime source can
/// cause one; the unit tests parse every runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerError {
    /// 1-based line of the runtime text.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for MarkerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "runtime line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for MarkerError {}

/// One line of a parsed runtime.
#[derive(Clone, Debug)]
struct Line<'a> {
    text: &'a str,
    /// Indices (into `Runtime::names`) of the sections around the line;
    /// empty for the core. `None` for a marker line.
    within: Option<Vec<usize>>,
}

/// A runtime text cut into sections ([`Runtime::parse`]).
#[derive(Clone, Debug)]
pub struct Runtime<'a> {
    lines: Vec<Line<'a>>,
    /// Section names, in order of first appearance.
    names: Vec<&'a str>,
    /// Section index → the sections it needs.
    needs: Vec<BTreeSet<usize>>,
}

/// What a marker line says.
enum Marker<'a> {
    Open(&'a str, Vec<&'a str>),
    Close(&'a str),
}

fn marker(line: &str, markers: Markers) -> Option<Marker<'_>> {
    let t = line.trim();
    let body = match markers {
        Markers::Rust => t.strip_prefix("// @")?,
        Markers::C => t.strip_prefix("/* @")?.strip_suffix("*/")?.trim_end(),
    };
    if let Some(rest) = body.strip_prefix("section ") {
        let (name, needs) = match rest.split_once(':') {
            Some((name, needs)) => (name.trim(), needs.split_whitespace().collect()),
            None => (rest.trim(), Vec::new()),
        };
        Some(Marker::Open(name, needs))
    } else {
        body.strip_prefix("end ")
            .map(|name| Marker::Close(name.trim()))
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

impl<'a> Runtime<'a> {
    /// Parses the markers of `text`. Errors: a marker naming no valid
    /// section (lower case, digits, `_`), an `@end` that does not close the
    /// innermost open region, a region left open, a need that names no
    /// section of the runtime. (Needs may go round in a circle: a section
    /// is reached once, and kept once.)
    pub fn parse(text: &'a str, markers: Markers) -> Result<Runtime<'a>, MarkerError> {
        let mut names: Vec<&'a str> = Vec::new();
        let mut index: BTreeMap<&'a str, usize> = BTreeMap::new();
        let mut needs_by_name: Vec<Vec<(&'a str, usize)>> = Vec::new();
        let mut open: Vec<(usize, usize)> = Vec::new();
        let mut lines = Vec::new();
        for (n, text) in text.lines().enumerate() {
            let line = n + 1;
            let fail = |message: String| MarkerError { line, message };
            match marker(text, markers) {
                None => lines.push(Line {
                    text,
                    within: Some(open.iter().map(|&(s, _)| s).collect()),
                }),
                Some(Marker::Open(name, needs)) => {
                    if !valid_name(name) || needs.iter().any(|n| !valid_name(n)) {
                        return Err(fail(format!("bad section marker `{}`", text.trim())));
                    }
                    let s = *index.entry(name).or_insert_with(|| {
                        names.push(name);
                        needs_by_name.push(Vec::new());
                        names.len() - 1
                    });
                    needs_by_name[s].extend(needs.into_iter().map(|need| (need, line)));
                    open.push((s, line));
                    lines.push(Line { text, within: None });
                }
                Some(Marker::Close(name)) => match open.pop() {
                    Some((s, _)) if names[s] == name => lines.push(Line { text, within: None }),
                    Some((s, _)) => {
                        return Err(fail(format!("`@end {name}` closes section `{}`", names[s])));
                    }
                    None => return Err(fail(format!("`@end {name}` closes nothing"))),
                },
            }
        }
        if let Some(&(s, line)) = open.last() {
            return Err(MarkerError {
                line,
                message: format!("section `{}` is never closed", names[s]),
            });
        }
        let mut needs = Vec::with_capacity(names.len());
        for (s, list) in needs_by_name.iter().enumerate() {
            let mut set = BTreeSet::new();
            for &(need, line) in list {
                match index.get(need) {
                    Some(&t) if t != s => {
                        set.insert(t);
                    }
                    Some(_) => {}
                    None => {
                        return Err(MarkerError {
                            line,
                            message: format!(
                                "section `{}` needs `{need}`, which has no region",
                                names[s]
                            ),
                        });
                    }
                }
            }
            needs.push(set);
        }
        Ok(Runtime {
            lines,
            names,
            needs,
        })
    }

    /// Every section name, in order of first appearance.
    pub fn section_names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.names.iter().copied()
    }

    /// Whether `name` is a section of this runtime.
    pub fn has_section(&self, name: &str) -> bool {
        self.names.contains(&name)
    }

    /// The sections `uses` reaches: those it names that this runtime has,
    /// and every section they need, transitively (an explicit work list).
    pub fn reach(&self, uses: &Uses) -> BTreeSet<&'a str> {
        let mut kept = vec![false; self.names.len()];
        let mut work: Vec<usize> = uses
            .sections()
            .chain([CORE])
            .filter_map(|s| self.names.iter().position(|n| *n == s))
            .collect();
        while let Some(s) = work.pop() {
            if !kept[s] {
                kept[s] = true;
                work.extend(self.needs[s].iter().copied());
            }
        }
        (0..self.names.len())
            .filter(|&s| kept[s])
            .map(|s| self.names[s])
            .collect()
    }

    /// The text a program that `uses` these sections carries: the core,
    /// the regions of the sections [`Runtime::reach`] gives, no markers,
    /// and blank lines tidied as rustfmt leaves them.
    pub fn select(&self, uses: &Uses) -> String {
        let reached = self.reach(uses);
        let kept: Vec<bool> = self.names.iter().map(|n| reached.contains(n)).collect();
        let mut out = String::new();
        let mut blank_pending = false;
        let mut last = "";
        for line in &self.lines {
            let Some(within) = &line.within else { continue };
            if !within.iter().all(|&s| kept[s]) {
                continue;
            }
            let trimmed = line.text.trim();
            if trimmed.is_empty() {
                blank_pending = !out.is_empty();
                continue;
            }
            let after_open = last.ends_with('{');
            let closes = trimmed.starts_with('}') || trimmed.starts_with(')');
            if blank_pending && !after_open && !closes {
                out.push('\n');
            }
            blank_pending = false;
            out.push_str(line.text);
            out.push('\n');
            last = trimmed;
        }
        out
    }

    /// The lines of `section`'s regions (whatever other regions they lie
    /// in), for tests that compare a section of two runtimes.
    pub fn section_text(&self, section: &str) -> String {
        let Some(s) = self.names.iter().position(|n| *n == section) else {
            return String::new();
        };
        let mut out = String::new();
        for line in &self.lines {
            if line.within.as_ref().is_some_and(|w| w.contains(&s)) {
                out.push_str(line.text);
                out.push('\n');
            }
        }
        out
    }

    /// The whole text without markers: what a program using every
    /// section carries (the interpreter compiles the runtime so).
    pub fn all(&self) -> String {
        let mut out = String::new();
        for line in self.lines.iter().filter(|l| l.within.is_some()) {
            out.push_str(line.text);
            out.push('\n');
        }
        out
    }
}

/// `text` without its markers, every section kept: the C a back end
/// pastes before it selects sections. Errors: as [`Runtime::parse`].
pub fn whole(text: &str, markers: Markers) -> Result<String, MarkerError> {
    Runtime::parse(text, markers).map(|rt| rt.all())
}

/// What the `api.rs` tests of every language share: whether a line
/// defines an entry's symbol, and the check that each entry of a table
/// is defined in its section of both runtimes.
#[cfg(test)]
pub(crate) mod entry_checks {
    use super::{CORE, Entry, Runtime, Uses};

    /// Whether a line of C defines `symbol`: a macro, a function (not its
    /// prototype), a `static` variable, an enumerator, the end of a
    /// `typedef` or a `struct`.
    pub(crate) fn c_defines(line: &str, symbol: &str) -> bool {
        let t = line.trim();
        let word_then = |text: &str, after: char| {
            text.match_indices(symbol).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let next = text[at + symbol.len()..].chars().next();
                before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) && next == Some(after)
            })
        };
        let enumerator = t.starts_with("enum {")
            && t.split(['{', ',', '}']).any(|item| {
                let item = item.trim();
                item == symbol || item.starts_with(&format!("{symbol} ="))
            });
        let definer = t.starts_with("static ") || t.starts_with("ICP_API ");
        enumerator
            || t.strip_prefix("#define ").is_some_and(|rest| {
                rest.strip_prefix(symbol)
                    .is_some_and(|r| r.is_empty() || r.starts_with([' ', '(', '\t']))
            })
            || (!line.starts_with(' ')
                && (definer || t.contains("static "))
                && word_then(t, '(')
                && !t.ends_with(';'))
            || (definer && t.ends_with(&format!(" {symbol};")))
            || t == format!("}} {symbol};")
            || (t.starts_with("struct ") && word_then(t, ' '))
    }

    /// Whether a line of Rust defines `name`: an item (function or
    /// method, type, trait, constant), an enum variant or a field.
    pub(crate) fn rust_defines(line: &str, name: &str) -> bool {
        let t = line.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let item = ["fn ", "struct ", "enum ", "trait ", "type ", "const "]
            .iter()
            .any(|kw| {
                t.strip_prefix(kw)
                    .and_then(|rest| rest.strip_prefix(name))
                    .is_some_and(|rest| {
                        !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    })
            });
        let variant_or_field = t.strip_prefix(name).is_some_and(|rest| {
            rest.chars()
                .next()
                .is_some_and(|c| matches!(c, ',' | '(' | ' ' | ':'))
        });
        item || variant_or_field
    }

    /// Every entry of `entries` is in a section both runtimes have, and
    /// its C symbol and the last segment of its Rust path (where it names
    /// one) are defined in that section's regions (the core: what every
    /// program carries).
    pub(crate) fn assert_entries_defined(c: &Runtime<'_>, rust: &Runtime<'_>, entries: &[Entry]) {
        let core = [c.select(&Uses::new()), rust.select(&Uses::new())];
        for e in entries {
            assert!(!e.rust.is_empty() || !e.c.is_empty(), "{e:?} names nothing");
            for (i, (runtime, target, symbol)) in [(c, "C", e.c), (rust, "Rust", e.rust)]
                .into_iter()
                .enumerate()
            {
                assert!(
                    runtime.has_section(e.section),
                    "{}: section {} is not in the {target} runtime",
                    e.name,
                    e.section
                );
                if symbol.is_empty() {
                    continue;
                }
                let text = if e.section == CORE {
                    core[i].clone()
                } else {
                    runtime.section_text(e.section)
                };
                let defined = match i {
                    0 => text.lines().any(|l| c_defines(l, symbol)),
                    _ => {
                        let last = symbol.rsplit("::").next().unwrap_or(symbol);
                        text.lines().any(|l| rust_defines(l, last))
                    }
                };
                assert!(
                    defined,
                    "{}: {symbol} is not defined in a region of {} in the {target} runtime",
                    e.name, e.section
                );
            }
        }
    }

    #[test]
    fn the_definition_tests_tell_definitions_from_uses() {
        assert!(c_defines(
            "ICP_API int icp_place(uint32_t name, int colour,",
            "icp_place"
        ));
        assert!(c_defines(
            "static int64_t icp_current_label;",
            "icp_current_label"
        ));
        assert!(c_defines("#define ICP_KING 0", "ICP_KING"));
        assert!(!c_defines("#define ICP_KINGS 0", "ICP_KING"));
        assert!(c_defines("} icp_loop_step;", "icp_loop_step"));
        assert!(c_defines("enum { ICP_A, ICP_B = 2 };", "ICP_B"));
        assert!(c_defines("struct icp_node {", "icp_node"));
        assert!(c_defines(
            "static long icp_play(icp_game *g, long pc, uint64_t turn,",
            "icp_play"
        ));
        assert!(!c_defines(
            "static void icp_die(int64_t label, const char *c);",
            "icp_die"
        ));
        assert!(!c_defines(
            "    return icp_place(name, 0, 0, 0, 0);",
            "icp_place"
        ));
        assert!(!c_defines("static void icp_placed(int x) {", "icp_place"));
        assert!(rust_defines("    pub fn place(", "place"));
        assert!(rust_defines(
            "pub fn write_text<W: std::io::Write>(",
            "write_text"
        ));
        assert!(rust_defines("    Move(Name, i64, i64),", "Move"));
        assert!(rust_defines("    White = 0,", "White"));
        assert!(rust_defines(
            "    EndOfInputInTarget,",
            "EndOfInputInTarget"
        ));
        assert!(rust_defines("pub enum Step {", "Step"));
        assert!(rust_defines("const ACT_ADD: i64 = 0;", "ACT_ADD"));
        assert!(rust_defines("    pub turn: u64,", "turn"));
        assert!(!rust_defines(
            "        self.place(name, colour, kind, 0, 0)",
            "place"
        ));
        assert!(!rust_defines("    fn placed(", "place"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUST: &str = "\
use a;
// @section io: fmt
use b;
// @end io

fn core() {}
// @section fmt

fn fmt() {}
// @end fmt
// @section io

fn io() {
    x();
    // @section fmt
    y();
    // @end fmt
}
// @end io
// @section other

fn other() {}
// @end other
";

    fn uses(names: &[&'static str]) -> Uses {
        let mut u = Uses::new();
        for n in names {
            u.section(n);
        }
        u
    }

    #[test]
    fn the_core_alone_when_nothing_is_used() {
        let rt = Runtime::parse(RUST, Markers::Rust).unwrap();
        assert_eq!(rt.select(&Uses::new()), "use a;\n\nfn core() {}\n");
    }

    #[test]
    fn a_section_brings_what_it_needs_and_nested_regions_need_both() {
        let rt = Runtime::parse(RUST, Markers::Rust).unwrap();
        assert_eq!(
            rt.reach(&uses(&["io"])).into_iter().collect::<Vec<_>>(),
            ["fmt", "io"]
        );
        assert_eq!(
            rt.select(&uses(&["io"])),
            "use a;\nuse b;\n\nfn core() {}\n\nfn fmt() {}\n\nfn io() {\n    x();\n    y();\n}\n"
        );
        let only_fmt = rt.select(&uses(&["fmt"]));
        assert!(!only_fmt.contains("y();") && only_fmt.contains("fn fmt"));
    }

    #[test]
    fn c_markers_and_unknown_uses() {
        let c = "int a;\n/* @section x: y */\nint b;\n/* @end x */\n/* @section y */\nint c;\n/* @end y */\n";
        let rt = Runtime::parse(c, Markers::C).unwrap();
        assert_eq!(rt.select(&uses(&["x", "nope"])), "int a;\nint b;\nint c;\n");
        assert_eq!(rt.select(&uses(&["y"])), "int a;\nint c;\n");
        assert!(rt.has_section("x") && !rt.has_section("nope"));
    }

    #[test]
    fn the_core_section_is_always_kept_with_its_needs() {
        let c = "/* @section core: alloc */\nint a;\n/* @end core */\n/* @section alloc */\nint b;\n/* @end alloc */\n/* @section x */\nint c;\n/* @end x */\n";
        let rt = Runtime::parse(c, Markers::C).unwrap();
        assert_eq!(rt.select(&Uses::new()), "int a;\nint b;\n");
        assert_eq!(rt.section_text("x"), "int c;\n");
    }

    #[test]
    fn bad_markers_are_refused_with_their_line() {
        let cases = [
            ("// @section a\n// @end b\n", 2, "closes section `a`"),
            ("// @end a\n", 1, "closes nothing"),
            ("x\n// @section a\n", 2, "never closed"),
            ("// @section a: b\n// @end a\n", 1, "needs `b`"),
            ("// @section A\n// @end A\n", 1, "bad section marker"),
        ];
        for (text, line, message) in cases {
            let e = Runtime::parse(text, Markers::Rust).unwrap_err();
            assert_eq!(e.line, line, "{text}");
            assert!(e.message.contains(message), "{text}: {}", e.message);
        }
    }

    #[test]
    fn blank_lines_are_tidied_as_rustfmt_leaves_them() {
        let text = "fn a() {\n    // @section x\n\n    b();\n    // @end x\n\n    c();\n}\n\n\n// @section x\nfn d() {}\n// @end x\n\nfn e() {}\n";
        let rt = Runtime::parse(text, Markers::Rust).unwrap();
        assert_eq!(
            rt.select(&Uses::new()),
            "fn a() {\n    c();\n}\n\nfn e() {}\n"
        );
    }
}
