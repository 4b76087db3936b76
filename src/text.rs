//! How messages and tables write numbers and quoted input: [`num`] (12 significant
//! digits), [`tidy_numbers`] (the same for the numbers in a finished message), [`clip`] and
//! [`clip_to`] (a quoted piece of input kept to one short line), [`human_bytes`]. Internal:
//! the binary reaches them through [`crate::details`].

/// A piece of input quoted in a message, cut to 40 characters (a megabyte-long "cell" must
/// not become a megabyte-long error line).
///
/// # Examples
/// ```
/// assert_eq!(inertia::details::clip("abc"), "abc");
/// assert_eq!(inertia::details::clip("a\u{1b}[31m"), "a\\u{1b}[31m");
/// assert_eq!(inertia::details::clip(&"x".repeat(100)).chars().count(), 41);
/// ```
pub fn clip(s: &str) -> String {
    clip_to(s, 40)
}

/// [`clip`] to `n` characters: for a library's own message, which may be longer than a
/// quoted piece of input but must stay one line of reasonable length.
///
/// # Examples
/// ```
/// assert_eq!(inertia::details::clip_to("line 1\nline 2", 100), "line 1\\nline 2");
/// ```
pub fn clip_to(s: &str, n: usize) -> String {
    // Control characters from the input are shown escaped: a message must not move the
    // cursor or recolour the user's terminal.
    let shown: String = s.chars().take(n).flat_map(char::escape_debug).collect();
    let shown = shown.replace("\\'", "'").replace("\\\"", "\"");
    if s.chars().count() > n {
        format!("{shown}…")
    } else {
        shown
    }
}

/// A byte count for a message: "1.2 GB" (decimal units).
///
/// # Examples
/// ```
/// assert_eq!(inertia::details::human_bytes(1.25e9), "1.2 GB");
/// assert_eq!(inertia::details::human_bytes(512.0), "0.5 kB");
/// ```
pub fn human_bytes(b: f64) -> String {
    let (v, unit) = if b >= 1e12 {
        (b / 1e12, "TB")
    } else if b >= 1e9 {
        (b / 1e9, "GB")
    } else if b >= 1e6 {
        (b / 1e6, "MB")
    } else {
        (b / 1e3, "kB")
    };
    format!("{v:.1} {unit}")
}

/// Rewrites the numbers of a message to at most 12 significant digits: `0.30000000000000004`
/// becomes `0.3`, and the 301 digits Rust prints for `1e300` become `1e300`. Whole numbers
/// of up to 15 digits (counts, byte sizes) are kept as they are, as is anything that is
/// part of a word or a path (`case48.dxf`, `v1.0000000000000002`).
///
/// # Examples
/// ```
/// use inertia::details::tidy_numbers;
/// assert_eq!(tidy_numbers("volume 0.30000000000000004, area -1.2345678901234567e-7"), "volume 0.3, area -1.23456789012e-7");
/// assert_eq!(tidy_numbers("4294967296 triangles in part_0.123456789012345.stl"), "4294967296 triangles in part_0.123456789012345.stl");
/// assert_eq!(tidy_numbers(&format!("x = {}", 1e300)), "x = 1e300");
/// ```
pub fn tidy_numbers(message: &str) -> String {
    let b = message.as_bytes();
    let mut out = String::with_capacity(message.len());
    let mut i = 0;
    let word =
        |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'/' || c >= 0x80;
    while i < b.len() {
        let starts =
            b[i].is_ascii_digit() || (b[i] == b'-' && i + 1 < b.len() && b[i + 1].is_ascii_digit());
        if !starts || (i > 0 && word(b[i - 1])) {
            let ch = message[i..].chars().next().expect("in bounds");
            out.push(ch);
            i += ch.len_utf8();
            continue;
        }
        let start = i;
        if b[i] == b'-' {
            i += 1;
        }
        let digits = |i: &mut usize| {
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
        };
        digits(&mut i);
        let mut fraction = false;
        if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            fraction = true;
            i += 1;
            digits(&mut i);
        }
        let mantissa_end = i;
        let mut exponent = false;
        if i + 1 < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                exponent = true;
                i = j;
                digits(&mut i);
            }
        }
        let token = &message[start..i];
        let glued = i < b.len()
            && (b[i].is_ascii_alphanumeric()
                || b[i] == b'_'
                || (b[i] == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_alphanumeric()));
        let significant = message[start..mantissa_end]
            .bytes()
            .filter(u8::is_ascii_digit)
            .skip_while(|&d| d == b'0')
            .count();
        let long = if fraction || exponent {
            significant > 12
        } else {
            significant > 15
        };
        match token.parse::<f64>() {
            Ok(x) if long && !glued => out.push_str(&num(x)),
            _ => out.push_str(token),
        }
    }
    out
}

/// A number to 12 significant digits, trailing zeros trimmed, exponent form when very large
/// or very small.
///
/// # Examples
/// ```
/// use inertia::details::num;
/// assert_eq!(num(1.0 / 6.0), "0.166666666667");
/// assert_eq!(num(2.9999999999999996), "3");
/// assert_eq!(num(100000000.5), "100000000.5");
/// assert_eq!(num(1.5e-9), "1.5e-9");
/// assert_eq!(num(0.00012), "0.00012");
/// assert_eq!(num(0.000012), "1.2e-5");
/// assert_eq!(num(-0.0), "0");
/// ```
pub fn num(x: f64) -> String {
    num_to(x, 12)
}

/// [`num`] to `digits` significant digits (1 to 17): for plot legends, 6.
///
/// # Examples
/// ```
/// use inertia::details::num_to;
/// assert_eq!(num_to(1.0 / 3.0, 6), "0.333333");
/// assert_eq!(num_to(1.34151711011e-10, 6), "1.34152e-10");
/// assert_eq!(num_to(123456789.0, 6), "1.23457e8");
/// ```
pub fn num_to(x: f64, digits: usize) -> String {
    let digits = digits.clamp(1, 17);
    let top = digits as i32;
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return x.to_string();
    }
    // The exponent after rounding to `digits` (9.9999996 to 6 digits is 10).
    let e = format!("{x:.*e}", digits - 1)
        .split_once('e')
        .and_then(|(_, e)| e.parse::<i32>().ok())
        .unwrap_or(0);
    if (-4..top).contains(&e) {
        let decimals = (top - 1 - e).max(0) as usize;
        let s = format!("{x:.decimals$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        if s == "-0" { "0".into() } else { s }
    } else {
        exponent_form(x, digits)
    }
}

/// `x` in exponent form to `digits` significant digits, trailing zeros of the mantissa
/// left out (`5e-1`, `1.23457e8`).
fn exponent_form(x: f64, digits: usize) -> String {
    let s = format!("{x:.*e}", digits - 1);
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    format!("{mantissa}e{exp}")
}

/// Below this fraction of a tensor's norm a component prints as 0 in a table
/// ([`tensor_cells`]). A component is a sum over the triangles (or edges) of products of
/// coordinates, each term bounded by the norm's scale; recursive summation of n such terms
/// in f64 carries a rounding of up to about n·u·‖I‖ (u = 2⁻⁵³ ≈ 1.1e-16), which reaches
/// 1e-12·‖I‖ at n ≈ 9,000 terms, and the table's 12 significant digits of the largest
/// component end at 1e-12 of it: what is smaller is noise or below the last digit shown.
pub const TENSOR_NOISE: f64 = 1e-12;

/// How a group of numbers that share a column is written: plain decimals, or exponent form
/// for all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `0.00125`.
    Fixed,
    /// `1.25e-3`.
    Exponent,
}

/// The notation [`num`] would give the largest of `values`, for all of them: exponent
/// form when it or the smallest nonzero one is very large or very small.
///
/// # Examples
/// ```
/// use inertia::details::{notation, Notation};
/// assert_eq!(notation(&[0.5, 2.0, 0.0]), Notation::Fixed);
/// assert_eq!(notation(&[3.26e-5, 8.7e-6]), Notation::Exponent);
/// assert_eq!(notation(&[0.5, 1e-9]), Notation::Exponent);
/// ```
pub fn notation(values: &[f64]) -> Notation {
    let exponents = values
        .iter()
        .filter(|x| x.is_finite() && **x != 0.0)
        .map(|x| x.abs().log10().floor() as i32);
    let (lo, hi) = exponents.fold((i32::MAX, i32::MIN), |(lo, hi), e| (lo.min(e), hi.max(e)));
    if hi == i32::MIN || ((-4..12).contains(&lo) && (-4..12).contains(&hi)) {
        Notation::Fixed
    } else {
        Notation::Exponent
    }
}

/// `x` to 12 significant digits in `notation` (trailing zeros trimmed, never `-0`).
///
/// # Examples
/// ```
/// use inertia::details::{num_in, Notation};
/// assert_eq!(num_in(8.71172932331e-6, Notation::Exponent), "8.71172932331e-6");
/// assert_eq!(num_in(0.5, Notation::Exponent), "5e-1");
/// assert_eq!(num_in(-1e-30, Notation::Fixed), "-1e-30"); // too small for decimals
/// assert_eq!(num_in(-0.0, Notation::Exponent), "0");
/// ```
pub fn num_in(x: f64, notation: Notation) -> String {
    if x == 0.0 || !x.is_finite() {
        return num(x);
    }
    match notation {
        Notation::Fixed => num(x),
        Notation::Exponent => exponent_form(x, 12),
    }
}

/// The components of a tensor (or any numbers that share one scale, such as its principal
/// moments with it) as a table prints them: those below [`TENSOR_NOISE`] of `norm` as 0,
/// the rest to the 12 significant digits of the largest (no digit below the largest's
/// last), all in one [`Notation`].
///
/// # Examples
/// ```
/// use inertia::details::tensor_cells;
/// let cells = tensor_cells(&[3.26093050423e-5, 8.71172932331e-6, -3.66e-21], 3.4e-5);
/// // 8.71172932331e-6 keeps the digits down to the largest's last: 8.7117293233e-6.
/// assert_eq!(cells, ["3.26093050423e-5", "8.7117293233e-6", "0"]);
/// assert_eq!(tensor_cells(&[0.5, 0.25, -1e-17], 0.56), ["0.5", "0.25", "0"]);
/// ```
pub fn tensor_cells(values: &[f64], norm: f64) -> Vec<String> {
    let kept: Vec<f64> = values
        .iter()
        .map(|&x| {
            if x.abs() < TENSOR_NOISE * norm {
                0.0
            } else {
                x
            }
        })
        .collect();
    let largest = kept
        .iter()
        .filter(|x| x.is_finite())
        .fold(0.0_f64, |m, x| m.max(x.abs()));
    let form = notation(&kept);
    kept.iter()
        .map(|&x| {
            if largest > 0.0 && x.is_finite() {
                // A unit in the 12th significant digit of the largest.
                let step = 10f64.powi(largest.log10().floor() as i32 - 11);
                let rounded = (x / step).round() * step;
                num_in(rounded, form)
            } else {
                num_in(x, form)
            }
        })
        .collect()
}

/// A number as JSON writes it (the shortest digits that read back to the same f64, ryu's),
/// without JSON's `.0` on whole numbers and without `-0`: for CSV cells.
///
/// # Examples
/// ```
/// use inertia::details::shortest;
/// assert_eq!(shortest(1.0908994288112011e-19), "1.0908994288112011e-19");
/// assert_eq!(shortest(0.1 + 0.2), "0.30000000000000004");
/// assert_eq!((shortest(7850.0), shortest(-0.0), shortest(1e21)), ("7850".into(), "0".into(), "1e+21".into()));
/// ```
pub fn shortest(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    // + 0.0 turns −0 into 0.
    let s = serde_json::to_string(&(x + 0.0)).unwrap_or_else(|_| x.to_string());
    match s.strip_suffix(".0") {
        Some(whole) => whole.to_string(),
        None => s,
    }
}
