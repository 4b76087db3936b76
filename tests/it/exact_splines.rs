//! Spline outlines integrated span by span (`inertia::curve::bezier`): against exact values, far
//! from the origin, rotated and run both ways.

use inertia::curve::BezierSpan;
use inertia::curve::Curve;
use inertia::curve::Nurbs;
use inertia::io::PolygonRings;
use inertia::{Polygon, PolygonMethod};
use std::f64::consts::{FRAC_1_SQRT_2, PI};

/// A closed NURBS as a ring: the ends of its Bézier spans and each span as the curve of
/// the edge between them.
fn ring(curve: &Nurbs) -> (Vec<[f64; 2]>, Vec<Option<Curve>>) {
    let pieces = curve.bezier_pieces();
    assert_eq!(pieces.len(), 1);
    let o = curve.origin();
    let mut points = Vec::new();
    let mut curves = Vec::new();
    for h in &pieces[0] {
        points.push([o[0] + h[0][0] / h[0][2], o[1] + h[0][1] / h[0][2]]);
        curves.push(Some(Curve::Bezier(BezierSpan::new(h).unwrap())));
    }
    (points, curves)
}

fn polygon(outer: (Vec<[f64; 2]>, Vec<Option<Curve>>)) -> Polygon {
    Polygon::from_rings(PolygonRings {
        outer: outer.0,
        holes: vec![],
        arcs: vec![outer.1],
        max_deviation: None,
    })
    .unwrap()
}

/// Every method against area, centroid, `[∫y², ∫x², ∫xy]` about the centroid and the
/// polar moment, to `tol` relative (the centroid to `tol` of the size, plus its rounding).
fn check(p: &Polygon, area: f64, centroid: [f64; 2], moments: [f64; 3], tol: f64, what: &str) {
    let scale = moments[0].abs().max(moments[1].abs());
    for m in PolygonMethod::ALL {
        let i = m.integrate(p);
        let q = &i.properties;
        assert!(
            (q.area - area).abs() <= tol * area,
            "{what} {}: area {} vs {area}",
            m.name(),
            q.area
        );
        for k in 0..2 {
            assert!(
                (q.centroid[k] - centroid[k]).abs()
                    <= tol * area.sqrt() + 2.0 * f64::EPSILON * centroid[k].abs(),
                "{what} {}: centroid {:?} vs {centroid:?}",
                m.name(),
                q.centroid
            );
        }
        let got = [q.moments.ixx, q.moments.iyy, q.moments.ixy];
        for k in 0..3 {
            assert!(
                (got[k] - moments[k]).abs() <= tol * scale,
                "{what} {}: moments {got:?} vs {moments:?}",
                m.name()
            );
        }
        assert!(
            (i.polar - (moments[0] + moments[1])).abs() <= tol * scale,
            "{what} {}: polar {}",
            m.name(),
            i.polar
        );
    }
}

/// A circle about `c` as CAD programs write it exactly: a rational quadratic NURBS of 9
/// control points (the corners and edge midpoints of the circumscribed square, `c + m (x,
/// y)` for x, y in {−1, 0, 1}, `m` a rotation times the radius), weights 1 and √2/2, knots
/// at quarter turns.
fn nurbs_circle(c: [f64; 2], m: [[f64; 2]; 2], clockwise: bool) -> Nurbs {
    let at = |x: f64, y: f64| {
        [
            c[0] + m[0][0] * x + m[0][1] * y,
            c[1] + m[1][0] * x + m[1][1] * y,
        ]
    };
    let mut pts = vec![
        at(1.0, 0.0),
        at(1.0, 1.0),
        at(0.0, 1.0),
        at(-1.0, 1.0),
        at(-1.0, 0.0),
        at(-1.0, -1.0),
        at(0.0, -1.0),
        at(1.0, -1.0),
        at(1.0, 0.0),
    ];
    if clockwise {
        pts.reverse();
    }
    let w = FRAC_1_SQRT_2;
    Nurbs::new(
        2,
        vec![
            0.0, 0.0, 0.0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1.0, 1.0, 1.0,
        ],
        pts,
        vec![1.0, w, 1.0, w, 1.0, w, 1.0, w, 1.0],
    )
    .unwrap()
}

#[test]
fn a_rational_circle_anywhere_turned_either_way() {
    // Radius 5 turned by atan(4/3): the control points are whole numbers, exact however far
    // away the circle lies; and radius 3 turned by any angle near the origin.
    let turned = |r: f64, t: f64| {
        let (s, c) = t.sin_cos();
        [[r * c, -r * s], [r * s, r * c]]
    };
    let mut cases = vec![];
    for c in [[0.0, 0.0], [1e6, -2e6], [-3e7, 5e7]] {
        cases.push((c, 5.0, [[3.0, -4.0], [4.0, 3.0]]));
        cases.push((c, 5.0, [[5.0, 0.0], [0.0, 5.0]]));
    }
    for t in [0.3, 2.0, -1.1] {
        cases.push(([0.25, -1.5], 3.0, turned(3.0, t)));
    }
    for (c, r, m) in cases {
        let (area, i) = (PI * r * r, PI * r.powi(4) / 4.0);
        for clockwise in [false, true] {
            let p = polygon(ring(&nurbs_circle(c, m, clockwise)));
            let what = format!("circle at {c:?} by {m:?} (clockwise: {clockwise})");
            check(&p, area, c, [i, i, 0.0], 1e-13, &what);
            assert!((p.perimeter() - 2.0 * PI * r).abs() < 1e-13 * r, "{what}");
            // The box is the circle's, not its control points'.
            let bb = p.bounding_box();
            for (k, ck) in c.iter().enumerate() {
                let tol = 1e-14 * r + 2.0 * f64::EPSILON * ck.abs();
                assert!((bb.max[k] - ck - r).abs() <= tol, "{what}: {bb:?}");
                assert!((ck - bb.min[k] - r).abs() <= tol, "{what}: {bb:?}");
            }
        }
    }
}

#[test]
fn a_cubic_b_spline_outline_against_its_exact_integrals() {
    // A clamped cubic B-spline with simple interior knots (C² where its spans meet),
    // closed by its first and last control points. Its integrals about the origin, found
    // symbolically from the spans' power form (x y′ − y x′ and its moments integrated
    // exactly over each knot interval): area 1089/40, ∫x 3864173/80640, ∫y 745063/10080,
    // ∫x² 136707017/887040, ∫y² 55691753/221760, ∫xy 239171263/1774080. Scaled by 12,
    // its spans' Bézier points are whole numbers (their denominators divide 12), so the
    // outline is exact in f64 however far it is moved by whole numbers.
    let pts = [
        [0.0, 0.0],
        [4.0, 0.0],
        [6.0, 3.0],
        [3.0, 6.0],
        [-1.0, 5.0],
        [-2.0, 2.0],
        [0.0, 0.0],
    ]
    .map(|p| [12.0 * p[0], 12.0 * p[1]]);
    let (k2, k3, k4) = (144.0, 1728.0, 20736.0);
    let a = k2 * 1089.0 / 40.0;
    let (sx, sy) = (k3 * 3864173.0 / 80640.0, k3 * 745063.0 / 10080.0);
    let (sxx, syy, sxy) = (
        k4 * 136707017.0 / 887040.0,
        k4 * 55691753.0 / 221760.0,
        k4 * 239171263.0 / 1774080.0,
    );
    let (cx, cy) = (sx / a, sy / a);
    // About the centroid: [∫y², ∫x², ∫xy].
    let moments = [syy - sy * cy, sxx - sx * cx, sxy - sx * cy];
    // Moved far away by whole numbers (exact), the integrals about the centroid stay.
    for d in [0.0, 1e6, -3e7] {
        let moved: Vec<[f64; 2]> = pts.iter().map(|p| [p[0] + d, p[1] + d]).collect();
        let knots = vec![0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 4.0, 4.0, 4.0];
        let p = polygon(ring(&Nurbs::new(3, knots, moved, vec![]).unwrap()));
        check(
            &p,
            a,
            [cx + d, cy + d],
            moments,
            1e-13,
            &format!("offset {d}"),
        );
    }
}

/// The segment between the chord (0, 0)–(2, 0) and the rational quadratic through control
/// point (1, 1) with weights (1, w, 1), in closed form (a conic: the image of a circular
/// arc for w < 1, of a hyperbolic one for w > 1, a parabola for w = 1, under the affine
/// map taking the arc's ends and tangents' meeting point to the control points): area,
/// centroid and `[∫(y − ȳ)², ∫(x − x̄)²]` about it (∫(x − x̄)(y − ȳ) is 0 by symmetry).
fn conic(w: f64) -> (f64, [f64; 2], [f64; 2]) {
    let [a, ay, axx, ayy] = if w == 1.0 {
        [2.0 / 3.0, 2.0 / 15.0, 0.8, 4.0 / 105.0]
    } else {
        let (s, c, [area, sy, sxx, syy]) = if w < 1.0 {
            let al = w.acos();
            let (s, c) = (al.sin(), w);
            let a = al - s * c;
            let m = [a, 2.0 * s.powi(3) / 3.0, a / 4.0 - s.powi(3) * c / 6.0];
            (
                s,
                c,
                [m[0], m[1], m[2], (al + s * c) / 4.0 - s * c.powi(3) / 2.0],
            )
        } else {
            let (be, s, c) = (w.acosh(), (w * w - 1.0).sqrt(), w);
            let sxx = 2.0 * c * s.powi(3) / 3.0 - (s * (2.0 * s * s + 1.0) * c - be) / 4.0;
            let syy = 2.0 * s * c.powi(3) / 3.0 - (s * (2.0 * s * s + 5.0) * c + 3.0 * be) / 12.0;
            (s, c, [s * c - be, 2.0 * s.powi(3) / 3.0, sxx, syy])
        };
        let k = 1.0 / (1.0 / c - c);
        let jac = (k / s).abs();
        [
            jac * area,
            jac * k * (sy - c * area),
            jac * (sxx / (s * s) + area),
            jac * k * k * (syy - 2.0 * c * sy + c * c * area),
        ]
    };
    let cy = ay / a;
    (a, [1.0, cy], [ayy - a * cy * cy, axx - a])
}

#[test]
fn rational_quadratic_splines_of_any_weight_from_a_drawing() {
    // The drawing: a SPLINE of degree 2 with middle weight w and the LINE closing
    // it, 400 bytes; a weight of 1e12 ran past a minute and 1e10 came out 2.7e-10 off.
    use assert_cmd::cargo::cargo_bin_cmd;
    for w in [1e-8, 1e-4, 1.0, 1e4, 1e8, 1e10, 1e12] {
        let dxf = format!(
            "0\nSECTION\n2\nENTITIES\n0\nSPLINE\n5\n2A\n8\n0\n70\n12\n71\n2\n72\n6\n73\n3\n\
             40\n0\n40\n0\n40\n0\n40\n1\n40\n1\n40\n1\n41\n1\n41\n{w:e}\n41\n1\n\
             10\n0\n20\n0\n30\n0\n10\n1\n20\n1\n30\n0\n10\n2\n20\n0\n30\n0\n\
             0\nLINE\n5\n2B\n8\n0\n10\n2\n20\n0\n30\n0\n11\n0\n21\n0\n31\n0\n0\nENDSEC\n0\nEOF\n"
        );
        let out = cargo_bin_cmd!("inertia")
            .args(["polygon", "-", "--format", "json", "--input-format", "dxf"])
            .write_stdin(dxf)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{w}: {err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let f = |v: &serde_json::Value| v.as_f64().unwrap();
        let (area, c, m) = conic(w);
        let close = |got: f64, want: f64| (got - want).abs() <= 1e-13 * want.abs();
        assert!(
            close(f(&v["area"]), area),
            "{w}: area {} vs {area}",
            v["area"]
        );
        assert!(
            (f(&v["centroid"][0]) - c[0]).abs() <= 1e-13,
            "{w}: {}",
            v["centroid"]
        );
        assert!(
            close(f(&v["centroid"][1]), c[1]),
            "{w}: {} vs {c:?}",
            v["centroid"]
        );
        let am = &v["area_moments"];
        assert!(close(f(&am["ixx"]), m[0]), "{w}: {am} vs {m:?}");
        assert!(close(f(&am["iyy"]), m[1]), "{w}: {am} vs {m:?}");
        assert!(f(&am["ixy"]).abs() <= 1e-13 * m[0].max(m[1]), "{w}: {am}");
    }
}
