//! InfChessPro's runtime entry points: everything generated C and Rust
//! name in their runtime, one [`Entry`] row each (the Rust path relative
//! to the runtime module, the C symbol, the section of both runtimes that
//! defines it), and [`ENTRIES`], the list of them all.
//!
//! The back ends spell every runtime call, type and constant a program
//! names through these rows ([`Uses::c`], [`Uses::rust`]), so the `Uses`
//! they collect are exactly the sections the program reaches, and the
//! generated file carries only those (`crate::codegen::sections`). The
//! runtimes' core (`board.rs` and `board.c` outside every region) is in
//! every program: the Rust runtime's fault texts, the C runtime's
//! `icp_init` and `icp_finish`. The interpreter compiles `board.rs` whole
//! (with the parts it `include!`s, `board/*.rs`).
//!
//! The sections of both runtimes (what each needs is stated by its
//! markers, in each runtime: the two differ where their code does):
//!
//! | section | holds | entry points |
//! |---|---|---|
//! | `board` | a board: the per-name live counts (§4.7) | [`BOARD`] |
//! | `squares` | the occupancy table, square → piece | |
//! | `squares_grow` | its growth; memory exhaustion (§8) | |
//! | `pieces` | the piece slots and each name's list of pieces (§3) | |
//! | `occupy` | §4.1 in a program that moves no piece | [`OCCUPY`] |
//! | `place` | §4.1 in a program that moves pieces | [`PLACE`] |
//! | `move` | §7's rules (geometry, the check test, the line indices), colours and kinds (§3) | [`WHITE`] … [`PAWN`] |
//! | `move_squares`, `move_name_to`, `move_name_by` | §4.2, §4.3, §4.4 | [`MOVE_SQUARES`], [`MOVE_NAME_TO`], [`MOVE_NAME_BY`] |
//! | `runs` | what slides and loops share | |
//! | `slide` | a slide loop the optimiser summarised | [`SLIDE`] |
//! | `loop`, `loop_slide`, `loop_nothing` | a loop of statements, its slides, its `^`s | [`LOOP_EXIT`], [`LOOP_STEP`], [`STEP_MOVE`], [`STEP_SLIDE`], [`STEP_NOTHING`] |
//! | `count` | §4.7 | [`COUNT`], [`WRITE_COUNT`] |
//! | `text` | §4.6 | [`TEXT`] |
//! | `read` | §6: the integer reader | [`INPUT`], [`READ`] |
//! | `die` | a runtime error that names its statement (§8) | [`ERROR_MESSAGE`] |
//! | `no_label`, `end_of_input` | the errors of §5 and §6 at a `*` jump | [`NO_LABEL`], [`END_OF_INPUT`] |
//!
//! The C runtime also has `core` (what its core needs: the C prelude's
//! sections `prelude_stdout` and `prelude_write_failure`) and `u2i` (a
//! conversion that moves, loops and the reader share); the Rust runtime
//! `heads` and `index_insert` (methods that several sections share, not
//! the move rules alone) and `interpreter` (what only the interpreter and
//! its traces use: no back end records it).

pub use crate::codegen::sections::{Entry, Uses};

/// A board for the program's names (§3): `Board::new(names)`,
/// `icp_board_init(names)`. A program that names no piece operation has
/// none.
pub const BOARD: Entry = Entry {
    name: "board",
    rust: "Board::new",
    c: "icp_board_init",
    section: "board",
};

/// §4.1 Place, in a program that also moves pieces: the piece's colour
/// and kind are kept for the rules of §7.
pub const PLACE: Entry = Entry {
    name: "place",
    rust: "Board::place",
    c: "icp_place",
    section: "place",
};

/// §4.1 Place, in a program that moves no piece: only the square and the
/// name's count change, colour and kind do not matter.
pub const OCCUPY: Entry = Entry {
    name: "occupy",
    rust: "Board::occupy",
    c: "icp_occupy",
    section: "occupy",
};

/// §4.2 Move by squares.
pub const MOVE_SQUARES: Entry = Entry {
    name: "move_squares",
    rust: "Board::move_squares",
    c: "icp_move_squares",
    section: "move_squares",
};

/// §4.3 Move by name, absolute.
pub const MOVE_NAME_TO: Entry = Entry {
    name: "move_name_to",
    rust: "Board::move_name_to",
    c: "icp_move_name_to",
    section: "move_name_to",
};

/// §4.4 Move by name, relative.
pub const MOVE_NAME_BY: Entry = Entry {
    name: "move_name_by",
    rust: "Board::move_name_by",
    c: "icp_move_name_by",
    section: "move_name_by",
};

/// §4.4 repeated: a slide loop the optimiser summarised.
pub const SLIDE: Entry = Entry {
    name: "slide",
    rust: "Board::slide",
    c: "icp_slide",
    section: "slide",
};

/// §4.4 and §4.5 round a loop of statements the optimiser summarised:
/// the member whose move failed.
pub const LOOP_EXIT: Entry = Entry {
    name: "loop_exit",
    rust: "Board::loop_exit",
    c: "icp_loop_exit",
    section: "loop",
};

/// The type of a loop's member table.
pub const LOOP_STEP: Entry = Entry {
    name: "loop_step",
    rust: "Step",
    c: "icp_loop_step",
    section: "loop",
};

/// A loop member that moves (§4.4): every loop has one.
pub const STEP_MOVE: Entry = Entry {
    name: "step_move",
    rust: "Step::Move",
    c: "ICP_STEP_MOVE",
    section: "loop",
};

/// A loop member that is a slide loop.
pub const STEP_SLIDE: Entry = Entry {
    name: "step_slide",
    rust: "Step::Slide",
    c: "ICP_STEP_SLIDE",
    section: "loop_slide",
};

/// A loop member that is a `^` (§4.5).
pub const STEP_NOTHING: Entry = Entry {
    name: "step_nothing",
    rust: "Step::Nothing",
    c: "ICP_STEP_NOTHING",
    section: "loop_nothing",
};

/// §4.7 Count: the live pieces of a name.
pub const COUNT: Entry = Entry {
    name: "count",
    rust: "Board::count",
    c: "icp_count",
    section: "count",
};

/// §4.7 Count: the number written, in decimal, and a newline.
pub const WRITE_COUNT: Entry = Entry {
    name: "write_count",
    rust: "write_count",
    c: "icp_write_count",
    section: "count",
};

/// §4.6 Output text.
pub const TEXT: Entry = Entry {
    name: "text",
    rust: "write_text",
    c: "icp_write_text",
    section: "text",
};

/// §6 Input: the reader of integers (Rust), made once by the program.
pub const INPUT: Entry = Entry {
    name: "input",
    rust: "Input::new",
    c: "icp_read",
    section: "read",
};

/// §6 Input: reads a statement's `*` integers, up to end of input.
pub const READ: Entry = Entry {
    name: "read",
    rust: "Input::read_into",
    c: "icp_read",
    section: "read",
};

/// §5: a `*` jump to a label no statement has.
pub const NO_LABEL: Entry = Entry {
    name: "no_label",
    rust: "Fault::NoSuchLabel",
    c: "icp_die_no_label",
    section: "no_label",
};

/// §6: end of input in a `*` jump target that must be taken.
pub const END_OF_INPUT: Entry = Entry {
    name: "end_of_input",
    rust: "Fault::EndOfInputInTarget",
    c: "icp_die_end_of_input",
    section: "end_of_input",
};

/// §8: the error line of a runtime error naming its statement. A Rust
/// program whose only fault is a failed write prints the fault itself.
pub const ERROR_MESSAGE: Entry = Entry {
    name: "error_message",
    rust: "error_message",
    c: "icp_die",
    section: "die",
};

/// §3 White, as [`PLACE`] takes it.
pub const WHITE: Entry = Entry {
    name: "white",
    rust: "Colour::White",
    c: "ICP_WHITE",
    section: "white",
};

/// §3 Black.
pub const BLACK: Entry = Entry {
    name: "black",
    rust: "Colour::Black",
    c: "ICP_BLACK",
    section: "black",
};

/// §3 King.
pub const KING: Entry = Entry {
    name: "king",
    rust: "Kind::King",
    c: "ICP_KING",
    section: "king",
};

/// §3 Queen.
pub const QUEEN: Entry = Entry {
    name: "queen",
    rust: "Kind::Queen",
    c: "ICP_QUEEN",
    section: "queen",
};

/// §3 Rook.
pub const ROOK: Entry = Entry {
    name: "rook",
    rust: "Kind::Rook",
    c: "ICP_ROOK",
    section: "rook",
};

/// §3 Bishop.
pub const BISHOP: Entry = Entry {
    name: "bishop",
    rust: "Kind::Bishop",
    c: "ICP_BISHOP",
    section: "bishop",
};

/// §3 Knight.
pub const KNIGHT: Entry = Entry {
    name: "knight",
    rust: "Kind::Knight",
    c: "ICP_KNIGHT",
    section: "knight",
};

/// §3 Pawn.
pub const PAWN: Entry = Entry {
    name: "pawn",
    rust: "Kind::Pawn",
    c: "ICP_PAWN",
    section: "pawn",
};

/// §7 rule 4 in a program where a colour with kings meets pieces of the
/// other: the check test (recorded, like the sections below, by
/// `backend::plan::rules` from the kinds a program places and its slides).
pub const CHECK: &str = "check";
/// Its test for an enemy king next to a king.
pub const CHECK_KING: &str = "check_king";
/// Its test for an enemy knight a jump away.
pub const CHECK_KNIGHT: &str = "check_knight";
/// Its test for an enemy pawn.
pub const CHECK_PAWN: &str = "check_pawn";
/// Its test for enemy rooks, bishops and queens (rays).
pub const CHECK_SLIDERS: &str = "check_sliders";
/// A slide's run along a line (a rook, bishop or queen, a pawn's push).
pub const SLIDE_LINE: &str = "slide_line";
/// A slide's run of knight's jumps.
pub const SLIDE_KNIGHT: &str = "slide_knight";

/// The colours in the runtimes' order (white 0, black 1).
pub const COLOURS: [Entry; 2] = [WHITE, BLACK];

/// The kinds in the runtimes' order (king 0 … pawn 5).
pub const KINDS: [Entry; 6] = [KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN];

/// Every entry point.
pub const ENTRIES: &[Entry] = &[
    BOARD,
    PLACE,
    OCCUPY,
    MOVE_SQUARES,
    MOVE_NAME_TO,
    MOVE_NAME_BY,
    SLIDE,
    LOOP_EXIT,
    LOOP_STEP,
    STEP_MOVE,
    STEP_SLIDE,
    STEP_NOTHING,
    COUNT,
    WRITE_COUNT,
    TEXT,
    INPUT,
    READ,
    NO_LABEL,
    END_OF_INPUT,
    ERROR_MESSAGE,
    WHITE,
    BLACK,
    KING,
    QUEEN,
    ROOK,
    BISHOP,
    KNIGHT,
    PAWN,
];

/// The method an entry's Rust path names (`Board::place` → `place`), for
/// a call on a value (`icp_board.place(…)`).
pub fn method(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::sections::entry_checks::assert_entries_defined;
    use crate::codegen::sections::{Markers, Runtime};
    use crate::lang::icp::backend::{c, rust};

    /// Every entry is defined in its section of both runtimes, as the back
    /// ends cut them: the C runtime after the C prelude (whose sections it
    /// needs), the Rust one without its tests (the check is shared with
    /// the other languages' tables: `sections::entry_checks`).
    #[test]
    fn both_runtimes_parse_and_hold_every_entry_in_its_section() {
        let c = Runtime::parse(c::RUNTIME, Markers::C).unwrap();
        let rust = Runtime::parse(rust::runtime_source(), Markers::Rust).unwrap();
        assert_entries_defined(&c, &rust, ENTRIES);
    }

    #[test]
    fn entries_have_unique_names_and_methods_name_their_last_segment() {
        for (i, a) in ENTRIES.iter().enumerate() {
            assert!(ENTRIES[..i].iter().all(|b| b.name != a.name), "{}", a.name);
        }
        assert_eq!(method("Board::place"), "place");
        assert_eq!(method("write_text"), "write_text");
    }
}
