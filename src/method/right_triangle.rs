//! `right-triangle`: each fan triangle's polar moment from two right triangles.
//!
//! Seed 000: a right triangle with legs `w` (from the pivot to the right angle) and `h` has
//! the polar moment `ρ(h w³/4 + h³ w/12)` about the pivot. Any triangle splits into two right
//! triangles at the foot of the altitude from its apex. Here the apex is the fan's anchor
//! (the ring's first vertex) and the base is the edge `p_i → p_{i+1}`, so the moment comes
//! out about the anchor.
//!
//! The seed's code takes unsigned lengths and guesses each half's sign from its absolute
//! handedness, which fails for a centred square, for triangles obtuse at a base vertex and
//! for many concave polygons. The signs follow instead from the *signed* projection
//! `t = (apex - p_i)·e / |e|²` of the apex on the base `e`: the halves have signed widths
//! `w1 = t|e|` and `w2 = (1 - t)|e|` (a negative width is a region to subtract) and the
//! signed height `h = 2A/|e|` carries the triangle's orientation. The right-triangle moment
//! is odd in both legs, so `I = Σ h·w·(3h² + w²)/12` over both halves is correct for every
//! triangle: acute, right-angled, obtuse at any vertex, either orientation.

use super::{LocalFrame, cross, fan_tensor};
use crate::mass2d::SecondMoments2d;
use nalgebra::Vector2;

/// Signed polar moment of a right triangle about the end of leg `h` away from the right
/// angle, with the other leg `w`: `h w (3h² + w²) / 12`, i.e. seed 000's `h w³/4 + h³ w/12`
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

/// The shared planar tensor, and the polar moment from the right-triangle split.
pub(crate) fn moments(frame: &LocalFrame) -> (SecondMoments2d, f64) {
    let mut polar = 0.0;
    for ring in frame.rings_about_centroid() {
        let apex = ring[0];
        for w in ring[1..].windows(2) {
            let (b, c) = (w[0], w[1]);
            let about_apex = triangle_polar_about_apex(apex, b, c);
            // Parallel axis through the triangle's own centroid g: apex -> centroid of polygon
            // (the local origin): I_0 = I_apex - A|g - apex|² + A|g|².
            let area = 0.5 * cross(b - apex, c - apex);
            let g = (apex + b + c) / 3.0;
            polar += about_apex + area * (g.norm_squared() - (g - apex).norm_squared());
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
    fn seed_000_right_triangle() {
        // Legs w (pivot to right angle) = 3 and h = 2: I = h w³/4 + h³ w/12 with the seed's
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
    fn centred_square_is_not_zero() {
        // Seed 000's code returns 0 here.
        let p = Polygon::new(
            vec![[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]],
            vec![],
        )
        .unwrap();
        let r = PolygonMethod::RightTriangle.integrate(&p);
        assert_relative_eq!(r.polar, 4.0 * 8.0 / 12.0, max_relative = 1e-15);
    }
}
