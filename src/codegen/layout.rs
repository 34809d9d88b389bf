//! rustfmt's layout of the few shapes of code the Rust back ends write
//! with widths that depend on the program (labels, literals, texts), so
//! that generated Rust passes `rustfmt --check` (issue 14) without icp2c
//! running rustfmt.
//!
//! The rules are rustfmt's defaults (`max_width` 100, `fn_call_width` 60,
//! four spaces a level), for these shapes only; `tests/rustfmt.rs` checks
//! them against rustfmt on every example and on programs made to reach
//! the limits (long texts, 20-digit literals).

use unicode_width::UnicodeWidthStr;

/// rustfmt's `max_width`: the widest line it leaves on one line.
pub const MAX_WIDTH: usize = 100;

/// rustfmt's `fn_call_width`: the widest argument list it leaves on one
/// line.
pub const CALL_WIDTH: usize = 60;

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
    let joined = items.join(", ");
    let one = format!("static {name}: {ty} = [{joined}];");
    if width(&joined) <= ARRAY_WIDTH && width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let mut lines = vec![format!("static {name}: {ty} = [")];
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
    fn arms_become_blocks_when_too_wide() {
        assert_eq!(arm(3, "_", "x()"), vec!["            _ => x(),"]);
        let long = "z".repeat(90);
        assert_eq!(arm(3, "_", &long).len(), 3);
    }
}
