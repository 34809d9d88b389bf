//! Big programs, compiled in linear time: the statements of a program
//! become the cases of `switch`es (C) or the arms of `match`es (Rust) cut
//! into functions of at most [`C_CHUNK`] / [`RUST_CHUNK`] cases, so that no
//! compiler meets one giant function (its time grows faster than linearly
//! in a function's size). Above [`LEAN`] statements gcc compiles these
//! dispatch functions without optimisation ([`C_LEAN`]): at `-O2` it
//! spends about a millisecond per statement on a loop-and-switch state
//! machine, which is minutes for 10^5 statements, while the runtime, where
//! the work is done, stays optimised.
//!
//! InfChessPro's labels are sparse and its chunks loop until control
//! leaves them (its back end lays them out with [`LOOPING_C_CHUNK`],
//! [`LOOPING_RUST_CHUNK`] and [`LOOPING_C_LEAN`]); Finvara's moves and CHEG's statements are numbered densely
//! and run one per call, which [`Dense`] lays out for both targets: chunk
//! `k` holds the statements `k × CHUNK ..`, a dispatcher picks it by
//! `pc / CHUNK`, and in C its `switch` is on `pc - k × CHUNK`, so that no
//! two chunks have the same code (see `Chunk::base`).

use askama::Template;

/// Statements per C chunk function. 128 to 1,024 compile alike at 20,000
/// statements; at 200,000, 256 gave gcc the smallest growth on both
/// Finvara and CHEG (docs/performance.md).
pub const C_CHUNK: usize = 256;

/// Statements per Rust chunk function (rustc's time per function grows
/// faster than gcc's).
pub const RUST_CHUNK: usize = 64;

/// Above this many statements, gcc compiles the chunk functions at `-O0`
/// ([`C_LEAN`]).
pub const LEAN: usize = 4096;

/// Statements per C chunk function of InfChessPro, whose chunks loop
/// until control leaves them (its labels are sparse, and a jump between
/// statements of one chunk stays a jump inside one `switch`); a program
/// of at most this many statements is one `switch` in `main`.
pub const LOOPING_C_CHUNK: usize = 512;

/// Statements per Rust chunk function of InfChessPro (looping, as
/// [`LOOPING_C_CHUNK`]).
pub const LOOPING_RUST_CHUNK: usize = 256;

/// Above this many statements, CHEG's back ends outline a statement whose
/// operands are variables and integers into one small function of its
/// kind and shape (`cheg::backend::helper`), so that no arm makes a value
/// of its own.
pub const OUTLINE: usize = 256;

/// The C definition of `ICP_CHUNK`, the storage class and attribute of a
/// chunk function in a program of over [`LEAN`] statements: static, and
/// compiled without optimisation by gcc (clang and others ignore the
/// request, and optimise as asked).
pub const C_LEAN: &str = "\
/* A very large program: gcc compiles the statement functions without
 * optimisation (at -O2 its time per statement would add up to minutes);
 * the runtime above, where the work is done, stays optimised. */
#if defined(__GNUC__) && !defined(__clang__)
#define ICP_CHUNK __attribute__((optimize(\"O0\"))) static
#else
#define ICP_CHUNK static
#endif";

/// [`C_LEAN`] as InfChessPro's C words it: its chunk functions are the
/// dispatch of statements whose work is the board runtime's.
pub const LOOPING_C_LEAN: &str = "\
/* A very large program: gcc compiles these dispatch functions without
 * optimisation (at -O2 its time per statement would add up to minutes);
 * the board runtime above, where the work is done, stays optimised. */
#if defined(__GNUC__) && !defined(__clang__)
#define ICP_CHUNK __attribute__((optimize(\"O0\"))) static
#else
#define ICP_CHUNK static
#endif";

/// One statement: its number, its source line (already safe in a
/// comment), its code (C statements ending in a `return`, or a Rust
/// expression giving the function's value), one line each, not indented.
#[derive(Clone, Debug)]
pub struct Case {
    /// The statement's number (the `pc` that selects it).
    pub pc: usize,
    /// Its source line, safe inside a comment.
    pub comment: String,
    /// Its code.
    pub lines: Vec<String>,
    /// Its arm in the operand form of a [`Dense`] with [`Operands`], when
    /// it has one. `None`: the statement has no operand form, and its
    /// function keeps the plain form.
    pub operands: Option<OperandArm>,
}

impl Case {
    /// A statement with no operand form.
    pub fn new(pc: usize, comment: String, lines: Vec<String>) -> Case {
        Case {
            pc,
            comment,
            lines,
            operands: None,
        }
    }
}

/// A statement's arm in the operand form ([`Operands`]), one line each.
#[derive(Clone, Debug)]
pub enum OperandArm {
    /// An arm that gives the statement's operands: Rust, a `match` arm
    /// whose value they are; C, the statements that assign them (the
    /// template adds the `break`).
    Yields(Vec<String>),
    /// An arm that `return`s the function's value itself.
    Returns(Vec<String>),
}

impl OperandArm {
    /// Its lines.
    pub fn lines(&self) -> &[String] {
        match self {
            OperandArm::Yields(lines) | OperandArm::Returns(lines) => lines,
        }
    }

    /// Whether it gives operands (and goes on to the call).
    pub fn yields(&self) -> bool {
        matches!(self, OperandArm::Yields(_))
    }
}

/// The operand form of functions of statements that mostly make the same
/// call with different constants (Finvara's moves): each statement gives
/// the operands, and one `call` after the `match` or `switch` uses them.
/// rustc compiles a `match` of constant tuples (a table) in about half the
/// time of a `match` of calls, and gcc a `switch` of assignments in two
/// thirds of the time of a `switch` of calls.
#[derive(Clone, Debug)]
pub struct Operands {
    /// Rust: the `let` pattern that the `match` yields to (`(turn, colour,
    /// mv)`). C: the declarations of the operands, which each
    /// statement assigns before its `break` (`uint64_t icp_turn; …`).
    pub pattern: String,
    /// The call after the `match` (`game.play(pc, turn, colour, mv)`),
    /// the function's value; in C, a statement (`return icp_play(…);`).
    pub call: String,
}

/// A dense dispatch: `name(params)` runs statement `pc` and returns what
/// the statements return; every language's functions have the same
/// shape, only these strings differ.
#[derive(Clone, Debug)]
pub struct Dense {
    /// The function's name (`icp_move`); chunk `k` is `{name}_{k}`.
    pub name: String,
    /// Its documentation (a comment of the target, without the comment
    /// markers), one line each.
    pub doc: Vec<String>,
    /// C: the return type. Rust: the return type after `->`.
    pub returns: String,
    /// The parameters as declared, one each (C: `icp_game *g`, `long
    /// pc`; Rust: `game: &mut icp_rt::Game<'_>`, `pc: usize`).
    pub params: Vec<String>,
    /// The arguments that pass them on (`g, pc`).
    pub args: String,
    /// The name of the statement-number parameter (`pc`).
    pub pc: String,
    /// The value of a number that is no statement (C: a statement such as
    /// `return -1;`; Rust: an expression).
    pub default: String,
    /// Rust: the match is the function's value wrapped as `{wrap}(match
    /// … )` when not empty (`Ok`).
    pub wrap: String,
    /// C: the storage class and attributes of the functions (`static`,
    /// or `ICP_LIGHT static` for a runtime's optimisation level); lean
    /// chunks take `ICP_CHUNK` instead.
    pub storage: String,
    /// A parameter that some statements may not use ([`Idle`]).
    pub idle: Option<Idle>,
    /// The operand form ([`Operands`]), taken by each function whose
    /// statements all have one and one of which yields operands. Rust:
    /// needs an empty `wrap`.
    pub operands: Option<Operands>,
    /// The statements, in order of `pc` from 0.
    pub cases: Vec<Case>,
}

/// A parameter a function's statements may not use (a CHEG invocation
/// that only some statements read): in a function none of whose
/// statements name it, Rust writes it `_name` and C says `(void)name;` in
/// its `default`, so that neither compiler reports an unused parameter.
#[derive(Clone, Debug)]
pub struct Idle {
    /// The parameter's name (`inv`).
    pub name: String,
}

impl Idle {
    /// Whether no line of `cases` names the parameter (as a whole word).
    fn unused_by(&self, cases: &[Case]) -> bool {
        !cases.iter().flat_map(|c| &c.lines).any(|line| {
            line.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .any(|word| word == self.name)
        })
    }
}

/// One function of statements, as the templates lay it out.
struct Chunk<'a> {
    cases: &'a [Case],
    /// C: the number of its first statement when it is one of several
    /// functions, else 0. Its `switch` is on the statement's number less
    /// this, so that its case labels count from 0 and each function's code
    /// differs from the others' even where the statements are the same:
    /// gcc's identical code folding (at `-O2`) compares every pair of
    /// functions whose code hashes alike, each comparison costing the
    /// functions' length, which on a long run of alike statements made
    /// its time grow with the square of the program's length.
    base: usize,
    /// C: its parameters. Rust: its signature up to `{`, laid out as
    /// rustfmt does (`{name}` stands for the function's name).
    signature: String,
    /// C: its `default` statement.
    default: String,
    /// Whether it takes the operand form ([`Operands`]).
    operands: bool,
}

impl Chunk<'_> {
    /// C: what its `switch` is on (`pc`, or `pc - 1536`).
    fn c_index(&self, pc: &str) -> String {
        match self.base {
            0 => pc.to_string(),
            base => format!("{pc} - {base}"),
        }
    }

    /// C: the operand form's declarations and call, when it takes it.
    fn c_operands<'d>(&self, d: &'d Dense) -> Option<&'d Operands> {
        d.operands.as_ref().filter(|_| self.operands)
    }

    /// C: a statement's lines in the form the function takes.
    fn c_lines<'c>(&self, c: &'c Case) -> &'c [String] {
        match &c.operands {
            Some(arm) if self.operands => arm.lines(),
            _ => &c.lines,
        }
    }

    /// C: whether a statement ends with `break` (it gives operands).
    fn c_breaks(&self, c: &Case) -> bool {
        self.operands && c.operands.as_ref().is_some_and(OperandArm::yields)
    }
}

/// `fn NAME(PARAMS) -> RET {` as rustfmt lays out a signature: on one line
/// when it fits in 100 columns, else one parameter a line.
pub fn rust_signature(name: &str, params: &[String], ret: &str) -> String {
    let one = format!("fn {name}({}) -> {ret} {{", params.join(", "));
    if super::layout::width(&one) <= super::layout::MAX_WIDTH {
        return one;
    }
    let mut out = format!("fn {name}(\n");
    for p in params {
        out.push_str(&format!("    {p},\n"));
    }
    out.push_str(&format!(") -> {ret} {{"));
    out
}

#[derive(Template)]
#[template(path = "common/c/chunks.c", escape = "none")]
struct CView<'a> {
    d: &'a Dense,
    chunks: Vec<Chunk<'a>>,
    size: usize,
    lean: bool,
    c_lean: &'static str,
}

#[derive(Template)]
#[template(path = "common/rust/chunks.rs", escape = "none")]
struct RustView<'a> {
    d: &'a Dense,
    chunks: Vec<Chunk<'a>>,
    size: usize,
}

impl Dense {
    /// The statements cut into functions of `size`, each with its
    /// parameters and `default` (at least one function, maybe of none).
    fn chunks(&self, size: usize, rust: bool) -> Vec<Chunk<'_>> {
        let parts: Vec<&[Case]> = if self.cases.is_empty() {
            vec![&self.cases[..]]
        } else {
            self.cases.chunks(size).collect()
        };
        let single = parts.len() == 1;
        parts
            .into_iter()
            .enumerate()
            .map(|(k, cases)| {
                let idle = self.idle.as_ref().filter(|i| i.unused_by(cases));
                let name = if single {
                    self.name.clone()
                } else {
                    format!("{}_{k}", self.name)
                };
                let params: Vec<String> = self
                    .params
                    .iter()
                    .map(|p| match idle {
                        Some(i) if rust && p.starts_with(&format!("{}:", i.name)) => {
                            format!("_{p}")
                        }
                        _ => p.clone(),
                    })
                    .collect();
                Chunk {
                    cases,
                    base: if single { 0 } else { k * size },
                    operands: self.operands.is_some()
                        && cases.iter().all(|c| c.operands.is_some())
                        && cases
                            .iter()
                            .any(|c| matches!(c.operands, Some(OperandArm::Yields(_)))),
                    signature: if rust {
                        rust_signature(&name, &params, &self.returns)
                    } else {
                        params.join(", ")
                    },
                    default: match idle {
                        Some(i) if !rust => format!("(void){};\n        {}", i.name, self.default),
                        _ => self.default.clone(),
                    },
                }
            })
            .collect()
    }

    /// The dispatcher's Rust signature (several functions).
    fn rust_dispatcher(&self) -> String {
        rust_signature(&self.name, &self.params, &self.returns)
    }

    /// The C parameters, joined.
    fn c_params(&self) -> String {
        self.params.join(", ")
    }

    /// The C functions (no blank line before or after): `{name}` alone for a program of at most
    /// [`C_CHUNK`] statements, else `{name}_0` … and `{name}` dispatching
    /// on `pc / C_CHUNK`; `ICP_CHUNK` ([`C_LEAN`]) above [`LEAN`].
    pub fn c(&self) -> String {
        let view = CView {
            d: self,
            chunks: self.chunks(C_CHUNK, false),
            size: C_CHUNK,
            lean: self.cases.len() > LEAN,
            c_lean: C_LEAN,
        };
        super::render(&view, super::Syntax::C)
            .trim_matches('\n')
            .to_string()
    }

    /// The Rust functions, laid out as rustfmt does: `{name}` alone for a
    /// program of at most [`RUST_CHUNK`] statements, else `{name}_0` …
    /// (`#[inline(never)]`, so rustc's time stays linear) and `{name}`
    /// dispatching on `pc / RUST_CHUNK`.
    pub fn rust(&self) -> String {
        debug_assert!(
            self.operands.is_none() || self.wrap.is_empty(),
            "the operand form has no wrap"
        );
        let view = RustView {
            d: self,
            chunks: self.chunks(RUST_CHUNK, true),
            size: RUST_CHUNK,
        };
        super::render(&view, super::Syntax::Rust)
            .trim_matches('\n')
            .to_string()
    }
}

/// Rust code lines indented by `levels` × 4 spaces (empty lines stay
/// empty), for the templates.
pub fn indented(lines: &[String], levels: usize) -> Vec<String> {
    let pad = "    ".repeat(levels);
    lines
        .iter()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{pad}{l}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dense(n: usize) -> Dense {
        Dense {
            name: "icp_move".into(),
            doc: vec!["Runs move pc.".into()],
            returns: "long".into(),
            params: vec!["long pc".into()],
            args: "pc".into(),
            pc: "pc".into(),
            default: "return -1;".into(),
            wrap: String::new(),
            storage: "static".into(),
            idle: None,
            operands: None,
            cases: (0..n)
                .map(|pc| {
                    Case::new(
                        pc,
                        format!("line {pc}"),
                        vec![format!("return {};", pc + 1)],
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn a_small_program_is_one_function() {
        let c = dense(3).c();
        assert!(c.contains("static long icp_move(long pc)\n{\n    switch (pc) {\n    case 0: /* line 0 */\n        return 1;\n"), "{c}");
        assert!(!c.contains("icp_move_0") && !c.contains("ICP_CHUNK"));
    }

    #[test]
    fn c_functions_take_the_operand_form_where_a_statement_gives_operands() {
        let mut d = dense(C_CHUNK + 2);
        d.operands = Some(Operands {
            pattern: "long a;".into(),
            call: "return a;".into(),
        });
        for c in &mut d.cases {
            let arm = if c.pc < C_CHUNK || c.pc % 2 == 1 {
                OperandArm::Returns(vec![format!("return {};", c.pc + 1)])
            } else {
                OperandArm::Yields(vec![format!("a = {};", c.pc + 1)])
            };
            c.operands = Some(arm);
        }
        let c = d.c();
        // The first function only returns: the plain form, no operands.
        let first = &c[c.find("icp_move_0(").unwrap()..c.find("icp_move_1(").unwrap()];
        assert!(
            !first.contains("long a;") && !first.contains("break;"),
            "{first}"
        );
        // The second yields and returns: operands, a break after each
        // statement that gives them, the call after the switch.
        let second = &c[c.find("icp_move_1(").unwrap()..];
        assert!(
            second.contains(
                "{\n    long a;\n    switch (pc - 256) {\n    case 0: /* line 256 */\n        \
                 a = 257;\n        break;\n    case 1: /* line 257 */\n        return 258;\n    \
                 default:\n        return -1;\n    }\n    return a;\n}"
            ),
            "{second}"
        );
    }

    #[test]
    fn a_big_program_is_cut_into_chunks_with_a_dispatcher() {
        let n = LEAN + 1;
        let c = dense(n).c();
        let chunks = n.div_ceil(C_CHUNK);
        assert_eq!(c.matches("ICP_CHUNK long icp_move_").count(), chunks);
        assert!(c.contains(C_LEAN));
        assert!(c.contains(&format!(
            "case {}: return icp_move_{}(pc);",
            chunks - 1,
            chunks - 1
        )));
        // Chunk 1 counts its cases from its first statement, so that its
        // code differs from chunk 2's even when the statements are alike
        // (gcc's identical code folding compares functions that hash
        // alike, each pair at the cost of their length).
        let second = format!(
            "/* Statements {C_CHUNK} to {}, case 0 being {C_CHUNK}. */\n\
             ICP_CHUNK long icp_move_1(long pc)\n{{\n    switch (pc - {C_CHUNK}) {{\n    \
             case 0: /* line {C_CHUNK} */\n        return {};\n",
            2 * C_CHUNK - 1,
            C_CHUNK + 1
        );
        assert!(c.contains(&second), "{second} not in:\n{c}");
        let mut alike = dense(n);
        alike
            .cases
            .iter_mut()
            .for_each(|c| (c.comment, c.lines) = ("alike".into(), vec!["return 0;".into()]));
        let alike = alike.c();
        let body = |k: usize| {
            let start = alike.find(&format!("icp_move_{k}(long pc)")).unwrap();
            let end = start + alike[start..].find("\n}\n").unwrap();
            alike[start..end].replace(&format!("icp_move_{k}"), "icp_move_k")
        };
        assert_ne!(body(1), body(2), "two chunks of alike statements are alike");
        let mut d = dense(RUST_CHUNK + 1);
        d.returns = "usize".into();
        d.params = vec!["pc: usize".into()];
        d.default = "usize::MAX".into();
        d.cases
            .iter_mut()
            .for_each(|c| c.lines = vec![format!("{}", c.pc + 1)]);
        let rust = d.rust();
        assert!(
            rust.contains("#[inline(never)]\nfn icp_move_1(pc: usize) -> usize {"),
            "{rust}"
        );
        assert!(rust.contains("        1 => icp_move_1(pc),\n"), "{rust}");
    }
}
