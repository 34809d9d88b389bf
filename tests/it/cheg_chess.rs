//! Tests of the chess runtime (`spec/cheg.md` §7.1, §7.2, §7.4, §11.1,
//! §11.5, §11.18): perft of the standard positions, the move order of §7.2,
//! FEN validation and the FEN round trip.

use icp2c::lang::cheg::runtime::chess::{
    Colour, Kind, Move, Piece, Position, display, square_name,
};

/// (depth, FEN, leaf count): the conformance suite `chess/perft` (published
/// counts of the start position, Kiwipete, CPW positions 3–6 and seeded
/// random playouts), copied here so that the crate needs nothing outside.
const SUITE: &[(u32, &str, u64)] = &[
    (
        1,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        20,
    ),
    (
        2,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        400,
    ),
    (
        3,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        8902,
    ),
    (
        4,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        197281,
    ),
    (
        5,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4865609,
    ),
    (
        1,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        48,
    ),
    (
        2,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        2039,
    ),
    (
        3,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        97862,
    ),
    (
        4,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4085603,
    ),
    (1, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 14),
    (2, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 191),
    (3, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 2812),
    (4, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 43238),
    (5, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 674624),
    (6, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 11030083),
    (
        1,
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        6,
    ),
    (
        2,
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        264,
    ),
    (
        3,
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        9467,
    ),
    (
        4,
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        422333,
    ),
    (
        1,
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        6,
    ),
    (
        2,
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        264,
    ),
    (
        3,
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        9467,
    ),
    (
        4,
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        422333,
    ),
    (
        1,
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        44,
    ),
    (
        2,
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        1486,
    ),
    (
        3,
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        62379,
    ),
    (
        4,
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        2103487,
    ),
    (
        1,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        46,
    ),
    (
        2,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        2079,
    ),
    (
        3,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        89890,
    ),
    (
        4,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        3894594,
    ),
    (
        4,
        "r1b1k2r/qp1p4/3bP1Pn/2p2p2/1nP2p1P/8/PB1P2B1/RNQ2KNR b kq - 0 17",
        1305491,
    ),
    (
        4,
        "2b4r/3nP2p/r2b3n/5k2/1P5P/1Rp3p1/8/3K2N1 w - - 0 36",
        443201,
    ),
    (
        4,
        "1n4k1/4B3/2Pp3R/r3P2P/3N2b1/P4B1r/2p3p1/R1KQ2N1 b - - 0 40",
        1374014,
    ),
    (
        4,
        "r3k3/5q2/1ppp3n/pPn4P/1P2pN2/P2PPPp1/8/R3KBNR w KQq - 2 24",
        1521770,
    ),
    (
        4,
        "r7/pb2kPr1/n1P5/6p1/3P4/N4P2/P1pNK3/R1B4R w - - 1 29",
        673464,
    ),
    (
        4,
        "2bq3r/2P1bk2/5P1n/1P5N/4P2P/r1NPQ3/2R1Kp2/n4B1R w - - 0 36",
        2849599,
    ),
    (
        4,
        "2R2b2/4P1p1/2Nk1n2/1q1P2P1/5p2/1p1B1P1r/p3K3/2B2Q2 w - - 0 45",
        1842446,
    ),
    (
        4,
        "rn4n1/3kP2r/p7/Pp1b3q/6p1/6p1/2RN2B1/2BK2NR w - - 0 40",
        1280404,
    ),
    (
        4,
        "1n2kB1r/r1qbp3/1pPp4/6p1/p2P2PP/4pN1B/PPN2P2/R2QK2R w KQk - 0 18",
        1119562,
    ),
    (
        3,
        "1nbk1b2/4n1r1/rPP1q3/3N4/Q3p1pp/P4p2/2PBBN1P/R3K2R w KQ - 0 26",
        82246,
    ),
    (
        4,
        "rn2k2r/1p2b3/pP2pn2/5p1p/3pPPPp/Bb1P1K2/3R2BP/RNQ1q3 b kq - 7 23",
        1268604,
    ),
    (
        4,
        "rn2k2r/pb1q2bp/7n/PppPp1p1/6P1/1P2PP1P/2R2K1R/1NBQ1BN1 b kq - 0 15",
        1429020,
    ),
    (
        4,
        "r2qk2r/p3b3/1ppp3n/1Pn2PpP/P1bP1p1P/5P2/3K4/RNQ3NR w - g6 0 24",
        1197122,
    ),
    (
        4,
        "r1b3nr/p1p1qkp1/3pp3/1p2n1Pp/Pb2PP2/1PP5/3P2P1/R1BQKBNR w KQ h6 0 12",
        1336338,
    ),
    (
        4,
        "rnb2knr/2p2N2/pp1p2pp/2BPpp2/PP3P2/2b2B2/2PQ3P/RN2K2R w KQ e6 0 16",
        891966,
    ),
    (
        4,
        "r2qk1nr/1b5p/n4Ppb/p1ppp2Q/PpP2P2/4P2P/1P1P3R/RNB1KBN1 b Qkq c3 0 14",
        1085075,
    ),
    (
        4,
        "1nbqk2r/3pp2p/1pP3p1/r1b5/p1N1PpPP/2P2P2/PP2B3/1RBQKnN1 b k g3 0 19",
        1171148,
    ),
    (
        4,
        "rnbqkbnr/pp1p1ppp/8/2p5/4pP2/1P2P3/P1PPN1PP/RNBQKB1R b KQkq f3 0 4",
        429449,
    ),
    (
        4,
        "3QNbn1/7r/4P1k1/4Knp1/4P1P1/1p5N/8/1N3B2 w - - 1 43",
        816119,
    ),
    (
        4,
        "r3kr2/pbpqn3/2n1Pp1p/2b2P1P/8/B1N1p1P1/2P1N2p/1R2K2R w Kq - 1 26",
        1057197,
    ),
];

/// Leaf counts above this are skipped in debug builds (about 20 times slower
/// than release): every row to depth 4 runs (Kiwipete perft 4 is 4,085,603),
/// only startpos perft 5 and CPW 3 perft 6 are left to `cargo test
/// --release` and `examples/perft.rs` (`benches/perft.sh`).
const DEBUG_LIMIT: u64 = 4_200_000;

#[test]
fn perft_suite() {
    let limit = if cfg!(debug_assertions) {
        DEBUG_LIMIT
    } else {
        12_000_000
    };
    let mut checked = 0;
    for &(depth, fen, want) in SUITE {
        if want > limit {
            continue;
        }
        let pos = Position::from_fen(fen).expect(fen);
        assert_eq!(pos.perft(depth), want, "perft {depth} of {fen}");
        checked += 1;
    }
    assert!(checked >= 49, "only {checked} perft rows checked");
}

#[test]
fn perft_zero_is_one() {
    assert_eq!(Position::start().perft(0), 1);
}

fn uci(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_uci()).collect()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect(fen)
}

#[test]
fn order_two_rooks_castling_promotion() {
    // §7.2: K (castling is the king's move, by destination), R = h1, R2 = a1,
    // then the pawn's promotions by destination, each Q R B N.
    let moves = uci(&pos("r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1").legal_moves());
    let want = [
        "e1c1", "e1d1", "e1f1", "e1g1", "e1d2", "e1e2", "e1f2", // K
        "h1f1", "h1g1", "h1h2", "h1h3", "h1h4", "h1h5", "h1h6", "h1h7", "h1h8", // R
        "a1b1", "a1c1", "a1d1", "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", // R2
        "b7a8q", "b7a8r", "b7a8b", "b7a8n", "b7b8q", "b7b8r", "b7b8b", "b7b8n", // P
    ];
    assert_eq!(moves, want);
}

#[test]
fn order_bishop_and_knights() {
    // K, B, then the knights: h1 is N (file h first), a1 is N2.
    let moves = uci(&pos("4k3/8/8/8/8/8/8/N1B1K2N w - - 0 1").legal_moves());
    let want = [
        "e1d1", "e1f1", "e1d2", "e1e2", "e1f2", //
        "c1b2", "c1d2", "c1a3", "c1e3", "c1f4", "c1g5", "c1h6", //
        "h1f2", "h1g3", //
        "a1c2", "a1b3",
    ];
    assert_eq!(moves, want);
}

#[test]
fn order_en_passant_and_black() {
    let moves = uci(&pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").legal_moves());
    assert_eq!(
        moves,
        ["e1d1", "e1f1", "e1d2", "e1e2", "e1f2", "e5d6", "e5e6"]
    );
    // Black to move: ranks count from Black's side for the variables, but
    // destinations are still a1, b1, …, h8. Pawns h7 (P) then a7 (P2).
    let moves = uci(&pos("4k3/p6p/8/8/8/8/8/4K3 b - - 0 1").legal_moves());
    assert_eq!(
        moves,
        [
            "e8d7", "e8e7", "e8f7", "e8d8", "e8f8", //
            "h7h5", "h7h6", "a7a5", "a7a6",
        ]
    );
}

#[test]
fn order_pieces_beyond_their_variables() {
    // Three white rooks (d1 R, c1 R2, a1 beyond) and two queens (h4 Q, a4
    // beyond): the extra pieces come after the pawns, in square order.
    let p = pos("5k2/8/8/8/Q6Q/8/6P1/R1RR3K w - - 0 1");
    let order: Vec<String> = p
        .pieces_in_order(Colour::White)
        .iter()
        .map(|pc| format!("{:?}{}", pc.kind, square_name(pc.square)))
        .collect();
    assert_eq!(
        order,
        [
            "Kingh1", "Queenh4", "Rookd1", "Rookc1", "Pawng2", "Rooka1", "Queena4"
        ]
    );
    assert_eq!(
        p.piece_variable(Colour::White, Kind::Rook, 0)
            .map(|pc| pc.square),
        Some(3)
    );
    assert_eq!(
        p.piece_variable(Colour::White, Kind::Rook, 1)
            .map(|pc| pc.square),
        Some(2)
    );
    assert_eq!(p.piece_variable(Colour::White, Kind::Rook, 2), None);
    let moves = p.legal_moves();
    let first_of = |sq: u8| moves.iter().position(|m| m.from == sq).unwrap();
    // K h1, Q h4, R d1, R2 c1, P g2, then a1 (square 0) before a4 (square 24).
    let starts = [7u8, 31, 3, 2, 14, 0, 24].map(first_of);
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
}

#[test]
fn piece_variables_use_the_movers_ranks() {
    // §11.1: the black rooks a1 and a8 on one file: with White to move a1
    // (White's rank 1) is R; with Black to move a8 (Black's rank 1) is R.
    let w = pos("r3k3/8/8/8/8/8/8/r1N1K3 w - - 0 1");
    let b = pos("r3k3/8/8/8/8/8/8/r1N1K3 b - - 0 1");
    let r = |p: &Position, i| {
        p.piece_variable(Colour::Black, Kind::Rook, i)
            .map(|pc| pc.square)
    };
    assert_eq!((r(&w, 0), r(&w, 1)), (Some(0), Some(56)));
    assert_eq!((r(&b, 0), r(&b, 1)), (Some(56), Some(0)));
    assert_eq!(
        w.piece_variable(Colour::White, Kind::King, 0),
        Some(Piece {
            colour: Colour::White,
            kind: Kind::King,
            square: 4
        })
    );
    assert_eq!(w.piece_variable(Colour::White, Kind::King, 1), None);
    assert_eq!(w.count(Colour::Black, Kind::Rook), 2);
    assert_eq!(w.count(Colour::White, Kind::Queen), 0);
}

#[test]
fn fen_errors() {
    let bad = [
        ("8/8/8/8/8/8/8/K6k w -", "fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "fields",
        ),
        ("", "fields"),
        ("8/8/8/8/8/8/K6k w - - 0 1", "ranks"),
        ("8/8/8/8/8/8/8/K6k/8 w - - 0 1", "ranks"),
        ("8/8/8/8/8/8/8/K5k w - - 0 1", "squares"),
        ("8/8/8/8/8/8/8/K6kp w - - 0 1", "more than 8"),
        ("8/8/8/8/8/8/8/K9k w - - 0 1", "digit"),
        ("8/8/8/8/8/8/8/K6x w - - 0 1", "character"),
        ("8/8/8/8/8/8/8/K7 w - - 0 1", "black king"),
        ("8/8/8/8/8/8/8/k7 w - - 0 1", "white king"),
        ("8/8/8/8/8/8/8/KK5k w - - 0 1", "more than one"),
        ("k7/8/8/8/8/8/8/KK6 w - - 0 1", "more than one"),
        ("k7/k7/8/8/8/8/8/K7 w - - 0 1", "more than one"),
        ("k7/8/8/8/8/8/8/KP6 w - - 0 1", "pawn"),
        ("k6p/8/8/8/8/8/8/K7 w - - 0 1", "pawn"),
        ("k6P/8/8/8/8/8/8/K7 b - - 0 1", "pawn"),
        ("k7/8/8/8/8/8/8/K7 x - - 0 1", "side"),
        ("k7/8/8/8/8/8/8/K7 w KX - 0 1", "castling"),
        ("r3k3/8/8/8/8/8/8/4K3 w qq - 0 1", "twice"),
        ("k7/8/8/8/8/8/8/K7 w - e4 0 1", "en-passant"),
        ("k7/8/8/8/8/8/8/K7 w - e3 0 1", "6th"),
        ("k7/8/8/8/8/8/8/K7 b - e6 0 1", "3rd"),
        ("k7/8/8/8/8/8/8/K7 w - - x 1", "halfmove"),
        ("k7/8/8/8/8/8/8/K7 w - - -1 1", "halfmove"),
        ("k7/8/8/8/8/8/8/K7 w - - 0 y", "fullmove"),
        ("k7/8/8/8/8/8/8/K7 w - - + 1", "halfmove"),
        (
            "k7/8/8/8/8/8/8/K7 w - - 18446744073709551616 1",
            "past the largest counter, 18446744073709551615",
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - - 0 99999999999999999999999",
            "fullmove",
        ),
        // The side not to move in check.
        ("k6R/8/8/8/8/8/8/K7 w - - 0 1", "in check"),
        ("k7/8/8/8/8/8/8/K6r b - - 0 1", "in check"),
        ("k7/1P6/8/8/8/8/8/K7 w - - 0 1", "in check"),
        ("k7/8/8/8/8/8/8/K7 w - - 0 1 1", "fields"),
    ];
    for (fen, word) in bad {
        let Err(message) = Position::from_fen(fen) else {
            panic!("accepted: {fen}")
        };
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains(word), "{fen}: {message} (want '{word}')");
    }
}

#[test]
fn fen_accepted_forms() {
    // 4 fields: counters 0 1 (§11.18).
    assert_eq!(
        pos("k7/8/8/8/8/8/8/K7 w - -").to_fen(),
        "k7/8/8/8/8/8/8/K7 w - - 0 1"
    );
    assert_eq!(
        pos("k7/8/8/8/8/8/8/K7 b - - 7").to_fen(),
        "k7/8/8/8/8/8/8/K7 b - - 7 1"
    );
    // Counters: any non-negative integer up to 2^64 - 1, leading zeros
    // and a `+` allowed; they count on and stop at the largest.
    assert_eq!(
        pos("k7/8/8/8/8/8/8/K7 w - - 4294967296 18446744073709551615").to_fen(),
        "k7/8/8/8/8/8/8/K7 w - - 4294967296 18446744073709551615"
    );
    assert_eq!(
        pos("k7/8/8/8/8/8/8/K7 w - - 00000000000000000000000000000000042 +7").to_fen(),
        "k7/8/8/8/8/8/8/K7 w - - 42 7"
    );
    let p = pos("k7/8/8/8/8/8/8/K7 b - - 18446744073709551615 18446744073709551615");
    assert_eq!(
        p.play(p.parse_move("a8b8").unwrap()).to_fen(),
        "1k6/8/8/8/8/8/8/K7 w - - 18446744073709551615 18446744073709551615"
    );
    // The side to move may be in check; extra blanks are fine.
    assert!(pos("  k7/8/8/8/8/8/8/K6r   w  -  -  0  1 ").in_check());
    // Rights that no longer fit the king and rook are dropped.
    assert_eq!(
        pos("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1").to_fen(),
        "r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1"
    );
    assert_eq!(
        pos("r4k1r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").to_fen(),
        "r4k1r/8/8/8/8/8/8/R3K2R b KQ - 0 1"
    );
    // Nine queens are legal input.
    assert_eq!(
        pos("QQQQQQQQ/pppppppp/8/8/8/8/8/Q3K2k w - - 0 1").count(Colour::White, Kind::Queen),
        9
    );
}

#[test]
fn fen_round_trip() {
    for &(_, fen, _) in SUITE {
        assert_eq!(pos(fen).to_fen(), fen);
    }
    assert_eq!(Position::start().to_fen(), SUITE[0].1);
    // After e2e4 the en-passant square is e3; counters advance.
    let p = Position::start();
    let e4 = p.parse_move("e2e4").unwrap();
    let p = p.play(e4);
    assert_eq!(
        p.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    let p = p.play(p.parse_move("g8f6").unwrap());
    assert_eq!(
        p.to_fen(),
        "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    );
    assert_eq!(pos(&p.to_fen()), p);
}

#[test]
fn play_special_moves() {
    // Castling moves the rook and drops both rights.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let q = p.play(p.parse_move("e1g1").unwrap());
    assert_eq!(q.to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    let q = q.play(q.parse_move("e8c8").unwrap());
    assert_eq!(q.to_fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    // Capturing a rook on its corner drops that right.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let q = p.play(p.parse_move("h1h8").unwrap());
    assert_eq!(q.to_fen(), "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
    // En passant removes the pawn behind.
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let mv = p.parse_move("e5d6").unwrap();
    assert!(p.is_capture(mv));
    assert_eq!(p.play(mv).to_fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
    // Promotions.
    let p = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        p.play(p.parse_move("b7b8n").unwrap()).to_fen(),
        "1N2k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
    assert_eq!(p.parse_move("b7b8"), None);
    assert_eq!(p.parse_move("b7b8k"), None);
    // A promotion without a kind played directly gives a queen (SETMOV, §5.1).
    let mv = Move {
        from: 49,
        to: 57,
        promotion: None,
    };
    assert_eq!(p.play(mv).to_fen(), "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn checks_captures_and_illegal_moves() {
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let a8 = p.parse_move("a1a8").unwrap();
    assert!(p.gives_check(a8));
    assert!(!p.is_capture(a8));
    let a7 = p.parse_move("a1a7").unwrap();
    assert!(!p.gives_check(a7));
    // An illegal move never gives check (§11.5).
    assert!(!p.gives_check(Move {
        from: 0,
        to: 60,
        promotion: None
    }));
    assert!(!p.gives_check(Move {
        from: 200,
        to: 60,
        promotion: None
    }));
    // Castling giving check through the rook.
    let p = pos("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(p.gives_check(p.parse_move("e1g1").unwrap()));
    // Discovered check by en passant.
    let p = pos("8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1");
    // … is illegal for the capturer if it exposes its own king:
    let p2 = pos("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1");
    assert_eq!(p2.parse_move("e5d6"), None);
    assert!(p.gives_check(p.parse_move("e5d6").unwrap()));
    // An en-passant square that does not fit the board allows no capture.
    for fen in [
        "4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", // d6 occupied by a knight
        "4k3/8/3B4/3pP3/8/8/8/4K3 w - d6 0 1", // by an own piece
        "4k3/8/8/3nP3/8/8/8/4K3 w - d6 0 1",   // no pawn behind it
        "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1",    // nothing behind it
    ] {
        let p = pos(fen);
        let pawn: Vec<String> = uci(&p.legal_moves())
            .into_iter()
            .filter(|m| m.starts_with("e5"))
            .collect();
        // Only the knight on d6 can be taken, as an ordinary capture.
        let want: &[&str] = if fen.contains("3n4") {
            &["e5d6", "e5e6"]
        } else {
            &["e5e6"]
        };
        assert_eq!(pawn, want, "{fen}");
        assert_eq!(p.perft(1), p.legal_moves().len() as u64);
    }
    // Garbage moves.
    for text in ["", "e2", "e2e4e", "e2e9", "i2i4", "e2e4qq", "é2e4", "0000"] {
        assert_eq!(Position::start().parse_move(text), None, "{text}");
    }
    // Checkmate and stalemate.
    let mate = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    assert!(mate.in_check() && mate.legal_moves().is_empty());
    let stale = pos("7k/5Q2/8/8/8/8/8/6K1 b - - 0 1");
    assert!(!stale.in_check() && stale.legal_moves().is_empty());
}

#[test]
fn board_queries() {
    let p = Position::start();
    assert_eq!(p.side_to_move(), Colour::White);
    assert_eq!(
        p.piece_at(4),
        Some(Piece {
            colour: Colour::White,
            kind: Kind::King,
            square: 4
        })
    );
    assert_eq!(p.piece_at(30), None);
    assert_eq!(p.piece_at(64), None);
    assert_eq!(square_name(0), "a1");
    assert_eq!(square_name(63), "h8");
    assert_eq!(square_name(64), "??");
    assert_eq!(p.legal_moves().len(), 20);
    assert_eq!(
        Move {
            from: 52,
            to: 60,
            promotion: Some(Kind::Queen)
        }
        .to_uci(),
        "e7e8q"
    );
    let shown = display(&pos("4k3/8/8/8/8/8/8/R3K2r w - - 0 1"));
    assert!(
        shown.contains(" | R |   |   |   | K |   |   | r | 1\n"),
        "{shown}"
    );
    assert!(
        shown.contains("\nFen: 4k3/8/8/8/8/8/8/R3K2r w - - 0 1\nCheckers: h1 \n"),
        "{shown}"
    );
}

/// A small deterministic generator (no dependencies).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn random_playouts_are_consistent() {
    // Along random games from every suite position: the FEN round trip, the
    // move count, UCI text, CHECK and CAPT agree with playing the move.
    let mut rng = Lcg(7);
    for &(_, fen, _) in SUITE.iter().step_by(3) {
        let mut p = pos(fen);
        for _ in 0..40 {
            assert_eq!(pos(&p.to_fen()), p, "{}", p.to_fen());
            let moves = p.legal_moves();
            assert_eq!(moves.len() as u64, p.count_legal());
            assert_eq!(moves.len() as u64, p.perft(1));
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                assert_eq!(p.parse_move(&mv.to_uci()), Some(mv));
                let next = p.play(mv);
                assert_eq!(p.gives_check(mv), next.in_check());
                let them = p.side_to_move().other();
                let before = p.pieces_in_order(them).len();
                assert_eq!(p.is_capture(mv), next.pieces_in_order(them).len() < before);
            }
            p = p.play(moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn mutated_fens_never_panic() {
    let alphabet: Vec<char> = "KQRBNPkqrbnp12345678/ wb-KQkqabcdefgh0369 \u{0}é"
        .chars()
        .collect();
    let mut rng = Lcg(11);
    for &(_, fen, _) in SUITE {
        for _ in 0..40 {
            let mut chars: Vec<char> = fen.chars().collect();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(chars.len());
                match rng.below(3) {
                    0 => chars[i] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        chars.remove(i);
                    }
                    _ => chars.insert(i, alphabet[rng.below(alphabet.len())]),
                }
            }
            let text: String = chars.into_iter().collect();
            match Position::from_fen(&text) {
                Ok(p) => {
                    assert_eq!(pos(&p.to_fen()), p, "{text}");
                    p.perft(2);
                    p.legal_moves();
                }
                Err(message) => assert!(!message.chars().any(char::is_control), "{message}"),
            }
        }
    }
}
