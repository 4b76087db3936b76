//! `centroid`: signed sub-triangles from the centroid to every edge (Fauconnet 2023, eq. 3.14).
//!
//! For the triangle (C, A, B) formed by the centroid C and an edge A → B, Fauconnet (2023) integrates
//! along the triangle's own edges and finds the polar moment about C:
//! `I = m/2 (|AB|²/3 + CA·AB + |CA|²)`. Fauconnet sums unsigned masses, which is only right
//! when C sees every edge from inside (a convex polygon). Here `m` is the signed area of
//! (C, A, B), so edges seen "from behind" subtract: a U shape whose centroid lies outside it,
//! and holes (stored clockwise), come out right.

use super::{LocalFrame, cross, fan_tensor};
use crate::mass2d::SecondMoments2d;

/// The shared planar tensor, and the polar moment from the centroid triangles.
pub(crate) fn moments(frame: &LocalFrame) -> (SecondMoments2d, f64) {
    let mut polar = 0.0;
    for ring in frame.rings_about_centroid() {
        let n = ring.len();
        for i in 0..n {
            // Coordinates are relative to the centroid, so CA = A.
            let a = ring[i];
            let b = ring[(i + 1) % n];
            let ab = b - a;
            let m = 0.5 * cross(a, b);
            polar += 0.5 * m * (ab.norm_squared() / 3.0 + a.dot(&ab) + a.norm_squared());
        }
    }
    (fan_tensor(frame), polar)
}

#[cfg(test)]
mod tests {
    use crate::{Polygon, PolygonMethod};
    use approx::assert_relative_eq;

    #[test]
    fn u_shape_with_centroid_outside() {
        // [0,3]² minus the notch [1,2]×[1,3]: centroid (1.5, 9.5/7) is in the notch.
        let p = Polygon::new(
            vec![
                [0.0, 0.0],
                [3.0, 0.0],
                [3.0, 3.0],
                [2.0, 3.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 3.0],
                [0.0, 3.0],
            ],
            vec![],
        )
        .unwrap();
        let r = PolygonMethod::Centroid.integrate(&p);
        let cy: f64 = 9.5 / 7.0;
        let exact = 55.0 / 3.0 - 7.0 * cy * cy + 67.0 / 3.0 - 7.0 * 2.25;
        assert_relative_eq!(r.polar, exact, max_relative = 1e-14);
    }

    #[test]
    fn regular_hexagon_seed_002_eq_3_6() {
        let pts: Vec<[f64; 2]> = (0..6)
            .map(|k| {
                let t = std::f64::consts::PI / 3.0 * k as f64;
                [t.cos(), t.sin()]
            })
            .collect();
        let p = Polygon::new(pts, vec![]).unwrap();
        let r = PolygonMethod::Centroid.integrate(&p);
        let m = r.properties.mass;
        let cot = 1.0 / (std::f64::consts::PI / 6.0).tan();
        assert_relative_eq!(
            r.polar,
            m / 24.0 * (1.0 + 3.0 * cot * cot),
            max_relative = 1e-14
        );
    }
}
