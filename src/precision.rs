//! What a mesh's coordinates can be trusted to: their precision estimated from a sample
//! (digits written, or `f32`), the tolerance a crossing within rounding may reach, and the
//! distance from a point to a triangle. Shared by the overlap check's contacts
//! (`overlap::contact`) and the shell check's probe points (`shells`), below both.

/// What a file's coordinates can say, estimated from a sample of them: how many
/// significant digits (and decimals) they were written with, or whether they are `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Precision {
    /// Significant digits of the longest coordinate sampled, when the coordinates look
    /// rounded to a fixed number of digits (6 to 16); `None` for short, exact values (a
    /// tidy fixture: no rounding to forgive beyond `f64`'s) or full precision.
    digits: Option<u32>,
    /// The most digits after the decimal point seen (a file written `%.6f`).
    decimals: i32,
    /// Every sampled coordinate is an `f32` (a binary STL).
    single: bool,
}

/// Half-units of the resolution a crossing may reach: two units of the last written
/// digit for text; for binary values (whose arithmetic, turning a part, errs by a few
/// units) eight units in the last place.
const TEXT_HALF_UNITS: f64 = 4.0;
const BINARY_HALF_UNITS: f64 = 16.0;

/// Significant digits and decimals of the shortest text that reads back as `x`.
fn written(x: f64, single: bool) -> (u32, i32) {
    let s = if single {
        format!("{:e}", x as f32)
    } else {
        format!("{x:e}")
    };
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count() as u32;
    (digits, digits as i32 - 1 - exp)
}

impl Precision {
    /// Estimated from these coordinates (a sample of a file's).
    pub(crate) fn of_values(values: impl Iterator<Item = f64>) -> Precision {
        let values: Vec<f64> = values.filter(|x| x.is_finite() && *x != 0.0).collect();
        let single = values.iter().all(|&x| (x as f32) as f64 == x);
        let (mut digits, mut decimals) = (0, i32::MIN);
        for &x in &values {
            let (d, p) = written(x, single);
            digits = digits.max(d);
            decimals = decimals.max(p);
        }
        // Six digits or more: rounded (to a fixed count, or to f32). Fewer: values as
        // written, exact (a tidy fixture's), with nothing to forgive beyond f64's rounding.
        let rounded = digits >= 6;
        Precision {
            digits: (rounded && !single && digits <= 16).then_some(digits),
            decimals,
            single: rounded && single,
        }
    }

    /// Half a unit of the last place a coordinate of magnitude `m` can be trusted to.
    fn resolution(&self, m: f64) -> f64 {
        let m = m.abs().max(f64::MIN_POSITIVE);
        let ulp = |x: f64| x.next_up() - x;
        let mut r = ulp(m) / 2.0;
        if self.single {
            let f = m as f32;
            r = r.max(((f.next_up() - f) as f64) / 2.0);
        }
        r
    }

    /// How far a crossing at coordinates of magnitude up to `m` may reach and still be
    /// taken for touching.
    pub(crate) fn tolerance(&self, m: f64) -> f64 {
        let binary = BINARY_HALF_UNITS * self.resolution(m);
        match self.digits {
            Some(d) => {
                let m = m.abs().max(f64::MIN_POSITIVE);
                let last = 10f64.powi(m.log10().floor() as i32 - d as i32 + 1);
                let fixed = 10f64.powi(-self.decimals.clamp(-300, 300));
                binary.max(TEXT_HALF_UNITS * 0.5 * last.max(fixed))
            }
            None => binary,
        }
    }

    /// What the tolerance comes from, for a message.
    pub(crate) fn rounding(&self) -> crate::error::Rounding {
        match self.digits {
            Some(d) => crate::error::Rounding::Digits(d),
            None if self.single => crate::error::Rounding::Single,
            None => crate::error::Rounding::Double,
        }
    }
}

/// The distance from `p` to the closed triangle `t` (rounded; Ericson, *Real-Time
/// Collision Detection*, closest point on a triangle).
pub(crate) fn distance(p: &[f64; 3], t: &[[f64; 3]; 3]) -> f64 {
    let sub = |x: &[f64; 3], y: &[f64; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let dot = |x: &[f64; 3], y: &[f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let (a, b, c) = (&t[0], &t[1], &t[2]);
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let at = |u: f64, v: f64| {
        let q = [0, 1, 2].map(|k| a[k] + u * ab[k] + v * ac[k]);
        let d = sub(p, &q);
        dot(&d, &d).sqrt()
    };
    let (d1, d2) = (dot(&ab, &ap), dot(&ac, &ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return at(0.0, 0.0);
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(&ab, &bp), dot(&ac, &bp));
    if d3 >= 0.0 && d4 <= d3 {
        return at(1.0, 0.0);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return at(d1 / (d1 - d3), 0.0);
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(&ab, &cp), dot(&ac, &cp));
    if d6 >= 0.0 && d5 <= d6 {
        return at(0.0, 1.0);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return at(0.0, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return at(1.0 - w, w);
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    if !(v.is_finite() && w.is_finite()) {
        return at(0.0, 0.0);
    }
    at(v, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_precision_is_read_from_the_digits_written() {
        let p = |xs: &[f64]| Precision::of_values(xs.iter().copied());
        // Six significant digits: two units of the sixth digit at each magnitude.
        let six = p(&[1.23457, 0.173648, 98.4808, 3.0]);
        assert_eq!(six.digits, Some(6));
        assert!((six.tolerance(98.0) - 2e-4).abs() < 1e-12, "{six:?}");
        assert!((six.tolerance(1.5) - 2e-5).abs() < 1e-15);
        // Tidy values: nothing to forgive but f64's own rounding.
        let tidy = p(&[0.0, 1.0, 0.5, 2.25, 10.0]);
        assert_eq!(tidy.digits, None);
        assert!(tidy.tolerance(10.0) < 2e-14);
        // Full precision.
        let full = p(&[0.1 + 0.2, std::f64::consts::PI, 1.0 / 3.0]);
        assert_eq!(full.digits, None);
        assert!(!full.single);
        assert!(full.tolerance(1.0) < 2e-15);
        // f32 values (a binary STL): eight f32 units in the last place.
        let single = p(&[0.123457f32 as f64, 1.73648f32 as f64, 98.4808f32 as f64]);
        assert!(single.single);
        assert!((single.tolerance(1.5) - 8.0 * f32::EPSILON as f64).abs() < 1e-18);
    }

    #[test]
    fn distance_to_a_triangle() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        assert_eq!(distance(&[0.25, 0.25, 2.0], &t), 2.0);
        assert_eq!(distance(&[-3.0, 0.0, 4.0], &t), 5.0);
        assert!((distance(&[1.0, 1.0, 0.0], &t) - 0.5f64.sqrt()).abs() < 1e-15);
        assert_eq!(distance(&[0.5, -1.0, 0.0], &t), 1.0);
    }
}
