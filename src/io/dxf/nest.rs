//! Closed curves nested into polygons: outer rings and their holes.

use super::{Path, PolygonRings};
use rayon::prelude::*;

/// Even-odd nesting: a curve inside an odd number of others is a hole of the innermost
/// curve containing it, decided on `drawn`, each curve cut into chords.
pub(super) fn nest(curves: Vec<Path>, drawn: Vec<Vec<[f64; 2]>>) -> Vec<(String, PolygonRings)> {
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
    let areas: Vec<f64> = drawn.par_iter().map(|c| area(c)).collect();
    // Parents of each curve: the curves containing its first point (and larger than it).
    // Only curves whose boxes hold that point can: found with an R*-tree, so a drawing of
    // thousands of holes is not tested pair by pair.
    use rstar::{AABB, RTree, primitives::GeomWithData, primitives::Rectangle};
    let boxes: Vec<GeomWithData<Rectangle<[f64; 2]>, usize>> = drawn
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_empty())
        .map(|(k, c)| {
            let lo = c
                .iter()
                .fold([f64::INFINITY; 2], |a, p| [a[0].min(p[0]), a[1].min(p[1])]);
            let hi = c.iter().fold([f64::NEG_INFINITY; 2], |a, p| {
                [a[0].max(p[0]), a[1].max(p[1])]
            });
            GeomWithData::new(Rectangle::from_corners(lo, hi), k)
        })
        .collect();
    let tree = RTree::bulk_load(boxes);
    let containers: Vec<Vec<usize>> = (0..n)
        .into_par_iter()
        .map(|i| {
            let Some(p) = drawn[i].first() else {
                return vec![];
            };
            let mut found: Vec<usize> = tree
                .locate_in_envelope_intersecting(&AABB::from_point(*p))
                .map(|b| b.data)
                .filter(|&j| j != i && areas[j] > areas[i] && inside(*p, &drawn[j]))
                .collect();
            found.sort_unstable();
            found
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
                    arcs: vec![curves[i].arcs.clone()],
                    max_deviation: None,
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
            p.1.arcs.push(curves[h].arcs.clone());
        }
    }
    parts
        .into_iter()
        .map(|(i, r)| (curves[i].name.clone(), r))
        .collect()
}
