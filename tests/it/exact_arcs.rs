//! Polygons with circular and elliptic arcs against closed forms: discs, stadiums, rounded
//! rectangles and ellipses, far from the origin, scaled, rotated and run backwards, with
//! every method.

use inertia::curve::ArcEdge;
use inertia::curve::Curve;
use inertia::io::PolygonRings;
use inertia::{Polygon, PolygonMethod};
use std::f64::consts::PI;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs()
}

/// A ring with bulges: `(x, y, bulge of the edge to the next vertex)`.
/// A ring's points and the curve of each edge.
type Ring = (Vec<[f64; 2]>, Vec<Option<Curve>>);

fn bulged(v: &[(f64, f64, f64)]) -> Ring {
    let n = v.len();
    let points: Vec<[f64; 2]> = v.iter().map(|p| [p.0, p.1]).collect();
    let arcs = (0..n)
        .map(|i| ArcEdge::from_bulge(points[i], points[(i + 1) % n], v[i].2).map(Curve::Arc))
        .collect();
    (points, arcs)
}

fn polygon(rings: Vec<Ring>) -> Polygon {
    let mut it = rings.into_iter();
    let (outer, a0) = it.next().unwrap();
    let (holes, arcs): (Vec<_>, Vec<_>) = it.unzip();
    let mut all = vec![a0];
    all.extend(arcs);
    Polygon::from_rings(PolygonRings {
        outer,
        holes,
        arcs: all,
        max_deviation: None,
    })
    .unwrap()
}

/// Checks every method against area, centroid and (Ixx, Iyy, Ixy) about the centroid.
fn check(p: &Polygon, area: f64, centroid: [f64; 2], moments: [f64; 3], what: &str) {
    let scale = moments[0].abs().max(moments[1].abs());
    for m in PolygonMethod::ALL {
        let i = m.integrate(p);
        let q = &i.properties;
        assert!(
            close(q.area, area, 1e-13),
            "{what} {}: area {} vs {area}",
            m.name(),
            q.area
        );
        let size = area.sqrt();
        for k in 0..2 {
            assert!(
                (q.centroid[k] - centroid[k]).abs()
                    <= 1e-13 * size + 4.0 * f64::EPSILON * centroid[k].abs(),
                "{what} {}: centroid {:?} vs {centroid:?}",
                m.name(),
                q.centroid
            );
        }
        let got = [q.moments.ixx, q.moments.iyy, q.moments.ixy];
        for k in 0..3 {
            assert!(
                (got[k] - moments[k]).abs() <= 1e-12 * scale,
                "{what} {}: moments {got:?} vs {moments:?}",
                m.name()
            );
        }
        assert!(
            close(i.polar, moments[0] + moments[1], 1e-12),
            "{what} {}",
            m.name()
        );
    }
}

#[test]
fn a_disc_of_quarter_arcs_anywhere_at_any_scale() {
    // Powers of two, so that the points (centre ± r on an axis) are exact in f64: the input
    // is then exactly a circle, whatever its place and size.
    for offset in [0.0_f64, 1048576.5, -134217728.0] {
        for r in [2f64.powi(-20), 3.0, 2f64.powi(20)] {
            // A circle of radius 1e-6 at 2.7e8, where f64's spacing is 6e-8, is a ring of 16
            // grid steps: its chords cannot be checked, and it is refused as touching itself.
            if r < 1e-12 * offset.abs() {
                continue;
            }
            for backwards in [false, true] {
                let c = [offset, 2.0 * offset];
                let a = [[r, 0.0], [0.0, r]];
                let mut points = vec![];
                let mut arcs: Vec<Option<Curve>> = vec![];
                for k in 0..4 {
                    let t = k as f64 * PI / 2.0;
                    // Exact points: the centre plus ±r on an axis.
                    let (s, co) = [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)][k];
                    points.push([c[0] + r * co, c[1] + r * s]);
                    arcs.push(Some(ArcEdge::elliptic(a, t, t + PI / 2.0).into()));
                }
                if backwards {
                    // The same disc run clockwise: points reversed, each arc run backwards.
                    points.reverse();
                    arcs.reverse();
                    for x in arcs.iter_mut().flatten() {
                        *x = x.reversed();
                    }
                    arcs.rotate_left(1);
                }
                let p = polygon(vec![(points, arcs)]);
                let m = PI * r.powi(4) / 4.0;
                let what = format!("disc r {r} at {offset} backwards {backwards}");
                check(&p, PI * r * r, c, [m, m, 0.0], &what);
                assert!(close(p.perimeter(), 2.0 * PI * r, 1e-14), "{what}");
            }
        }
    }
}

/// Stadium: a `w` × 2r rectangle with half discs of radius r on its short sides, centred at
/// the origin: (area, Ixx, Iyy).
fn stadium(w: f64, r: f64) -> (f64, f64, f64) {
    let h = 2.0 * r;
    let half = PI * r * r / 2.0;
    let ixx = w * h * h * h / 12.0 + 2.0 * PI * r.powi(4) / 8.0;
    // Each half disc about its flat side's centre: π r⁴/8 about the y axis through it;
    // moved out by w/2 with its first moment 2r³/3.
    let iyy = h * w * w * w / 12.0
        + 2.0 * (PI * r.powi(4) / 8.0 + half * (w / 2.0).powi(2) + w * 2.0 * r.powi(3) / 3.0);
    (w * h + PI * r * r, ixx, iyy)
}

#[test]
fn stadiums_from_bulges_shifted_rotated_and_mirrored() {
    let (w, r) = (4.0, 1.0);
    let (area, ixx, iyy) = stadium(w, r);
    for offset in [0.0, 1e6, 1e8] {
        for deg in [0.0_f64, 30.0, 90.0] {
            for mirrored in [false, true] {
                let (s, c) = deg.to_radians().sin_cos();
                let place = |x: f64, y: f64| {
                    let x = if mirrored { -x } else { x };
                    [offset + c * x - s * y, offset + s * x + c * y]
                };
                // Bulge 1 is a half circle turning left; mirrored, the arcs turn right.
                let b = if mirrored { -1.0 } else { 1.0 };
                let pts = [
                    place(-2.0, -1.0),
                    place(2.0, -1.0),
                    place(2.0, 1.0),
                    place(-2.0, 1.0),
                ];
                let v: Vec<(f64, f64, f64)> = pts
                    .iter()
                    .zip([0.0, b, 0.0, b])
                    .map(|(p, b)| (p[0], p[1], b))
                    .collect();
                let p = polygon(vec![bulged(&v)]);
                // The tensor turned by deg (a mirror leaves this symmetric shape's alone).
                let (s2, c2) = (2.0 * deg.to_radians()).sin_cos();
                let mean = 0.5 * (ixx + iyy);
                let diff = 0.5 * (ixx - iyy);
                // ∫xy of the turned body: sin 2θ (∫x'² − ∫y'²)/2.
                let moments = [mean + diff * c2, mean - diff * c2, -diff * s2];
                let what = format!("stadium at {offset}, {deg}°, mirrored {mirrored}");
                // Points rotated far out carry rounding of their coordinates: ε·offset.
                if offset > 0.0 && deg != 0.0 && deg != 90.0 {
                    let i = PolygonMethod::Fan.integrate(&p);
                    assert!(close(i.properties.area, area, 1e-8), "{what}");
                    assert!(close(i.polar, ixx + iyy, 1e-8), "{what}");
                    continue;
                }
                check(&p, area, [offset, offset], moments, &what);
                // Principal moments and axis.
                let pr = PolygonMethod::Centroid.integrate(&p).principal;
                assert!(close(pr.moments[0], ixx, 1e-13), "{what}: {pr:?}");
                assert!(close(pr.moments[1], iyy, 1e-13), "{what}: {pr:?}");
            }
        }
    }
}

#[test]
fn a_rounded_rectangle_with_a_rounded_hole() {
    // W × H with corner radius r (bulge tan(π/8) per quarter turn), centred at (10, 20); a
    // hole: a stadium 2 long and 1 high, centred at the same point.
    let (w, h, r) = (8.0, 6.0, 1.5);
    let (a, b) = (w / 2.0, h / 2.0);
    let q = (PI / 8.0).tan();
    let (cx, cy) = (10.0, 20.0);
    let outer = [
        (a - r, -b, q),
        (a, -b + r, 0.0),
        (a, b - r, q),
        (a - r, b, 0.0),
        (-a + r, b, q),
        (-a, b - r, 0.0),
        (-a, -b + r, q),
        (-a + r, -b, 0.0),
    ]
    .map(|(x, y, bulge)| (cx + x, cy + y, bulge));
    // A clockwise hole: the half circles turn right (negative bulge).
    let hole = [
        (-1.0, -0.5, 0.0),
        (-1.0, 0.5, 0.0),
        (1.0, 0.5, -1.0),
        (1.0, -0.5, 0.0),
        (-1.0, -0.5, 0.0),
    ];
    // Written as a closed outline whose last point repeats the first: the repeat goes.
    let hole: Vec<(f64, f64, f64)> = hole
        .iter()
        .enumerate()
        .map(|(i, &(x, y, _))| {
            let bulge = match i {
                0 => -1.0, // from (−1, −0.5) to (−1, 0.5) round the left end
                _ => hole[i].2,
            };
            (cx + x, cy + y, bulge)
        })
        .collect();
    let p = polygon(vec![bulged(&outer), bulged(&hole)]);
    assert_eq!(p.holes().len(), 1);
    // Each corner removes an r × r square less a quarter disc.
    let corner = |s: f64| {
        // ∫s² over the corner piece at s ∈ [S − r, S] (S = a or b), about the centre.
        let c = s - r;
        r * (s.powi(3) - c.powi(3)) / 3.0
            - (c * c * PI * r * r / 4.0 + 2.0 * c * r.powi(3) / 3.0 + PI * r.powi(4) / 16.0)
    };
    let (hole_area, hixx, hiyy) = stadium(2.0, 0.5);
    let area = w * h - (4.0 - PI) * r * r - hole_area;
    let ixx = w * h.powi(3) / 12.0 - 4.0 * corner(b) - hixx;
    let iyy = h * w.powi(3) / 12.0 - 4.0 * corner(a) - hiyy;
    check(&p, area, [cx, cy], [ixx, iyy, 0.0], "rounded rectangle");
}

#[test]
fn ellipses_of_any_shape_far_away() {
    // The image of the unit circle under A (columns (3, 4) and (−1.5, 0.75), not
    // orthogonal): area π|det A|, ∫ x xᵀ about the centre = |det A| (π/4) A Aᵀ. Dyadic
    // entries keep the points at quarter turns (centre ± a column) exact.
    let a = [[3.0, -1.5], [4.0, 0.75]];
    let det: f64 = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    let aat = |i: usize, j: usize| a[i][0] * a[j][0] + a[i][1] * a[j][1];
    let k = det.abs() * PI / 4.0;
    for offset in [0.0, 1048576.0, -134217728.0] {
        for backwards in [false, true] {
            let c = [offset, -offset];
            let cols = [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]];
            let mut points: Vec<[f64; 2]> = cols
                .iter()
                .map(|u| {
                    [
                        c[0] + a[0][0] * u[0] + a[0][1] * u[1],
                        c[1] + a[1][0] * u[0] + a[1][1] * u[1],
                    ]
                })
                .collect();
            let mut arcs: Vec<Option<Curve>> = (0..4)
                .map(|q| {
                    let t = q as f64 * PI / 2.0;
                    Some(ArcEdge::elliptic(a, t, t + PI / 2.0).into())
                })
                .collect();
            if backwards {
                // Run from parameter 2π down to 0.
                points[1..].reverse();
                arcs = (0..4)
                    .map(|q| {
                        let t = 2.0 * PI - q as f64 * PI / 2.0;
                        Some(ArcEdge::elliptic(a, t, t - PI / 2.0).into())
                    })
                    .collect();
            }
            let p = polygon(vec![(points, arcs)]);
            let what = format!("ellipse at {offset} backwards {backwards}");
            check(
                &p,
                PI * det.abs(),
                c,
                [k * aat(1, 1), k * aat(0, 0), k * aat(0, 1)],
                &what,
            );
            // The box reaches past the vertices (x within ±3 of the centre) to the
            // ellipse's own extent, √((A Aᵀ)ᵢᵢ) each way.
            let bb = p.bounding_box();
            for i in 0..2 {
                let h = aat(i, i).sqrt();
                let tol = 1e-14 * h + 4.0 * f64::EPSILON * offset.abs();
                assert!(
                    (bb.max[i] - c[i] - h).abs() <= tol && (c[i] - bb.min[i] - h).abs() <= tol,
                    "{what}: box {bb:?}, half-extent {h} about {c:?}"
                );
            }
        }
    }
}

#[test]
fn nearly_straight_arcs_keep_their_digits() {
    // A 2 × 1 rectangle whose top edge bows out by a bulge of 1e-9 (radius 1e9): the
    // segment's area (2/3)·chord·sagitta to first order, 1.333e-9.
    for offset in [0.0, 1e6] {
        let bulge = 1e-9;
        let v = [
            (offset, offset, 0.0),
            (offset + 2.0, offset, 0.0),
            (offset + 2.0, offset + 1.0, bulge),
            (offset, offset + 1.0, 0.0),
        ];
        let p = polygon(vec![bulged(&v)]);
        // θ = 4 atan b; half chord 1, radius 1/sin(θ/2); segment r²(θ − sin θ)/2.
        let theta = 4.0 * bulge.atan();
        let r = 1.0 / (theta / 2.0).sin();
        let seg = r * r * (theta.powi(3) / 6.0 - theta.powi(5) / 120.0) / 2.0;
        let area = PolygonMethod::Fan.integrate(&p).properties.area;
        assert!(
            close(area, 2.0 + seg, 1e-15),
            "{offset}: {area} vs {}",
            2.0 + seg
        );
        assert!(
            close(area - 2.0, seg, 1e-6),
            "{offset}: segment {}",
            area - 2.0
        );
    }
}

#[test]
fn curves_that_cross_or_nest_wrongly_are_refused() {
    // A hole circle poking 0.01 out of a 10 × 10 square's edge.
    let disc = |cx: f64, cy: f64, r: f64| {
        let v = [(cx + r, cy, 1.0), (cx - r, cy, 1.0)];
        bulged(&v)
    };
    let square = bulged(&[
        (0.0, 0.0, 0.0),
        (10.0, 0.0, 0.0),
        (10.0, 10.0, 0.0),
        (0.0, 10.0, 0.0),
    ]);
    let try_with = |hole: Ring| {
        Polygon::from_rings(PolygonRings {
            outer: square.0.clone(),
            holes: vec![hole.0],
            arcs: vec![square.1.clone(), hole.1],
            max_deviation: None,
        })
    };
    let e = try_with(disc(5.0, 1.0, 1.01)).unwrap_err().to_string();
    assert!(e.contains("cross"), "{e}");
    assert!(try_with(disc(5.0, 1.0, 0.99)).is_ok());
    // A hole beyond the outer ring's arc: a half disc bulging right of x = 10.
    let e = try_with(disc(20.0, 5.0, 1.0)).unwrap_err().to_string();
    assert!(e.contains("not inside"), "{e}");
}
