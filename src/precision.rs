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
/// digit for text; eight units in the last place for `f32` values (each rounded once);
/// sixteen for `f64` values, whose arithmetic errs by a few units in each coordinate when
/// a part is turned, and a crossing's depth is found from five or six points of two bodies
/// (a beam resting across turned blocks, measured against the face across a block's edge,
/// reaches nine units).
const TEXT_HALF_UNITS: f64 = 4.0;
const SINGLE_HALF_UNITS: f64 = 16.0;
const DOUBLE_HALF_UNITS: f64 = 32.0;

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

    /// The tolerance of binary values at magnitude `m`: [`DOUBLE_HALF_UNITS`] halves of an
    /// `f64` unit in the last place, or, for `f32` values, [`SINGLE_HALF_UNITS`] of an
    /// `f32` unit if that is more.
    fn binary(&self, m: f64) -> f64 {
        let m = m.abs().max(f64::MIN_POSITIVE);
        let mut r = DOUBLE_HALF_UNITS * (m.next_up() - m) / 2.0;
        if self.single {
            let f = m as f32;
            r = r.max(SINGLE_HALF_UNITS * ((f.next_up() - f) as f64) / 2.0);
        }
        r
    }

    /// How far a crossing at coordinates of magnitude up to `m` may reach and still be
    /// taken for touching.
    pub(crate) fn tolerance(&self, m: f64) -> f64 {
        let binary = self.binary(m);
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

/// `t`'s normal, unnormalised, oriented as `(t1 − t0) × (t2 − t0)`, found from the two
/// edges meeting at the corner opposite its longest edge: across a long thin triangle (a
/// 31 × 0.25 face of a beam) the two long edges meet at a small angle, and their cross
/// product keeps only a few of its digits, where the short edge and a long one, nearly
/// square to each other, keep them all. Also that corner.
pub(crate) fn normal_at(t: &[[f64; 3]; 3]) -> ([f64; 3], [f64; 3]) {
    let sub = |x: &[f64; 3], y: &[f64; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let len2 = |v: [f64; 3]| v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    let k = (0..3)
        .max_by(|&i, &j| {
            len2(sub(&t[(i + 1) % 3], &t[i])).total_cmp(&len2(sub(&t[(j + 1) % 3], &t[j])))
        })
        .unwrap_or(0);
    let o = t[(k + 2) % 3];
    let (u, v) = (sub(&t[k], &o), sub(&t[(k + 1) % 3], &o));
    (
        [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ],
        o,
    )
}

/// `t`'s unit normal (see [`normal_at`]; zero for a degenerate triangle), its area, and the
/// corner it was found at.
pub(crate) fn unit_normal(t: &[[f64; 3]; 3]) -> ([f64; 3], f64, [f64; 3]) {
    let (n, o) = normal_at(t);
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        (n.map(|x| x / len), len / 2.0, o)
    } else {
        ([0.0; 3], 0.0, o)
    }
}

/// The distance (rounded) of `p` from the plane of `t`.
pub(crate) fn plane_distance(t: &[[f64; 3]; 3], p: &[f64; 3]) -> f64 {
    let (n, _, o) = unit_normal(t);
    (n[0] * (p[0] - o[0]) + n[1] * (p[1] - o[1]) + n[2] * (p[2] - o[2])).abs()
}

/// The distance (rounded) of `p` from the segment `a b`.
fn segment_distance(p: &[f64; 3], a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
    let uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    let s = if uu > 0.0 {
        ((w[0] * u[0] + w[1] * u[1] + w[2] * u[2]) / uu).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let d = [w[0] - s * u[0], w[1] - s * u[1], w[2] - s * u[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// The distance from `p` to the closed triangle `t` (rounded): from its plane when `p`
/// lies over it, else from the nearest of its edges. (Barycentric closest-point formulas
/// lose digits on long thin triangles, to 1e-11 on a 31 × 0.25 face; these keep them.)
pub(crate) fn distance(p: &[f64; 3], t: &[[f64; 3]; 3]) -> f64 {
    let (n, area, _) = unit_normal(t);
    let over = area > 0.0
        && (0..3).all(|k| {
            let (a, b) = (&t[k], &t[(k + 1) % 3]);
            let e = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
            // (e × w) · n: p on the triangle's side of this edge.
            let c = [
                e[1] * w[2] - e[2] * w[1],
                e[2] * w[0] - e[0] * w[2],
                e[0] * w[1] - e[1] * w[0],
            ];
            c[0] * n[0] + c[1] * n[1] + c[2] * n[2] >= 0.0
        });
    if over {
        return plane_distance(t, p);
    }
    (0..3)
        .map(|k| segment_distance(p, &t[k], &t[(k + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
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
        // Sixteen f64 units in the last place.
        assert_eq!(tidy.tolerance(10.0), 16.0 * (10f64.next_up() - 10.0));
        // Full precision.
        let full = p(&[0.1 + 0.2, std::f64::consts::PI, 1.0 / 3.0]);
        assert_eq!(full.digits, None);
        assert!(!full.single);
        assert_eq!(full.tolerance(1.0), 16.0 * f64::EPSILON);
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

    #[test]
    fn distance_to_a_long_thin_triangle_keeps_its_digits() {
        // A beam's bottom face, 31 × 0.25, turned, and a point of its plane in the middle:
        // the barycentric formulas found it 1e-11 away; the plane, from the short edge and
        // a long one, finds it within a few units in the last place.
        let turn = |p: [f64; 3]| {
            let (s, c) = 37f64.to_radians().sin_cos();
            [c * p[0] - s * p[1], s * p[0] + c * p[1], p[2]]
        };
        let t = [[-1.1, 0.2, 1.0], [29.9, 0.45, 1.0], [29.9, 0.2, 1.0]].map(turn);
        let p = turn([4.5, 0.22, 1.0]);
        assert!(distance(&p, &t) < 1e-14, "{}", distance(&p, &t));
        assert!(plane_distance(&t, &p) < 1e-14);
        let above = turn([4.5, 0.22, 1.5]);
        assert!((distance(&above, &t) - 0.5).abs() < 1e-14);
    }
}
