//! The CHEG runtime's entry points: everything generated code names, one
//! [`Entry`] row each (its name, its path in the Rust runtime relative to
//! the runtime module `icp_rt`, its C symbol, and the section of both
//! runtimes that defines it). The back ends spell every runtime name a
//! generated statement uses through this table ([`crate::codegen::sections::Uses::c`],
//! [`crate::codegen::sections::Uses::rust`]), which records its section; a generated engine then
//! carries the core (chess, the search, UCI: `docs/cheg.md` §7) and the
//! sections its program reaches, nothing else
//! ([`crate::codegen::sections`]).
//!
//! The groups, and the contract they implement:
//!
//! - the program's frame (§6.1, §7.4): the `Endgame` the search consults,
//!   the `ENTRY` table, the engine's `main`; all in the core;
//! - steps (§5.2): where control goes after a statement (`Next`, a jump,
//!   a call, `RETURN`, an `ENTRY`/`END` line, `LEAVE`, an outcome);
//! - variables (§3): `X`, `DEPTH`, `PLIES`, `LM`, `PG`, `SIDE`, the piece
//!   variables and the user's;
//! - literals (§2): undefined, logical, integer, set;
//! - the statements of §5.1, one row each (`SETV`…`ABS` and `SETSQ`…`MAX`
//!   as operations of the unary and binary statement forms, `JUMP<`…
//!   `JUMP#>` as comparisons of `JUMP`, `SELECT`/`MAP` as kinds of a
//!   collecting call), the outcome instructions of §6.2–§6.3 (`PLAY`,
//!   `PLAYB`, `TRY`, `DONE`, `LEAVE`, `VALRET`, `VALRUT`, `VALON`,
//!   `RETBET`) and plans (§6.4, `PLAN`, `UNPLAN`);
//! - conditions (§4): a condition argument, a written condition (its
//!   test, `#` for negation), and each test (`DEFD` … `RWK=`, the piece
//!   kinds as one `KIND` test);
//! - orderings (§4): empty, `DEEP`, `#DEEP`.
//!
//! Section names are those of `chess.rs` and `engine.rs` (with their
//! parts, `chess/*.rs` and `engine/*.rs`) and `uci.rs` (one namespace, the
//! Rust runtime as [`super::super::backend::runtime`] builds it) and of
//! `chess.c` and `engine.c` (with `chess/*.c` and `engine/*.c`) and
//! `uci.c` after the C prelude (another). Each row's section exists in both; a Rust path or C symbol
//! left empty has no counterpart in that target (the C program returns a
//! step code where Rust names a `Step`). The interpreter compiles the
//! whole Rust runtime; regions only it uses are in the `interpreter`
//! section, which no back end records.

use super::chess::Kind;
use super::engine::{Binary, CallKind, Compare, Ordering, PlayKind, Test, Unary, ValueKind, Var};
use crate::codegen::sections::Entry;

/// A row (`const` so that the table is data).
const fn entry(
    name: &'static str,
    rust: &'static str,
    c: &'static str,
    section: &'static str,
) -> Entry {
    Entry {
        name,
        rust,
        c,
        section,
    }
}

// ------------------------------------------------- the program's frame

/// The program as the search sees it (§6.1).
pub const ENDGAME: Entry = entry("endgame", "engine::Endgame", "icp_program", "core");
/// One `ENTRY` line (§6.1).
pub const ENTRY_SPEC: Entry = entry("entry", "engine::EntrySpec", "icp_entry_spec", "core");
/// One invocation of the program at a node (§6.1).
pub const INVOCATION: Entry = entry("invocation", "engine::Invocation", "icp_inv", "core");
/// What stops a statement: a fault or a nested runtime error (§9).
pub const ERROR: Entry = entry("error", "engine::Error", "", "core");
/// The engine's `main`: command line and UCI (§7.4, §7.5).
pub const ENGINE_MAIN: Entry = entry("main", "uci::main", "icp_engine_main", "core");
/// Standard input read on a thread of its own (§7.5).
pub const THREAD_READER: Entry = entry("thread_reader", "uci::ThreadReader", "", "core");
/// The system's clock (§7.5).
pub const SYSTEM_CLOCK: Entry = entry("system_clock", "uci::SystemClock", "", "core");
/// The optimisation level of the program's step function (C only).
pub const LIGHT: Entry = entry("light", "", "ICP_LIGHT", "core");

/// A piece kind, as piece variables and the `KIND` test name it.
pub const fn kind(kind: Kind) -> &'static Entry {
    match kind {
        Kind::King => &KING,
        Kind::Queen => &QUEEN,
        Kind::Rook => &ROOK,
        Kind::Bishop => &BISHOP,
        Kind::Knight => &KNIGHT,
        Kind::Pawn => &PAWN,
    }
}

/// Piece kinds (chess, in the core).
pub const KING: Entry = entry("king", "chess::Kind::King", "ICP_KING", "core");
/// Queen.
pub const QUEEN: Entry = entry("queen", "chess::Kind::Queen", "ICP_QUEEN", "core");
/// Rook.
pub const ROOK: Entry = entry("rook", "chess::Kind::Rook", "ICP_ROOK", "core");
/// Bishop.
pub const BISHOP: Entry = entry("bishop", "chess::Kind::Bishop", "ICP_BISHOP", "core");
/// Knight.
pub const KNIGHT: Entry = entry("knight", "chess::Kind::Knight", "ICP_KNIGHT", "core");
/// Pawn.
pub const PAWN: Entry = entry("pawn", "chess::Kind::Pawn", "ICP_PAWN", "core");

// ---------------------------------------------------------- steps (§5.2)

/// The next statement.
pub const NEXT: Entry = entry("next", "engine::Step::Next", "ICP_STEP_NEXT", "next");
/// An `ENTRY` or `END` line reached (every program has one).
pub const FENCE: Entry = entry("fence", "engine::Step::Fence", "ICP_STEP_FENCE", "core");
/// A conditional jump: taken or not.
pub const BRANCH: Entry = entry("branch", "engine::Invocation::branch", "", "branch");
/// A call of a subroutine.
pub const CALL: Entry = entry("call", "engine::Step::Call", "", "call");
/// An outcome instruction's result (§6.3).
pub const OUTCOME: Entry = entry("outcome", "engine::Invocation::outcome", "", "outcome");

// ------------------------------------------------------ variables (§3)

/// The variable of `var`.
pub const fn var(var: Var) -> &'static Entry {
    match var {
        Var::User(_) => &VAR_USER,
        Var::X => &VAR_X,
        Var::Depth => &VAR_DEPTH,
        Var::Plies => &VAR_PLIES,
        Var::Lm => &VAR_LM,
        Var::Pg => &VAR_PG,
        Var::Side => &VAR_SIDE,
        Var::Piece { .. } => &VAR_PIECE,
    }
}

/// Reading a variable.
pub const READ: Entry = entry("read", "engine::Invocation::read", "icp_read", "read");
/// A user variable.
pub const VAR_USER: Entry = entry("user", "engine::Var::User", "ICP_USER", "var_user");
/// `X`.
pub const VAR_X: Entry = entry("x", "engine::Var::X", "ICP_VAR_X", "var_x");
/// `DEPTH`.
pub const VAR_DEPTH: Entry = entry("depth", "engine::Var::Depth", "ICP_VAR_DEPTH", "var_depth");
/// `PLIES`.
pub const VAR_PLIES: Entry = entry("plies", "engine::Var::Plies", "ICP_VAR_PLIES", "var_plies");
/// `LM`.
pub const VAR_LM: Entry = entry("lm", "engine::Var::Lm", "ICP_VAR_LM", "var_lm");
/// `PG`.
pub const VAR_PG: Entry = entry("pg", "engine::Var::Pg", "ICP_VAR_PG", "var_pg");
/// `SIDE`.
pub const VAR_SIDE: Entry = entry("side", "engine::Var::Side", "ICP_VAR_SIDE", "var_side");
/// A piece variable (`WK`, `BP3`, …).
pub const VAR_PIECE: Entry = entry("piece", "engine::Var::Piece", "ICP_PIECE_VAR", "var_piece");

// ------------------------------------------------------- literals (§2)

/// `"#`.
pub const UNDEFINED: Entry = entry(
    "undefined",
    "engine::Value::Undefined",
    "icp_undefined",
    "core",
);
/// `"T`, `"F`.
pub const LOGICAL: Entry = entry(
    "logical",
    "engine::Value::Logical",
    "icp_logical",
    "val_logical",
);
/// `"5`.
pub const INTEGER: Entry = entry(
    "integer",
    "engine::Value::Integer",
    "icp_integer",
    "val_integer",
);
/// `"(1,2,(T,#))`.
pub const SET_LITERAL: Entry = entry("set", "engine::set_literal", "icp_set_literal", "lit_set");

// --------------------------------------------------- statements (§5.1)

/// `BREAK v1,v2,v3`.
pub const BREAK: Entry = entry(
    "BREAK",
    "engine::Invocation::break_line",
    "icp_do_break",
    "break",
);
/// `RETURN v`.
pub const RETURN: Entry = entry("RETURN", "engine::Step::Return", "icp_do_return", "return");
/// `RETURN v` in a program with no call (`COND`, `CONDT`, `CONDF`, `SET`,
/// `SELECT`, `MAP`): never inside a subroutine, so always the error of
/// §5.2, and no call stack to carry.
pub const STRAY: Entry = entry("RETURN", "engine::Step::Stray", "ICP_STEP_STRAY", "stray");
/// A call (`COND`, `CONDT`, `CONDF`, `SET`) in a program without `RETURN`:
/// its subroutine never comes back, so the engine carries no call stack.
pub const ENTER: Entry = entry("enter", "engine::Step::Enter", "icp_do_enter", "enter");
/// `SELECT`, `MAP` in a program without `RETURN`.
pub const ENTER_EACH: Entry = entry(
    "enter each",
    "engine::Step::EnterEach",
    "icp_do_enter_each",
    "enter_each",
);
/// `COND c,t1,t2`.
pub const COND: Entry = entry("COND", "engine::Invocation::cond", "icp_do_cond", "cond");
/// `CONDV c,v,t`.
pub const CONDV: Entry = entry(
    "CONDV",
    "engine::Invocation::condv",
    "icp_do_condv",
    "condv",
);
/// `CONDT` and `CONDF t1,v,t2`.
pub const CONDTF: Entry = entry("CONDT", "engine::Then::CondTF", "icp_do_condtf", "condtf");
/// `JUMP… a,b,t`.
pub const JUMP: Entry = entry("JUMP", "engine::compare", "icp_do_jump", "jump");
/// `SET w,t,v`.
pub const SET: Entry = entry("SET", "engine::Then::Store", "icp_do_set", "set");
/// `SELECT w,t,v` and `MAP w,t,v`: a call for each element.
pub const EACH: Entry = entry("each", "engine::Step::Each", "icp_do_each", "each");
/// `OP w,v`.
pub const UNARY: Entry = entry(
    "unary",
    "engine::Invocation::unary",
    "icp_do_unary",
    "unary",
);
/// `OP w,a,b`.
pub const BINARY: Entry = entry(
    "binary",
    "engine::Invocation::binop",
    "icp_do_binary",
    "binary",
);
/// `EXCH u1,u2`.
pub const EXCH: Entry = entry("EXCH", "engine::Invocation::exch", "icp_do_exch", "exch");
/// `ORDER u1,u2,o`.
pub const ORDER: Entry = entry(
    "ORDER",
    "engine::Invocation::order",
    "icp_do_order",
    "order",
);
/// `SELECC w,c,v`.
pub const SELECC: Entry = entry(
    "SELECC",
    "engine::Invocation::selecc",
    "icp_do_selecc",
    "selecc",
);
/// `SETEL v,u,i`.
pub const SETEL: Entry = entry(
    "SETEL",
    "engine::Invocation::set_element",
    "icp_do_setel",
    "setel",
);
/// `INSERT v,u,i`.
pub const INSERT: Entry = entry(
    "INSERT",
    "engine::Invocation::insert",
    "icp_do_insert",
    "insert",
);
/// `UNSERT w,u,i`.
pub const UNSERT: Entry = entry(
    "UNSERT",
    "engine::Invocation::unsert",
    "icp_do_unsert",
    "unsert",
);
/// `EXCHWE u1,u2,i`.
pub const EXCHWE: Entry = entry(
    "EXCHWE",
    "engine::Invocation::exchwe",
    "icp_do_exchwe",
    "exchwe",
);
/// `EXCHEL u,i,j`.
pub const EXCHEL: Entry = entry(
    "EXCHEL",
    "engine::Invocation::exchel",
    "icp_do_exchel",
    "exchel",
);
/// `PLAY`, `PLAYB`, `TRY s,c,o` (§6.3).
pub const PLAY: Entry = entry("play", "engine::Invocation::play", "icp_do_play", "play");
/// `PLAN t,s,v` (§6.4).
pub const PLAN: Entry = entry("PLAN", "engine::Invocation::plan", "icp_do_plan", "plan");
/// `UNPLAN` (§6.4).
pub const UNPLAN: Entry = entry(
    "UNPLAN",
    "engine::Invocation::unplan",
    "icp_do_unplan",
    "unplan",
);
/// `DONE` (§6.3).
pub const DONE: Entry = entry("DONE", "engine::Invocation::done", "icp_do_done", "done");
/// `LEAVE` (§6.3).
pub const LEAVE: Entry = entry("LEAVE", "engine::Step::Leave", "ICP_STEP_LEAVE", "leave");
/// `VALRET`, `VALRUT`, `VALON`, `RETBET w,l,c` (§6.2, §6.3).
pub const VALUE: Entry = entry(
    "value",
    "engine::Invocation::value",
    "icp_do_value",
    "value",
);

/// The operation of `OP w,v`.
pub const fn unary(op: Unary) -> &'static Entry {
    match op {
        Unary::SetV => &OP_SETV,
        Unary::Card => &OP_CARD,
        Unary::Piece => &OP_PIECE,
        Unary::Square => &OP_SQUARE,
        Unary::Side => &OP_SIDE,
        Unary::Rank => &OP_RANK,
        Unary::File => &OP_FILE,
        Unary::SColor => &OP_SCOLOR,
        Unary::PColor => &OP_PCOLOR,
        Unary::Abs => &OP_ABS,
    }
}

/// `SETV`.
pub const OP_SETV: Entry = entry("SETV", "engine::Unary::SetV", "ICP_U_SET_V", "op_setv");
/// `CARD`.
pub const OP_CARD: Entry = entry("CARD", "engine::Unary::Card", "ICP_U_CARD", "op_card");
/// `PIECE`.
pub const OP_PIECE: Entry = entry("PIECE", "engine::Unary::Piece", "ICP_U_PIECE", "op_piece");
/// `SQUARE`.
pub const OP_SQUARE: Entry = entry(
    "SQUARE",
    "engine::Unary::Square",
    "ICP_U_SQUARE",
    "op_square",
);
/// `SIDE w,s`.
pub const OP_SIDE: Entry = entry("SIDE", "engine::Unary::Side", "ICP_U_SIDE", "op_side");
/// `RANK`.
pub const OP_RANK: Entry = entry("RANK", "engine::Unary::Rank", "ICP_U_RANK", "op_rank");
/// `FILE`.
pub const OP_FILE: Entry = entry("FILE", "engine::Unary::File", "ICP_U_FILE", "op_file");
/// `SCOLOR`.
pub const OP_SCOLOR: Entry = entry(
    "SCOLOR",
    "engine::Unary::SColor",
    "ICP_U_S_COLOR",
    "op_scolor",
);
/// `PCOLOR`.
pub const OP_PCOLOR: Entry = entry(
    "PCOLOR",
    "engine::Unary::PColor",
    "ICP_U_P_COLOR",
    "op_pcolor",
);
/// `ABS`.
pub const OP_ABS: Entry = entry("ABS", "engine::Unary::Abs", "ICP_U_ABS", "op_abs");

/// The operation of `OP w,a,b`.
pub const fn binary(op: Binary) -> &'static Entry {
    match op {
        Binary::SetSq => &OP_SETSQ,
        Binary::SetMov => &OP_SETMOV,
        Binary::Pair => &OP_PAIR,
        Binary::Member => &OP_MEMBER,
        Binary::MemNum => &OP_MEMNUM,
        Binary::Inters => &OP_INTERS,
        Binary::Union => &OP_UNION,
        Binary::Differ => &OP_DIFFER,
        Binary::Append => &OP_APPEND,
        Binary::GetEl => &OP_GETEL,
        Binary::MvDist => &OP_MVDIST,
        Binary::InSq => &OP_INSQ,
        Binary::Opp => &OP_OPP,
        Binary::SqRank => &OP_SQRANK,
        Binary::Nor => &OP_NOR,
        Binary::And => &OP_AND,
        Binary::Or => &OP_OR,
        Binary::Add => &OP_ADD,
        Binary::Sub => &OP_SUB,
        Binary::Mul => &OP_MUL,
        Binary::Div => &OP_DIV,
        Binary::Mod => &OP_MOD,
        Binary::Dif => &OP_DIF,
        Binary::Min => &OP_MIN,
        Binary::Max => &OP_MAX,
    }
}

/// `SETSQ w,r,f`.
pub const OP_SETSQ: Entry = entry("SETSQ", "engine::Binary::SetSq", "ICP_B_SET_SQ", "op_setsq");
/// `SETMOV w,p,s`.
pub const OP_SETMOV: Entry = entry(
    "SETMOV",
    "engine::Binary::SetMov",
    "ICP_B_SET_MOV",
    "op_setmov",
);
/// `PAIR`.
pub const OP_PAIR: Entry = entry("PAIR", "engine::Binary::Pair", "ICP_B_PAIR", "op_pair");
/// `MEMBER`.
pub const OP_MEMBER: Entry = entry(
    "MEMBER",
    "engine::Binary::Member",
    "ICP_B_MEMBER",
    "op_member",
);
/// `MEMNUM`.
pub const OP_MEMNUM: Entry = entry(
    "MEMNUM",
    "engine::Binary::MemNum",
    "ICP_B_MEM_NUM",
    "op_memnum",
);
/// `INTERS`.
pub const OP_INTERS: Entry = entry(
    "INTERS",
    "engine::Binary::Inters",
    "ICP_B_INTERS",
    "op_inters",
);
/// `UNION`.
pub const OP_UNION: Entry = entry("UNION", "engine::Binary::Union", "ICP_B_UNION", "op_union");
/// `DIFFER`.
pub const OP_DIFFER: Entry = entry(
    "DIFFER",
    "engine::Binary::Differ",
    "ICP_B_DIFFER",
    "op_differ",
);
/// `APPEND`.
pub const OP_APPEND: Entry = entry(
    "APPEND",
    "engine::Binary::Append",
    "ICP_B_APPEND",
    "op_append",
);
/// `GETEL w,s,i`.
pub const OP_GETEL: Entry = entry("GETEL", "engine::Binary::GetEl", "ICP_B_GET_EL", "op_getel");
/// `MVDIST`.
pub const OP_MVDIST: Entry = entry(
    "MVDIST",
    "engine::Binary::MvDist",
    "ICP_B_MV_DIST",
    "op_mvdist",
);
/// `INSQ`.
pub const OP_INSQ: Entry = entry("INSQ", "engine::Binary::InSq", "ICP_B_IN_SQ", "op_insq");
/// `OPP` (the instruction; the condition is [`T_OPPOSITION`]).
pub const OP_OPP: Entry = entry("OPP", "engine::Binary::Opp", "ICP_B_OPP", "op_opp");
/// `SQ>RNK`.
pub const OP_SQRANK: Entry = entry(
    "SQ>RNK",
    "engine::Binary::SqRank",
    "ICP_B_SQ_RANK",
    "op_sqrank",
);
/// `NOR`.
pub const OP_NOR: Entry = entry("NOR", "engine::Binary::Nor", "ICP_B_NOR", "op_nor");
/// `AND`.
pub const OP_AND: Entry = entry("AND", "engine::Binary::And", "ICP_B_AND", "op_and");
/// `OR`.
pub const OP_OR: Entry = entry("OR", "engine::Binary::Or", "ICP_B_OR", "op_or");
/// `ADD`.
pub const OP_ADD: Entry = entry("ADD", "engine::Binary::Add", "ICP_B_ADD", "op_add");
/// `SUB`.
pub const OP_SUB: Entry = entry("SUB", "engine::Binary::Sub", "ICP_B_SUB", "op_sub");
/// `MUL`.
pub const OP_MUL: Entry = entry("MUL", "engine::Binary::Mul", "ICP_B_MUL", "op_mul");
/// `DIV`.
pub const OP_DIV: Entry = entry("DIV", "engine::Binary::Div", "ICP_B_DIV", "op_div");
/// `MOD`.
pub const OP_MOD: Entry = entry("MOD", "engine::Binary::Mod", "ICP_B_MOD", "op_mod");
/// `DIF`.
pub const OP_DIF: Entry = entry("DIF", "engine::Binary::Dif", "ICP_B_DIF", "op_dif");
/// `MIN`.
pub const OP_MIN: Entry = entry("MIN", "engine::Binary::Min", "ICP_B_MIN", "op_min");
/// `MAX`.
pub const OP_MAX: Entry = entry("MAX", "engine::Binary::Max", "ICP_B_MAX", "op_max");

/// The comparison of a `JUMP…`.
pub const fn compare(cmp: Compare) -> &'static Entry {
    match cmp {
        Compare::Lt => &CMP_LT,
        Compare::Eq => &CMP_EQ,
        Compare::Gt => &CMP_GT,
        Compare::NotLt => &CMP_NOT_LT,
        Compare::Ne => &CMP_NE,
        Compare::NotGt => &CMP_NOT_GT,
    }
}

/// `JUMP<`.
pub const CMP_LT: Entry = entry("JUMP<", "engine::Compare::Lt", "ICP_CMP_LT", "cmp_lt");
/// `JUMP=`.
pub const CMP_EQ: Entry = entry("JUMP=", "engine::Compare::Eq", "ICP_CMP_EQ", "cmp_eq");
/// `JUMP>`.
pub const CMP_GT: Entry = entry("JUMP>", "engine::Compare::Gt", "ICP_CMP_GT", "cmp_gt");
/// `JUMP#<`.
pub const CMP_NOT_LT: Entry = entry(
    "JUMP#<",
    "engine::Compare::NotLt",
    "ICP_CMP_NOT_LT",
    "cmp_not_lt",
);
/// `JUMP#=`.
pub const CMP_NE: Entry = entry("JUMP#=", "engine::Compare::Ne", "ICP_CMP_NE", "cmp_ne");
/// `JUMP#>`.
pub const CMP_NOT_GT: Entry = entry(
    "JUMP#>",
    "engine::Compare::NotGt",
    "ICP_CMP_NOT_GT",
    "cmp_not_gt",
);

/// The kind of a collecting call (`SET` is a plain call, [`SET`]).
pub const fn call_kind(kind: CallKind) -> &'static Entry {
    match kind {
        CallKind::Set => &SET,
        CallKind::Select => &SELECT,
        CallKind::Map => &MAP,
    }
}

/// `SELECT w,t,v`.
pub const SELECT: Entry = entry(
    "SELECT",
    "engine::CallKind::Select",
    "ICP_CALL_SELECT",
    "select",
);
/// `MAP w,t,v`.
pub const MAP: Entry = entry("MAP", "engine::CallKind::Map", "ICP_CALL_MAP", "map");

/// Which of `PLAY`, `PLAYB`, `TRY`.
pub const fn play(kind: PlayKind) -> &'static Entry {
    match kind {
        PlayKind::Play => &PLAY_PLAY,
        PlayKind::PlayB => &PLAY_PLAYB,
        PlayKind::Try => &PLAY_TRY,
    }
}

/// `PLAY`.
pub const PLAY_PLAY: Entry = entry(
    "PLAY",
    "engine::PlayKind::Play",
    "ICP_PLAY_PLAY",
    "play_play",
);
/// `PLAYB`.
pub const PLAY_PLAYB: Entry = entry(
    "PLAYB",
    "engine::PlayKind::PlayB",
    "ICP_PLAY_PLAY_B",
    "play_playb",
);
/// `TRY`.
pub const PLAY_TRY: Entry = entry("TRY", "engine::PlayKind::Try", "ICP_PLAY_TRY", "play_try");

/// Which of `VALRET`, `VALRUT`, `VALON`, `RETBET`.
pub const fn value(kind: ValueKind) -> &'static Entry {
    match kind {
        ValueKind::ValRet => &VALRET,
        ValueKind::ValRut => &VALRUT,
        ValueKind::ValOn => &VALON,
        ValueKind::RetBet => &RETBET,
    }
}

/// `VALRET`.
pub const VALRET: Entry = entry(
    "VALRET",
    "engine::ValueKind::ValRet",
    "ICP_VALUE_VAL_RET",
    "valret",
);
/// `VALRUT`.
pub const VALRUT: Entry = entry(
    "VALRUT",
    "engine::ValueKind::ValRut",
    "ICP_VALUE_VAL_RUT",
    "valrut",
);
/// `VALON`.
pub const VALON: Entry = entry(
    "VALON",
    "engine::ValueKind::ValOn",
    "ICP_VALUE_VAL_ON",
    "valon",
);
/// `RETBET`.
pub const RETBET: Entry = entry(
    "RETBET",
    "engine::ValueKind::RetBet",
    "ICP_VALUE_RET_BET",
    "retbet",
);

// ----------------------------------------------------- conditions (§4)

/// The empty condition, "always".
pub const ALWAYS: Entry = entry("always", "", "ICP_ALWAYS", "always");
/// A condition written with a test, `#` in front or not.
pub const CONDITION: Entry = entry("condition", "", "icp_cond_make", "condition");

/// The test of a written condition.
pub const fn test(test: Test) -> &'static Entry {
    match test {
        Test::Defd => &T_DEFD,
        Test::Zero => &T_ZERO,
        Test::Negative => &T_NEGATIVE,
        Test::Positive => &T_POSITIVE,
        Test::Odd => &T_ODD,
        Test::True => &T_TRUE,
        Test::Empty => &T_EMPTY,
        Test::Far => &T_FAR,
        Test::RookFile => &T_ROOK_FILE,
        Test::KnightFile => &T_KNIGHT_FILE,
        Test::Nnf => &T_NNF,
        Test::LightSquare => &T_LIGHT_SQUARE,
        Test::Kind(_) => &T_KIND,
        Test::MoverPiece => &T_MOVER_PIECE,
        Test::Passed => &T_PASSED,
        Test::PawnDefended => &T_PAWN_DEFENDED,
        Test::Capture => &T_CAPTURE,
        Test::Check => &T_CHECK,
        Test::Safe => &T_SAFE,
        Test::Opposition => &T_OPPOSITION,
        Test::KeepsKingRank => &T_KEEPS_KING_RANK,
    }
}

/// `DEFD`.
pub const T_DEFD: Entry = entry("DEFD", "engine::Test::Defd", "ICP_T_DEFD", "t_defd");
/// `=0`.
pub const T_ZERO: Entry = entry("=0", "engine::Test::Zero", "ICP_T_ZERO", "t_zero");
/// `<0`.
pub const T_NEGATIVE: Entry = entry(
    "<0",
    "engine::Test::Negative",
    "ICP_T_NEGATIVE",
    "t_negative",
);
/// `>0`.
pub const T_POSITIVE: Entry = entry(
    ">0",
    "engine::Test::Positive",
    "ICP_T_POSITIVE",
    "t_positive",
);
/// `ODD`.
pub const T_ODD: Entry = entry("ODD", "engine::Test::Odd", "ICP_T_ODD", "t_odd");
/// `T`.
pub const T_TRUE: Entry = entry("T", "engine::Test::True", "ICP_T_TRUE", "t_true");
/// `EMPTY`.
pub const T_EMPTY: Entry = entry("EMPTY", "engine::Test::Empty", "ICP_T_EMPTY", "t_empty");
/// `FAR`.
pub const T_FAR: Entry = entry("FAR", "engine::Test::Far", "ICP_T_FAR", "t_far");
/// `RF`.
pub const T_ROOK_FILE: Entry = entry("RF", "engine::Test::RookFile", "ICP_T_ROOK_FILE", "t_rf");
/// `NF`.
pub const T_KNIGHT_FILE: Entry = entry(
    "NF",
    "engine::Test::KnightFile",
    "ICP_T_KNIGHT_FILE",
    "t_nf",
);
/// `NNF`.
pub const T_NNF: Entry = entry("NNF", "engine::Test::Nnf", "ICP_T_NNF", "t_nnf");
/// `WSQ`.
pub const T_LIGHT_SQUARE: Entry = entry(
    "WSQ",
    "engine::Test::LightSquare",
    "ICP_T_LIGHT_SQUARE",
    "t_wsq",
);
/// `KING`, `QUEEN`, `ROOK`, `BISH`, `NIGHT`, `PAWN`.
pub const T_KIND: Entry = entry("KIND", "engine::Test::Kind", "ICP_T_KIND", "t_kind");
/// `WPC`.
pub const T_MOVER_PIECE: Entry = entry(
    "WPC",
    "engine::Test::MoverPiece",
    "ICP_T_MOVER_PIECE",
    "t_wpc",
);
/// `PASSD`.
pub const T_PASSED: Entry = entry("PASSD", "engine::Test::Passed", "ICP_T_PASSED", "t_passd");
/// `PDP`.
pub const T_PAWN_DEFENDED: Entry = entry(
    "PDP",
    "engine::Test::PawnDefended",
    "ICP_T_PAWN_DEFENDED",
    "t_pdp",
);
/// `CAPT`.
pub const T_CAPTURE: Entry = entry("CAPT", "engine::Test::Capture", "ICP_T_CAPTURE", "t_capt");
/// `CHECK`.
pub const T_CHECK: Entry = entry("CHECK", "engine::Test::Check", "ICP_T_CHECK", "t_check");
/// `SAFE`.
pub const T_SAFE: Entry = entry("SAFE", "engine::Test::Safe", "ICP_T_SAFE", "t_safe");
/// `OPP` (the condition; the instruction is [`OP_OPP`]).
pub const T_OPPOSITION: Entry = entry(
    "OPP",
    "engine::Test::Opposition",
    "ICP_T_OPPOSITION",
    "t_opp",
);
/// `RWK=`.
pub const T_KEEPS_KING_RANK: Entry = entry(
    "RWK=",
    "engine::Test::KeepsKingRank",
    "ICP_T_KEEPS_KING_RANK",
    "t_rwk",
);

// ------------------------------------------------------ orderings (§4)

/// An ordering argument.
pub const fn ordering(ordering: Ordering) -> &'static Entry {
    match ordering {
        Ordering::AsGiven => &AS_GIVEN,
        Ordering::Deep => &DEEP,
        Ordering::Shallow => &SHALLOW,
    }
}

/// The empty ordering: as given.
pub const AS_GIVEN: Entry = entry(
    "as given",
    "engine::Ordering::AsGiven",
    "ICP_ORDER_AS_GIVEN",
    "ordering",
);
/// `DEEP`.
pub const DEEP: Entry = entry("DEEP", "engine::Ordering::Deep", "ICP_ORDER_DEEP", "deep");
/// `#DEEP`.
pub const SHALLOW: Entry = entry(
    "#DEEP",
    "engine::Ordering::Shallow",
    "ICP_ORDER_SHALLOW",
    "shallow",
);

/// Every row: what the tests check against both runtimes.
pub const ENTRIES: &[Entry] = &[
    ENDGAME,
    ENTRY_SPEC,
    INVOCATION,
    ERROR,
    ENGINE_MAIN,
    THREAD_READER,
    SYSTEM_CLOCK,
    LIGHT,
    KING,
    QUEEN,
    ROOK,
    BISHOP,
    KNIGHT,
    PAWN,
    NEXT,
    FENCE,
    BRANCH,
    CALL,
    OUTCOME,
    READ,
    VAR_USER,
    VAR_X,
    VAR_DEPTH,
    VAR_PLIES,
    VAR_LM,
    VAR_PG,
    VAR_SIDE,
    VAR_PIECE,
    UNDEFINED,
    LOGICAL,
    INTEGER,
    SET_LITERAL,
    BREAK,
    RETURN,
    STRAY,
    ENTER,
    ENTER_EACH,
    COND,
    CONDV,
    CONDTF,
    JUMP,
    SET,
    EACH,
    UNARY,
    BINARY,
    EXCH,
    ORDER,
    SELECC,
    SETEL,
    INSERT,
    UNSERT,
    EXCHWE,
    EXCHEL,
    PLAY,
    PLAN,
    UNPLAN,
    DONE,
    LEAVE,
    VALUE,
    OP_SETV,
    OP_CARD,
    OP_PIECE,
    OP_SQUARE,
    OP_SIDE,
    OP_RANK,
    OP_FILE,
    OP_SCOLOR,
    OP_PCOLOR,
    OP_ABS,
    OP_SETSQ,
    OP_SETMOV,
    OP_PAIR,
    OP_MEMBER,
    OP_MEMNUM,
    OP_INTERS,
    OP_UNION,
    OP_DIFFER,
    OP_APPEND,
    OP_GETEL,
    OP_MVDIST,
    OP_INSQ,
    OP_OPP,
    OP_SQRANK,
    OP_NOR,
    OP_AND,
    OP_OR,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MOD,
    OP_DIF,
    OP_MIN,
    OP_MAX,
    CMP_LT,
    CMP_EQ,
    CMP_GT,
    CMP_NOT_LT,
    CMP_NE,
    CMP_NOT_GT,
    SELECT,
    MAP,
    PLAY_PLAY,
    PLAY_PLAYB,
    PLAY_TRY,
    VALRET,
    VALRUT,
    VALON,
    RETBET,
    ALWAYS,
    CONDITION,
    T_DEFD,
    T_ZERO,
    T_NEGATIVE,
    T_POSITIVE,
    T_ODD,
    T_TRUE,
    T_EMPTY,
    T_FAR,
    T_ROOK_FILE,
    T_KNIGHT_FILE,
    T_NNF,
    T_LIGHT_SQUARE,
    T_KIND,
    T_MOVER_PIECE,
    T_PASSED,
    T_PAWN_DEFENDED,
    T_CAPTURE,
    T_CHECK,
    T_SAFE,
    T_OPPOSITION,
    T_KEEPS_KING_RANK,
    AS_GIVEN,
    DEEP,
    SHALLOW,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::sections::entry_checks::assert_entries_defined;
    use crate::codegen::sections::{Markers, Runtime, Uses};
    use crate::lang::cheg::backend;
    use std::collections::BTreeSet;

    fn c_runtime() -> Runtime<'static> {
        Runtime::parse(backend::c::RUNTIME, Markers::C).expect("the C runtime's markers parse")
    }

    fn rust_text() -> &'static str {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        TEXT.get_or_init(backend::runtime)
    }

    fn rust_runtime() -> Runtime<'static> {
        Runtime::parse(rust_text(), Markers::Rust).expect("the Rust runtime's markers parse")
    }

    #[test]
    fn every_entry_is_defined_in_its_section_of_both_runtimes() {
        let (c, rust) = (c_runtime(), rust_runtime());
        // Every row is in the table.
        let source = include_str!("api.rs");
        let rows = source
            .lines()
            .filter(|l| l.starts_with("pub const ") && l.contains(": Entry"))
            .count();
        assert_eq!(rows, ENTRIES.len(), "a row is missing from ENTRIES");
        let names: BTreeSet<(&str, &str)> = ENTRIES.iter().map(|e| (e.name, e.section)).collect();
        assert_eq!(names.len(), ENTRIES.len(), "two rows are the same");
        // Each in its section of both runtimes (the check every language's
        // table shares: `sections::entry_checks`).
        assert_entries_defined(&c, &rust, ENTRIES);
        // The interpreter-only regions are in no selection a back end makes.
        let all: Vec<&str> = ENTRIES.iter().map(|e| e.section).collect();
        let mut uses = Uses::new();
        for e in ENTRIES {
            uses.add(e);
        }
        for runtime in [&c, &rust] {
            assert!(!runtime.reach(&uses).contains("interpreter"), "{all:?}");
        }
        assert!(rust.has_section("interpreter"));
    }

    #[test]
    fn the_templates_spell_the_frame_as_the_table_does() {
        let rust = include_str!("../../../../templates/cheg/rust/program.rs");
        for e in [
            &ENDGAME,
            &ENTRY_SPEC,
            &INVOCATION,
            &ERROR,
            &ENGINE_MAIN,
            &THREAD_READER,
            &SYSTEM_CLOCK,
        ] {
            let spelt = match e.rust.strip_prefix("engine::") {
                Some(item) => format!("icp_e::{item}"),
                None => format!("icp_rt::{}", e.rust),
            };
            assert!(rust.contains(&spelt), "{spelt} is not in the Rust template");
        }
        // The template, and the back end that writes `icp_program_step`.
        let c = concat!(
            include_str!("../../../../templates/cheg/c/program.c"),
            include_str!("../backend/c.rs")
        );
        for e in [
            &ENDGAME,
            &ENTRY_SPEC,
            &INVOCATION,
            &ENGINE_MAIN,
            &LIGHT,
            &FENCE,
        ] {
            assert!(
                c.contains(e.c),
                "{} is not in the C template or back end",
                e.c
            );
        }
    }
}
