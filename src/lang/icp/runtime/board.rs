//! The InfChessPro board runtime: the infinite board, the move rules, the
//! integer input reader and the output helpers.
//!
//! The interpreter runs this source whole; every generated Rust program
//! embeds it (`mod icp_rt`) cut to the sections it uses (the `@section`
//! markers; icp2c's table of runtime entry points and the kinds a program
//! places say which). `std` only, no `unsafe`, never panics, never prints.
//! It implements `docs/runtime-design.md` (data structures and costs are
//! described where they are defined); the language is the one icp2c's
//! reference `docs/infchesspro.md` defines, whose sections (§) are cited
//! on each item.

// @section rays
use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
// @end rays
// @section read
use std::io::{BufRead, ErrorKind};
// @end read

include!("board/pieces.rs");
include!("board/table.rs");
include!("board/rays.rs");
include!("board/moves.rs");
include!("board/loops.rs");
include!("board/io.rs");

// The rest of the module, by concern, in files of their own (one module:
// no path or visibility changes). Generated Rust carries the lines of this
// file above the first `include!`, then each file in this order, a blank
// line between (`backend/rust.rs`); board.c and `board/*.c` are their C
// twins, pasted in the same order (`backend/c.rs`). `board/`: pieces.rs
// (names, colours, kinds, faults, the table's constants), table.rs (the
// square table), rays.rs (line indices, rays, edge steps), moves.rs (the
// board: placing, moving, slides, checks, the loop's run), loops.rs (loop
// rounds, segments and collisions), io.rs (the integer reader and the
// writers).

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read, Write};

    impl Colour {
        fn index(self) -> usize {
            self as usize
        }

        fn other(self) -> Colour {
            colour_of(self as u8 ^ 1)
        }
    }

    impl Kind {
        fn index(self) -> usize {
            self as usize
        }
    }

    const W: Colour = Colour::White;
    const B: Colour = Colour::Black;
    const ORTHOGONAL: [(i64, i64); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAGONAL: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const KNIGHT_JUMPS: [(i64, i64); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING_STEPS: [(i64, i64); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    fn board() -> Board {
        Board::new(16)
    }

    fn put(b: &mut Board, name: Name, colour: Colour, kind: Kind, row: i64, col: i64) {
        assert_eq!(b.place(name, colour, kind, row, col), Ok(true));
    }

    fn mv(b: &mut Board, r1: i64, c1: i64, r2: i64, c2: i64) -> bool {
        b.move_squares(r1, c1, r2, c2).expect("moves do not fault")
    }

    /// Checks the internal tables against each other: occupancy, name
    /// lists, counts, kings and every built line index.
    fn assert_consistent(b: &Board) {
        let live: Vec<&Piece> = b.pieces.iter().filter(|p| p.name != NIL).collect();
        assert_eq!(live.len() as u64, b.live);
        assert_eq!(b.squares.len, live.len());
        for (slot, p) in b.pieces.iter().enumerate() {
            if p.name != NIL {
                assert_eq!(b.squares.get(p.row, p.col), Some(slot as u32));
            }
        }
        assert_eq!(b.heads.len(), b.name_counts.len());
        for (name, (&head, &count)) in b.heads.iter().zip(&b.name_counts).enumerate() {
            let mut n = 0;
            let mut prev = NIL;
            let mut slot = head;
            while let Some(p) = b.pieces.get(slot as usize) {
                assert!(p.name != NIL);
                assert_eq!(p.name as usize, name);
                assert_eq!(p.prev, prev);
                n += 1;
                prev = slot;
                slot = p.next;
            }
            assert_eq!(n, count);
        }
        for colour in [W, B] {
            for kind in [
                Kind::King,
                Kind::Queen,
                Kind::Rook,
                Kind::Bishop,
                Kind::Knight,
                Kind::Pawn,
            ] {
                let n = live
                    .iter()
                    .filter(|p| p.colour == colour as u8 && p.kind == kind as u8)
                    .count();
                assert_eq!(b.counts[colour.index()][kind.index()], n as u64);
            }
            let is_slider = |k: Kind| matches!(k, Kind::Rook | Kind::Bishop | Kind::Queen);
            let rosters = [
                (&b.kings[colour.index()], true),
                (&b.sliders[colour.index()], false),
            ];
            for (roster, kings) in rosters {
                let wanted = |k: Kind| if kings { k == Kind::King } else { is_slider(k) };
                let n = live
                    .iter()
                    .filter(|p| p.colour == colour as u8 && wanted(kind_of(p.kind)))
                    .count();
                assert_eq!(roster.len(), n);
                for (i, &k) in roster.iter().enumerate() {
                    let p = b.pieces[k as usize];
                    assert!(p.name != NIL && wanted(kind_of(p.kind)) && p.colour == colour as u8);
                    assert_eq!(p.roster_at as usize, i);
                }
            }
        }
        for (line, index) in b.lines.iter().enumerate() {
            if let Some(index) = index {
                let mut want: std::collections::BTreeMap<u64, BTreeSet<i64>> = Default::default();
                for p in &live {
                    let (key, pos) = line_key(line, p.row, p.col);
                    want.entry(key).or_default().insert(pos);
                }
                let got: std::collections::BTreeMap<u64, BTreeSet<i64>> = index
                    .lines
                    .iter()
                    .map(|(&k, l)| {
                        let set = match l {
                            Line::One(p) => [*p].into_iter().collect(),
                            Line::Few(v) => {
                                assert!(v.len() >= 2 && v.len() <= FEW, "few: {}", v.len());
                                assert!(v.windows(2).all(|w| w[0] < w[1]), "sorted");
                                v.iter().copied().collect()
                            }
                            Line::Many(set) => {
                                assert!(set.len() > FEW / 2, "many: {}", set.len());
                                set.clone()
                            }
                        };
                        (k, set)
                    })
                    .collect();
                assert_eq!(got, want, "line index {} out of date", line);
            }
        }
    }

    // -- faults and texts -------------------------------------------------

    #[test]
    fn fault_texts_are_exact() {
        assert_eq!(Fault::NotANumber.cause(), "input is not a number (§6)");
        assert_eq!(
            Fault::NumberOutOfRange.cause(),
            "input number is outside the signed 64-bit range (§6)"
        );
        assert_eq!(
            Fault::NoSuchLabel(-7).cause(),
            "no statement is labelled -7 (§5)"
        );
        assert_eq!(
            Fault::EndOfInputInTarget.cause(),
            "end of input in a `*` jump target (§6)"
        );
        assert_eq!(Fault::OutOfMemory.cause(), "memory exhausted (§8)");
        assert_eq!(Fault::ReadFailed.cause(), "cannot read standard input (§8)");
        assert_eq!(
            Fault::WriteFailed.cause(),
            "cannot write standard output (§8)"
        );
        assert_eq!(
            error_message(42, &Fault::NoSuchLabel(9)),
            "statement 42: no statement is labelled 9 (§5)"
        );
        assert_eq!(Fault::OutOfMemory.to_string(), "memory exhausted (§8)");
    }

    #[test]
    fn letters() {
        assert_eq!(piece_from_letter('K'), Some((W, Kind::King)));
        assert_eq!(piece_from_letter('n'), Some((B, Kind::Knight)));
        assert_eq!(piece_from_letter('p'), Some((B, Kind::Pawn)));
        assert_eq!(piece_from_letter('x'), None);
        assert_eq!(piece_from_letter('*'), None);
        assert_eq!(Kind::Pawn.index(), 5);
        assert_eq!(Colour::Black.index(), 1);
        assert_eq!(W.other(), B);
    }

    // -- place, count, names ----------------------------------------------

    #[test]
    fn place_and_count() {
        let mut b = board();
        assert_eq!(b.count(3), 0);
        put(&mut b, 3, W, Kind::Pawn, 0, 0);
        assert_eq!(b.place(4, B, Kind::King, 0, 0), Ok(false));
        put(&mut b, 3, B, Kind::King, 5, 5);
        assert_eq!(b.count(3), 2);
        assert_eq!(b.piece_at(5, 5), Some((B, Kind::King, 3)));
        assert_eq!(b.piece_at(5, 6), None);
        assert_eq!(b.live_pieces(), 2);
        assert_eq!(b.names(), 16);
        // A king may be placed in check, and a piece may give check.
        put(&mut b, 1, W, Kind::Rook, 5, 100);
        put(&mut b, 1, W, Kind::King, 6, 6);
        assert_consistent(&b);
    }

    #[test]
    fn occupy_places_without_colour_or_kind() {
        let mut b = Board::new(3);
        assert_eq!(b.occupy(0, 1, 1), Ok(true));
        assert_eq!(b.occupy(1, 1, 1), Ok(false));
        assert_eq!(b.occupy(3, 2, 2), Ok(false));
        assert_eq!(b.occupy(u32::MAX, 2, 2), Ok(false));
        // Past the table's first growths.
        for i in 0..1000 {
            assert_eq!(b.occupy(2, i, -i - 5), Ok(true));
        }
        assert_eq!(b.occupy(1, 500, -505), Ok(false));
        assert_eq!(b.occupy(1, i64::MIN, i64::MAX), Ok(true));
        assert_eq!((b.count(0), b.count(1), b.count(2)), (1, 1, 1000));
        assert_eq!(b.squares.get(1, 1), Some(OCCUPIED));
        assert_eq!(b.squares.len, 1002);
    }

    #[test]
    fn names_out_of_range_have_no_pieces() {
        let mut b = Board::new(2);
        assert_eq!(b.place(2, W, Kind::Rook, 0, 0), Ok(false));
        assert_eq!(b.place(u32::MAX, W, Kind::Rook, 0, 0), Ok(false));
        assert_eq!(b.count(2), 0);
        assert_eq!(b.count(u32::MAX), 0);
        assert_eq!(b.move_name_by(7, 0, 1), Ok(false));
        assert_eq!(b.move_name_to(u32::MAX, 0, 1), Ok(false));
        put(&mut b, 1, W, Kind::Rook, 0, 0);
        assert_eq!(b.count(1), 1);
        assert_eq!(b.count(0), 0);
        assert_eq!(b.move_name_by(0, 0, 1), Ok(false));
        let mut empty = Board::new(0);
        assert_eq!(empty.place(0, W, Kind::King, 0, 0), Ok(false));
        assert_eq!(empty.move_squares(0, 0, 0, 1), Ok(false));
        assert_eq!(empty.piece_at(i64::MIN, i64::MAX), None);
    }

    // -- geometry -----------------------------------------------------------

    #[test]
    fn move_from_empty_square_fails() {
        let mut b = board();
        assert!(!mv(&mut b, 3, 1, 5, 0));
        put(&mut b, 0, W, Kind::King, 6, 0);
        assert_eq!(b.move_name_by(0, 1, 1), Ok(true));
        assert_eq!(b.piece_at(7, 1), Some((W, Kind::King, 0)));
    }

    #[test]
    fn king_geometry() {
        for &(dr, dc) in KING_STEPS.iter() {
            let mut b = board();
            put(&mut b, 0, W, Kind::King, 10, 10);
            assert!(mv(&mut b, 10, 10, 10 + dr, 10 + dc));
        }
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 10, 10);
        for (dr, dc) in [(2, 0), (0, 2), (2, 2), (1, 2), (0, 0), (-2, -1)] {
            assert!(!mv(&mut b, 10, 10, 10 + dr, 10 + dc));
        }
    }

    #[test]
    fn knight_geometry() {
        for &(dr, dc) in KNIGHT_JUMPS.iter() {
            let mut b = board();
            put(&mut b, 0, B, Kind::Knight, 0, 0);
            // Knights jump: surround it completely.
            for &(a, c) in KING_STEPS.iter() {
                put(&mut b, 1, W, Kind::Pawn, a, c);
            }
            assert!(mv(&mut b, 0, 0, dr, dc));
        }
        let mut b = board();
        put(&mut b, 0, B, Kind::Knight, 0, 0);
        for (dr, dc) in [(1, 1), (2, 2), (0, 1), (3, 0), (3, 1), (1, 3)] {
            assert!(!mv(&mut b, 0, 0, dr, dc));
        }
    }

    #[test]
    fn rook_bishop_queen_geometry_and_blocking() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        assert!(!mv(&mut b, 0, 0, 1, 1));
        assert!(!mv(&mut b, 0, 0, 2, 1));
        assert!(mv(&mut b, 0, 0, 0, 37));
        assert!(mv(&mut b, 0, 37, -50, 37));
        put(&mut b, 1, W, Kind::Pawn, -20, 37);
        assert!(!mv(&mut b, -50, 37, 0, 37)); // own piece strictly between
        assert!(!mv(&mut b, -50, 37, -20, 37)); // own piece on target
        assert!(mv(&mut b, -50, 37, -21, 37)); // next to it
        put(&mut b, 2, B, Kind::Pawn, -21, 30);
        assert!(mv(&mut b, -21, 37, -21, 30)); // capture
        assert_eq!(b.count(2), 0);

        let mut b = board();
        put(&mut b, 0, B, Kind::Bishop, 0, 0);
        assert!(!mv(&mut b, 0, 0, 0, 5));
        assert!(!mv(&mut b, 0, 0, 2, 3));
        assert!(mv(&mut b, 0, 0, 12, -12));
        put(&mut b, 1, W, Kind::Knight, 3, -3);
        assert!(!mv(&mut b, 12, -12, 0, 0));
        assert!(mv(&mut b, 12, -12, 3, -3));
        assert!(mv(&mut b, 3, -3, -100, 100));

        let mut b = board();
        put(&mut b, 0, W, Kind::Queen, 0, 0);
        assert!(!mv(&mut b, 0, 0, 1, 2));
        assert!(mv(&mut b, 0, 0, 9, 9));
        assert!(mv(&mut b, 9, 9, 9, -1000));
        assert!(mv(&mut b, 9, -1000, 20, -1011));
        put(&mut b, 1, B, Kind::Rook, 20, -1);
        assert!(mv(&mut b, 20, -1011, 20, -1));
        put(&mut b, 2, W, Kind::Pawn, 30, 9);
        assert!(!mv(&mut b, 20, -1, 40, 19));
        assert_consistent(&b);
    }

    #[test]
    fn pawns_both_colours() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Pawn, 0, 0);
        assert!(!mv(&mut b, 0, 0, 2, 0)); // no two-square step
        assert!(!mv(&mut b, 0, 0, -1, 0)); // never backwards
        assert!(!mv(&mut b, 0, 0, 1, 1)); // diagonal only to capture
        assert!(!mv(&mut b, 0, 0, 0, 1));
        assert!(mv(&mut b, 0, 0, 1, 0));
        put(&mut b, 1, B, Kind::Pawn, 2, 0);
        assert!(!mv(&mut b, 1, 0, 2, 0)); // no forward capture
        assert!(!mv(&mut b, 2, 0, 1, 0)); // black blocked by white
        put(&mut b, 1, B, Kind::Knight, 2, 1);
        put(&mut b, 2, W, Kind::Knight, 2, -1);
        assert!(!mv(&mut b, 1, 0, 2, -1)); // own piece
        assert!(mv(&mut b, 1, 0, 2, 1)); // capture forward-right

        // Black pawn: forward is a smaller row.
        assert!(!mv(&mut b, 2, 0, 3, 0));
        assert!(!mv(&mut b, 2, 0, 0, 0));
        assert!(mv(&mut b, 2, 0, 1, 0));
        put(&mut b, 3, W, Kind::Queen, 0, -1);
        assert!(!mv(&mut b, 1, 0, 0, 1));
        assert!(mv(&mut b, 1, 0, 0, -1));
        assert_eq!(b.piece_at(0, -1), Some((B, Kind::Pawn, 1)));
        assert_eq!(b.count(3), 0);
        assert_consistent(&b);
    }

    #[test]
    fn own_colour_cannot_be_captured() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Pawn, 0, 1);
        assert!(!mv(&mut b, 0, 0, 0, 1));
        assert_eq!(b.piece_at(0, 0), Some((W, Kind::King, 0)));
    }

    // -- check --------------------------------------------------------------

    #[test]
    fn kings_can_be_captured() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Rook, 0, 50);
        put(&mut b, 2, W, Kind::Rook, 5, 5);
        // White is in check: only moves resolving it are legal.
        assert!(!mv(&mut b, 5, 5, 6, 5));
        assert!(mv(&mut b, 5, 5, 0, 5));
        // The black rook captures the white rook, then the king.
        assert!(mv(&mut b, 0, 50, 0, 5));
        assert!(mv(&mut b, 0, 5, 0, 0));
        assert_eq!(b.count(0), 0);
        assert!(b.kings[0].is_empty());
        assert_consistent(&b);
        // White has no king left: nothing is check-tested for white.
        put(&mut b, 3, W, Kind::Pawn, 1, 1);
        assert!(mv(&mut b, 1, 1, 2, 1));
    }

    #[test]
    fn moving_into_check() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Rook, 1, 100);
        assert!(!mv(&mut b, 0, 0, 1, 0)); // rook's row
        assert!(mv(&mut b, 0, 0, -1, 0));
        put(&mut b, 2, B, Kind::Knight, 1, 3);
        assert!(!mv(&mut b, -1, 0, 0, 1)); // the knight (1,3) covers (0,1)
        assert!(mv(&mut b, -1, 0, -1, 1));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::Knight, 2, 2);
        assert!(!mv(&mut b, 0, 0, 0, 1)); // (2,2)->(0,1)
        assert!(!mv(&mut b, 0, 0, 1, 0)); // (2,2)->(1,0)
        assert!(mv(&mut b, 0, 0, 1, 1));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::Pawn, 2, 0);
        assert!(!mv(&mut b, 0, 0, 1, 1)); // black pawn (2,0) attacks (1,1)
        assert!(mv(&mut b, 0, 0, 1, 0)); // but not (1,0)
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 2, W, Kind::Pawn, -2, 0);
        assert!(!mv(&mut b, 0, 0, -1, 1));
        assert!(!mv(&mut b, 0, 0, -1, -1));
        assert!(mv(&mut b, 0, 0, -1, 0));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::King, 0, 2);
        assert!(!mv(&mut b, 0, 0, 0, 1)); // enemy king attacks neighbours
        assert!(!mv(&mut b, 0, 0, 1, 1));
        assert!(mv(&mut b, 0, 0, -1, 0));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::Bishop, 500, 501);
        assert!(!mv(&mut b, 0, 0, 0, 1));
        put(&mut b, 3, B, Kind::Queen, -700, 1);
        assert!(!mv(&mut b, 0, 0, 1, 1)); // queen on column 1
        assert!(mv(&mut b, 0, 0, -1, -1));
        assert_consistent(&b);
    }

    #[test]
    fn king_captures_into_and_out_of_check() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 1, 1);
        put(&mut b, 2, B, Kind::Rook, 1, 40);
        assert!(!mv(&mut b, 0, 0, 1, 1)); // the rook guards (1,1)
        assert!(mv(&mut b, 1, 40, 2, 40));
        assert!(mv(&mut b, 0, 0, 1, 1)); // now the pawn can be taken
        assert_eq!(b.count(1), 0);
    }

    #[test]
    fn pins() {
        // White king (0,0), white rook (0,3) pinned by black rook (0,20).
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 0, 3);
        put(&mut b, 2, B, Kind::Rook, 0, 20);
        assert!(!mv(&mut b, 0, 3, 5, 3)); // leaving the pin line
        assert!(mv(&mut b, 0, 3, 0, 10)); // along it
        assert!(mv(&mut b, 0, 10, 0, 1));
        assert!(mv(&mut b, 0, 1, 0, 20)); // capturing the pinner
        assert_eq!(b.count(2), 0);
        assert!(mv(&mut b, 0, 20, 7, 20)); // free now

        // A pinned bishop on a diagonal.
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Bishop, 2, 2);
        put(&mut b, 2, W, Kind::Queen, 30, 30);
        assert!(!mv(&mut b, 2, 2, 1, 3));
        assert!(mv(&mut b, 2, 2, 20, 20));
        assert!(mv(&mut b, 20, 20, 30, 30));
        // A pinned knight cannot move at all.
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Knight, 1, 0);
        put(&mut b, 2, B, Kind::Queen, 12, 0);
        for &(dr, dc) in KNIGHT_JUMPS.iter() {
            assert!(!mv(&mut b, 1, 0, 1 + dr, dc));
        }
        assert_consistent(&b);
    }

    #[test]
    fn several_kings_all_must_be_safe() {
        // Two white kings, each shielded by a rook from a black rook.
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 0, W, Kind::King, 0, 10);
        put(&mut b, 1, W, Kind::Rook, 5, 0);
        put(&mut b, 1, W, Kind::Rook, 5, 10);
        put(&mut b, 2, B, Kind::Rook, 20, 0);
        put(&mut b, 2, B, Kind::Rook, 20, 10);
        assert!(!mv(&mut b, 5, 0, 5, 1));
        assert!(!mv(&mut b, 5, 10, 5, 11));
        assert!(mv(&mut b, 5, 0, 15, 0));
        assert!(mv(&mut b, 5, 10, 1, 10));
        // Each king is tested: a bishop covering squares next to one king.
        put(&mut b, 3, B, Kind::Bishop, 3, 4);
        assert!(!mv(&mut b, 0, 0, 0, 1)); // the bishop covers (0,1)
        assert!(mv(&mut b, 0, 0, -1, -1));
        // Capturing one king leaves the other one guarded by the rules.
        put(&mut b, 4, B, Kind::Knight, 1, 0);
        assert!(mv(&mut b, 1, 0, -1, -1)); // takes the king on (-1,-1)
        assert_eq!(b.count(0), 1);
        assert!(!mv(&mut b, 1, 10, 1, 11)); // still shields (0,10)
        assert!(mv(&mut b, 1, 10, 19, 10));
        assert_consistent(&b);
    }

    #[test]
    fn opponents_kings_are_ignored() {
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 5, 5);
        put(&mut b, 4, W, Kind::King, 50, 50);
        // White may give check and leave black in check.
        assert!(mv(&mut b, 5, 5, 5, 0));
        assert!(mv(&mut b, 5, 0, 6, 0));
        // A black rook pinned to its own king still attacks: the white king
        // cannot enter its row.
        put(&mut b, 2, B, Kind::Rook, 3, 0);
        put(&mut b, 3, W, Kind::King, 2, 9);
        assert!(!mv(&mut b, 2, 9, 3, 9));
        // A black move exposing the black king is refused ...
        assert!(!mv(&mut b, 3, 0, 3, 8));
        // ... but one that checks a white king is fine for black.
        assert!(mv(&mut b, 3, 0, 2, 0));
        // White is in check now: its moves must answer it.
        assert!(!mv(&mut b, 50, 50, 51, 51));
        assert!(mv(&mut b, 2, 9, 3, 9));
        assert_consistent(&b);
    }

    #[test]
    fn black_in_check_must_answer() {
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 9, 9);
        put(&mut b, 2, W, Kind::Bishop, -4, -4);
        assert!(!mv(&mut b, 9, 9, 8, 9));
        assert!(mv(&mut b, 0, 0, 0, 1));
        assert!(mv(&mut b, 9, 9, 8, 9));
    }

    // -- moves by name --------------------------------------------------------

    #[test]
    fn newest_first_then_older() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0); // oldest
        put(&mut b, 0, W, Kind::Rook, 10, 0);
        put(&mut b, 0, W, Kind::Rook, 20, 0); // newest
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.piece_at(20, 1), Some((W, Kind::Rook, 0)));
        // Block the newest: the next newest moves.
        put(&mut b, 1, W, Kind::Pawn, 20, 2);
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.piece_at(10, 1), Some((W, Kind::Rook, 0)));
        // Absolute: only the oldest can reach (0, 5) (others off the lines).
        assert_eq!(b.move_name_to(0, 0, 5), Ok(true));
        assert_eq!(b.piece_at(0, 5), Some((W, Kind::Rook, 0)));
        assert_eq!(b.piece_at(0, 0), None);
        // Reachable by two, (10,1) and (0,5): the newer one goes.
        assert_eq!(b.move_name_to(0, 10, 5), Ok(true));
        assert_eq!(b.piece_at(10, 1), None);
        assert_eq!(b.piece_at(0, 5), Some((W, Kind::Rook, 0)));
        // None can move there.
        assert_eq!(b.move_name_to(0, 1000, 1001), Ok(false));
        assert_eq!(b.count(0), 3);
        // Capturing the middle piece keeps the order of the rest.
        put(&mut b, 2, B, Kind::Rook, 10, 0);
        assert!(mv(&mut b, 10, 0, 10, 5));
        assert_eq!(b.count(0), 2);
        assert_eq!(b.move_name_by(0, 1, 0), Ok(true));
        assert_eq!(b.piece_at(21, 1), Some((W, Kind::Rook, 0)));
        put(&mut b, 1, W, Kind::Pawn, 22, 1);
        assert_eq!(b.move_name_by(0, 1, 0), Ok(true));
        assert_eq!(b.piece_at(1, 5), Some((W, Kind::Rook, 0)));
        // A later placement becomes the newest even after captures.
        put(&mut b, 0, W, Kind::King, 50, 50);
        assert_eq!(b.move_name_by(0, 1, 1), Ok(true));
        assert_eq!(b.piece_at(51, 51), Some((W, Kind::King, 0)));
        assert_consistent(&b);
    }

    #[test]
    fn relative_overflow_at_the_edges() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0); // older
        put(&mut b, 0, W, Kind::Rook, 5, i64::MAX); // newer, at the edge
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.piece_at(0, 1), Some((W, Kind::Rook, 0)));
        assert_eq!(b.piece_at(5, i64::MAX), Some((W, Kind::Rook, 0)));
        assert_eq!(b.move_name_by(0, i64::MAX, 0), Ok(true)); // newer: 5+MAX overflows
        assert_eq!(b.piece_at(i64::MAX, 1), Some((W, Kind::Rook, 0)));
        assert_eq!(b.move_name_by(0, i64::MAX, i64::MAX), Ok(false));
        // Now the newer one can go: (5, MAX) -> (5 + MIN, MAX).
        assert_eq!(b.move_name_by(0, i64::MIN, 0), Ok(true));
        assert_eq!(b.piece_at(i64::MIN + 5, i64::MAX), Some((W, Kind::Rook, 0)));
        // And again the older: (MAX, 1) -> (-1, 1).
        assert_eq!(b.move_name_by(0, i64::MIN, 0), Ok(true));
        assert_eq!(b.piece_at(-1, 1), Some((W, Kind::Rook, 0)));
        // Full-width slides: from MIN to MAX and back.
        let mut b = board();
        put(&mut b, 0, W, Kind::Queen, i64::MIN, i64::MIN);
        assert!(mv(&mut b, i64::MIN, i64::MIN, i64::MAX, i64::MAX));
        assert!(mv(&mut b, i64::MAX, i64::MAX, i64::MAX, i64::MIN));
        assert!(mv(&mut b, i64::MAX, i64::MIN, i64::MIN, i64::MIN));
        put(&mut b, 1, B, Kind::Pawn, 0, 0);
        assert!(!mv(&mut b, i64::MIN, i64::MIN, i64::MAX, i64::MAX));
        assert!(mv(&mut b, i64::MIN, i64::MIN, 0, 0));
        assert!(mv(&mut b, 0, 0, i64::MIN, 0));
        assert!(mv(&mut b, i64::MIN, 0, i64::MIN + 1, -1));
        assert_eq!(b.move_name_by(0, -1, 1), Ok(true));
        assert_eq!(b.move_name_by(0, -1, 0), Ok(false));
        // Kings and knights at the edge: attack probes must not overflow.
        let mut b = board();
        put(&mut b, 0, W, Kind::King, i64::MAX, i64::MIN);
        put(&mut b, 1, B, Kind::Knight, i64::MIN, i64::MAX);
        put(&mut b, 2, B, Kind::Pawn, i64::MIN, i64::MIN);
        put(&mut b, 3, B, Kind::King, 0, 0);
        put(&mut b, 4, B, Kind::Queen, i64::MAX - 1, 0);
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.move_name_by(0, -1, -1), Ok(false)); // the queen's row
        assert_eq!(b.move_name_by(0, 1, 0), Ok(false)); // past the edge
        assert_eq!(b.move_name_by(0, 0, -1), Ok(true));
        assert_eq!(b.move_name_by(0, 0, -1), Ok(false)); // past the edge
        assert_eq!(b.piece_at(i64::MAX, i64::MIN), Some((W, Kind::King, 0)));
        assert_consistent(&b);
    }

    // -- long range ------------------------------------------------------------

    const FAR: i64 = 1_000_000_000_000_000_000;

    fn scatter(b: &mut Board, n: u64, seed: u64) {
        let mut rng = Rng(seed);
        let mut placed = 0;
        while placed < n {
            let r = rng.range(-1_000_000, 1_000_000) * 1_000_000 + 7;
            let c = rng.range(-1_000_000, 1_000_000) * 1_000_000 + 13;
            if b.place(9, B, Kind::Pawn, r, c) == Ok(true) {
                placed += 1;
            }
        }
    }

    #[test]
    fn long_slides_with_many_pieces() {
        let mut b = board();
        scatter(&mut b, 2000, 1);
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        assert!(mv(&mut b, 0, 0, 0, FAR));
        assert!(mv(&mut b, 0, FAR, -FAR, FAR));
        assert!(b.lines[ROWS].is_some() && b.lines[COLS].is_some());
        put(&mut b, 1, W, Kind::Pawn, -FAR / 2, FAR);
        assert!(!mv(&mut b, -FAR, FAR, 0, FAR));
        assert!(mv(&mut b, -FAR, FAR, -FAR / 2 - 1, FAR));
        put(&mut b, 2, W, Kind::Bishop, 1, 0);
        assert!(mv(&mut b, 1, 0, 1 + FAR, FAR));
        assert!(mv(&mut b, 1 + FAR, FAR, 1 - FAR, 3 * FAR));
        put(&mut b, 3, B, Kind::Knight, 1 - FAR + 12345, 3 * FAR - 12345);
        assert!(!mv(&mut b, 1 - FAR, 3 * FAR, 1 + FAR, FAR));
        assert!(mv(
            &mut b,
            1 - FAR,
            3 * FAR,
            1 - FAR + 12345,
            3 * FAR - 12345
        ));
        for _ in 0..1000 {
            assert!(mv(
                &mut b,
                1 - FAR + 12345,
                3 * FAR - 12345,
                1 - FAR + 12345 + FAR,
                3 * FAR - 12345 - FAR
            ));
            assert!(mv(
                &mut b,
                1 + 12345,
                2 * FAR - 12345,
                1 - FAR + 12345,
                3 * FAR - 12345
            ));
        }
        assert_consistent(&b);
    }

    #[test]
    fn long_range_check_with_lazy_then_maintained_index() {
        let mut b = board();
        scatter(&mut b, 500, 2);
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 0, 50);
        put(&mut b, 2, B, Kind::Rook, 0, FAR);
        assert!(b.lines[ROWS].is_none());
        // The shield leaving row 0 exposes the king: the mover's own square
        // must be skipped in the index.
        assert!(!mv(&mut b, 0, 50, 5, 50));
        assert!(b.lines[ROWS].is_some());
        assert_consistent(&b);
        assert!(mv(&mut b, 0, 50, 0, FAR - 1));
        assert!(mv(&mut b, 0, FAR - 1, 0, 20));
        // A second shield arrives from off the line (its target is not in
        // the index yet), which frees the first one.
        put(&mut b, 3, W, Kind::Rook, 3, 40);
        assert!(mv(&mut b, 3, 40, 0, 40));
        assert!(mv(&mut b, 0, 20, 7, 20));
        assert!(!mv(&mut b, 0, 40, 1, 40));
        // The checker captures the shield: the target stays in the index.
        assert!(mv(&mut b, 0, FAR, 0, 40));
        assert_consistent(&b);
        assert!(!mv(&mut b, 7, 20, 7, 21)); // white is in check
        assert!(mv(&mut b, 7, 20, 0, 20)); // interpose again
        assert!(mv(&mut b, 0, 40, 0, 21)); // the black rook comes closer
        assert!(!mv(&mut b, 0, 20, 1, 20));
        assert!(mv(&mut b, 0, 20, 0, 21)); // and is taken
        assert_consistent(&b);
    }

    #[test]
    fn interposing_and_capturing_far_checkers() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Rook, 0, FAR);
        put(&mut b, 2, W, Kind::Rook, 3, 50);
        put(&mut b, 3, W, Kind::Rook, 4, FAR);
        // White is in check along row 0.
        assert!(!mv(&mut b, 3, 50, 3, 51));
        assert!(mv(&mut b, 3, 50, 0, 50)); // interpose (t not in the index)
        assert!(!mv(&mut b, 0, 50, 1, 50)); // pinned now
        assert!(mv(&mut b, 0, 50, 0, 5));
        // The far white rook captures the checker: t stays occupied.
        assert!(mv(&mut b, 4, FAR, 0, FAR));
        assert_eq!(b.count(1), 0);
        assert!(mv(&mut b, 0, 5, 9, 5)); // no longer pinned
        assert_consistent(&b);
        // The king steps onto a far queen's anti-diagonal (row + col = 1).
        assert!(mv(&mut b, 0, 0, 0, 1));
        put(&mut b, 4, B, Kind::Queen, -FAR, 1 + FAR);
        assert!(!mv(&mut b, 0, 1, 1, 0)); // still on row + col = 1
        assert!(mv(&mut b, 0, 1, 1, 1));
        assert_consistent(&b);
    }

    // -- differential test against a brute-force reference --------------------

    /// A tiny deterministic PRNG (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0 | 1;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.0 = x;
            x.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as u64) as i64
        }
    }

    #[derive(Clone, Copy, Debug)]
    struct RefPiece {
        colour: Colour,
        kind: Kind,
        name: Name,
        serial: u64,
        row: i64,
        col: i64,
    }

    #[derive(Default)]
    struct Reference {
        pieces: Vec<RefPiece>,
        serial: u64,
    }

    fn ref_at(ps: &[RefPiece], r: i128, c: i128) -> Option<usize> {
        ps.iter()
            .position(|p| p.row as i128 == r && p.col as i128 == c)
    }

    /// Whether no piece of `ps` stands strictly between s and t (on a
    /// straight or diagonal line). Looks at pieces, not squares, so that
    /// distances of 10^18 cost nothing.
    fn ref_clear(ps: &[RefPiece], s: (i128, i128), t: (i128, i128)) -> bool {
        let (dr, dc) = (t.0 - s.0, t.1 - s.1);
        let steps = dr.abs().max(dc.abs());
        let (ur, uc) = (dr.signum(), dc.signum());
        !ps.iter().any(|q| {
            let (qr, qc) = (q.row as i128 - s.0, q.col as i128 - s.1);
            let k = if ur != 0 { qr * ur } else { qc * uc };
            k > 0 && k < steps && qr == k * ur && qc == k * uc
        })
    }

    /// Rule 3 geometry of `p` moving onto / attacking (r, c) on board `ps`.
    fn ref_geometry(ps: &[RefPiece], p: &RefPiece, r: i128, c: i128, capture: bool) -> bool {
        let s = (p.row as i128, p.col as i128);
        let (dr, dc) = (r - s.0, c - s.1);
        let (a, b) = (dr.abs(), dc.abs());
        match p.kind {
            Kind::King => a.max(b) == 1,
            Kind::Knight => (a == 1 && b == 2) || (a == 2 && b == 1),
            Kind::Rook => (a == 0 || b == 0) && ref_clear(ps, s, (r, c)),
            Kind::Bishop => a == b && ref_clear(ps, s, (r, c)),
            Kind::Queen => (a == 0 || b == 0 || a == b) && ref_clear(ps, s, (r, c)),
            Kind::Pawn => {
                let f = if p.colour == W { 1 } else { -1 };
                dr == f && ((b == 0 && !capture) || (b == 1 && capture))
            }
        }
    }

    impl Reference {
        fn place(&mut self, name: Name, colour: Colour, kind: Kind, r: i64, c: i64) -> bool {
            if ref_at(&self.pieces, r as i128, c as i128).is_some() {
                return false;
            }
            self.pieces.push(RefPiece {
                colour,
                kind,
                name,
                serial: self.serial,
                row: r,
                col: c,
            });
            self.serial += 1;
            true
        }

        /// The board after moving piece i to t, if legal by §7.
        fn after(&self, i: usize, tr: i64, tc: i64) -> Option<Vec<RefPiece>> {
            let p = self.pieces[i];
            if (p.row, p.col) == (tr, tc) {
                return None;
            }
            let victim = ref_at(&self.pieces, tr as i128, tc as i128);
            if victim.is_some_and(|v| self.pieces[v].colour == p.colour) {
                return None;
            }
            if !ref_geometry(&self.pieces, &p, tr as i128, tc as i128, victim.is_some()) {
                return None;
            }
            let mut post: Vec<RefPiece> = Vec::new();
            for (j, q) in self.pieces.iter().enumerate() {
                if Some(j) == victim {
                    continue;
                }
                let mut q = *q;
                if j == i {
                    q.row = tr;
                    q.col = tc;
                }
                post.push(q);
            }
            for k in post
                .iter()
                .filter(|q| q.colour == p.colour && q.kind == Kind::King)
            {
                for e in post.iter().filter(|q| q.colour != p.colour) {
                    if ref_geometry(&post, e, k.row as i128, k.col as i128, true) {
                        return None;
                    }
                }
            }
            Some(post)
        }

        fn try_move(&mut self, i: usize, tr: i64, tc: i64) -> bool {
            match self.after(i, tr, tc) {
                Some(post) => {
                    self.pieces = post;
                    true
                }
                None => false,
            }
        }

        fn candidates(&self, name: Name) -> Vec<usize> {
            let mut v: Vec<usize> = (0..self.pieces.len())
                .filter(|&i| self.pieces[i].name == name)
                .collect();
            v.sort_by_key(|&i| std::cmp::Reverse(self.pieces[i].serial));
            v
        }

        fn move_name(
            &mut self,
            name: Name,
            target: impl Fn(&RefPiece) -> Option<(i64, i64)>,
        ) -> bool {
            for i in self.candidates(name) {
                let legal =
                    target(&self.pieces[i]).filter(|&(tr, tc)| self.after(i, tr, tc).is_some());
                if let Some((tr, tc)) = legal {
                    return self.try_move(i, tr, tc);
                }
            }
            false
        }
    }

    const KINDS: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];

    fn square(base: (i64, i64), r: i128, c: i128) -> Option<(i64, i64)> {
        Some((
            i64::try_from(base.0 as i128 + r).ok()?,
            i64::try_from(base.1 as i128 + c).ok()?,
        ))
    }

    fn random_square(rng: &mut Rng, bases: &[(i64, i64)], radius: i64) -> Option<(i64, i64)> {
        let base = bases[rng.below(bases.len() as u64) as usize];
        square(
            base,
            rng.range(-radius, radius) as i128,
            rng.range(-radius, radius) as i128,
        )
    }

    /// A target for a piece on `from`: a random square of a cluster, a
    /// knight jump, a king step, a slide inside the cluster, or a slide
    /// along one of its 8 rays into another cluster (often 10^18 away).
    fn random_target(
        rng: &mut Rng,
        from: (i64, i64),
        bases: &[(i64, i64)],
        radius: i64,
        pieces: &[RefPiece],
    ) -> Option<(i64, i64)> {
        let (r, c) = (from.0 as i128, from.1 as i128);
        let (a, b) = KING_STEPS[rng.below(8) as usize];
        let (a, b) = (a as i128, b as i128);
        let (dr, dc): (i128, i128) = match rng.below(10) {
            0 => return random_square(rng, bases, radius),
            // The nearest piece along one of the 8 rays: often a capture.
            7..=9 => {
                let nearest = pieces
                    .iter()
                    .filter_map(|q| {
                        let (qr, qc) = (q.row as i128 - r, q.col as i128 - c);
                        let k = if a != 0 { qr * a } else { qc * b };
                        (k > 0 && qr == k * a && qc == k * b).then_some((k, q.row, q.col))
                    })
                    .min()?;
                return Some((nearest.1, nearest.2));
            }
            // Another piece's square: a capture if the colours differ.
            1 => {
                let q = pieces.get(rng.below(pieces.len().max(1) as u64) as usize)?;
                return Some((q.row, q.col));
            }
            2 => {
                let (a, b) = KNIGHT_JUMPS[rng.below(8) as usize];
                (a as i128, b as i128)
            }
            3 => (a, b),
            4 => {
                let k = rng.range(1, 2 * radius) as i128;
                (a * k, b * k)
            }
            _ => {
                let base = bases[rng.below(bases.len() as u64) as usize];
                let off = rng.range(-radius, radius) as i128;
                let k = if a == 0 {
                    (base.1 as i128 + off - c) * b
                } else {
                    (base.0 as i128 + off - r) * a
                };
                if k <= 0 {
                    return None;
                }
                (a * k, b * k)
            }
        };
        let t = (r + dr, c + dc);
        let near = bases.iter().any(|&(br, bc)| {
            (t.0 - br as i128).abs() <= radius as i128 && (t.1 - bc as i128).abs() <= radius as i128
        });
        if !near {
            return None;
        }
        Some((i64::try_from(t.0).ok()?, i64::try_from(t.1).ok()?))
    }

    fn compare(b: &Board, reference: &Reference, names: u32) {
        assert_eq!(b.live_pieces(), reference.pieces.len() as u64);
        for p in reference.pieces.iter() {
            assert_eq!(b.piece_at(p.row, p.col), Some((p.colour, p.kind, p.name)));
        }
        for name in 0..names {
            let n = reference.pieces.iter().filter(|p| p.name == name).count();
            assert_eq!(b.count(name), n as u64);
        }
        assert_consistent(b);
    }

    /// Random places and moves on clusters of squares around `bases`, each
    /// compared with the brute-force reference and followed by a full
    /// consistency check of the board's tables and line indices.
    fn differential(seed: u64, bases: &[(i64, i64)], radius: i64, ops: usize, most: usize) {
        let names = 5;
        let mut rng = Rng(seed);
        let mut b = Board::new(names as usize);
        let mut reference = Reference::default();
        for op in 0..ops {
            let choice = rng.below(10);
            let n = reference.pieces.len();
            if n == 0 || (choice < 3 && n < most) {
                let kind = KINDS[rng.below(6) as usize];
                let colour = if rng.below(2) == 0 { W } else { B };
                let name = rng.below(names as u64) as u32;
                if let Some((r, c)) = random_square(&mut rng, bases, radius) {
                    let want = reference.place(name, colour, kind, r, c);
                    assert_eq!(b.place(name, colour, kind, r, c), Ok(want), "op {}", op);
                }
            } else if choice < 6 {
                let i = rng.below(n as u64) as usize;
                let p = reference.pieces[i];
                if let Some((tr, tc)) =
                    random_target(&mut rng, (p.row, p.col), bases, radius, &reference.pieces)
                {
                    let want = reference.try_move(i, tr, tc);
                    let got = b.move_squares(p.row, p.col, tr, tc);
                    assert_eq!(got, Ok(want), "op {} seed {}", op, seed);
                }
            } else if choice < 8 {
                let name = rng.below(names as u64) as u32;
                let i = rng.below(n as u64) as usize;
                let p = reference.pieces[i];
                if let Some((tr, tc)) =
                    random_target(&mut rng, (p.row, p.col), bases, radius, &reference.pieces)
                {
                    let want = reference.move_name(name, |_| Some((tr, tc)));
                    let got = b.move_name_to(name, tr, tc);
                    assert_eq!(got, Ok(want), "op {} seed {}", op, seed);
                }
            } else {
                let name = rng.below(names as u64) as u32;
                let i = rng.below(n as u64) as usize;
                let p = reference.pieces[i];
                let delta = match rng.below(4) {
                    0 => Some(KING_STEPS[rng.below(8) as usize]),
                    1 => Some(KNIGHT_JUMPS[rng.below(8) as usize]),
                    2 => {
                        let (a, c) = KING_STEPS[rng.below(8) as usize];
                        let k = rng.range(1, radius);
                        Some((a * k, c * k))
                    }
                    // The offset of some target of a piece: maybe huge.
                    _ => random_target(&mut rng, (p.row, p.col), bases, radius, &reference.pieces)
                        .and_then(|(tr, tc)| {
                            Some((tr.checked_sub(p.row)?, tc.checked_sub(p.col)?))
                        }),
                };
                if let Some((dr, dc)) = delta {
                    let want = reference.move_name(name, |p| {
                        Some((p.row.checked_add(dr)?, p.col.checked_add(dc)?))
                    });
                    let got = b.move_name_by(name, dr, dc);
                    assert_eq!(got, Ok(want), "op {} seed {}", op, seed);
                }
            }
            compare(&b, &reference, names);
        }
    }

    #[test]
    fn differential_against_brute_force() {
        for seed in 1..=8u64 {
            differential(seed * 7919, &[(0, 0)], 14, 1500, 28);
        }
    }

    #[test]
    fn differential_at_the_edges() {
        for seed in 1..=3u64 {
            differential(
                seed * 104_729,
                &[(i64::MAX - 10, i64::MIN + 10)],
                14,
                1200,
                28,
            );
            differential(
                seed * 15_485_863,
                &[(i64::MIN + 10, i64::MAX - 10)],
                14,
                1200,
                28,
            );
        }
    }

    #[test]
    fn differential_sparse_long_rays() {
        // A wider cluster: rays beyond the probe reach are the rule here.
        for seed in 1..=4u64 {
            differential(seed * 31_337, &[(FAR, -FAR)], 40, 800, 28);
        }
    }

    #[test]
    fn differential_far_apart_clusters() {
        // Clusters sharing rows, columns, diagonals and anti-diagonals
        // across 10^18 squares, and clusters at the corners whose diagonals
        // share the origin's keys modulo 2^64 (the wrapped diagonal keys).
        let bases = [
            (0, 0),
            (0, FAR),
            (FAR, 0),
            (FAR, FAR),
            (-FAR, FAR),
            (i64::MAX - 3, i64::MIN + 3),
            (i64::MIN + 3, i64::MAX - 3),
            (i64::MAX - 3, i64::MAX - 3),
            (i64::MIN + 3, i64::MIN + 3),
        ];
        for seed in 1..=6u64 {
            differential(seed * 65_537, &bases, 6, 1500, 32);
        }
    }

    #[test]
    fn differential_many_sliders() {
        // More enemy sliders than SLIDER_SCAN: every ray is asked.
        for seed in 1..=3u64 {
            differential(seed * 7_777, &[(0, 0)], 9, 1000, 60);
        }
    }

    // -- memory ------------------------------------------------------------------

    #[test]
    fn slot_reuse_keeps_tables_small() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 0, W, Kind::King, -5, -5);
        for i in 0..1_000_000i64 {
            put(&mut b, 1, B, Kind::Pawn, 0, 1 + (i & 1));
            assert!(mv(&mut b, 0, 0, 0, 1 + (i & 1)));
            assert!(mv(&mut b, 0, 1 + (i & 1), 0, 0));
        }
        assert_eq!(b.count(1), 0);
        assert!(b.pieces.len() <= 3, "slots: {}", b.pieces.len());
        assert!(b.squares.entries.len() <= 16);
        assert_consistent(&b);
    }

    #[test]
    fn square_table_survives_churn() {
        let mut t = SquareTable::new();
        assert_eq!(t.get(0, 0), None);
        t.remove(1, 1);
        let mut rng = Rng(99);
        let mut model = std::collections::BTreeMap::new();
        for step in 0..200_000u32 {
            let (r, c) = (rng.range(-40, 40), rng.range(-40, 40));
            if model.remove(&(r, c)).is_some() {
                t.remove(r, c);
            } else if model.len() < 3000 {
                t.reserve_one().unwrap();
                t.insert_new(r, c, step);
                model.insert((r, c), step);
            }
        }
        assert_eq!(t.len, model.len());
        for (&(r, c), &v) in model.iter() {
            assert_eq!(t.get(r, c), Some(v));
        }
    }

    // -- input and output ------------------------------------------------------------

    fn ints(text: &str) -> Vec<Result<Option<i64>, Fault>> {
        let mut input = Input::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            let r = input.read_int();
            let stop = !matches!(r, Ok(Some(_)));
            out.push(r);
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn read_ints() {
        assert_eq!(
            ints(" 12\t-3\r\n+4\n\n 0007 "),
            vec![
                Ok(Some(12)),
                Ok(Some(-3)),
                Ok(Some(4)),
                Ok(Some(7)),
                Ok(None)
            ]
        );
        assert_eq!(ints(""), vec![Ok(None)]);
        assert_eq!(ints(" \n\t\r"), vec![Ok(None)]);
        assert_eq!(ints("x"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("5 -"), vec![Ok(Some(5)), Err(Fault::NotANumber)]);
        assert_eq!(ints("+"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("- 5"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("--5"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("\u{b}5"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("\u{e9}"), vec![Err(Fault::NotANumber)]);
        assert_eq!(
            ints("-9223372036854775808 9223372036854775807"),
            vec![Ok(Some(i64::MIN)), Ok(Some(i64::MAX)), Ok(None)]
        );
        assert_eq!(
            ints("9223372036854775808"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("-9223372036854775809"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("+9223372036854775808"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("99999999999999999999999999"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("-000000000000000000000000001"),
            vec![Ok(Some(-1)), Ok(None)]
        );
        assert_eq!(ints("-0"), vec![Ok(Some(0)), Ok(None)]);
        // A number ends at the first non-digit, which is left unread.
        let mut input = Input::new("12,3".as_bytes());
        assert_eq!(input.read_int(), Ok(Some(12)));
        assert_eq!(input.read_int(), Err(Fault::NotANumber));
        let mut input = Input::new("7-8".as_bytes());
        assert_eq!(input.read_int(), Ok(Some(7)));
        assert_eq!(input.read_int(), Ok(Some(-8)));
        assert_eq!(input.read_int(), Ok(None));
        assert_eq!(input.read_int(), Ok(None));
    }

    /// A reader that hands out its parts one per read; an empty part is an
    /// end of input, after which later parts would be readable again.
    struct Parts {
        parts: Vec<Result<Vec<u8>, ErrorKind>>,
        next: usize,
    }

    impl Read for Parts {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let part = self.parts.get(self.next).cloned();
            self.next += 1;
            match part {
                None => Ok(0),
                Some(Err(kind)) => Err(std::io::Error::new(kind, "test")),
                Some(Ok(bytes)) => {
                    let n = bytes.len().min(buf.len());
                    buf[..n].copy_from_slice(&bytes[..n]);
                    Ok(n)
                }
            }
        }
    }

    fn parts(list: &[Result<&str, ErrorKind>]) -> Input<BufReader<Parts>> {
        let parts = list
            .iter()
            .map(|p| p.map(|s| s.as_bytes().to_vec()))
            .collect();
        Input::new(BufReader::with_capacity(4, Parts { parts, next: 0 }))
    }

    #[test]
    fn read_across_buffers_sticky_eof_and_errors() {
        let mut input = parts(&[Ok("12"), Ok("34 -"), Ok("56"), Ok(" 7"), Ok(""), Ok("8")]);
        assert_eq!(input.read_int(), Ok(Some(1234)));
        assert_eq!(input.read_int(), Ok(Some(-56)));
        assert_eq!(input.read_int(), Ok(Some(7)));
        assert_eq!(input.read_int(), Ok(None));
        assert_eq!(input.read_int(), Ok(None)); // sticky: "8" is never read
        let mut input = parts(&[Ok("5"), Ok(""), Ok("6")]);
        assert_eq!(input.read_int(), Ok(Some(5))); // ended by end of input
        assert_eq!(input.read_int(), Ok(None));
        let mut input = parts(&[Err(ErrorKind::Interrupted), Ok("9 "), Err(ErrorKind::Other)]);
        assert_eq!(input.read_int(), Ok(Some(9)));
        assert_eq!(input.read_int(), Err(Fault::ReadFailed));
    }

    #[test]
    fn read_into_slots() {
        let mut input = Input::new("1 2 3 4 5".as_bytes());
        let mut v = [0i64; 3];
        assert_eq!(input.read_into(&mut v), Ok(3));
        assert_eq!(v, [1, 2, 3]);
        let mut v = [-1i64; 3];
        assert_eq!(input.read_into(&mut v), Ok(2));
        assert_eq!(v, [4, 5, -1]);
        assert_eq!(input.read_into(&mut v), Ok(0));
        assert_eq!(input.read_into(&mut []), Ok(0));
        let mut input = Input::new("1 x".as_bytes());
        assert_eq!(input.read_into(&mut v), Err(Fault::NotANumber));
    }

    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("broken pipe"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writing() {
        let mut out = Vec::new();
        write_text(&mut out, "bottles of beer \"%*?!#\\ \n").unwrap();
        write_count(&mut out, 0).unwrap();
        write_count(&mut out, 99).unwrap();
        write_count(&mut out, u64::MAX).unwrap();
        write_text(&mut out, "").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "bottles of beer \"%*?!#\\ \n0\n99\n18446744073709551615\n"
        );
        assert_eq!(write_text(&mut Broken, "x\n"), Err(Fault::WriteFailed));
        assert_eq!(write_count(&mut Broken, 1), Err(Fault::WriteFailed));
    }

    // -- the seed examples of §9 ---------------------------------------------------

    /// `slide` leaves the board exactly as that many `move_name_by` calls
    /// would, with and without its fast path's conditions (one piece of
    /// the name, no king of its colour, a unit step along a line), with
    /// blockers of both colours, captures, far pieces and the i64 edge.
    #[test]
    fn slide_is_repeated_moves() {
        let mut rng = Rng(0x51de);
        let dirs = [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
            (1, 2),
        ];
        for round in 0..3000 {
            let mut b = Board::new(4);
            let far = if rng.below(4) == 0 { FAR } else { 0 };
            let edge = rng.below(8) == 0;
            for _ in 0..1 + rng.below(9) {
                let kind = KINDS[rng.below(6) as usize];
                let colour = if rng.below(2) == 0 { W } else { B };
                let name = rng.below(4) as u32;
                let (mut r, mut c) = (rng.range(-6, 6), rng.range(-6, 6));
                if rng.below(3) == 0 {
                    r = r.saturating_add(far);
                }
                if edge {
                    c = i64::MAX - rng.range(0, 12);
                }
                let _ = b.place(name, colour, kind, r, c);
            }
            let name = rng.below(4) as u32;
            let (dr, dc) = dirs[rng.below(dirs.len() as u64) as usize];
            let most = if rng.below(3) == 0 {
                u64::MAX
            } else {
                rng.below(40)
            };
            let mut stepped = b.clone();
            let mut want = 0u64;
            while want < most.min(5_000) && stepped.move_name_by(name, dr, dc) == Ok(true) {
                want += 1;
            }
            if want == 5_000 {
                continue; // a run too long to step here
            }
            let got = b.slide(name, dr, dc, most).unwrap();
            assert_eq!(got, want, "round {round}");
            let mut a = b.pieces();
            let mut z = stepped.pieces();
            a.sort_by_key(|p| (p.0, p.1));
            z.sort_by_key(|p| (p.0, p.1));
            assert_eq!(a, z, "round {round}");
            for n in 0..4 {
                assert_eq!(b.count(n), stepped.count(n));
            }
            assert_consistent(&b);
        }
    }

    #[test]
    fn slide_runs_far_in_one_go() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 0, 1_000_000_000_000);
        put(&mut b, 1, B, Kind::Knight, 0, 2_000_000_000_000);
        put(&mut b, 2, W, Kind::Pawn, 0, 3_000_000_000_000);
        // Two captures on the way, stopped next to its own pawn.
        assert_eq!(b.slide(0, 0, 1, u64::MAX), Ok(2_999_999_999_999));
        assert_eq!(b.piece_at(0, 2_999_999_999_999), Some((W, Kind::Rook, 0)));
        assert_eq!(b.count(1), 0);
        // To the i64 edge, and back a bounded number of moves.
        assert_eq!(b.slide(0, -1, 0, u64::MAX), Ok(i64::MAX.abs_diff(0) + 1));
        assert_eq!(
            b.piece_at(i64::MIN, 2_999_999_999_999),
            Some((W, Kind::Rook, 0))
        );
        assert_eq!(b.slide(0, 1, 0, 7), Ok(7));
        assert_eq!(
            b.piece_at(i64::MIN + 7, 2_999_999_999_999),
            Some((W, Kind::Rook, 0))
        );
        assert_consistent(&b);
        // A knight jumps (1, 2) at a time: it takes the black pawn on its
        // squares, passes the rook between them, stops before its own pawn.
        let mut b = board();
        put(&mut b, 0, W, Kind::Knight, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 1_000_000, 2_000_000);
        put(&mut b, 1, B, Kind::Rook, 5, 9);
        put(&mut b, 2, W, Kind::Pawn, 3_000_000_000, 6_000_000_000);
        assert_eq!(b.slide(0, 1, 2, u64::MAX), Ok(2_999_999_999));
        assert_eq!(
            b.piece_at(2_999_999_999, 5_999_999_998),
            Some((W, Kind::Knight, 0))
        );
        assert_eq!(b.count(1), 1);
        assert_consistent(&b);
        // Nothing in the way: to the i64 edge of its columns.
        let mut b = board();
        put(&mut b, 0, B, Kind::Knight, 0, i64::MAX - 9);
        assert_eq!(b.slide(0, -1, 2, u64::MAX), Ok(4));
        assert_eq!(b.piece_at(-4, i64::MAX - 1), Some((B, Kind::Knight, 0)));
    }

    /// A loop of statements run as `run_loop` runs it: one statement at a
    /// time (a slide loop's statement is one move).
    fn step_loop(b: &mut Board, steps: &[Step], start: usize, most: u64) -> LoopEnd {
        let (mut executed, mut at) = (0u64, start);
        loop {
            if executed >= most {
                return LoopEnd {
                    executed,
                    at,
                    left: false,
                };
            }
            executed += 1;
            let next = (at + 1) % steps.len();
            match steps[at] {
                Step::Nothing => at = next,
                Step::Move(n, dr, dc) => {
                    if b.move_name_by(n, dr, dc) != Ok(true) {
                        return LoopEnd {
                            executed,
                            at,
                            left: true,
                        };
                    }
                    at = next;
                }
                Step::Slide(n, dr, dc) => {
                    if b.move_name_by(n, dr, dc) != Ok(true) {
                        at = next;
                    }
                }
            }
        }
    }

    /// `run_loop` ends where stepping the loop's statements one by one
    /// ends, with the same board, for random loops of moves, slides and
    /// `^` on random boards (kings, captures, blockers of both colours,
    /// pieces in each other's way, far pieces and the i64 edge), from
    /// every member, under random budgets.
    #[test]
    fn run_loop_is_stepping() {
        let mut rng = Rng(0x100b5);
        // Every line's unit steps, two jumps, and a step of two squares.
        let dirs: Vec<(i64, i64)> = ORTHOGONAL
            .iter()
            .chain(&DIAGONAL)
            .copied()
            .chain([(1, 2), (-2, 1), (0, 2)])
            .collect();
        let mut compared = 0;
        for round in 0..6000 {
            let mut b = Board::new(4);
            let edge = rng.below(8) == 0;
            // Half the boards suit skipping: one piece per name of the
            // loop, no king, room to move (blockers are named 3).
            let suited = round % 2 == 0;
            let spread = if suited { 12 } else { 5 };
            for i in 0..2 + rng.below(8) {
                let kind = match KINDS[rng.below(6) as usize] {
                    Kind::King if suited => Kind::Rook,
                    k => k,
                };
                let colour = if rng.below(2) == 0 { W } else { B };
                let name = if suited {
                    (i as u32).min(3)
                } else {
                    rng.below(4) as u32
                };
                let (r, mut c) = (rng.range(-spread, spread), rng.range(-spread, spread));
                if edge {
                    c = i64::MAX - rng.range(0, 8);
                }
                let _ = b.place(name, colour, kind, r, c);
            }
            let n = 2 + rng.below(3) as usize;
            let steps: Vec<Step> = (0..n)
                .map(|i| {
                    let name = if suited {
                        (i as u32).min(2)
                    } else {
                        rng.below(4) as u32
                    };
                    let (dr, dc) = dirs[rng.below(dirs.len() as u64) as usize];
                    match rng.below(6) {
                        _ if i == 0 => Step::Move(name, dr, dc),
                        0 | 1 => Step::Slide(name, dr, dc),
                        2 => Step::Nothing,
                        _ => Step::Move(name, dr, dc),
                    }
                })
                .collect();
            let start = rng.below(n as u64) as usize;
            let most = if rng.below(3) == 0 {
                u64::MAX
            } else {
                1 + rng.below(300)
            };
            let mut stepped = b.clone();
            let want = step_loop(&mut stepped, &steps, start, most.min(20_000));
            if !want.left && most > 20_000 {
                continue; // a run too long to step here
            }
            let got = b.run_loop(&steps, start, most);
            assert_eq!(got, want, "round {round}: {steps:?} from {start}");
            let sorted = |b: &Board| {
                let mut pieces = b.pieces();
                pieces.sort_by_key(|p| (p.0, p.1));
                pieces
            };
            assert_eq!(sorted(&b), sorted(&stepped), "round {round}: {steps:?}");
            assert_consistent(&b);
            compared += 1;
        }
        assert!(compared > 3000, "{compared}");
    }

    /// Rounds are skipped, not stepped: a transfer of 10^15 between two
    /// rooks, and counter's outer loop (two slides and a move) 10^6
    /// times over 10^12 squares, end at once where stepping would.
    #[test]
    fn run_loop_skips_rounds() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 1_000_000_000_000_000);
        put(&mut b, 1, W, Kind::Rook, 1, 0);
        put(&mut b, 2, W, Kind::Pawn, 0, -1);
        let transfer = [Step::Move(0, 0, -1), Step::Move(1, 0, 1)];
        let end = b.run_loop(&transfer, 0, u64::MAX);
        assert_eq!(
            end,
            LoopEnd {
                executed: 2_000_000_000_000_001,
                at: 0,
                left: true
            }
        );
        assert_eq!(b.piece_at(0, 0), Some((W, Kind::Rook, 0)));
        assert_eq!(
            b.piece_at(1, 1_000_000_000_000_000),
            Some((W, Kind::Rook, 1))
        );
        assert_consistent(&b);
        // counter.icp: x walks to the cap and back, m counts the rounds.
        let (n, m) = (1_000_000_000_000i64, 1_000_000i64);
        let mut b = board();
        put(&mut b, 3, W, Kind::Pawn, 0, -1);
        put(&mut b, 3, W, Kind::Pawn, 1, -1);
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 1, m);
        put(&mut b, 2, W, Kind::Pawn, 0, n);
        let outer = [
            Step::Slide(0, 0, 1),
            Step::Slide(0, 0, -1),
            Step::Move(1, 0, -1),
        ];
        let end = b.run_loop(&outer, 0, u64::MAX);
        let round = 2 * n as u64 + 1;
        assert_eq!(
            end,
            LoopEnd {
                executed: (m as u64 + 1) * round,
                at: 2,
                left: true
            }
        );
        assert_eq!(b.piece_at(1, 0), Some((W, Kind::Rook, 1)));
        assert_eq!(b.piece_at(0, 0), Some((W, Kind::Rook, 0)));
        // With a budget: the same statements counted as stepping counts
        // them (2n + 1 a round), stopping inside a slide.
        let mut b = board();
        put(&mut b, 3, W, Kind::Pawn, 0, -1);
        put(&mut b, 3, W, Kind::Pawn, 1, -1);
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 1, m);
        put(&mut b, 2, W, Kind::Pawn, 0, 10);
        let most = 21 * 1_000 + 5;
        let end = b.run_loop(&outer, 0, most);
        assert_eq!(
            end,
            LoopEnd {
                executed: most,
                at: 0,
                left: false
            }
        );
        assert_eq!(b.piece_at(1, m - 1_000), Some((W, Kind::Rook, 1)));
        assert_eq!(b.piece_at(0, 5), Some((W, Kind::Rook, 0)));
    }

    #[test]
    fn seed_nothing_program() {
        let mut b = Board::new(1);
        assert_eq!(b.move_squares(3, 1, 5, 0), Ok(false));
        assert_eq!(b.place(0, W, Kind::King, 6, 0), Ok(true));
        assert_eq!(b.move_name_by(0, 1, 1), Ok(true));
        assert_eq!(b.piece_at(7, 1), Some((W, Kind::King, 0)));
    }
}
