//! Open pieces (LINEs, ARCs, open polylines) chained end to end into closed curves.

use super::{NEAR_MISS, OpenPieces, OpenPolicy, Path};
use crate::curve::Curve;
use crate::error::{Error, Result};

/// What chaining did: the closed curves, the pieces left out (counted), and the largest
/// gap joined.
pub(super) struct Chained {
    pub(super) curves: Vec<Path>,
    pub(super) open: OpenPieces,
    /// With [`OpenPolicy::Leave`], the refusal [`OpenPolicy::Refuse`] would have given for
    /// the first piece left out: the answer when nothing closed is left.
    pub(super) refusal: Option<Error>,
    /// The largest distance between two ends joined (0 when every join was exact).
    pub(super) largest_gap: f64,
}

impl Chained {
    /// The total length of the curves chained from pieces (each curve's length on every
    /// core, added in order): asked for only when a gap is reported, since a spline's
    /// length is an adaptive quadrature.
    pub(super) fn perimeter(&self) -> f64 {
        use rayon::prelude::*;
        let lengths: Vec<f64> = self
            .curves
            .par_iter()
            .map(|c| length(&c.points, &c.arcs))
            .collect();
        let mut perimeter = 0.0;
        for l in lengths {
            perimeter += l;
        }
        perimeter
    }
}

/// The length of a path: its edges, curves included (closed: back to the first point).
fn length(points: &[[f64; 2]], arcs: &[Option<Curve>]) -> f64 {
    let n = points.len();
    (0..arcs.len())
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            match &arcs[i] {
                Some(c) => c.length(),
                None => (b[0] - a[0]).hypot(b[1] - a[1]),
            }
        })
        .sum()
}

/// Chains pieces end to end into closed curves: every end must meet exactly one other
/// end, two ends meeting within the larger of their pieces' tolerances (`tols`, one per
/// piece). With [`OpenPolicy::Leave`], pieces with a free end are left out, unless that
/// end lies within [`NEAR_MISS`] times that of another (then it looks like a piece of an
/// outline drawn with a gap, and is refused rather than dropped).
pub(super) fn chain(pieces: Vec<Path>, tols: &[f64], policy: OpenPolicy) -> Result<Chained> {
    if pieces.is_empty() {
        return Ok(Chained {
            curves: vec![],
            open: OpenPieces::default(),
            refusal: None,
            largest_gap: 0.0,
        });
    }
    // Ends 2k (start of piece k) and 2k + 1 (its end), grouped into points.
    let ends: Vec<[f64; 2]> = pieces
        .iter()
        .flat_map(|p| [p.points[0], p.points[p.points.len() - 1]])
        .collect();
    let group = points_of(&ends, tols);
    let mut at: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for (e, g) in group.iter().enumerate() {
        at.entry(*g).or_default().push(e);
    }
    let mut used = vec![false; pieces.len()];
    let mut open = OpenPieces::default();
    let mut refusal = None;
    if policy == OpenPolicy::Leave {
        // In the drawing's order, so that the same piece is named every run.
        let mut free: Vec<usize> = at.values().filter(|l| l.len() == 1).map(|l| l[0]).collect();
        free.sort_unstable();
        near_miss(&pieces, &ends, &group, tols, &free)?;
        refusal = free.first().map(|&e| open_piece(&pieces, &ends, &group, e));
        // Prune pieces with a free end, over and over (a chain of lines hanging off an
        // outline goes piece by piece), and count them.
        let mut queue: Vec<usize> = free.iter().map(|e| e / 2).collect();
        while let Some(k) = queue.pop() {
            if used[k] {
                continue;
            }
            used[k] = true;
            open.add(&pieces[k].origin);
            for e in [2 * k, 2 * k + 1] {
                let list = at.get_mut(&group[e]).expect("every end has its point");
                list.retain(|x| *x != e);
                if list.len() == 1 {
                    queue.push(list[0] / 2);
                }
            }
        }
        at.retain(|_, l| !l.is_empty());
    }
    // Every point must join exactly two ends: a free end is reported before a branch
    // (a line hanging off an outline makes both).
    let mut keys: Vec<&usize> = at.keys().collect();
    keys.sort_by_key(|g| (at[*g].len() != 1, **g));
    for g in keys {
        let list = &at[g];
        if list.len() == 1 {
            return Err(open_piece(&pieces, &ends, &group, list[0]));
        }
        if list.len() > 2 {
            return Err(branch(&pieces, &ends, list));
        }
    }
    // The largest gap joined: between the two ends at each point.
    let largest_gap = at
        .values()
        .filter(|l| l.len() == 2)
        .map(|l| {
            let (a, b) = (ends[l[0]], ends[l[1]]);
            (a[0] - b[0]).hypot(a[1] - b[1])
        })
        .fold(0.0, f64::max);
    let curves = walk(&pieces, &group, &at, used);
    Ok(Chained {
        curves,
        open,
        refusal,
        largest_gap,
    })
}

/// The point each end belongs to (the least end index at it): ends joined by union-find
/// when within the larger of their pieces' tolerances, found over a grid of cells of side
/// the largest tolerance over √2 (an end is compared with up to 8 ends of its own cell and
/// of each neighbouring one, so a crowd of ends at one point costs linear time: it is
/// refused as a branch anyway).
fn points_of(ends: &[[f64; 2]], tols: &[f64]) -> Vec<usize> {
    let tol = tols.iter().copied().fold(0.0_f64, f64::max);
    let within = |i: usize, j: usize| tols[i / 2].max(tols[j / 2]);
    let n = ends.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let side = tol / 2f64.sqrt();
    let cell = |p: &[f64; 2]| -> [i64; 2] {
        if side > 0.0 {
            p.map(|x| (x / side).floor().clamp(-4e18, 4e18) as i64)
        } else {
            p.map(|x| x.to_bits() as i64)
        }
    };
    let mut grid: std::collections::HashMap<[i64; 2], Vec<usize>> = Default::default();
    for (i, p) in ends.iter().enumerate() {
        grid.entry(cell(p)).or_default().push(i);
    }
    for (i, p) in ends.iter().enumerate() {
        let c = cell(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(list) = grid.get(&[c[0].saturating_add(dx), c[1].saturating_add(dy)])
                else {
                    continue;
                };
                for &j in list.iter().filter(|&&j| j != i).take(8) {
                    let q = &ends[j];
                    if (p[0] - q[0]).hypot(p[1] - q[1]) <= within(i, j) {
                        let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
        }
    }
    (0..n).map(|i| root(&mut parent, i)).collect()
}

/// Refuses a free end (of `free`, in order) that lies within [`NEAR_MISS`] times the join
/// tolerance of another end, past the tolerance: an outline drawn with a gap, not a centre
/// line. Leaving it out would drop a part of the profile (a drawing whose pieces miss by
/// 1e-10 read as 1% of its area).
fn near_miss(
    pieces: &[Path],
    ends: &[[f64; 2]],
    group: &[usize],
    tols: &[f64],
    free: &[usize],
) -> Result<()> {
    let tol = tols.iter().copied().fold(0.0_f64, f64::max);
    let within = |i: usize, j: usize| tols[i / 2].max(tols[j / 2]);
    let near = NEAR_MISS * tol;
    let side = if near > 0.0 { near } else { f64::MIN_POSITIVE };
    let big = |p: &[f64; 2]| p.map(|x| (x / side).floor().clamp(-4e18, 4e18) as i64);
    let mut coarse: std::collections::HashMap<[i64; 2], Vec<usize>> = Default::default();
    for (i, p) in ends.iter().enumerate() {
        coarse.entry(big(p)).or_default().push(i);
    }
    for &e in free {
        let c = big(&ends[e]);
        let mut best: Option<(f64, usize)> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(l) = coarse.get(&[c[0].saturating_add(dx), c[1].saturating_add(dy)])
                else {
                    continue;
                };
                for &j in l.iter().take(64) {
                    if group[j] == group[e] {
                        continue;
                    }
                    let d = (ends[j][0] - ends[e][0]).hypot(ends[j][1] - ends[e][1]);
                    if d <= NEAR_MISS * within(e, j) && best.is_none_or(|(b, _)| d < b) {
                        best = Some((d, j));
                    }
                }
            }
        }
        if let Some((d, j)) = best {
            return Err(Error::NearMiss {
                piece: pieces[e / 2].name.clone(),
                end: ends[e],
                other: (j / 2 != e / 2).then(|| pieces[j / 2].name.clone()),
                gap: d,
                tolerance: within(e, j),
            });
        }
    }
    Ok(())
}

/// The refusal of a piece whose end `e` meets no other, with the distance to the nearest
/// other end.
fn open_piece(pieces: &[Path], ends: &[[f64; 2]], group: &[usize], e: usize) -> Error {
    let p = &pieces[e / 2];
    let gap = ends
        .iter()
        .enumerate()
        .filter(|(j, _)| group[*j] != group[e])
        .map(|(_, q)| (q[0] - ends[e][0]).hypot(q[1] - ends[e][1]))
        .fold(f64::INFINITY, f64::min);
    // Suggest a tolerance only for a gap that is noise beside the piece itself.
    let (first, last) = (p.points[0], p.points[p.points.len() - 1]);
    let span = p
        .points
        .iter()
        .map(|q| (q[0] - first[0]).hypot(q[1] - first[1]))
        .fold((last[0] - first[0]).hypot(last[1] - first[1]), f64::max);
    Error::OpenPiece {
        piece: p.name.clone(),
        from: first,
        to: last,
        end: ends[e],
        nearest: gap.is_finite().then_some(gap),
        joinable: gap.is_finite() && gap < 1e-3 * span,
    }
}

/// How many pieces a branch refusal names (it counts them all).
const BRANCH_NAMES: usize = 8;

/// The refusal of three or more ends at one point (`list`, ends in order), naming each
/// piece once: both ends of a piece shorter than the join tolerance are there.
fn branch(pieces: &[Path], ends: &[[f64; 2]], list: &[usize]) -> Error {
    let mut seen = vec![];
    for &e in list {
        if !seen.contains(&(e / 2)) {
            seen.push(e / 2);
        }
    }
    Error::Branch {
        at: ends[list[0]],
        ends: list.len(),
        pieces: seen.len(),
        names: seen
            .iter()
            .take(BRANCH_NAMES)
            .map(|&k| pieces[k].name.clone())
            .collect(),
    }
}

/// Walks each loop: from a piece's end to the other end at that point, and on (`used`:
/// the pieces left out).
fn walk(
    pieces: &[Path],
    group: &[usize],
    at: &std::collections::HashMap<usize, Vec<usize>>,
    mut used: Vec<bool>,
) -> Vec<Path> {
    let mut curves = Vec::new();
    for first in 0..pieces.len() {
        if used[first] {
            continue;
        }
        let mut points: Vec<[f64; 2]> = Vec::new();
        let mut arcs: Vec<Option<Curve>> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        let mut end = 2 * first; // the end we enter the piece by
        loop {
            let k = end / 2;
            if used[k] {
                break;
            }
            used[k] = true;
            names.push(&pieces[k].name);
            let pts = &pieces[k].points;
            // Each piece contributes all but its last point (the next piece starts there),
            // and its edges, run backwards when it is entered by its end.
            if end % 2 == 0 {
                points.extend_from_slice(&pts[..pts.len() - 1]);
                arcs.extend_from_slice(&pieces[k].arcs);
            } else {
                points.extend(pts[1..].iter().rev());
                arcs.extend(
                    pieces[k]
                        .arcs
                        .iter()
                        .rev()
                        .map(|c| c.as_ref().map(Curve::reversed)),
                );
            }
            let out = end ^ 1;
            let list = &at[&group[out]];
            end = if list[0] == out { list[1] } else { list[0] };
        }
        let name = if names.len() == 1 {
            names[0].to_string()
        } else {
            format!("outline of {} ({} …)", names.len(), names[0])
        };
        curves.push(Path {
            name,
            origin: pieces[first].origin.clone(),
            points,
            arcs,
        });
    }
    curves
}
