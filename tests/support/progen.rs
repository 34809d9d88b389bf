//! Random programs for the differential and fuzz tests: a deterministic
//! RNG, a generator of valid InfChessPro programs (forward jumps only, so
//! they halt; pieces crowded on a few squares so that captures, pins,
//! checks and name fallbacks are common; each command's outcome printed),
//! a generator of valid Finvara programs (small boards, random notations
//! from §2.1, holes of every stack action, `checks turn` only forward), and
//! the inputs to feed them.

#![allow(dead_code)] // each test binary uses a different part

use icp2c::driver::{self, Language};
use icp2c::lang::finvara::runtime::board as fin_board;

/// SplitMix64: tiny, deterministic, good enough for test generation.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo) as u64 + 1)) as i64
    }

    /// True with probability `p` percent.
    pub fn chance(&mut self, p: u32) -> bool {
        self.below(100) < p as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// One of `words`.
    pub fn word<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }
}

/// Integers at and near the signed 64-bit edges.
pub const EDGES: &[i64] = &[
    i64::MIN,
    i64::MIN + 1,
    i64::MIN + 2,
    i64::MAX,
    i64::MAX - 1,
    i64::MAX - 2,
    -1 - (1 << 32),
    1 << 32,
    1 << 31,
    -(1 << 31) - 1,
];

/// Hostile text for text commands and comments: C and Rust literal and
/// comment breakers, trigraphs, format strings, a right-to-left mark.
pub const HOSTILE: &[&str] = &[
    "\"",
    "\\",
    "\\n",
    "\\0",
    "\\x41",
    "\\u{41}",
    "*/",
    "/*",
    "//",
    "??/",
    "??=",
    "%d%s%n",
    "{}",
    "{0}",
    "#include <stdio.h>",
    "'",
    "\u{202e}abc",
    "é€𝄞",
    "\t",
    " ",
    "?1!2",
    "*",
    "#",
    "\")); panic!(\"",
    "\"); exit(3); (\"",
];

// ---------------------------------------------------------------------
// InfChessPro
// ---------------------------------------------------------------------

/// A generated program and the input to run it on.
#[derive(Clone, Debug)]
pub struct Generated {
    pub source: String,
    pub input: Vec<u8>,
}

/// The one interface to the generators of every language (issue 10): a
/// random valid program of `lang` of about `size` (InfChessPro statements,
/// Finvara turns, CHEG statements per subroutine and entry) and an input
/// for it (standard input; for CHEG, a UCI session to feed the engine).
pub fn generate(lang: Language, rng: &mut Rng, size: usize) -> Generated {
    match lang {
        Language::InfChessPro => icp_program(rng, size),
        Language::Finvara => fin_program(rng, size),
        Language::Cheg => {
            let subs = rng.below(4);
            let source = super::cheg_gen::cheg_program(rng, subs, size);
            Generated {
                source,
                input: super::cheg_gen::uci_session(rng),
            }
        }
    }
}

struct IcpGen<'r> {
    rng: &'r mut Rng,
    names: Vec<String>,
    /// Squares pieces were put on (a bias for moves, not a simulation).
    squares: Vec<(i64, i64)>,
    /// Spread of coordinates: small so pieces crowd.
    spread: i64,
    /// Numbers the `*` of the program will read, in no particular order.
    wants: Vec<i64>,
    crlf: bool,
}

impl IcpGen<'_> {
    fn blank(&mut self) -> &'static str {
        match self.rng.below(12) {
            0 => " ",
            1 => "\t",
            2 => "  ",
            _ => "",
        }
    }

    fn coord(&mut self) -> i64 {
        if self.rng.chance(3) {
            *self.rng.pick(EDGES)
        } else {
            self.rng.range(-self.spread, self.spread)
        }
    }

    fn offset(&mut self) -> i64 {
        match self.rng.below(20) {
            0 => *self.rng.pick(EDGES),
            1..=4 => *self.rng.pick(&[1, 2, -1, -2]),
            _ => self.rng.range(-2, 2),
        }
    }

    /// An integer field: the literal, or `*` (and the value is added to
    /// the input pool).
    fn int(&mut self, value: i64) -> String {
        if self.rng.chance(12) {
            self.wants.push(value);
            "*".to_string()
        } else if value >= 0 && self.rng.chance(5) {
            format!("00{value}")
        } else {
            value.to_string()
        }
    }

    fn name(&mut self) -> String {
        self.rng.pick(&self.names).clone()
    }

    fn square(&mut self) -> (i64, i64) {
        if !self.squares.is_empty() && self.rng.chance(70) {
            *self.rng.pick(&self.squares)
        } else {
            (self.coord(), self.coord())
        }
    }

    /// A target square near a known piece (a legal move now and then).
    fn near(&mut self) -> (i64, i64) {
        let (r, c) = self.square();
        let (dr, dc) = (self.offset(), self.offset());
        (r.saturating_add(dr), c.saturating_add(dc))
    }

    /// The command text (without label and suffix) and whether it is a
    /// text command (which takes no suffix).
    fn command(&mut self) -> (String, bool) {
        let b = |g: &mut Self| g.blank();
        match self.rng.below(100) {
            0..=27 => {
                let name = self.name();
                let letter = *self.rng.pick(&[
                    'K', 'k', 'K', 'k', 'Q', 'q', 'R', 'r', 'B', 'b', 'N', 'n', 'P', 'p',
                ]);
                let (r, c) = if self.rng.chance(60) {
                    self.near()
                } else {
                    (self.coord(), self.coord())
                };
                self.squares.push((r, c));
                let (rs, cs) = (self.int(r), self.int(c));
                let (b1, b2, b3, b4) = (b(self), b(self), b(self), b(self));
                (format!("{name}{b1}={b2}{letter}{rs}{b3},{b4}{cs}"), false)
            }
            28..=45 => {
                let (r1, c1) = self.square();
                let (r2, c2) = self.near();
                let f: Vec<String> = [r1, c1, r2, c2].iter().map(|&v| self.int(v)).collect();
                let (b1, b2) = (b(self), b(self));
                (
                    format!("{}{b1},{}, {}{b2},{}", f[0], f[1], f[2], f[3]),
                    false,
                )
            }
            46..=60 => {
                let name = self.name();
                let (r, c) = self.near();
                let (rs, cs) = (self.int(r), self.int(c));
                let b1 = b(self);
                (format!("{name}{b1},{rs},{cs}"), false)
            }
            61..=80 => {
                let name = self.name();
                let (dr, dc) = (self.offset(), self.offset());
                let (rs, cs) = (self.int(dr), self.int(dc));
                let b1 = b(self);
                (format!("{name}{b1};{rs},{b1}{cs}"), false)
            }
            81..=83 => ("^".to_string(), false),
            84..=92 => {
                let name = self.name();
                (format!("%{name}"), false)
            }
            _ => {
                let mut text = String::new();
                for _ in 0..self.rng.below(3) {
                    if self.rng.chance(50) {
                        text.push_str(self.rng.word(HOSTILE));
                    } else {
                        text.push_str(self.rng.word(&["hi", "x", "  ", "a b", "!", "?"]));
                    }
                }
                (format!("\"{text}"), true)
            }
        }
    }

    fn newline(&self) -> &'static str {
        if self.crlf { "\r\n" } else { "\n" }
    }
}

/// A valid InfChessPro program of about `size` statements and an input for
/// it. Literal jumps only go forward, so it halts; `*` jumps may go back,
/// but each one reads input, so a finite input bounds them.
pub fn icp_program(rng: &mut Rng, size: usize) -> Generated {
    const NAME_POOL: &[&str] = &["a", "b", "K", "x_1", "0", "07", "Rook", "n"];
    let count = 2 + rng.below(3);
    let mut names: Vec<String> = Vec::new();
    while names.len() < count {
        let n = rng.pick(NAME_POOL).to_string();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let spread = *rng.pick(&[1, 2, 2, 3, 4]);
    let crlf = rng.chance(10);
    let mut g = IcpGen {
        rng,
        names,
        squares: Vec::new(),
        spread,
        wants: Vec::new(),
        crlf,
    };
    // Statements as (command, is_text); labels are chosen afterwards.
    // Each ordinary command is followed, most of the time, by a line that
    // makes its outcome visible.
    enum Item {
        Cmd(String),
        Text(String),
        /// A command whose success is reported by skipping a "fail" line:
        /// `L. cmd ?L+2` / `L+1. "F…`.
        Reported(String, bool),
    }
    let mut items = Vec::new();
    for _ in 0..size {
        let (cmd, is_text) = g.command();
        if is_text {
            items.push(Item::Text(cmd));
        } else if g.rng.chance(65) {
            let on_success = g.rng.chance(50);
            items.push(Item::Reported(cmd, on_success));
        } else {
            items.push(Item::Cmd(cmd));
        }
        if g.rng.chance(8) {
            let name = g.name();
            items.push(Item::Cmd(format!("%{name}")));
        }
    }
    // Every statement count: a Reported item is two statements.
    let statements: usize = items
        .iter()
        .map(|i| {
            if matches!(i, Item::Reported(..)) {
                2
            } else {
                1
            }
        })
        .sum();
    let mut labels = Vec::with_capacity(statements + 1);
    let mut label: i64 = if g.rng.chance(5) {
        i64::MAX - 3 * statements as i64 - 3
    } else {
        g.rng.range(0, 3)
    };
    for _ in 0..statements {
        labels.push(label);
        label += 1 + if g.rng.chance(30) {
            g.rng.range(1, 2)
        } else {
            0
        };
    }
    let mut out = String::new();
    let nl = g.newline();
    if g.rng.chance(10) {
        out.push('\u{FEFF}');
    }
    let mut k = 0;
    let mut idx = 0;
    while idx < items.len() {
        if g.rng.chance(5) {
            out.push_str(nl);
        }
        if g.rng.chance(4) {
            out.push_str("  # a comment \"*/ ??/");
            out.push_str(nl);
        }
        let here = labels[k];
        let lbl = if g.rng.chance(5) {
            format!("0{here}")
        } else {
            here.to_string()
        };
        let b = g.blank();
        match &items[idx] {
            Item::Text(t) => {
                out.push_str(&format!("{b}{lbl}.{b}{t}{nl}"));
                k += 1;
            }
            Item::Cmd(c) => {
                let suffix = random_suffix(&mut g, &labels, k);
                let b2 = g.blank();
                out.push_str(&format!("{b}{lbl}.{b}{c}{b2}{suffix}{b2}{nl}"));
                k += 1;
            }
            Item::Reported(c, on_success) => {
                let (mark, word) = if *on_success { ('!', "S") } else { ('?', "F") };
                match labels.get(k + 2) {
                    Some(next) => {
                        out.push_str(&format!("{b}{lbl}. {c}{b}{mark}{b}{next}{nl}"));
                    }
                    // The last command: nothing to skip to, so the report
                    // line always follows.
                    None => out.push_str(&format!("{b}{lbl}. {c}{nl}")),
                }
                out.push_str(&format!("{}. \"{word} {here}{nl}", labels[k + 1]));
                k += 2;
            }
        }
        idx += 1;
    }
    // The input: the numbers the `*` want, shuffled with labels (for `*`
    // jumps) and noise; sometimes cut short (end of input), sometimes
    // ending in bad text (a runtime error).
    let mut pool = std::mem::take(&mut g.wants);
    for _ in 0..g.rng.below(4) {
        let l = *g.rng.pick(&labels);
        pool.push(l);
    }
    for _ in 0..g.rng.below(3) {
        let v = g.coord();
        pool.push(v);
    }
    for i in (1..pool.len()).rev() {
        let j = g.rng.below(i + 1);
        pool.swap(i, j);
    }
    if g.rng.chance(25) && !pool.is_empty() {
        let keep = g.rng.below(pool.len());
        pool.truncate(keep);
    }
    let mut input = String::new();
    for v in &pool {
        let sep = *g.rng.pick(&[" ", "\n", "\t", "\r\n", "  "]);
        if *v >= 0 && g.rng.chance(10) {
            input.push_str(&format!("+{v}{sep}"));
        } else {
            input.push_str(&format!("{v}{sep}"));
        }
    }
    if g.rng.chance(6) {
        input.push_str(g.rng.word(&[
            "x",
            "-",
            "+",
            "99999999999999999999",
            "-9223372036854775809",
            "9223372036854775808",
            "1x",
            "--1",
        ]));
    }
    Generated {
        source: out,
        input: input.into_bytes(),
    }
}

/// A suffix for statement `k` of `labels`: none, `?T`, `!U`, `?T!U` or
/// `!U?T`, each target a later label or `*`.
fn random_suffix(g: &mut IcpGen<'_>, labels: &[i64], k: usize) -> String {
    let later = &labels[k + 1..];
    let target = |g: &mut IcpGen<'_>| -> Option<String> {
        if g.rng.chance(10) {
            Some("*".to_string())
        } else if later.is_empty() {
            None
        } else {
            let t = later[g.rng.below(later.len().min(4))];
            Some(t.to_string())
        }
    };
    let b = g.blank();
    match g.rng.below(6) {
        0 | 1 => String::new(),
        2 => target(g).map_or(String::new(), |t| format!("?{b}{t}")),
        3 => target(g).map_or(String::new(), |t| format!("!{b}{t}")),
        4 => match (target(g), target(g)) {
            (Some(t), Some(u)) => format!("?{t}{b}!{b}{u}"),
            _ => String::new(),
        },
        _ => match (target(g), target(g)) {
            (Some(t), Some(u)) => format!("!{u}{b}?{t}"),
            _ => String::new(),
        },
    }
}

// ---------------------------------------------------------------------
// Finvara
// ---------------------------------------------------------------------

/// A random notation (§2.1) of nesting depth at most `depth`; `earlier`
/// are the symbols defined before (for `"s"`), `all` every symbol (for
/// promotions).
pub fn notation(rng: &mut Rng, depth: u32, earlier: &[char], all: &[char]) -> String {
    let n = 1 + rng.below(if depth == 0 { 1 } else { 3 });
    let mut seq = String::new();
    for _ in 0..n {
        seq.push_str(&unit(rng, depth, earlier, all));
    }
    seq
}

fn unit(rng: &mut Rng, depth: u32, earlier: &[char], all: &[char]) -> String {
    let atom = atom(rng, depth, earlier, all);
    match rng.below(10) {
        0..=1 => format!("{atom}*"),
        2 => format!("{atom}`"),
        _ => atom,
    }
}

fn leap(rng: &mut Rng) -> String {
    let (a, b) = *rng.pick(&[
        (1, 0),
        (1, 1),
        (1, 2),
        (0, 0),
        (2, 0),
        (2, 2),
        (0, 1),
        (3, 1),
    ]);
    if rng.chance(30) {
        let d = rng.pick(&['^', 'v', '<', '>']);
        format!("({a},{b}|{d})")
    } else {
        format!("({a},{b})")
    }
}

fn ranks(rng: &mut Rng) -> String {
    let r = |rng: &mut Rng| *rng.pick(&[1, 2, 3, -1, -2]);
    if rng.chance(30) {
        format!("[{},{}]", r(rng), r(rng))
    } else {
        r(rng).to_string()
    }
}

fn atom(rng: &mut Rng, depth: u32, earlier: &[char], all: &[char]) -> String {
    if depth == 0 {
        return leap(rng);
    }
    let d = depth - 1;
    match rng.below(20) {
        0..=7 => leap(rng),
        8..=9 => {
            let k = 2 + rng.below(2);
            let parts: Vec<String> = (0..k).map(|_| notation(rng, d, earlier, all)).collect();
            format!("{{{}}}", parts.join(","))
        }
        10 => format!("[{}]", notation(rng, d, earlier, all)),
        11 => format!("c({})", notation(rng, d, earlier, all)),
        12 => format!("m({})", notation(rng, d, earlier, all)),
        13 => format!("r({},{})", notation(rng, d, earlier, all), ranks(rng)),
        14 => format!("r!({},{})", notation(rng, d, earlier, all), ranks(rng)),
        15 => "p".to_string(),
        16 => {
            let a = rng.pick(all);
            let b = rng.pick(all);
            format!("->[{a},{b}]")
        }
        17 => format!("{}x{}", leap(rng), leap(rng)),
        _ => match earlier.is_empty() {
            true => leap(rng),
            false => format!("\"{}\"", rng.pick(earlier)),
        },
    }
}

/// A square name: row letters (a = 1, after z come aa, ab, …) and column.
pub fn fin_square(row: usize, col: usize) -> String {
    let mut letters = Vec::new();
    let mut r = row; // 1-based
    while r > 0 {
        r -= 1;
        letters.push((b'a' + (r % 26) as u8) as char);
        r /= 26;
    }
    letters.reverse();
    let s: String = letters.into_iter().collect();
    format!("{s}{col}")
}

/// Notations that move often: the standard pieces of §2.2 and friends.
const EASY: &[&str] = &[
    "{(1,0),(1,1)}",
    "(1,0)",
    "(1,0)*",
    "(1,1)*",
    "(1,2)",
    "{\"r\",\"b\"}",
    "{c((1,1|^)),m((1,0|^)),r(m((2,0|^)),2),r(p,-1)}",
    "{(1,0),(0,0)}",
    "[(1,0)x(1,0)]",
    "(1,1|^)(1,0|^)*",
    "{(1,0)`,(2,1)}",
    "{m((1,0)),c((1,1))}",
    "{(1,0)p,(1,1)->[a,b]}",
];

/// A valid Finvara program and an input for it.
pub fn fin_program(rng: &mut Rng, turns: usize) -> Generated {
    let (width, height) = if rng.chance(4) {
        (1 + rng.below(2), 27 + rng.below(3))
    } else {
        (3 + rng.below(4), 3 + rng.below(4))
    };
    // Kinds: one royal `k`, then 2 to 5 others; `r` and `b` (for the
    // queen of EASY) and `a` (for its promotion) always among them.
    let mut symbols = vec!['k', 'r', 'b', 'a'];
    let extra = rng.below(3);
    let letters: Vec<char> = "cdefghijlmnopqstuvwz".chars().collect();
    while symbols.len() < 4 + extra {
        let s = *rng.pick(&letters);
        if !symbols.contains(&s) {
            symbols.push(s);
        }
    }
    let mut out = String::from("# generated\n");
    let royal = match rng.below(5) {
        0 => String::new(),
        1 => notation(rng, 1, &[], &symbols),
        _ => "{(1,0),(1,1)}".to_string(),
    };
    out.push_str(&format!("(k): {royal}\n"));
    for (i, s) in symbols.iter().enumerate().skip(1) {
        let value = match rng.below(16) {
            0 => "x".to_string(),
            1 => "y".to_string(),
            2 => rng.pick(EDGES).to_string(),
            3..=7 => rng.pick(&[4, 10, -2, 4]).to_string(),
            _ => rng.range(-7, 12).to_string(),
        };
        let text = match (*s, rng.below(3)) {
            ('r', _) => "(1,0)*".to_string(),
            ('b', _) => "(1,1)*".to_string(),
            (_, 0) => notation(rng, 2, &symbols[..i], &symbols),
            _ => rng.word(EASY).to_string(),
        };
        let b = if rng.chance(20) { "  " } else { " " };
        out.push_str(&format!("({s}{b}{value}):{b}{text}\n"));
    }
    out.push('\n');
    // The board: row `height` first (top), row a last.
    let mut cells = vec![vec![String::from("  "); width]; height + 1];
    // Pieces mostly on their own half (white low, black high), so that
    // the game does not end before it starts.
    for (r, row) in cells.iter_mut().enumerate().skip(1) {
        for cell in row.iter_mut() {
            match rng.below(10) {
                0..=1 => *cell = "##".to_string(),
                2..=3 => {
                    let s = *rng.pick(&symbols[1..]);
                    let low = 2 * r <= height + 1;
                    let colour = if low != rng.chance(15) { 'W' } else { 'B' };
                    *cell = format!("{s}{colour}");
                }
                _ => {}
            }
        }
    }
    // One royal each (now and then none, or two): white's on row a,
    // black's on the top row.
    let kings = if rng.chance(3) { 0 } else { 1 + rng.below(3) };
    for _ in 0..kings {
        for colour in ['W', 'B'] {
            let r = if colour == 'W' { 1 } else { height };
            let c = 1 + rng.below(width);
            cells[r][c - 1] = format!("k{colour}");
        }
    }
    let rule = format!("+{}\n", "--+".repeat(width));
    out.push_str(&rule);
    for r in (1..=height).rev() {
        out.push('|');
        for cell in &cells[r] {
            out.push_str(cell);
            out.push('|');
        }
        out.push('\n');
        out.push_str(&rule);
    }
    out.push('\n');
    // The input for the read holes (value 3 mod 6); sometimes short,
    // sometimes ending in bad text.
    let mut input = String::new();
    for _ in 0..rng.below(8) {
        let v = if rng.chance(10) {
            *rng.pick(EDGES)
        } else {
            rng.range(-5, 9)
        };
        let sep = *rng.pick(&[" ", "\n", "\r\n", "\t"]);
        input.push_str(&format!("{v}{sep}"));
    }
    if rng.chance(5) {
        input.push_str(rng.word(&["x", "99999999999999999999", "-", "+"]));
    }
    // The moves, chosen by playing the game on the shared runtime: each
    // executed move is, most of the time, one found valid by trying
    // candidates (so pieces really move, capture and fall into holes);
    // now and then a random one (invalid moves and the skip rule of
    // §5.1). Moves never executed (skipped, jumped over, after the end)
    // are random.
    let header = driver::check(Language::Finvara, &out);
    let Ok(header) = header else {
        panic!("generated header rejected:\n{out}");
    };
    let ir = header
        .program
        .ir::<icp2c::lang::finvara::Finvara>()
        .expect("a Finvara program");
    let kinds = icp2c::lang::finvara::interp::runtime_kinds(ir);
    let mut reader = std::io::Cursor::new(input.as_bytes().to_vec());
    let mut sink = Vec::new();
    let mut game = fin_board::Game::new(&kinds, width, height, &ir.cells);
    game.read_from(&mut reader);
    game.write_to(&mut sink);
    let last_has_black = rng.chance(70);
    let slots = 2 * turns - usize::from(!last_has_black);
    let mut moves: Vec<Option<String>> = vec![None; slots];
    let name = |sq: usize| fin_square(sq / width + 1, sq % width + 1);
    let random_move = |rng: &mut Rng| {
        let from = rng.below(width * height);
        let to = rng.below(width * height);
        let sym = rng.pick(&symbols);
        format!("{sym} {} -> {}", name(from), name(to))
    };
    let mut pc = 0;
    while pc < slots && !game.game_over().unwrap_or(true) {
        let (turn, colour) = (pc / 2 + 1, pc % 2);
        // The last slot of this colour: `checks turn` must land on an
        // existing move of the same colour, later (so the program halts).
        let last_turn = if colour == 1 && !last_has_black {
            turns - 1
        } else {
            turns
        };
        if turn < last_turn && rng.chance(10) {
            let m = rng.range(turn as i64 + 1, last_turn as i64) as usize;
            let sq = rng.below(width * height);
            let kind = rng.below(symbols.len());
            game.place(colour, kind, sq);
            moves[pc] = Some(format!("{} {} checks turn {m}", symbols[kind], name(sq)));
            pc = 2 * (m - 1) + colour;
            continue;
        }
        let board = game.board().to_vec();
        let mine: Vec<usize> = (0..board.len())
            .filter(|&i| board[i] > 0 && (board[i] - 1) % 2 == colour as i32)
            .collect();
        let mut chosen = None;
        let tries = if rng.chance(12) || mine.is_empty() {
            0
        } else {
            20
        };
        for _ in 0..tries {
            let from = *rng.pick(&mine);
            let kind = ((board[from] - 1) / 2) as usize;
            let (r, c) = ((from / width) as i64, (from % width) as i64);
            let (dr, dc) = (rng.range(-3, 3), rng.range(-3, 3));
            let (mut tr, mut tc) = (r + dr, c + dc);
            // Half the time aim at a hole (to print, read, add…).
            if rng.chance(50)
                && let Some(h) = (0..board.len())
                    .filter(|&i| board[i] == fin_board::HOLE)
                    .nth(rng.below(4))
            {
                (tr, tc) = ((h / width) as i64, (h % width) as i64);
            }
            if tr < 0 || tc < 0 || tr >= height as i64 || tc >= width as i64 {
                continue;
            }
            let to = (tr * width as i64 + tc) as usize;
            let promo = if rng.chance(10) {
                rng.below(symbols.len()) as i32
            } else {
                -1
            };
            let mv = [kind as i32, from as i32, to as i32, promo];
            match game.step(turn as u64, colour, mv) {
                Ok(false) => continue,
                result => {
                    let promo = if promo >= 0 {
                        format!(" = {}", symbols[promo as usize])
                    } else {
                        String::new()
                    };
                    chosen = Some((
                        format!("{} {} -> {}{promo}", symbols[kind], name(from), name(to)),
                        result,
                    ));
                    break;
                }
            }
        }
        let (text, result) = match chosen {
            Some(c) => c,
            None => {
                // A random move, played for real (it may be valid).
                let from = rng.below(width * height);
                let to = rng.below(width * height);
                let kind = rng.below(symbols.len());
                let mv = [kind as i32, from as i32, to as i32, -1];
                let result = game.step(turn as u64, colour, mv);
                (
                    format!("{} {} -> {}", symbols[kind], name(from), name(to)),
                    result,
                )
            }
        };
        moves[pc] = Some(text);
        match result {
            Ok(true) => pc += 1,
            Ok(false) => pc += if game.skip() { 2 } else { 1 },
            // A runtime error ends the program here.
            Err(_) => break,
        }
    }
    for (i, m) in moves.iter_mut().enumerate() {
        let text = m.take().unwrap_or_else(|| random_move(rng));
        let comment = if rng.chance(10) { "   # note */" } else { "" };
        let colour = if i % 2 == 0 { 'W' } else { 'B' };
        out.push_str(&format!("Turn {} {colour}: {text}{comment}\n", i / 2 + 1));
    }
    Generated {
        source: out,
        input: input.into_bytes(),
    }
}
