//! Invariants of the polygon methods on random polygons (proptest).

use inertia::{Polygon, PolygonMethod};
use proptest::prelude::*;

/// A random polygon that is star-shaped about the origin (hence simple): n ≥ 6 jittered
/// angles, so no gap exceeds 120°, and radii in [0.2, 3]. Every edge stays at least 0.1
/// from the origin.
fn star_polygon() -> impl Strategy<Value = Vec<[f64; 2]>> {
    prop::collection::vec((0.0f64..0.9, 0.2f64..3.0), 6..40).prop_map(|v| {
        let n = v.len() as f64;
        v.iter()
            .enumerate()
            .map(|(k, &(jitter, r))| {
                let a = (k as f64 + jitter) / n * std::f64::consts::TAU;
                [r * a.cos(), r * a.sin()]
            })
            .collect()
    })
}

fn transform(p: &[[f64; 2]], deg: f64, dx: f64, dy: f64) -> Vec<[f64; 2]> {
    let (s, c) = deg.to_radians().sin_cos();
    p.iter()
        .map(|q| [c * q[0] - s * q[1] + dx, s * q[0] + c * q[1] + dy])
        .collect()
}

fn rel(a: f64, b: f64, scale: f64) -> f64 {
    (a - b).abs() / scale
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn methods_agree_and_invariants_hold(
        pts in star_polygon(),
        deg in -180.0f64..180.0,
        shift in prop::sample::select(vec![0.0, 1e3, 1e6, -3e7]),
    ) {
        let base = Polygon::new(pts.clone(), vec![]).unwrap();
        let r0 = PolygonMethod::Fan.integrate(&base);
        let polar0 = r0.polar;
        let p0 = r0.properties.moments.principal();
        prop_assert!(polar0 > 0.0);
        // Physical checks: principal moments non-negative.
        prop_assert!(p0.moments[0] >= -1e-12 * polar0);

        let moved = transform(&pts, deg, shift, -shift);
        let mut reversed = moved.clone();
        reversed.reverse();
        for input in [moved, reversed] {
            let poly = Polygon::new(input, vec![]).unwrap();
            // Translation far away costs at most the rounding of the input coordinates.
            let tol = if shift.abs() > 1e5 { 1e-8 } else { 1e-12 };
            for m in PolygonMethod::ALL {
                let r = m.integrate(&poly);
                let p = r.properties;
                prop_assert!(rel(p.area, r0.properties.area, r0.properties.area) < tol, "{m:?} area");
                prop_assert!(rel(r.polar, polar0, polar0) < tol, "{m:?} polar {} vs {}", r.polar, polar0);
                prop_assert!(rel(p.moments.polar(), polar0, polar0) < tol, "{m:?} trace");
                // Principal moments do not change under rotation.
                let pr = p.moments.principal();
                prop_assert!(rel(pr.moments[0], p0.moments[0], polar0) < tol);
                prop_assert!(rel(pr.moments[1], p0.moments[1], polar0) < tol);
            }
        }
    }

    #[test]
    fn scaling_laws(pts in star_polygon(), s in prop::sample::select(vec![1e-6, 1e-3, 7.0, 1e6])) {
        let a = Polygon::new(pts.clone(), vec![]).unwrap();
        let scaled: Vec<[f64; 2]> = pts.iter().map(|p| [p[0] * s, p[1] * s]).collect();
        let b = Polygon::new(scaled, vec![]).unwrap();
        for m in PolygonMethod::ALL {
            let (ra, rb) = (m.integrate(&a), m.integrate(&b));
            prop_assert!(rel(rb.properties.area, ra.properties.area * s * s, rb.properties.area) < 1e-12);
            prop_assert!(rel(rb.polar, ra.polar * s.powi(4), rb.polar) < 1e-12);
        }
    }

    #[test]
    fn parts_add_up(pts in star_polygon(), cut in 0.1f64..0.9) {
        // A polygon with a hole = the outer polygon minus the hole's polygon.
        let outer = Polygon::new(pts.clone(), vec![]).unwrap();
        // Radii below 3 · 0.03 = 0.09: inside every edge of the outer ring.
        let hole: Vec<[f64; 2]> = pts.iter().map(|p| [p[0] * cut * 0.03, p[1] * cut * 0.03]).collect();
        let holed = Polygon::new(pts.clone(), vec![hole.clone()]).unwrap();
        let h = Polygon::new(hole, vec![]).unwrap();
        let f = |p: &Polygon| PolygonMethod::Fan.integrate(p).properties;
        let (o, hh, w) = (f(&outer), f(&h), f(&holed));
        // w + h = o: combine the holed polygon and the hole back into the full one.
        let sum = w + hh;
        prop_assert!(rel(sum.area, o.area, o.area) < 1e-12);
        prop_assert!(rel(sum.moments.polar(), o.moments.polar(), o.moments.polar()) < 1e-10);
        prop_assert!((sum.centroid - o.centroid).norm() < 1e-10 * o.area.sqrt());
    }
}
