//! rustfmt's layout of the few shapes of code the Rust back ends write
//! with widths that depend on the program (labels, literals, texts), so
//! that generated Rust passes `rustfmt --check` (issue 14) without icp2c
//! running rustfmt.
//!
//! The rules are rustfmt's defaults (`max_width` 100, `fn_call_width` 60,
//! four spaces a level), for these shapes only; `tests/it/rustfmt.rs` checks
//! them against rustfmt on every example and on programs made to reach
//! the limits (long texts, 20-digit literals).

use unicode_width::UnicodeWidthStr;

/// rustfmt's `max_width`: the widest line it leaves on one line.
pub const MAX_WIDTH: usize = 100;

/// rustfmt's `fn_call_width`: the widest argument list it leaves on one
/// line.
pub const CALL_WIDTH: usize = 60;

/// rustfmt's `chain_width`: the widest method chain it leaves on one line.
pub const CHAIN_WIDTH: usize = 60;

/// The display width of `text` in columns, as rustfmt measures it.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `n` levels of four spaces.
pub fn pad(n: usize) -> String {
    "    ".repeat(n)
}

/// A call `head(args…)tail` at `level` (four spaces each), as rustfmt
/// lays it out: on one line when the arguments take at most
/// [`CALL_WIDTH`] columns and the line at most [`MAX_WIDTH`]; else one
/// argument a line, each with a comma, and `tail` after the closing
/// parenthesis (`head` may start with `if ` or `} else if `; `tail` is
/// what follows the `)`, such as `?;` or `? {`).
pub fn call(level: usize, head: &str, args: &[String], tail: &str) -> Vec<String> {
    let joined = args.join(", ");
    let indent = pad(level);
    let one = format!("{indent}{head}({joined}){tail}");
    if width(&joined) <= CALL_WIDTH && width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let mut lines = vec![format!("{indent}{head}(")];
    let inner = pad(level + 1);
    lines.extend(args.iter().map(|a| format!("{inner}{a},")));
    lines.push(format!("{indent}){tail}"));
    lines
}

/// A match arm `pattern => expression` at `level`: on one line
/// (`pattern => expression,`) when it fits in [`MAX_WIDTH`], else as a
/// block holding the expression.
pub fn arm(level: usize, pattern: &str, expression: &str) -> Vec<String> {
    let indent = pad(level);
    let one = format!("{indent}{pattern} => {expression},");
    if width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    vec![
        format!("{indent}{pattern} => {{"),
        format!("{}{expression}", pad(level + 1)),
        format!("{indent}}}"),
    ]
}

/// rustfmt's `array_width`: the widest array literal it leaves on one
/// line.
pub const ARRAY_WIDTH: usize = 60;

/// `static NAME: TYPE = [items…];` at the top level, as rustfmt lays out an
/// array of short items (numbers): on one line when the items take at most
/// [`ARRAY_WIDTH`] columns and the line at most [`MAX_WIDTH`]; else as
/// many items a line as fit in [`MAX_WIDTH`], each followed by a comma.
pub fn static_array(name: &str, ty: &str, items: &[String]) -> Vec<String> {
    array(&format!("static {name}: {ty}"), items)
}

/// `declaration = [items…];` at the top level, `declaration` being
/// `static NAME: TYPE` or `const NAME: TYPE`, laid out as
/// [`static_array`] says.
pub fn array(declaration: &str, items: &[String]) -> Vec<String> {
    let joined = items.join(", ");
    let one = format!("{declaration} = [{joined}];");
    if width(&joined) <= ARRAY_WIDTH && width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let mut lines = vec![format!("{declaration} = [")];
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && width(&line) + 1 + width(item) + 1 >= MAX_WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if line.is_empty() {
            line.push_str("    ");
        } else {
            line.push(' ');
        }
        line.push_str(item);
        line.push(',');
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.push("];".to_string());
    lines
}

/// rustfmt's `struct_lit_width`: the widest field list of a struct literal
/// it leaves on one line.
pub const STRUCT_WIDTH: usize = 18;

/// An expression as the back ends build it, for [`Expr::lay`] to lay out
/// as rustfmt would: calls, struct literals, `vec![…]`, `&`, and text
/// that is never broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// Text laid out as it is (a path, a literal, a variable).
    Atom(String),
    /// `head(args…)tail`: a call, a method call or a variant; `tail` is
    /// what follows the `)` (`?` or nothing).
    Call(String, Vec<Expr>, &'static str),
    /// `path { name: value, … }`.
    Struct(String, Vec<(String, Expr)>),
    /// `vec![items…]`.
    Vec(Vec<Expr>),
    /// `&expr`.
    Ref(Box<Expr>),
}

impl Expr {
    /// Text on one line.
    pub fn atom(text: impl Into<String>) -> Expr {
        Expr::Atom(text.into())
    }

    /// A call `head(args)` with no tail.
    pub fn call(head: impl Into<String>, args: Vec<Expr>) -> Expr {
        Expr::Call(head.into(), args, "")
    }

    /// A call `head(args)?`.
    pub fn try_call(head: impl Into<String>, args: Vec<Expr>) -> Expr {
        Expr::Call(head.into(), args, "?")
    }

    /// `&self`.
    pub fn borrowed(self) -> Expr {
        Expr::Ref(Box::new(self))
    }

    /// The expression on one line.
    pub fn one_line(&self) -> String {
        match self {
            Expr::Atom(text) => text.clone(),
            Expr::Call(head, args, tail) => format!("{head}({}){tail}", join(args)),
            Expr::Struct(path, fields) if fields.is_empty() => format!("{path} {{}}"),
            Expr::Struct(path, fields) => format!("{path} {{ {} }}", join_fields(fields)),
            Expr::Vec(items) => format!("vec![{}]", join(items)),
            Expr::Ref(inner) => format!("&{}", inner.one_line()),
        }
    }

    /// Whether rustfmt's width heuristics let the expression stand on one
    /// line (each argument list within [`CALL_WIDTH`], each field list
    /// within [`STRUCT_WIDTH`], each `vec!` within [`ARRAY_WIDTH`]).
    fn short_enough(&self) -> bool {
        match self {
            Expr::Atom(_) => true,
            Expr::Call(_, args, _) => {
                width(&join(args)) <= CALL_WIDTH && args.iter().all(Expr::short_enough)
            }
            Expr::Struct(_, fields) => {
                width(&join_fields(fields)) <= STRUCT_WIDTH
                    && fields.iter().all(|(_, v)| v.short_enough())
            }
            Expr::Vec(items) => {
                width(&join(items)) <= ARRAY_WIDTH && items.iter().all(Expr::short_enough)
            }
            Expr::Ref(inner) => inner.short_enough(),
        }
    }

    /// Whether rustfmt may lay this expression, the only argument of a
    /// call, from the call's own line ("overflow": `Some(Foo {` … `})`).
    fn overflows(&self) -> bool {
        match self {
            Expr::Atom(_) => false,
            Expr::Call(..) | Expr::Struct(..) | Expr::Vec(..) => true,
            Expr::Ref(inner) => inner.overflows(),
        }
    }

    /// Lays the expression out as rustfmt would, starting `used` columns
    /// into a line whose statement is indented by `level` steps of four,
    /// with `after` columns needed after its end (a `,` or `;`). The first
    /// line is the text to put after those `used` columns; the others
    /// carry their own indentation.
    pub fn lay(&self, level: usize, used: usize, after: usize) -> Vec<String> {
        let one = self.one_line();
        if self.short_enough() && used + width(&one) + after <= MAX_WIDTH {
            return vec![one];
        }
        match self {
            Expr::Atom(text) => vec![text.clone()],
            Expr::Ref(inner) => {
                let mut lines = inner.lay(level, used + 1, after);
                lines[0] = format!("&{}", lines[0]);
                lines
            }
            Expr::Call(head, args, tail) => {
                if let [only] = args.as_slice()
                    && only.overflows()
                {
                    let open = format!("{head}(");
                    let close = format!("){tail}");
                    let used = used + width(&open);
                    let mut lines = only.lay(level, used, width(&close) + after);
                    lines[0] = format!("{open}{}", lines[0]);
                    if let Some(last) = lines.last_mut() {
                        last.push_str(&close);
                    }
                    return lines;
                }
                let mut lines = vec![format!("{head}(")];
                lines.extend(items(args, level + 1));
                lines.push(format!("{}){tail}", pad(level)));
                lines
            }
            Expr::Vec(items_) => {
                if let [only] = items_.as_slice()
                    && only.overflows()
                {
                    let mut lines = only.lay(level, used + 5, 1 + after);
                    lines[0] = format!("vec![{}", lines[0]);
                    if let Some(last) = lines.last_mut() {
                        last.push(']');
                    }
                    return lines;
                }
                let mut lines = vec!["vec![".to_string()];
                lines.extend(items(items_, level + 1));
                lines.push(format!("{}]", pad(level)));
                lines
            }
            Expr::Struct(path, fields) => {
                let mut lines = vec![format!("{path} {{")];
                let inner = pad(level + 1);
                for (name, value) in fields {
                    let start = format!("{inner}{name}: ");
                    let mut laid = value.lay(level + 1, width(&start), 1);
                    laid[0] = format!("{start}{}", laid[0]);
                    if let Some(last) = laid.last_mut() {
                        last.push(',');
                    }
                    lines.extend(laid);
                }
                lines.push(format!("{}}}", pad(level)));
                lines
            }
        }
    }
}

/// Arguments or elements one a line at `level`, each followed by a comma.
fn items(list: &[Expr], level: usize) -> Vec<String> {
    let indent = pad(level);
    let mut lines = Vec::new();
    for item in list {
        let mut laid = item.lay(level, width(&indent), 1);
        laid[0] = format!("{indent}{}", laid[0]);
        if let Some(last) = laid.last_mut() {
            last.push(',');
        }
        lines.extend(laid);
    }
    lines
}

fn join(list: &[Expr]) -> String {
    list.iter()
        .map(Expr::one_line)
        .collect::<Vec<_>>()
        .join(", ")
}

fn join_fields(fields: &[(String, Expr)]) -> String {
    fields
        .iter()
        .map(|(name, value)| format!("{name}: {}", value.one_line()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `declaration = [items…];` at the top level for items that are not
/// short (struct literals, calls): on one line when it fits the width
/// rules, else one item a line (each laid out, with a comma).
pub fn expr_array(declaration: &str, list: &[Expr]) -> Vec<String> {
    let one = format!("{declaration} = [{}];", join(list));
    let short = width(&join(list)) <= ARRAY_WIDTH && list.iter().all(Expr::short_enough);
    if short && width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    if let [only] = list
        && only.overflows()
    {
        // One struct literal or call: laid out from the declaration's line.
        let open = format!("{declaration} = [");
        let mut lines = only.lay(0, width(&open), 2);
        lines[0] = format!("{open}{}", lines[0]);
        if let Some(last) = lines.last_mut() {
            last.push_str("];");
        }
        return lines;
    }
    let mut lines = vec![format!("{declaration} = [")];
    lines.extend(items(list, 1));
    lines.push("];".to_string());
    lines
}

/// A statement `expr;` (or `let …` before it: `start`) at `level`, laid
/// out; every line carries its indentation.
pub fn statement(level: usize, start: &str, expr: &Expr, end: &str) -> Vec<String> {
    let indent = pad(level);
    let used = width(&indent) + width(start);
    let mut lines = expr.lay(level, used, width(end));
    lines[0] = format!("{indent}{start}{}", lines[0]);
    if let Some(last) = lines.last_mut() {
        last.push_str(end);
    }
    lines
}

/// A match arm `pattern => expr,` at `level`, the expression laid out from
/// the arm's line as rustfmt lays out calls and struct literals there.
pub fn expr_arm(level: usize, pattern: &str, expr: &Expr) -> Vec<String> {
    statement(level, &format!("{pattern} => "), expr, ",")
}

/// A match arm whose body is a block of statements (each already laid out
/// one level deeper) and a final expression.
pub fn block_arm(level: usize, pattern: &str, body: Vec<String>, last: &Expr) -> Vec<String> {
    let mut lines = vec![format!("{}{pattern} => {{", pad(level))];
    lines.extend(body);
    lines.extend(statement(level + 1, "", last, ""));
    lines.push(format!("{}}}", pad(level)));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn short_calls_stay_on_one_line() {
        assert_eq!(
            call(4, "f", &strings(&["a", "b"]), "?;"),
            vec!["                f(a, b)?;"]
        );
    }

    #[test]
    fn a_long_argument_list_goes_one_argument_a_line() {
        let long = format!("\"{}\"", "x".repeat(60));
        assert_eq!(
            call(1, "if g", &strings(&["icp_out", &long]), "? {"),
            vec![
                "    if g(".to_string(),
                "        icp_out,".to_string(),
                format!("        {long},"),
                "    )? {".to_string(),
            ]
        );
        // 60 columns of arguments fit; 61 do not.
        let fits = "y".repeat(60);
        assert_eq!(call(0, "h", &strings(&[&fits]), ";").len(), 1);
        let over = "y".repeat(61);
        assert_eq!(call(0, "h", &strings(&[&over]), ";").len(), 3);
    }

    #[test]
    fn width_counts_columns_not_bytes() {
        assert_eq!(width("é∞♔"), 3);
        assert_eq!(width("日本"), 4);
    }

    #[test]
    fn arrays_fill_lines() {
        let few: Vec<String> = (0..3).map(|i| i.to_string()).collect();
        assert_eq!(
            static_array("A", "[i32; 3]", &few),
            vec!["static A: [i32; 3] = [0, 1, 2];"]
        );
        let many: Vec<String> = (0..40).map(|i| (i * 1000).to_string()).collect();
        let lines = static_array("B", "[i32; 40]", &many);
        assert_eq!(lines[0], "static B: [i32; 40] = [");
        assert_eq!(lines.last().map(String::as_str), Some("];"));
        assert!(lines.iter().all(|l| width(l) <= MAX_WIDTH));
        assert!(lines[1].starts_with("    0, 1000, 2000,"));
    }

    #[test]
    fn expressions_overflow_a_single_argument_and_go_vertical_otherwise() {
        let condition = Expr::Struct(
            "icp_e::Condition".into(),
            vec![
                ("negated".into(), Expr::atom("false")),
                ("test".into(), Expr::atom("icp_e::Test::Empty")),
            ],
        );
        // A struct literal of more than 18 columns of fields is vertical,
        // and as the only argument it starts on its call's line.
        let some = Expr::call("Some", vec![condition.clone()]);
        assert_eq!(
            statement(1, "let c = ", &some, ";"),
            vec![
                "    let c = Some(icp_e::Condition {",
                "        negated: false,",
                "        test: icp_e::Test::Empty,",
                "    });",
            ]
        );
        // Two arguments: one a line.
        let test = Expr::try_call("inv.test", vec![some, Expr::atom("x").borrowed()]);
        assert_eq!(
            expr_arm(0, "1", &test),
            vec![
                "1 => inv.test(",
                "    Some(icp_e::Condition {",
                "        negated: false,",
                "        test: icp_e::Test::Empty,",
                "    }),",
                "    &x,",
                ")?,",
            ]
        );
        let short = Expr::call("f", vec![Expr::atom("a"), Expr::atom("b")]);
        assert_eq!(expr_arm(2, "7", &short), vec!["        7 => f(a, b),"]);
        assert_eq!(
            block_arm(0, "2", vec!["    g();".into()], &Expr::atom("Next")),
            vec!["2 => {", "    g();", "    Next", "}"]
        );
    }

    #[test]
    fn arms_become_blocks_when_too_wide() {
        assert_eq!(arm(3, "_", "x()"), vec!["            _ => x(),"]);
        let long = "z".repeat(90);
        assert_eq!(arm(3, "_", &long).len(), 3);
    }
}
