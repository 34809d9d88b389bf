//! Legal chess for the CHEG engine (`docs/cheg.md` §7.1, §7.2, §7.4): the
//! position, FEN, legal moves in §7.2's order, make, check, perft.
//!
//! Std only, no unsafe, never panics. This file is compiled into icp2c and
//! embedded into generated Rust as a sibling module of `engine` and `uci`,
//! cut down to the sections a program uses (`api.rs`), so it refers to
//! nothing outside itself.
//!
//! Squares are numbered `rank * 8 + file` with file 0 = a and rank 0 = 1
//! (a1 = 0, b1 = 1, …, h8 = 63): absolute, White at the bottom.
//!
//! # Representation
//!
//! Chosen to port one-to-one to C (`chess.c`): a 0x88 mailbox (`board`, 128
//! bytes, square `rank * 16 + file`, off the board when `s & 0x88 != 0`)
//! plus 64-bit occupancy masks (bit = public square number) per colour and
//! per kind, the two king squares, castling rights as four bits, the
//! en-passant square and the counters. Knight, king and pawn attacks and the
//! eight rays of every square are tables computed at compile time (`const
//! fn`; in C, static arrays or an init loop). Copy-make: a `Position` is
//! about 230 bytes and `play` returns a new one.
//!
//! Move generation is fully legal without making the moves: one scan from
//! the king finds the checkers and the pinned pieces (a pinned piece may only
//! move on the line between its king and its pinner; a check restricts the
//! other pieces to the checker's square and the squares between; rays with
//! no enemy slider of the right kind are not walked), king moves are tested
//! with the king lifted off the board, and only en passant is made and
//! tested. Moves go to a sink: a list, or for perft's last ply and
//! [`Position::count_legal`] a counter that adds whole target masks by
//! popcount. [`Position::legal_moves`] sorts the generated moves into the
//! §7.2 order with a stable sort on (piece's variable order, destination,
//! promotion Q R B N); everything else is order-free.
//!
//! Panics are impossible by construction: every array index is masked into
//! range (`& 0x7f`, `& 63`, `& 7`) or bounds-checked with `get`, counters
//! saturate or wrap, and user input (FEN, move text, squares ≥ 64) is
//! validated before use.

// Generated Rust embeds this file and builds with edition 2021: no let
// chains, so nested `if let`s stay nested.
#![allow(clippy::collapsible_if)]

// The engine's core (chess, the search, UCI: everything outside a
// section) needs no section; a program carries the sections its
// statements use besides (`api.rs`).
// @section core
// @end core

include!("chess/board.rs");
include!("chess/position.rs");

// The rest of the module, by concern, in files of their own (one module:
// no path or visibility changes). Generated Rust carries the lines of this
// file above the first `include!`, then each file in this order, a blank
// line between (`backend.rs`); chess.c and `chess/*.c` are their C twins,
// pasted in the same order. `chess/`: board.rs (squares, colours, kinds,
// pieces, moves, the 0x88 mailbox's steps and attack tables, hash keys,
// the position's fields), position.rs (what a position does: FEN in and
// out, legal moves in §7.2 order, making moves, attacks and check, keys,
// perft, the `d` board).
