//! Parts of one whole (a GeoJSON MultiPolygon's members, a DXF drawing's outlines) must
//! not overlap: their areas would count twice.

use super::Polygon;
use super::validate::{bbox, inside, sweep_rings};
use crate::error::PartsMeet;
use crate::error::{Error, Result};
use crate::sweep::first_contact;
use nalgebra::Point2;

/// Checks that polygons which are parts of one whole (the members of a GeoJSON
/// MultiPolygon, the outlines of a DXF drawing) do not overlap: no edge of one meets an
/// edge of another (crossing, touching or running along it), and none lies inside another
/// unless inside one of its holes (an island in a lake is fine). Summing overlapping parts
/// would count their common area twice; RFC 7946 (after OGC Simple Features) calls such a
/// MultiPolygon invalid.
///
/// # Errors
/// An [`Error::Overlap`] naming the two parts and where they meet.
///
/// # Examples
/// ```
/// use inertia::Polygon;
/// let sq = |x: f64| Polygon::new(vec![[x, 0.0], [x + 2.0, 0.0], [x + 2.0, 2.0], [x, 2.0]], vec![]).unwrap();
/// let apart = vec![("a".to_string(), sq(0.0)), ("b".to_string(), sq(3.0))];
/// assert!(inertia::polygon::check_disjoint(&apart).is_ok());
/// let overlapping = vec![("a".to_string(), sq(0.0)), ("b".to_string(), sq(1.0))];
/// let e = inertia::polygon::check_disjoint(&overlapping).unwrap_err().to_string();
/// assert!(e.starts_with("a and b overlap at (2, 0)"), "{e}"); // their bottom edges run together
/// ```
pub fn check_disjoint(parts: &[(String, Polygon)]) -> Result<()> {
    if parts.len() < 2 {
        return Ok(());
    }
    let mut owner = Vec::new(); // part of each ring
    for (k, (_, poly)) in parts.iter().enumerate() {
        owner.extend(poly.outline_rings().map(|_| k));
    }
    let rings = sweep_rings(parts.iter().flat_map(|(_, p)| p.outline_rings()))?;
    let name = |k: usize| &parts[k].0;
    let refuse = |a: usize, b: usize, how: PartsMeet| {
        let (a, b) = (a.min(b), a.max(b));
        Err(Error::Overlap {
            first: name(a).clone(),
            second: name(b).clone(),
            how,
        })
    };
    if let Some(c) = first_contact(&rings) {
        let (a, b) = (owner[c.a.ring], owner[c.b.ring]);
        return refuse(
            a,
            b,
            PartsMeet::Edges {
                kind: crate::error::EdgesMeet::from_word(c.kind),
                at: c.at,
            },
        );
    }
    // No edges meet, so one vertex tells whether a part lies inside another.
    let drawn: Vec<Vec<&[Point2<f64>]>> = parts
        .iter()
        .map(|(_, p)| p.outline_rings().collect())
        .collect();
    let boxes: Vec<[f64; 4]> = drawn.iter().map(|r| bbox(r[0])).collect();
    for (k, rings) in drawn.iter().enumerate() {
        let v = rings[0][0];
        for (j, other) in drawn.iter().enumerate() {
            let b = &boxes[j];
            if j == k || v.x < b[0] || v.y < b[1] || v.x > b[2] || v.y > b[3] {
                continue;
            }
            if inside(v, other[0]) && !other[1..].iter().any(|h| inside(v, h)) {
                return refuse(k, j, PartsMeet::Inside);
            }
        }
    }
    Ok(())
}
