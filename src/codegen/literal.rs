//! Integer literals in generated code, for every language: one place that
//! knows that `-9223372036854775808` is not a literal in C or Rust (it is
//! the negation of a constant that does not fit).

/// A C expression of type `int64_t` for `v`: `INT64_C(v)`, or `INT64_MIN`
/// (`<stdint.h>`, which every generated C file includes).
pub fn c_i64(v: i64) -> String {
    if v == i64::MIN {
        "INT64_MIN".to_string()
    } else {
        format!("INT64_C({v})")
    }
}

/// A C constant for `v` where any integer type will do: plain when it fits
/// an `int`, else [`c_i64`].
pub fn c_int(v: i64) -> String {
    if i32::try_from(v).is_ok() {
        v.to_string()
    } else {
        c_i64(v)
    }
}

/// A Rust expression of type `i64` for `v`: plain, or `i64::MIN`.
pub fn rust_i64(v: i64) -> String {
    if v == i64::MIN {
        "i64::MIN".to_string()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_are_valid_literals() {
        assert_eq!(c_i64(i64::MIN), "INT64_MIN");
        assert_eq!(c_i64(i64::MAX), "INT64_C(9223372036854775807)");
        assert_eq!(c_int(-5), "-5");
        assert_eq!(c_int(1 << 40), "INT64_C(1099511627776)");
        assert_eq!(c_int(i64::MIN), "INT64_MIN");
        assert_eq!(rust_i64(i64::MIN), "i64::MIN");
        assert_eq!(rust_i64(-7), "-7");
    }
}
