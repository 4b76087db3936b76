//! Open pieces (LINEs, ARCs, open polylines) chained end to end into closed curves.

use super::{NEAR_MISS, OpenPieces, OpenPolicy, Path};
use crate::curve::Curve;
use crate::error::{Error, Result};
use crate::union_find::UnionFind;

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
    if let Some(g) = keys.iter().find(|g| at[**g].len() == 1) {
        return Err(open_piece(&pieces, &ends, &group, at[*g][0]));
    }
    let partner = match partners(&pieces, &group, &at) {
        Ok(p) => p,
        Err(g) => return Err(branch(&pieces, &ends, &at[&g])),
    };
    // The largest gap joined: between the two ends of each join.
    let largest_gap = (0..ends.len())
        .filter(|&e| partner[e] != NONE)
        .map(|e| {
            let (a, b) = (ends[e], ends[partner[e]]);
            (a[0] - b[0]).hypot(a[1] - b[1])
        })
        .fold(0.0, f64::max);
    let curves = walk(&pieces, &partner, used);
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
    let mut sets = UnionFind::new(n);
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
                        sets.union(i as u32, j as u32);
                    }
                }
            }
        }
    }
    sets.least().into_iter().map(|x| x as usize).collect()
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

/// No end: in [`partners`], an end not joined (its piece left out).
const NONE: usize = usize::MAX;

/// The end each end is joined to: at a point of two ends, the other. A point of four
/// ends is resolved when two of them are ends of coincident pieces (the same points and
/// curves, either way round: a piece two outlines share, drawn once for each), which must
/// belong to different outlines. Where the other two ends are not such a pair, the copy
/// of the lesser index is joined to one of them and the walk from it, through the joins
/// known, must reach the pieces' other point, whose arriving end is then joined to the
/// same copy; where they are (the outlines share two consecutive pieces, or one outline
/// is drawn twice), each copy is joined to its like. Else `Err` with the point that
/// cannot be resolved: a branch.
fn partners(
    pieces: &[Path],
    group: &[usize],
    at: &std::collections::HashMap<usize, Vec<usize>>,
) -> std::result::Result<Vec<usize>, usize> {
    let mut partner = vec![NONE; group.len()];
    let mut branches: Vec<usize> = at
        .iter()
        .filter(|(_, l)| l.len() > 2)
        .map(|(g, _)| *g)
        .collect();
    branches.sort_unstable();
    for l in at.values().filter(|l| l.len() == 2) {
        (partner[l[0]], partner[l[1]]) = (l[1], l[0]);
    }
    if branches.is_empty() {
        return Ok(partner);
    }
    // Only points of four ends are resolved (so that a crowd of copies at one point, or
    // between two, costs no search).
    if let Some(&g) = branches.iter().find(|g| at[*g].len() != 4) {
        return Err(g);
    }
    let twin = twins(pieces, group, &branches, at);
    // The end of piece k at point g (a twin has one end at each of its two points).
    let end_at = |k: usize, g: usize| if group[2 * k] == g { 2 * k } else { 2 * k + 1 };
    // Undecided points: (point, the two copies' ends there, the other two ends).
    let mut open: Vec<(usize, [usize; 2], [usize; 2])> = vec![];
    for &g in &branches {
        let list = &at[&g];
        let copies: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&e| twin[e / 2].is_some_and(|t| list.contains(&end_at(t, g))))
            .collect();
        let firsts = |c: &[usize]| -> Vec<usize> {
            let mut f: Vec<usize> = c
                .iter()
                .copied()
                .filter(|&e| twin[e / 2] > Some(e / 2))
                .collect();
            f.sort_unstable();
            f
        };
        match copies.len() {
            4 => {
                // Two pairs of copies: each copy joined to its like.
                let f = firsts(&copies);
                let [a, b] = [f[0], f[1]];
                let [ta, tb] = [a, b].map(|e| end_at(twin[e / 2].expect("a copy"), g));
                (partner[a], partner[b], partner[ta], partner[tb]) = (b, a, tb, ta);
            }
            2 => {
                let c = firsts(&copies)[0];
                let t = end_at(twin[c / 2].expect("a copy"), g);
                let rest: Vec<usize> = list
                    .iter()
                    .copied()
                    .filter(|e| !copies.contains(e))
                    .collect();
                open.push((g, [c, t], [rest[0], rest[1]]));
            }
            _ => return Err(g),
        }
    }
    // Each pass resolves the points whose walk needs only joins already known.
    while !open.is_empty() {
        let before = open.len();
        let mut k = 0;
        while k < open.len() {
            let (g, [c, t], [x, y]) = open[k];
            let other = group[c ^ 1];
            // Walk from x until the copies' other point.
            let mut cur = x;
            let mut arrived = None;
            for _ in 0..group.len() {
                let out = cur ^ 1;
                if group[out] == other {
                    arrived = Some(out);
                    break;
                }
                if group[out] == g || partner[out] == NONE {
                    break;
                }
                cur = partner[out];
            }
            let Some(out) = arrived else {
                k += 1;
                continue;
            };
            let Some(j) = open.iter().position(|o| o.0 == other) else {
                return Err(g);
            };
            let (_, [c2, t2], [x2, y2]) = open[j];
            // The copy of `c`'s piece at the other point, and the other non-copy end there.
            let (cc, tt) = if c2 / 2 == c / 2 { (c2, t2) } else { (t2, c2) };
            let rest = if x2 == out { y2 } else { x2 };
            if out != x2 && out != y2 {
                return Err(g);
            }
            (partner[c], partner[x], partner[t], partner[y]) = (x, c, y, t);
            (partner[cc], partner[out], partner[tt], partner[rest]) = (out, cc, rest, tt);
            open.retain(|o| o.0 != g && o.0 != other);
            k = 0;
        }
        if open.len() == before {
            return Err(open[0].0);
        }
    }
    Ok(partner)
}

/// For each piece with both ends at branch points, its coincident copy (the same points
/// and curves, either way round), when it has exactly one; `None` else.
fn twins(
    pieces: &[Path],
    group: &[usize],
    branches: &[usize],
    at: &std::collections::HashMap<usize, Vec<usize>>,
) -> Vec<Option<usize>> {
    let mut by_points: std::collections::BTreeMap<[usize; 2], Vec<usize>> = Default::default();
    for &g in branches {
        for &e in &at[&g] {
            let k = e / 2;
            let (a, b) = (group[2 * k], group[2 * k + 1]);
            // Each piece once, from its start.
            if e % 2 == 0 && a != b && branches.binary_search(&b).is_ok() {
                by_points.entry([a.min(b), a.max(b)]).or_default().push(k);
            }
        }
    }
    let mut twin = vec![None; pieces.len()];
    for list in by_points.values().filter(|l| l.len() >= 2) {
        for (i, &k) in list.iter().enumerate() {
            let same: Vec<usize> = list
                .iter()
                .enumerate()
                .filter(|&(j, &q)| j != i && coincident(&pieces[k], &pieces[q]))
                .map(|(_, &q)| q)
                .collect();
            if let [q] = same[..] {
                twin[k] = Some(q);
            }
        }
    }
    twin
}

/// Whether two open pieces are the same: the same points and curves, either way round.
fn coincident(p: &Path, q: &Path) -> bool {
    if p.points == q.points && p.arcs == q.arcs {
        return true;
    }
    p.points.len() == q.points.len()
        && p.points.iter().rev().eq(q.points.iter())
        && p.arcs
            .iter()
            .rev()
            .map(|c| c.as_ref().map(Curve::reversed))
            .eq(q.arcs.iter().cloned())
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

/// Walks each loop: from a piece's end to the end it is joined to (`partner`), and on
/// (`used`: the pieces left out).
fn walk(pieces: &[Path], partner: &[usize], mut used: Vec<bool>) -> Vec<Path> {
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
            end = partner[end ^ 1];
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
