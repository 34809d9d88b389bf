//! Random CHEG programs and positions for the differential tests
//! (`tests/it/cheg_differential.rs`, issue 12): valid programs that use every
//! instruction of §5.1, conditions with and without `#`, orderings, nested
//! set literals, subroutines, plans and every outcome instruction, and that
//! always end quickly: jumps go forward only, and a subroutine calls only
//! subroutines defined after it, so no invocation loops. Arguments are
//! drawn mostly from sources of the type an instruction wants, so most
//! searches run to the end, and now and then from any source, so runtime
//! errors (§9) happen too.

#![allow(dead_code)] // each test binary uses a different part

use super::progen::Rng;
use icp2c::lang::cheg::runtime::chess::Position;

const INTS: &[&str] = &[
    "DEPTH", "PLIES", "A", "B", "\"0", "\"1", "\"2", "\"-3", "\"7", "\"+5", "N",
];
const SETS: &[&str] = &["LM", "PG", "E", "\"()", "\"(1,2,(3,#),T)", "\"(1,1,2)"];
const PIECES: &[&str] = &["WK", "BK", "P", "P", "WK", "BK"];
const SQUARES: &[&str] = &["Q", "WK", "BK", "M"];
const MOVES: &[&str] = &["M", "M", "X"];
const LOGICALS: &[&str] = &["\"T", "\"F", "L", "L"];
const ANY: &[&str] = &[
    "A", "B", "E", "L", "M", "N", "P", "Q", "X", "SIDE", "\"#", "DEPTH", "LM", "WK", "\"(T)",
];
const CONDITIONS: &[&str] = &[
    "", "DEFD", "=0", "<0", ">0", "ODD", "T", "EMPTY", "FAR", "RF", "NF", "NNF", "WSQ", "KING",
    "QUEEN", "ROOK", "BISH", "NIGHT", "PAWN", "WPC", "PASSD", "PDP", "CAPT", "CHECK", "SAFE",
    "OPP", "RWK=",
];
const ORDERINGS: &[&str] = &["", "DEEP", "#DEEP"];

/// What kind of value a condition tests (to pick a fitting argument).
fn condition_wants(cond: &str) -> &'static [&'static str] {
    match cond.trim_start_matches('#') {
        "" | "DEFD" => ANY,
        "=0" | "<0" | ">0" | "ODD" => INTS,
        "T" => LOGICALS,
        "EMPTY" => SETS,
        "FAR" | "RF" | "NF" | "NNF" | "WSQ" => SQUARES,
        "KING" | "QUEEN" | "ROOK" | "BISH" | "NIGHT" | "PAWN" | "WPC" | "PASSD" | "PDP" => PIECES,
        _ => MOVES,
    }
}

struct Gen<'a> {
    rng: &'a mut Rng,
    lines: Vec<String>,
    next_tag: usize,
}

impl Gen<'_> {
    /// A source of the wanted kind, or (rarely) of any kind.
    fn value(&mut self, wanted: &[&str]) -> String {
        if self.rng.chance(2) {
            self.rng.word(ANY).to_string()
        } else {
            self.rng.word(wanted).to_string()
        }
    }

    fn condition(&mut self) -> String {
        let c = self.rng.word(CONDITIONS);
        if !c.is_empty() && self.rng.chance(25) {
            format!("#{c}")
        } else {
            c.to_string()
        }
    }

    /// A variable written with a value of any type (the typed ones, A, B,
    /// E, L, M, N, P, Q, keep their type; SIDE only now and then).
    fn place(&mut self) -> &'static str {
        self.rng.word(&["X2", "X3", "X3", "X2", "SIDE"])
    }

    fn tag(&mut self) -> String {
        self.next_tag += 1;
        format!("T{}", self.next_tag)
    }

    /// One instruction (without tag) that does not transfer control.
    fn plain(&mut self) -> String {
        let r = self.rng.below(100);
        let w = |g: &mut Self, wants: &[&str]| g.value(wants);
        match r {
            0..=5 => {
                let op = self.rng.word(&["SETV", "CARD", "ABS"]);
                let arg = match op {
                    "CARD" => w(self, SETS),
                    "ABS" => w(self, INTS),
                    _ => w(self, ANY),
                };
                let dst = if op == "SETV" { self.place() } else { "N" };
                format!("{op} {dst},{arg}")
            }
            6..=9 => {
                let op = self.rng.word(&[
                    "PIECE", "SQUARE", "SIDE", "RANK", "FILE", "SCOLOR", "PCOLOR",
                ]);
                let arg = if op == "PIECE" || op == "PCOLOR" {
                    w(self, PIECES)
                } else {
                    w(self, SQUARES)
                };
                let dst = match op {
                    "PIECE" => "P",
                    "SQUARE" => "Q",
                    _ => "N",
                };
                format!("{op} {dst},{arg}")
            }
            10..=24 => {
                let op = self
                    .rng
                    .word(&["ADD", "SUB", "MUL", "DIV", "MOD", "DIF", "MIN", "MAX"]);
                let (a, b) = (w(self, INTS), w(self, INTS));
                let dst = self.rng.word(&["A", "B", "N"]);
                format!("{op} {dst},{a},{b}")
            }
            25..=29 => {
                let op = self.rng.word(&["NOR", "AND", "OR"]);
                let (a, b) = (w(self, LOGICALS), w(self, LOGICALS));
                format!("{op} L,{a},{b}")
            }
            30..=41 => {
                let op = self
                    .rng
                    .word(&["PAIR", "INTERS", "UNION", "DIFFER", "APPEND"]);
                let a = w(self, SETS);
                let b = if op == "PAIR" || op == "APPEND" {
                    w(self, ANY)
                } else {
                    w(self, SETS)
                };
                format!("{op} E,{a},{b}")
            }
            42..=47 => {
                let op = self.rng.word(&["MEMBER", "MEMNUM"]);
                let (a, s) = (w(self, ANY), w(self, SETS));
                let dst = if op == "MEMBER" { "L" } else { "N" };
                format!("{op} {dst},{a},{s}")
            }
            48..=53 => {
                let s = self.rng.word(&["LM", "LM", "E", "PG"]);
                let i = self.rng.word(&["\"1", "\"-1", "\"1", "N", "\"2"]);
                let dst = if s == "LM" { "M" } else { "X1" };
                format!("GETEL {dst},{s},{i}")
            }
            54..=57 => {
                let op = self.rng.word(&["MVDIST", "OPP", "SQ>RNK", "SETSQ"]);
                match op {
                    "SETSQ" => {
                        let (r, f) = (w(self, INTS), w(self, INTS));
                        format!("SETSQ Q,{r},{f}")
                    }
                    "SQ>RNK" => {
                        let (s, k) = (w(self, SQUARES), w(self, INTS));
                        format!("SQ>RNK Q,{s},{k}")
                    }
                    _ => {
                        let (a, b) = (w(self, SQUARES), w(self, SQUARES));
                        let dst = if op == "OPP" { "L" } else { "N" };
                        format!("{op} {dst},{a},{b}")
                    }
                }
            }
            58..=60 => {
                let (p, s) = (w(self, PIECES), w(self, SQUARES));
                format!("SETMOV M,{p},{s}")
            }
            61..=62 => {
                let (k, p) = (self.rng.word(&["WK", "BK"]).to_string(), w(self, PIECES));
                format!("INSQ L,{k},{p}")
            }
            63..=66 => {
                let c = self.condition();
                let s = w(self, SETS);
                format!("SELECC E,{c},{s}")
            }
            67..=75 => {
                let i = self.rng.word(&["\"1", "\"-1", "\"1", "\"2", "N"]);
                let j = self.rng.word(&["\"1", "\"-1", "\"3"]);
                let v = w(self, ANY);
                match self
                    .rng
                    .word(&["SETEL", "INSERT", "UNSERT", "EXCHWE", "EXCHEL"])
                {
                    "SETEL" => format!("SETEL {v},E,{i}"),
                    "INSERT" => format!("INSERT {v},E,{i}"),
                    "UNSERT" => format!("UNSERT X3,E,{i}"),
                    "EXCHWE" => format!("EXCHWE X3,E,{i}"),
                    _ => format!("EXCHEL E,{i},{j}"),
                }
            }
            76..=78 => {
                let (a, b) = (self.place(), self.place());
                if self.rng.chance(25) {
                    format!("EXCH {a},{b}")
                } else if self.rng.chance(30) {
                    "EXCH A,B".to_string()
                } else {
                    let o = self.rng.word(ORDERINGS);
                    format!("ORDER M,X2,{o}")
                }
            }
            79..=80 => {
                let (a, b, c) = (w(self, ANY), w(self, ANY), w(self, ANY));
                format!("BREAK {a},{b},{c}")
            }
            _ => "SETV X2,M".to_string(),
        }
    }

    /// A body of `n` statements: plain instructions, forward jumps to the
    /// body's own later tags, calls of the subroutines in `subs`.
    fn body(&mut self, n: usize, subs: &[String], main: bool) -> Vec<(Option<String>, String)> {
        let mut out: Vec<(Option<String>, String)> = Vec::new();
        let mut pending: Vec<String> = Vec::new();
        for i in 0..n {
            // The tag of this statement: one a statement before it jumps
            // to (never its own jump: that would loop).
            let tag = if pending.is_empty() || self.rng.chance(60) {
                None
            } else {
                Some(pending.remove(0))
            };
            let r = self.rng.below(100);
            let text = if r < 12 && i + 1 < n {
                let t = self.tag();
                pending.push(t.clone());
                match self.rng.below(3) {
                    0 => {
                        let c = self.condition();
                        let wants = condition_wants(&c);
                        let v = self.value(wants);
                        format!("CONDV {c},{v},{t}")
                    }
                    1 => {
                        let cmp = self.rng.word(&["<", "=", ">", "#<", "#=", "#>"]);
                        let (a, b) = if cmp == "=" || cmp == "#=" {
                            (self.value(ANY), self.value(ANY))
                        } else {
                            (self.value(INTS), self.value(INTS))
                        };
                        format!("JUMP{cmp} {a},{b},{t}")
                    }
                    _ => {
                        if let Some(sub) = subs.first().cloned() {
                            let sub = if subs.len() > 1 {
                                subs[self.rng.below(subs.len())].clone()
                            } else {
                                sub
                            };
                            match self.rng.below(3) {
                                0 => {
                                    let c = self.rng.word(&["", "DEFD", "T", ">0", "#EMPTY"]);
                                    format!("COND {c},{sub},{t}")
                                }
                                1 => {
                                    let v = self.value(ANY);
                                    format!("CONDT {sub},{v},{t}")
                                }
                                _ => {
                                    let v = self.value(ANY);
                                    format!("CONDF {sub},{v},{t}")
                                }
                            }
                        } else {
                            format!("JUMP= \"1,\"1,{t}")
                        }
                    }
                }
            } else if r < 22 && !subs.is_empty() {
                let sub = subs[self.rng.below(subs.len())].clone();
                match self.rng.below(3) {
                    0 => {
                        let v = self.value(ANY);
                        format!("SET X3,{sub},{v}")
                    }
                    1 => {
                        let s = self.rng.word(&["LM", "\"(1,2,3)", "E", "PG"]);
                        format!("SELECT E,{sub},{s}")
                    }
                    _ => {
                        let s = self.rng.word(&["LM", "\"(1,T,#)", "E"]);
                        format!("MAP E,{sub},{s}")
                    }
                }
            } else if main && r < 30 {
                let c = self.condition();
                let o = self.rng.word(ORDERINGS);
                let s = self.rng.word(&["LM", "LM", "E"]);
                match self.rng.below(6) {
                    0 => format!("TRY {s},{c},{o}"),
                    1 => {
                        let (a, b) = (self.value(INTS), self.value(INTS));
                        format!("VALON {a},{b},\"600")
                    }
                    2 => {
                        let (a, b) = (self.value(INTS), self.value(INTS));
                        format!("RETBET {a},{b},\"400")
                    }
                    3 => "UNPLAN".to_string(),
                    4 => {
                        let (a, b) = (self.value(INTS), self.value(INTS));
                        format!("VALRUT {a},{b},\"300")
                    }
                    _ => "PLAN PLN,LM,\"5".to_string(),
                }
            } else {
                self.plain()
            };
            out.push((tag, text));
        }
        // Tags not yet placed go on a final no-op statement.
        for t in pending {
            out.push((Some(t), "SETV N,\"1".to_string()));
        }
        out
    }

    fn emit(&mut self, stmts: Vec<(Option<String>, String)>) {
        for (tag, text) in stmts {
            match tag {
                Some(t) => self.lines.push(format!("{t}: {text}")),
                None => self.lines.push(format!("        {text}")),
            }
        }
    }

    /// How a main body ends (§6.3): an outcome, or falling into the next
    /// `ENTRY` (`LEAVE`).
    fn ending(&mut self) -> String {
        let c = self.condition();
        let o = self.rng.word(ORDERINGS);
        match self.rng.below(8) {
            0 => "LEAVE".into(),
            1 => format!("PLAY LM,{c},{o}"),
            2 => format!("PLAYB LM,{c},{o}"),
            3 => "DONE".into(),
            4 => "VALRET A,B,\"600".into(),
            5 => "VALRET N,\"0,\"100".into(),
            6 => format!("VALRET {},\"3,\"700", self.value(INTS)),
            _ => "SETV N,\"0".into(),
        }
    }
}

/// A random valid CHEG program with `subs` subroutines and main bodies of
/// about `size` statements for each `ENTRY`.
pub fn cheg_program(rng: &mut Rng, subs: usize, size: usize) -> String {
    let mut g = Gen {
        rng,
        lines: vec!["; generated by tests/support/cheg_gen.rs".into()],
        next_tag: 0,
    };
    let names: Vec<String> = (0..subs).map(|i| format!("S{i}")).collect();
    for (i, name) in names.iter().enumerate() {
        let later = &names[i + 1..];
        let n = 1 + g.rng.below(4);
        let mut body = g.body(n, later, false);
        let first = body.remove(0);
        g.lines.push(format!("{name}: {}", first.1));
        g.emit(body);
        let v = g.value(ANY);
        let ret = if g.rng.chance(50) {
            format!("        RETURN {}", g.rng.word(&["L", "\"T", "\"F"]))
        } else {
            format!("        RETURN {v}")
        };
        g.lines.push(ret);
    }
    g.lines.push("OUT:    LEAVE".into());
    g.lines.push("PLN:    SETV A,X".into());
    g.lines.push("        VALRET A,\"1,\"600".into());
    for entry in ["K,K", "R,K", "K,R", "N,K", "K,N"] {
        if entry != "K,K" && g.rng.chance(30) {
            continue;
        }
        g.lines.push(format!("ENTRY {entry}"));
        g.lines.push("        SETV A,\"3".into());
        g.lines.push("        SETV B,\"2".into());
        g.lines.push("        SETV E,LM".into());
        g.lines.push("        GETEL M,LM,\"1".into());
        g.lines.push("        SETV L,\"T".into());
        g.lines.push("        SETV N,\"1".into());
        g.lines.push("        SETV P,WK".into());
        g.lines.push("        SQUARE Q,BK".into());
        if g.rng.chance(40) {
            g.lines.push("        CONDV #=0,PLIES,OUT".into());
        }
        if g.rng.chance(50) {
            g.lines.push("        SETV SIDE,\"1".into());
        }
        let n = size / 2 + g.rng.below(size + 1);
        let body = g.body(n, &names, true);
        g.emit(body);
        let end = g.ending();
        g.lines.push(format!("        {end}"));
    }
    g.lines.push("END".into());
    g.lines.join("\n") + "\n"
}

/// Start positions with few pieces, both sides to move, that the
/// generated `ENTRY` lines match.
const BASES: &[&str] = &[
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/3p4/8/8/8/8/4P3/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    "r3k3/8/8/8/8/8/8/4K3 b - - 0 1",
    "4k3/8/8/8/8/8/2P5/1N2K3 w - - 0 1",
    "4k3/2p5/8/8/3P4/8/8/4K2R b - - 0 1",
    "1n2k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
];

/// A random legal position: a base, then 0-6 random legal moves.
pub fn cheg_position(rng: &mut Rng) -> String {
    let mut p = Position::from_fen(rng.word(BASES)).expect("base FENs are valid");
    for _ in 0..rng.below(7) {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p = p.play(moves[rng.below(moves.len())]);
    }
    p.to_fen()
}

/// A random UCI session (§7.4): good commands, bad ones, garbage bytes,
/// invalid UTF-8, non-ASCII white space, illegal moves, huge numbers. No
/// `quit` after a search: a `quit` read during a search stops it (§7.5),
/// and when a piped engine reads it depends on timing.
pub fn uci_session(rng: &mut Rng) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    let mut searched = false;
    for _ in 0..rng.range(1, 12) {
        let line: Vec<u8> = match rng.below(23) {
            0 => b"uci".to_vec(),
            1 => b"isready".to_vec(),
            2 => b"d".to_vec(),
            3 => format!("position fen {}", cheg_position(rng)).into_bytes(),
            4 => format!("position fen {} moves e1e2 e8e7", cheg_position(rng)).into_bytes(),
            5 => b"position startpos moves e2e4 e7e5 g1f3".to_vec(),
            6 => format!("go depth {}", rng.range(1, 2)).into_bytes(),
            7 => b"go depth 0".to_vec(),
            8 => b"go perft 999".to_vec(),
            9 => format!("go perft {}", rng.range(0, 2)).into_bytes(),
            10 => b"position fen QQQQQQQQ/Q7/8/4k3/8/8/8/4K3 w - - 0 1".to_vec(),
            11 => b"position fen 4k3/8/8 w".to_vec(),
            12 => b"setoption name Depth value 2".to_vec(),
            13 => b"setoption name Endgame value false".to_vec(),
            14 => b"setoption name Depth value 99999999999999999999".to_vec(),
            15 => b"position startpos moves e2e5".to_vec(),
            16 => "go\u{a0}depth 1".as_bytes().to_vec(),
            17 => b"bogus \xff\xfe\x00 bytes \x1b[31m".to_vec(),
            18 => (0..rng.below(40)).map(|_| rng.below(256) as u8).collect(),
            19 => vec![b'x'; 100_000],
            20 => b"ucinewgame".to_vec(),
            21 => format!("go mate {}", rng.range(1, 2)).into_bytes(),
            _ if searched => b"isready".to_vec(),
            _ => b"quit".to_vec(),
        };
        searched |= line.starts_with(b"go") && !line.starts_with(b"go perft");
        out.extend_from_slice(&line);
        out.push(b'\n');
    }
    out
}
