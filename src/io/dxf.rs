//! DXF profiles: closed `LWPOLYLINE`s, closed 2D `POLYLINE`s and `CIRCLE`s, read with the
//! `dxf` crate.
//!
//! Bulges (arc segments) and circles are tessellated with a chord sagitta of at most 1e-6
//! of the arc's radius (the area error is below about 1e-6 relative). Closed curves inside
//! another are its holes (an even-odd nesting: an island inside a hole is a part of its
//! own). Open polylines are refused, as is a drawing whose outline is made of `LINE` and
//! `ARC` entities (join them into polylines first). Entities in another plane are refused.

use super::PolygonRings;
use crate::error::{Error, Result};
use std::f64::consts::PI;

/// Sagitta of a tessellated arc, relative to its radius.
const SAGITTA: f64 = 1e-6;

/// One closed curve of the drawing.
struct Curve {
    name: String,
    points: Vec<[f64; 2]>,
}

/// Points of the arc from `p0` to `p1` with DXF bulge `b` (= tan(θ/4), θ > 0 counter-
/// clockwise), `p0` included and `p1` excluded.
fn arc(p0: [f64; 2], p1: [f64; 2], b: f64, out: &mut Vec<[f64; 2]>) {
    out.push(p0);
    if b == 0.0 || !b.is_finite() {
        return;
    }
    let (dx, dy) = (p1[0] - p0[0], p1[1] - p0[1]);
    let c = dx.hypot(dy);
    if c == 0.0 {
        return;
    }
    let theta = 4.0 * b.atan();
    // Centre: from the chord's midpoint along its left normal by (c/2)(1 − b²)/(2b).
    let off = 0.5 * c * (1.0 - b * b) / (2.0 * b);
    let (nx, ny) = (-dy / c, dx / c);
    let centre = [
        0.5 * (p0[0] + p1[0]) + nx * off,
        0.5 * (p0[1] + p1[1]) + ny * off,
    ];
    let r = (p0[0] - centre[0]).hypot(p0[1] - centre[1]);
    let a0 = (p0[1] - centre[1]).atan2(p0[0] - centre[0]);
    let step = 2.0 * (1.0 - SAGITTA).acos();
    let n = ((theta.abs() / step).ceil() as usize).clamp(1, 200_000);
    for k in 1..n {
        let a = a0 + theta * k as f64 / n as f64;
        out.push([centre[0] + r * a.cos(), centre[1] + r * a.sin()]);
    }
}

/// Refuses a vertex whose bulge is NaN or infinite (it would be read as a straight edge).
fn check_bulges(name: &str, vertices: &[([f64; 2], f64)]) -> Result<()> {
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

fn ring_with_bulges(vertices: &[([f64; 2], f64)]) -> Vec<[f64; 2]> {
    let mut pts = Vec::with_capacity(vertices.len());
    for (i, (p, b)) in vertices.iter().enumerate() {
        let next = vertices[(i + 1) % vertices.len()].0;
        arc(*p, next, *b, &mut pts);
    }
    pts
}

fn planar(extrusion_z: f64, name: &str) -> Result<f64> {
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

/// The length unit a drawing states in its header (`$INSUNITS`): `None` when unitless
/// (0) or in a unit inertia does not convert (yards, miles, ...; lengths then stay as drawn).
///
/// # Examples
/// ```
/// let dxf = "0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1015\n9\n$INSUNITS\n70\n1\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n";
/// assert_eq!(inertia::io::dxf::unit(dxf.as_bytes())?, Some(inertia::units::LengthUnit::In));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn unit(bytes: &[u8]) -> Result<Option<crate::units::LengthUnit>> {
    let drawing = load(bytes)?;
    Ok(crate::units::LengthUnit::from_insunits(
        drawing.header.default_drawing_units as i32,
    ))
}

fn load(bytes: &[u8]) -> Result<::dxf::Drawing> {
    ::dxf::Drawing::load(&mut std::io::Cursor::new(bytes)).map_err(|e| {
        let text = e
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Error::parse("DXF", crate::error::clip(&text))
    })
}

/// Parses a DXF drawing into polygons (with holes), each named by its outline's entity.
///
/// # Examples
/// ```
/// let dxf = "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n5\n2A\n8\n0\n10\n0\n20\n0\n30\n0\n40\n2\n0\nENDSEC\n0\nEOF\n";
/// let parts = inertia::io::dxf::parse(dxf.as_bytes())?;
/// assert_eq!(parts.len(), 1);
/// let poly = inertia::Polygon::new(parts[0].1.outer.clone(), vec![])?;
/// let area = inertia::PolygonMethod::Fan.integrate(&poly).properties.area;
/// assert!((area - std::f64::consts::PI * 4.0).abs() < 1e-5 * area);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<Vec<(String, PolygonRings)>> {
    use ::dxf::entities::EntityType;
    let drawing = load(bytes)?;
    let mut curves = Vec::new();
    let mut loose = 0usize;
    for e in drawing.entities() {
        let handle = e.common.handle.as_string();
        match &e.specific {
            EntityType::LwPolyline(lw) => {
                let name = format!("LWPOLYLINE {handle}");
                if !lw.is_closed() {
                    return Err(Error::parse(
                        name,
                        "is not closed: only closed polylines enclose an area",
                    ));
                }
                let sx = planar(lw.extrusion_direction.z, &name)?;
                let v: Vec<([f64; 2], f64)> = lw
                    .vertices
                    .iter()
                    .map(|p| ([sx * p.x, p.y], sx * p.bulge))
                    .collect();
                check_bulges(&name, &v)?;
                curves.push(Curve {
                    name,
                    points: ring_with_bulges(&v),
                });
            }
            EntityType::Polyline(pl) => {
                let name = format!("POLYLINE {handle}");
                if pl.is_3d_polyline() || pl.is_polyface_mesh() || pl.is_3d_polygon_mesh() {
                    return Err(Error::parse(
                        name,
                        "is a 3D polyline or mesh, not a plane profile",
                    ));
                }
                if !pl.is_closed() {
                    return Err(Error::parse(
                        name,
                        "is not closed: only closed polylines enclose an area",
                    ));
                }
                let sx = planar(pl.normal.z, &name)?;
                let v: Vec<([f64; 2], f64)> = pl
                    .vertices()
                    .map(|p| ([sx * p.location.x, p.location.y], sx * p.bulge))
                    .collect();
                check_bulges(&name, &v)?;
                curves.push(Curve {
                    name,
                    points: ring_with_bulges(&v),
                });
            }
            EntityType::Circle(c) => {
                let name = format!("CIRCLE {handle}");
                let sx = planar(c.normal.z, &name)?;
                if c.radius.is_nan() || c.radius <= 0.0 {
                    return Err(Error::parse(
                        name,
                        format!("radius {} is not positive", c.radius),
                    ));
                }
                let (cx, cy) = (sx * c.center.x, c.center.y);
                let n = ((2.0 * PI / (2.0 * (1.0 - SAGITTA).acos())).ceil() as usize).max(8);
                let points = (0..n)
                    .map(|k| {
                        let a = 2.0 * PI * k as f64 / n as f64;
                        [cx + c.radius * a.cos(), cy + c.radius * a.sin()]
                    })
                    .collect();
                curves.push(Curve { name, points });
            }
            EntityType::Line(_)
            | EntityType::Arc(_)
            | EntityType::Spline(_)
            | EntityType::Ellipse(_) => loose += 1,
            _ => {}
        }
    }
    if curves.is_empty() {
        return Err(if loose > 0 {
            Error::parse(
                "DXF",
                format!(
                    "{loose} LINE/ARC/SPLINE/ELLIPSE entities but no closed polyline or circle: join the outline into closed polylines"
                ),
            )
        } else {
            Error::Empty("no closed polylines or circles in the DXF drawing".into())
        });
    }
    Ok(nest(curves))
}

/// Even-odd nesting: a curve inside an odd number of others is a hole of the innermost
/// curve containing it.
fn nest(curves: Vec<Curve>) -> Vec<(String, PolygonRings)> {
    let inside = |p: [f64; 2], ring: &[[f64; 2]]| {
        let mut c = false;
        let mut j = ring.len() - 1;
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[j]);
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]
            {
                c = !c;
            }
            j = i;
        }
        c
    };
    let area = |r: &[[f64; 2]]| {
        let mut s = 0.0;
        for i in 0..r.len() {
            let (a, b) = (r[i], r[(i + 1) % r.len()]);
            s += a[0] * b[1] - a[1] * b[0];
        }
        0.5 * s.abs()
    };
    let n = curves.len();
    let areas: Vec<f64> = curves.iter().map(|c| area(&c.points)).collect();
    // Parents of each curve: the curves containing its first point (and larger than it).
    let containers: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| {
                    j != i
                        && areas[j] > areas[i]
                        && curves[i]
                            .points
                            .first()
                            .is_some_and(|p| inside(*p, &curves[j].points))
                })
                .collect()
        })
        .collect();
    let mut parts: Vec<(usize, PolygonRings)> = Vec::new();
    let mut holes: Vec<(usize, usize)> = Vec::new(); // (hole, parent)
    for i in 0..n {
        if containers[i].len().is_multiple_of(2) {
            parts.push((
                i,
                PolygonRings {
                    outer: curves[i].points.clone(),
                    holes: vec![],
                },
            ));
        } else if let Some(&parent) = containers[i]
            .iter()
            .min_by(|&&a, &&b| areas[a].total_cmp(&areas[b]))
        {
            holes.push((i, parent));
        }
    }
    for (h, parent) in holes {
        if let Some(p) = parts.iter_mut().find(|(i, _)| *i == parent) {
            p.1.holes.push(curves[h].points.clone());
        }
    }
    parts
        .into_iter()
        .map(|(i, r)| (curves[i].name.clone(), r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lwpolyline(handle: &str, pts: &[(f64, f64, f64)], closed: bool) -> String {
        let mut s = format!(
            "0\nLWPOLYLINE\n5\n{handle}\n100\nAcDbEntity\n8\n0\n100\nAcDbPolyline\n90\n{}\n70\n{}\n",
            pts.len(),
            closed as i32
        );
        for (x, y, b) in pts {
            s += &format!("10\n{x}\n20\n{y}\n");
            if *b != 0.0 {
                s += &format!("42\n{b}\n");
            }
        }
        s
    }

    fn drawing(entities: &str) -> Vec<u8> {
        format!("0\nSECTION\n2\nENTITIES\n{entities}0\nENDSEC\n0\nEOF\n").into_bytes()
    }

    #[test]
    fn slot_with_round_ends_and_a_hole() {
        // A 4 × 2 rectangle with semicircular ends (bulge 1) — a stadium of area 8 + π — and
        // a circular hole of radius 0.5: area 8 + π − π/4.
        let outer = lwpolyline(
            "A1",
            &[
                (0.0, 0.0, 0.0),
                (4.0, 0.0, 1.0),
                (4.0, 2.0, 0.0),
                (0.0, 2.0, 1.0),
            ],
            true,
        );
        let hole = "0\nCIRCLE\n5\nB2\n8\n0\n10\n2\n20\n1\n30\n0\n40\n0.5\n".to_string();
        let parts = parse(&drawing(&(outer + &hole))).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].0, "LWPOLYLINE A1");
        let p = crate::Polygon::new(parts[0].1.outer.clone(), parts[0].1.holes.clone()).unwrap();
        let a = crate::PolygonMethod::Fan.integrate(&p).properties.area;
        let exact = 8.0 + PI - PI / 4.0;
        assert!((a - exact).abs() < 2e-6 * exact, "{a} vs {exact}");
    }

    #[test]
    fn refusals() {
        let e = |b: &[u8]| parse(b).unwrap_err().to_string();
        assert_eq!(
            e(&drawing(&lwpolyline(
                "C3",
                &[(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0)],
                false
            ))),
            "LWPOLYLINE C3: is not closed: only closed polylines enclose an area"
        );
        assert!(
            e(&drawing(
                "0\nLINE\n5\nD4\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n"
            ))
            .contains("join the outline")
        );
        assert!(e(b"garbage").starts_with("DXF"));
        assert!(e(&drawing("")).contains("no closed polylines"));
    }
}
