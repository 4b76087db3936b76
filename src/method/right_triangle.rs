//! `right-triangle`: each fan triangle's polar moment from two right triangles.
//!
//! Fotino: a right triangle with legs `w` (from the pivot to the right angle) and `h` has
//! the polar moment `ρ(h w³/4 + h³ w/12)` about the pivot. Any triangle splits into two right
//! triangles at the foot of the altitude from its apex. Each fan triangle (the ring's first
//! vertex, `p_i`, `p_{i+1}`) is split at the foot of the altitude from the vertex opposite
//! its longest edge, as Fotino itself suggests for obtuse triangles, and its moment is
//! moved to the polygon's centroid by the parallel-axis theorem.
//!
//! Fotino's code takes unsigned lengths and guesses each half's sign from its absolute
//! handedness, which fails for a centred square, for triangles obtuse at a base vertex and
//! for many concave polygons. The signs follow instead from the *signed* projection
//! `t = (apex - p_i)·e / |e|²` of the apex on the base `e`: the halves have signed widths
//! `w1 = t|e|` and `w2 = (1 - t)|e|` (a negative width is a region to subtract) and the
//! signed height `h = 2A/|e|` carries the triangle's orientation. The right-triangle moment
//! is odd in both legs, so `I = Σ h·w·(3h² + w²)/12` over both halves is correct for every
//! triangle: acute, right-angled, obtuse at any vertex, either orientation (the unit tests
//! check the signed split on every shape). Choosing the apex opposite the longest edge
//! keeps the foot on the base, so the halves never cancel: a fuzzed needle triangle (1e21
//! long, 1e8 wide) gave a negative polar moment when split from the fan's anchor.

use super::{LocalFrame, cross, fan_tensor};
use crate::mass2d::SecondMoments2d;
use nalgebra::Vector2;

/// Signed polar moment of a right triangle about the end of leg `h` away from the right
/// angle, with the other leg `w`: `h w (3h² + w²) / 12`, i.e. Fotino's `h w³/4 + h³ w/12`
/// with its legs named from the pivot.
fn right_triangle_polar(h: f64, w: f64) -> f64 {
    h * w * (3.0 * h * h + w * w) / 12.0
}

/// Polar moment of the signed triangle (apex, b, c) about `apex`.
pub(crate) fn triangle_polar_about_apex(
    apex: Vector2<f64>,
    b: Vector2<f64>,
    c: Vector2<f64>,
) -> f64 {
    let e = c - b;
    let len2 = e.norm_squared();
    let len = len2.sqrt();
    let t = (apex - b).dot(&e) / len2; // signed position of the altitude's foot on the base
    let h = cross(b - apex, c - apex) / len; // signed height: 2A / |e|
    right_triangle_polar(h, t * len) + right_triangle_polar(h, (1.0 - t) * len)
}

/// Polar moment of the signed triangle (a, b, c) about its centroid-frame origin, split at
/// the foot of the altitude from the vertex opposite its longest edge (Fotino's own
/// remedy for obtuse triangles): both right triangles then have the triangle's sign, and a
/// needle-thin triangle loses no digits to cancelling halves.
fn triangle_polar_about_origin(a: Vector2<f64>, b: Vector2<f64>, c: Vector2<f64>) -> f64 {
    // Rotate the labels (keeping the orientation) so that (b, c) is the longest edge.
    let (ab, bc, ca) = (
        (b - a).norm_squared(),
        (c - b).norm_squared(),
        (a - c).norm_squared(),
    );
    let (apex, p, q) = if bc >= ab && bc >= ca {
        (a, b, c)
    } else if ca >= ab {
        (b, c, a)
    } else {
        (c, a, b)
    };
    let about_apex = triangle_polar_about_apex(apex, p, q);
    // Parallel axis through the triangle's own centroid g: apex → origin (the polygon's
    // centroid): I_0 = I_apex − A|g − apex|² + A|g|².
    let area = 0.5 * cross(p - apex, q - apex);
    let g = (apex + p + q) / 3.0;
    about_apex + area * (g.norm_squared() - (g - apex).norm_squared())
}

/// The shared planar tensor, and the polar moment from the right-triangle split.
pub(crate) fn moments(frame: &LocalFrame) -> (SecondMoments2d, f64) {
    let mut polar = 0.0;
    for ring in frame.rings_about_centroid() {
        let anchor = ring[0];
        for w in ring[1..].windows(2) {
            polar += triangle_polar_about_origin(anchor, w[0], w[1]);
        }
    }
    (fan_tensor(frame), polar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Polygon, PolygonMethod};
    use approx::assert_relative_eq;

    #[test]
    fn fotinos_right_triangle() {
        // Legs w (pivot to right angle) = 3 and h = 2: I = h w³/4 + h³ w/12 with Fotino's
        // naming, i.e. 2·27/4 + 8·3/12 = 15.5. Pivot (0,0), right angle (3,0), apex (3,2).
        let got = triangle_polar_about_apex(
            Vector2::zeros(),
            Vector2::new(3.0, 0.0),
            Vector2::new(3.0, 2.0),
        );
        assert_relative_eq!(got, 15.5, max_relative = 1e-15);
    }

    #[test]
    fn every_triangle_shape_and_orientation() {
        // Polar moment about a vertex from the vertex formula: A/6 Σ(|p|² + p·q) with the
        // pivot at the origin: A/6 (|b|² + |c|² + b·c).
        let cases = [
            ([0.0, 0.0], [4.0, 0.0], [1.0, 3.0]),  // acute
            ([0.0, 0.0], [1.0, 0.0], [3.0, 1.0]),  // obtuse at b (foot beyond c)
            ([0.0, 0.0], [3.0, 1.0], [1.0, 0.0]),  // the same, clockwise
            ([5.0, 5.0], [0.0, 0.0], [1.0, 0.0]),  // foot before b
            ([0.0, 0.0], [0.0, 2.0], [-1.0, 2.0]), // right angle at b
            ([0.0, 0.0], [-1.0, 3.0], [4.0, 0.0]), // obtuse at the apex, clockwise
        ];
        for (a, b, c) in cases {
            let (a, b, c) = (Vector2::from(a), Vector2::from(b), Vector2::from(c));
            let (pb, pc) = (b - a, c - a);
            let area = 0.5 * cross(pb, pc);
            let exact = area / 6.0 * (pb.norm_squared() + pc.norm_squared() + pb.dot(&pc));
            assert_relative_eq!(
                triangle_polar_about_apex(a, b, c),
                exact,
                max_relative = 1e-14
            );
        }
    }

    #[test]
    fn needle_triangles_keep_their_digits() {
        // A triangle 3e21 long and ~1e8 wide, obtuse at the fan anchor: the exact polar
        // moment about the origin is the vertex formula's.
        let (a, b, c) = (
            Vector2::new(3.0e21, 1e8),
            Vector2::new(1e6, 1e8),
            Vector2::new(1e8, 10999.0),
        );
        let area = 0.5 * cross(b - a, c - a);
        let exact = area / 6.0
            * (a.norm_squared()
                + b.norm_squared()
                + c.norm_squared()
                + a.dot(&b)
                + b.dot(&c)
                + c.dot(&a));
        assert_relative_eq!(
            triangle_polar_about_origin(a, b, c),
            exact,
            max_relative = 1e-9
        );
    }

    #[test]
    fn centred_square_is_not_zero() {
        // Fotino's code returns 0 here.
        let p = Polygon::new(
            vec![[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]],
            vec![],
        )
        .unwrap();
        let r = PolygonMethod::RightTriangle.integrate(&p);
        assert_relative_eq!(r.polar, 4.0 * 8.0 / 12.0, max_relative = 1e-15);
    }
}
