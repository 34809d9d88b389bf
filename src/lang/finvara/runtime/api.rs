//! The Finvara runtime's entry points: what generated programs call or
//! need, one row each, with the section of `board.rs` and `board.c` that
//! holds it (`crate::codegen::sections`). The back ends spell these
//! through [`Uses`](crate::codegen::sections::Uses), so a generated
//! program carries exactly the sections it reaches; the core (the board,
//! the path search, the end of the game, §2.1 and §5.4) is in every
//! program.

use crate::codegen::sections::Entry;

/// §5.1: a move (`Turn N C: k a1 -> b2`), made when it is valid, and the
/// skip rule: gives the number of the move to make next.
pub const PLAY: Entry = Entry {
    name: "play",
    rust: "Game::play",
    c: "icp_play",
    section: "step",
};

/// §5.3: `checks turn`, placing a piece.
pub const PLACE: Entry = Entry {
    name: "place",
    rust: "Game::place",
    c: "icp_place",
    section: "place",
};

/// Where action 3 reads: Rust hands the game its input stream, C reads
/// standard input (§4).
pub const INPUT: Entry = Entry {
    name: "input",
    rust: "Game::read_from",
    c: "icp_read_number",
    section: "input",
};

/// Where action 4 prints: Rust hands the game its output stream, C
/// prints on standard output (§4).
pub const OUTPUT: Entry = Entry {
    name: "output",
    rust: "Game::write_to",
    c: "icp_print_number",
    section: "output",
};

/// §4 actions 0 to 5, in order: what a piece that falls into a hole does
/// to its colour's stack, chosen by its value mod 6.
pub const ACTIONS: [Entry; 6] = [
    Entry {
        name: "add",
        rust: "ACT_ADD",
        c: "ICP_ACT_ADD",
        section: "act_add",
    },
    Entry {
        name: "subtract",
        rust: "ACT_SUB",
        c: "ICP_ACT_SUB",
        section: "act_sub",
    },
    Entry {
        name: "compare",
        rust: "ACT_EQ",
        c: "ICP_ACT_EQ",
        section: "act_eq",
    },
    Entry {
        name: "read",
        rust: "ACT_READ",
        c: "ICP_ACT_READ",
        section: "act_read",
    },
    Entry {
        name: "print",
        rust: "ACT_PRINT",
        c: "ICP_ACT_PRINT",
        section: "act_print",
    },
    Entry {
        name: "pop",
        rust: "ACT_POP",
        c: "ICP_ACT_POP",
        section: "act_pop",
    },
];

/// Every entry point.
pub const ENTRIES: [Entry; 10] = [
    PLAY, PLACE, INPUT, OUTPUT, ACTIONS[0], ACTIONS[1], ACTIONS[2], ACTIONS[3], ACTIONS[4],
    ACTIONS[5],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::sections::entry_checks::assert_entries_defined;
    use crate::codegen::sections::{Markers, Runtime, Uses};
    use crate::lang::finvara::backend;
    use std::collections::BTreeSet;

    #[test]
    fn every_entry_is_defined_in_its_section_of_both_runtimes() {
        let c =
            Runtime::parse(backend::C_RUNTIME, Markers::C).expect("the C runtime's markers parse");
        let rust = backend::rust_sections();
        // Every row is in the table: the named ones and the actions.
        let source = include_str!("api.rs");
        let rows = source
            .lines()
            .filter(|l| l.starts_with("pub const ") && l.contains(": Entry"))
            .count();
        assert_eq!(
            rows + ACTIONS.len(),
            ENTRIES.len(),
            "a row is missing from ENTRIES"
        );
        let names: BTreeSet<&str> = ENTRIES.iter().map(|e| e.name).collect();
        assert_eq!(names.len(), ENTRIES.len(), "two rows have one name");
        for a in ACTIONS {
            assert!(names.contains(a.name), "{} is not in ENTRIES", a.name);
        }
        // Each in its section of both runtimes (the check every language's
        // table shares: `sections::entry_checks`).
        assert_entries_defined(&c, &rust, &ENTRIES);
        // The actions in the order of their numbers (§4: a value mod 6).
        for (i, a) in ACTIONS.iter().enumerate() {
            let c_text = c.section_text(a.section);
            let rust_text = rust.section_text(a.section);
            assert!(
                c_text.lines().any(|l| l == format!("#define {} {i}", a.c)),
                "{} is not action {i} in C",
                a.c
            );
            assert!(
                rust_text
                    .lines()
                    .any(|l| l == format!("const {}: i64 = {i};", a.rust)),
                "{} is not action {i} in Rust",
                a.rust
            );
        }
        // The interpreter-only regions are in no selection a back end makes.
        let mut uses = Uses::new();
        for e in &ENTRIES {
            uses.add(e);
        }
        for runtime in [&c, &rust] {
            assert!(!runtime.reach(&uses).contains("interpreter"));
        }
        assert!(rust.has_section("interpreter"));
    }
}
