//! Curves of DXF entities: bulged polylines, elliptic arcs, the plane check and splines
//! as Bézier spans.

use crate::curve::Curve;
use crate::curve::arc::ArcEdge;
use crate::error::{Error, Result};
use std::f64::consts::PI;

/// Vertices with bulges as points and curved edges (`closed`: the last vertex joins the
/// first, which a bulge on the last vertex bends).
pub(super) fn bulged(
    vertices: &[([f64; 2], f64)],
    closed: bool,
) -> (Vec<[f64; 2]>, Vec<Option<Curve>>) {
    let n = vertices.len();
    let edges = if closed { n } else { n.saturating_sub(1) };
    let points = vertices.iter().map(|v| v.0).collect();
    let arcs = (0..edges)
        .map(|i| {
            ArcEdge::from_bulge(vertices[i].0, vertices[(i + 1) % n].0, vertices[i].1)
                .map(Curve::Arc)
        })
        .collect();
    (points, arcs)
}

/// A counter-clockwise sweep `span` (end minus start) brought into (0, full]: a
/// non-positive one goes round once more, as DXF reads it (0 is a full turn); one more
/// than a turn (up to rounding) is taken modulo a turn.
pub(super) fn turn(span: f64, full: f64) -> f64 {
    let s = if span <= 0.0 || span > full * (1.0 + 1e-12) {
        span.rem_euclid(full)
    } else {
        span
    };
    if s == 0.0 { full } else { s }
}

/// The arc of `c + A (cos t, sin t)` from `t0` to `t1` (t1 > t0) in pieces of at most a
/// quarter turn: its points (both ends included) and the curve of each piece.
pub(super) fn elliptic_arc(
    c: [f64; 2],
    a: [[f64; 2]; 2],
    t0: f64,
    t1: f64,
) -> (Vec<[f64; 2]>, Vec<Option<Curve>>) {
    let n = ((t1 - t0) / (PI / 2.0)).ceil().max(1.0) as usize;
    let at = |k: usize| t0 + (t1 - t0) * k as f64 / n as f64;
    let point = |t: f64| {
        // Whole quarter turns exactly: a circle's points at 0°, 90°, ... carry no 6e-17.
        let q = t / (PI / 2.0);
        let (s, co) = if q == q.round() && q.abs() < 1e6 {
            [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)]
                [(q.round() as i64).rem_euclid(4) as usize]
        } else {
            t.sin_cos()
        };
        [
            c[0] + a[0][0] * co + a[0][1] * s,
            c[1] + a[1][0] * co + a[1][1] * s,
        ]
    };
    let points = (0..=n).map(|k| point(at(k))).collect();
    let arcs = (0..n)
        .map(|k| Some(Curve::Arc(ArcEdge::elliptic(a, at(k), at(k + 1)))))
        .collect();
    (points, arcs)
}

/// Refuses a vertex whose bulge is NaN or infinite (it would be read as a straight edge).
pub(super) fn check_bulges(name: &str, vertices: &[([f64; 2], f64)]) -> Result<()> {
    match vertices.iter().position(|(_, b)| !b.is_finite()) {
        Some(k) => Err(Error::parse(
            name.to_string(),
            format!(
                "vertex {}: bulge {} is not a finite number",
                k + 1,
                vertices[k].1
            ),
        )),
        None => Ok(()),
    }
}

pub(super) fn planar(extrusion_z: f64, name: &str) -> Result<f64> {
    // (0, 0, 1) is the XY plane; (0, 0, −1) is the same plane seen from below (x mirrored).
    if (extrusion_z - 1.0).abs() < 1e-12 {
        Ok(1.0)
    } else if (extrusion_z + 1.0).abs() < 1e-12 {
        Ok(-1.0)
    } else {
        Err(Error::parse(
            name.to_string(),
            "not in the XY plane (its extrusion direction is not ±z)",
        ))
    }
}

/// One piece of a spline: the ends of its spans, and each span as the curve between them.
pub(super) type SplinePiece = (Vec<[f64; 2]>, Vec<Option<Curve>>);

/// A SPLINE as Bézier spans, one path per piece (a discontinuous knot vector makes
/// several): the span ends as points, from the curve's start to its end, and each span as
/// the curve of the edge between them (a degree-1 span is a straight edge). Spans of no
/// length are left out; a span that ends where it starts (a loop) is halved, so that each
/// edge joins two distinct points.
pub(super) fn spline_spans(sp: &::dxf::entities::Spline, name: &str) -> Result<Vec<SplinePiece>> {
    if sp.control_points.is_empty() {
        return Err(Error::parse(
            name.to_string(),
            "is given by fit points only, which is not read: save it with control points, or explode it",
        ));
    }
    let z0 = sp.control_points[0].z;
    if sp.control_points.iter().any(|p| p.z != z0)
        || (sp.normal.z.abs() - 1.0).abs() > 1e-12 && sp.normal != ::dxf::Vector::new(0.0, 0.0, 0.0)
    {
        return Err(Error::parse(name.to_string(), "is not in the XY plane"));
    }
    let points: Vec<[f64; 2]> = sp.control_points.iter().map(|p| [p.x, p.y]).collect();
    let weights = if sp.weight_values.iter().all(|w| *w == 1.0) {
        vec![]
    } else {
        sp.weight_values.clone()
    };
    let mut degree = usize::try_from(sp.degree_of_curve).unwrap_or(0);
    // Some writers leave out group 71, which the `dxf` crate then reads as degree 1: the
    // knot count gives the degree (knots = control points + degree + 1), which is the
    // only reading of the curve consistent with its knots.
    let (n, k) = (sp.control_points.len(), sp.knot_values.len());
    if degree == 1 && k != n + 2 && k > n + 1 && k - n - 1 <= crate::curve::spline::MAX_DEGREE {
        degree = k - n - 1;
    }
    let curve = crate::curve::spline::Nurbs::new(degree, sp.knot_values.clone(), points, weights)
        .map_err(|problem| Error::Spline {
        entity: name.to_string(),
        problem,
    })?;
    // Span ends in the drawing; the spans themselves relative to the curve's origin.
    let o = curve.origin();
    let cartesian = |h: [f64; 3]| [o[0] + h[0] / h[2], o[1] + h[1] / h[2]];
    let mut out = Vec::new();
    for spans in curve.bezier_pieces() {
        let mut points = vec![cartesian(spans[0][0])];
        let mut curves: Vec<Option<Curve>> = Vec::new();
        for span in spans {
            let halves = if span[0][0] * span[degree][2] == span[degree][0] * span[0][2]
                && span[0][1] * span[degree][2] == span[degree][1] * span[0][2]
            {
                let (l, r) = crate::curve::bezier::halve(&span);
                vec![l, r]
            } else {
                vec![span]
            };
            for h in halves {
                let Some(b) = crate::curve::bezier::BezierSpan::new(&h) else {
                    continue; // no length
                };
                // The next span starts where this one ends, to the last bit.
                points.push(cartesian(h[degree]));
                curves.push((degree > 1).then_some(Curve::Bezier(b)));
            }
        }
        if curves.is_empty() {
            return Err(Error::parse(name.to_string(), "has no length"));
        }
        out.push((points, curves));
    }
    Ok(out)
}
