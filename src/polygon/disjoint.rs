//! Parts of one whole (a GeoJSON MultiPolygon's members, a DXF drawing's outlines) must
//! not share an area: it would count twice. They may touch at points and share edges
//! from opposite sides.

use super::Polygon;
use super::validate::{bbox, inside, sweep_rings};
use crate::error::{EdgesMeet, Error, PartsMeet, Result};
use crate::sweep::{Refusal, first_contact, touching_parts};
use nalgebra::Point2;

/// Checks that polygons which are parts of one whole (the members of a GeoJSON
/// MultiPolygon, the outlines of a drawing) share no area. They may touch at points (two
/// squares corner to corner, an island touching its lake's shore) and share edges from
/// opposite sides (two squares side by side): those are separate parts of one answer.
/// They may not cross, run along each other on the same side, or lie one inside the other
/// (unless inside one of its holes: an island in a lake is fine). Summing such parts would
/// count their common area twice; RFC 7946 (after OGC Simple Features) calls such a
/// MultiPolygon invalid. Every decision is exact (orientation signs of the coordinates as
/// given); the rule and why it is enough: `sweep/parts.rs`.
///
/// # Errors
/// An [`Error::Overlap`] naming the two parts and where they meet.
///
/// # Examples
/// ```
/// use inertia::Polygon;
/// let sq = |x: f64, y: f64| Polygon::new(vec![[x, y], [x + 2.0, y], [x + 2.0, y + 2.0], [x, y + 2.0]], vec![]).unwrap();
/// let named = |a, b| vec![("a".to_string(), a), ("b".to_string(), b)];
/// assert!(inertia::polygon::check_disjoint(&named(sq(0.0, 0.0), sq(3.0, 0.0))).is_ok());
/// // Corner to corner, and side by side: separate parts of one answer.
/// assert!(inertia::polygon::check_disjoint(&named(sq(0.0, 0.0), sq(2.0, 2.0))).is_ok());
/// assert!(inertia::polygon::check_disjoint(&named(sq(0.0, 0.0), sq(2.0, 0.0))).is_ok());
/// let e = inertia::polygon::check_disjoint(&named(sq(0.0, 0.0), sq(1.0, 0.0))).unwrap_err();
/// assert!(e.to_string().starts_with("a and b share an area next to (1, 0)"), "{e}");
/// ```
pub fn check_disjoint(parts: &[(String, Polygon)]) -> Result<()> {
    if parts.len() < 2 {
        return Ok(());
    }
    let (mut owner, mut hole) = (Vec::new(), Vec::new()); // part of each ring, and its role
    for (k, (_, poly)) in parts.iter().enumerate() {
        for (i, _) in poly.outline_rings().enumerate() {
            owner.push(k);
            hole.push(i > 0);
        }
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
    let edges = |c: crate::sweep::Contact| PartsMeet::Edges {
        kind: EdgesMeet::from_word(c.kind),
        at: c.at,
    };
    // Most parts meet nowhere: the plain sweep says so. Where edges meet without
    // crossing, the sweep for parts decides whether the parts share an area there.
    let touched = match first_contact(&rings) {
        None => None,
        Some(c) if c.kind == "cross" || owner[c.a.ring] == owner[c.b.ring] => {
            return refuse(owner[c.a.ring], owner[c.b.ring], edges(c));
        }
        Some(_) => match touching_parts(&rings, &owner, &hole) {
            Ok(touched) => Some(touched),
            Err(Refusal::Edges(c)) => return refuse(owner[c.a.ring], owner[c.b.ring], edges(c)),
            Err(Refusal::Area { a, b, at }) => {
                return refuse(owner[a], owner[b], PartsMeet::SharedArea { at });
            }
        },
    };
    // A ring that meets no other part's lies inside another part or outside it: one of its
    // vertices says which. With no contacts at all, the outer rings suffice.
    let drawn: Vec<Vec<&[Point2<f64>]>> = parts
        .iter()
        .map(|(_, p)| p.outline_rings().collect())
        .collect();
    let boxes: Vec<[f64; 4]> = drawn.iter().map(|r| bbox(r[0])).collect();
    let mut index = 0; // global number of each ring
    for (k, rings) in drawn.iter().enumerate() {
        for (i, ring) in rings.iter().enumerate() {
            let free = match &touched {
                None => i == 0,
                Some(t) => !t[index + i],
            };
            if !free {
                continue;
            }
            let v = ring[0];
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
        index += rings.len();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicates::orient2;

    /// Convex parts share an area unless a line along an edge of one has the other wholly
    /// on its outer side (the separating axis theorem; touching counts as apart).
    fn convex_overlap(p: &[Point2<f64>], q: &[Point2<f64>]) -> bool {
        let apart = |p: &[Point2<f64>], q: &[Point2<f64>]| {
            (0..p.len()).any(|i| {
                let (a, b) = (p[i], p[(i + 1) % p.len()]);
                q.iter()
                    .all(|v| orient2(&[a.x, a.y], &[b.x, b.y], &[v.x, v.y]) <= 0)
            })
        };
        !apart(p, q) && !apart(q, p)
    }

    #[test]
    fn random_triangles_on_a_grid_pass_exactly_when_no_two_share_an_area() {
        let mut rng = crate::test_rng::Lcg(4711);
        // Cases that pass, that are refused, and that pass with parts touching.
        let mut seen = [0usize; 3];
        for t in 0..12000 {
            // Near the origin, far from it, and on a grid of 2^-20 about 1e6 (exact).
            let (at, step) = [(0.0, 1.0), (1e8, 1.0), (1e6, 1.0 / 1048576.0)][t % 3];
            let mut parts = Vec::new();
            while parts.len() < 2 + (t % 3) {
                // Small triangles about a corner of the grid: often touching.
                let o = [rng.below(4) as f64, rng.below(4) as f64];
                let mut c = |k: usize| at + step * (o[k] + rng.below(3) as f64);
                let tri = vec![[c(0), c(1)], [c(0), c(1)], [c(0), c(1)]];
                if let Ok(p) = Polygon::new(tri, vec![]) {
                    parts.push((format!("t{}", parts.len()), p));
                }
            }
            let overlap = (0..parts.len()).any(|i| {
                (i + 1..parts.len()).any(|j| convex_overlap(parts[i].1.outer(), parts[j].1.outer()))
            });
            let verdict = check_disjoint(&parts);
            assert_eq!(verdict.is_err(), overlap, "{parts:?}: {verdict:?}");
            seen[overlap as usize] += 1;
            let rings: Vec<&[Point2<f64>]> = parts.iter().map(|p| p.1.outer()).collect();
            seen[2] += (!overlap && first_contact(&rings).is_some()) as usize;
        }
        assert!(seen.iter().all(|&n| n > 3000), "{seen:?}");
    }
}
