//! `fan`: a fan of signed triangles from the first vertex of each ring.
//!
//! Fotino fans each polygon from its first vertex; Singhal (2018) fans from the origin with
//! `I = m(|A|² + |B|² + A·B)/6` per triangle. Both are the same idea: a triangle's signed
//! area makes the parts of the fan outside a concave polygon cancel. Here the triangles are
//! anchored at each ring's first vertex and every coordinate is taken relative to the
//! polygon's centroid (found in a first pass), so nothing is summed about a far-away origin.

use super::{LocalFrame, fan_tensor};
use crate::mass2d::SecondMoments2d;

/// The planar tensor about the centroid, and its trace as the polar moment.
pub(crate) fn moments(frame: &LocalFrame) -> (SecondMoments2d, f64) {
    let t = fan_tensor(frame);
    (t, t.polar())
}

#[cfg(test)]
mod tests {
    use crate::{Polygon, PolygonMethod};
    use approx::assert_relative_eq;

    #[test]
    fn unit_square_about_its_centre() {
        let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![]).unwrap();
        let r = PolygonMethod::Fan.integrate(&p);
        assert_relative_eq!(r.polar, 1.0 / 6.0, max_relative = 1e-15);
        assert_relative_eq!(r.properties.moments.ixx, 1.0 / 12.0, max_relative = 1e-15);
        assert_eq!(r.properties.moments.ixy, 0.0);
    }

    #[test]
    fn origin_fan_and_vertex_fan_agree_with_seed_004_formula() {
        // Singhal (2018): about the origin, a triangle (0, A, B) has I = m(|A|²+|B|²+A·B)/6.
        let (a, b) = ([3.0, 1.0], [1.0, 2.0]);
        let p = Polygon::new(vec![[0.0, 0.0], a, b], vec![]).unwrap();
        let r = PolygonMethod::Fan.integrate(&p).properties;
        let m = 0.5 * (a[0] * b[1] - a[1] * b[0]);
        let about_origin = m
            * (a[0] * a[0] + a[1] * a[1] + b[0] * b[0] + b[1] * b[1] + a[0] * b[0] + a[1] * b[1])
            / 6.0;
        let got = r.moments_about(nalgebra::Point2::origin()).polar();
        assert_relative_eq!(got, about_origin, max_relative = 1e-14);
    }
}
