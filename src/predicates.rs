//! Exact orientation predicates (`robust`'s adaptive `orient3d` and `orient2d`) as signs,
//! shared by the overlap check and the shell check.

/// A point as `robust` takes it.
fn coord(p: &[f64; 3]) -> robust::Coord3D<f64> {
    robust::Coord3D {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

/// Exact sign of the orientation of `d` against the plane through `a, b, c`.
///
/// When `a, b, c` share one coordinate exactly (a face square to an axis, as most of a
/// CAD part's flat faces are), the determinant is the product of `d`'s offset along that
/// axis and the triangle's `orient2d` seen along it, so its sign is read from a comparison
/// and a 2D predicate: `orient3d`'s adaptive stages are slowest on the exact zeros such
/// faces give (a neighbour in the same plane).
#[inline]
pub(crate) fn orient(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3], d: &[f64; 3]) -> i8 {
    for k in 0..3 {
        if a[k] == b[k] && a[k] == c[k] {
            let off = match a[k].partial_cmp(&d[k]) {
                Some(std::cmp::Ordering::Greater) => 1,
                Some(std::cmp::Ordering::Less) => -1,
                Some(std::cmp::Ordering::Equal) => return 0,
                None => break,
            };
            return off * orient2(&project(*a, k), &project(*b, k), &project(*c, k));
        }
    }
    let v = robust::orient3d(coord(a), coord(b), coord(c), coord(d));
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

/// The point with axis `drop` left out.
pub(crate) fn project(p: [f64; 3], drop: usize) -> [f64; 2] {
    match drop {
        0 => [p[1], p[2]],
        1 => [p[2], p[0]],
        _ => [p[0], p[1]],
    }
}

/// Exact sign of the orientation of `c` against the line through `a, b`.
pub(crate) fn orient2(a: &[f64; 2], b: &[f64; 2], c: &[f64; 2]) -> i8 {
    let k = |p: &[f64; 2]| robust::Coord { x: p[0], y: p[1] };
    let v = robust::orient2d(k(a), k(b), k(c));
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Lcg;

    /// `robust`'s sign, without the shortcut.
    fn reference(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3], d: &[f64; 3]) -> i8 {
        let v = robust::orient3d(coord(a), coord(b), coord(c), coord(d));
        (v > 0.0) as i8 - (v < 0.0) as i8
    }

    #[test]
    fn faces_square_to_an_axis_give_orient3d_s_sign() {
        let mut rng = Lcg(7);
        let mut zeros = 0;
        for k in 0..30_000 {
            let axis = k % 3;
            let scale = [1e-9, 1.0, 1e7][k % 5 % 3];
            let offset = [0.0, 1e6, -3.5][k % 7 % 3];
            // Coordinates on a coarse lattice, so that points fall in the plane, on its
            // lines and on one another often.
            let p = |rng: &mut Lcg| -> [f64; 3] {
                [0, 1, 2].map(|_| offset + scale * (rng.below(5) as f64 - 2.0) / 2.0)
            };
            let (mut a, mut b, mut c, d) = (p(&mut rng), p(&mut rng), p(&mut rng), p(&mut rng));
            let h = if k % 4 == 0 { d[axis] } else { a[axis] };
            (a[axis], b[axis], c[axis]) = (h, h, h);
            let got = orient(&a, &b, &c, &d);
            assert_eq!(got, reference(&a, &b, &c, &d), "{a:?} {b:?} {c:?} {d:?}");
            zeros += (got == 0) as usize;
        }
        // The cases where the shortcut matters (exact zeros) were met many times.
        assert!(zeros > 3_000, "{zeros}");
    }
}
