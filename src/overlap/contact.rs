//! Contact within reach: bodies that touch in the design but whose coordinates were
//! rounded (written with few digits, stored as `f32`, or turned in `f64`) cross or fold
//! into each other by a little. Such crossings are taken for touching when they reach no
//! further than [`crate::tolerance::reach`], and reported ([`Contacts`]) with a bound on
//! the volume they can count twice, which the body's answer is then judged by
//! ([`crate::solid`]); anything deeper is refused.
//!
//! A crossing is judged twice. Locally, it must reach no further past the other
//! triangle's plane than that. Globally, a local test cannot see a body sunk deep into
//! another whose surface happens to cross it only near the surface (a cylinder whose
//! wall has a ring of vertices just below a plate's top face, its bottom half a unit
//! inside): so every corner that a crossing edge carries inside the other body is
//! followed across the edges that cross nothing (they stay inside), and each corner
//! reached must lie within reach of a face of another body that faces against one of its
//! own faces — the two sides of a contact. A body placed twice (the same faces, facing
//! the same way) or sunk deep has corners with no such face near, and is refused with
//! the corner named. And two faces of different bodies in contact, in one plane and
//! facing the same way, put both bodies on the same side of it: where they lie on each
//! other over a region wider than a repair may reach, the bodies share the space behind
//! it (a body sunk along faces it shares with another), and the pair is refused as
//! coinciding.
//!
//! The bound: the space two bodies share at a contact lies between the faces in contact
//! (the pairs' triangles and those around every corner found inside another body) and
//! the faces of the other body within the deepest crossing of them, so at most the
//! deepest crossing times those faces' area is counted twice.

use super::exact::orient;
use super::grid::bounds;
use super::{Kind, Overlap, Tri, ids_of};
use crate::body::Contacts;
use crate::predicates::orient_perturbed;
use crate::soup::{Point, Soup};
pub(crate) use crate::tolerance::distance;
use crate::tolerance::reach;
use crate::union_find::UnionFind;
use rayon::prelude::*;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};
use std::collections::{HashMap, HashSet};

/// A crossing or wedge taken for contact, with the corners it carries inside another
/// body (to be followed by [`verify`]).
#[derive(Clone, Debug)]
pub(super) struct Contact {
    pub(super) first: usize,
    pub(super) second: usize,
    /// Where (for a message).
    pub(super) at: [f64; 3],
    /// How far it reaches (locally).
    pub(super) depth: f64,
    /// Edges passing through a face: (triangle, its edge from corner k to k + 1, the
    /// face, +1 when the edge runs into the face's body, −1 when out of it).
    pub(super) crossings: Vec<(usize, usize, usize, i8)>,
}

impl Contact {
    /// The crossing pair `(i, j)` (corners `ci`, `cj`, point numbers `hi`, `hj`): every edge of
    /// either that passes through the other's interior, and its end behind that face.
    pub(super) fn crossing(
        (i, ci, hi): (usize, &[[f64; 3]; 3], &[u64; 3]),
        (j, cj, hj): (usize, &[[f64; 3]; 3], &[u64; 3]),
        at: [f64; 3],
        depth: f64,
    ) -> Contact {
        let mut c = Contact {
            first: i.min(j),
            second: i.max(j),
            at,
            depth,
            crossings: Vec::new(),
        };
        let _ = (hi, hj);
        for ((e, te), (t, tt)) in [((ci, i), (cj, j)), ((cj, j), (ci, i))] {
            let raw = e.map(|p| orient(&t[0], &t[1], &t[2], &p));
            let s = raw.map(|x| if x == 0 { -1 } else { x });
            for k in 0..3 {
                let l = (k + 1) % 3;
                if s[k] * s[l] != -1 {
                    continue;
                }
                let (a, b) = (&e[k], &e[l]);
                let o = [
                    orient(a, b, &t[0], &t[1]),
                    orient(a, b, &t[1], &t[2]),
                    orient(a, b, &t[2], &t[0]),
                ];
                if o[0] != 0 && o[0] == o[1] && o[1] == o[2] {
                    // Behind the face: inside its body (`orient` > 0).
                    c.crossings
                        .push((te, k, tt, if raw[l] > 0 { 1 } else { -1 }));
                }
            }
        }
        c
    }
}

/// A triangle's unit normal (zero for a degenerate one) and its area.
fn normal(t: &[[f64; 3]; 3]) -> ([f64; 3], f64) {
    let (n, area, _) = crate::tolerance::unit_normal(t);
    (n, area)
}

/// Whether triangles `a` and `b`, in one plane within a repair's reach and facing the
/// same way, lie on each other over a region wider than that reach: its width in `a`'s
/// plane (rounded arithmetic), the least, over the edges of that convex polygon, of its
/// extent square to the edge.
fn lie_on_each_other(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> bool {
    let (na, nb) = (normal(a).0, normal(b).0);
    let dot = |x: [f64; 3], y: [f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    if dot(na, nb) <= 0.0 {
        return false;
    }
    let within = reach(&[a, b]);
    let flat = |t: &[[f64; 3]; 3], u: &[[f64; 3]; 3]| {
        u.iter()
            .all(|p| crate::tolerance::plane_distance(t, p) <= within)
    };
    if !(flat(a, b) && flat(b, a)) {
        return false;
    }
    // An orthonormal frame of `a`'s plane at its first corner.
    let o = a[0];
    let sub = |p: [f64; 3]| [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
    let d = sub(a[1]);
    let l = dot(d, d).sqrt();
    if l == 0.0 {
        return false;
    }
    let e1 = d.map(|x| x / l);
    let e2 = [
        na[1] * e1[2] - na[2] * e1[1],
        na[2] * e1[0] - na[0] * e1[2],
        na[0] * e1[1] - na[1] * e1[0],
    ];
    let ccw = |t: &[[f64; 3]; 3]| {
        let mut q: Vec<[f64; 2]> = t
            .iter()
            .map(|&p| [dot(sub(p), e1), dot(sub(p), e2)])
            .collect();
        if cross2(q[0], q[1], q[2]) < 0.0 {
            q.reverse();
        }
        q
    };
    let (pa, mut poly) = (ccw(a), ccw(b));
    for e in 0..3 {
        let (s, t) = (pa[e], pa[(e + 1) % 3]);
        let mut next = Vec::with_capacity(poly.len() + 1);
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            let (dp, dq) = (cross2(s, t, p), cross2(s, t, q));
            if dp >= 0.0 {
                next.push(p);
            }
            if (dp >= 0.0) != (dq >= 0.0) {
                let r = dp / (dp - dq);
                next.push([p[0] + r * (q[0] - p[0]), p[1] + r * (q[1] - p[1])]);
            }
        }
        poly = next;
        if poly.len() < 3 {
            return false;
        }
    }
    // A convex polygon's width is its least extent square to one of its edges.
    let n = poly.len();
    let width = (0..n)
        .filter_map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            let len = (q[0] - p[0]).hypot(q[1] - p[1]);
            (len > 0.0).then(|| {
                poly.iter()
                    .map(|&r| cross2(p, q, r).abs() / len)
                    .fold(0.0_f64, f64::max)
            })
        })
        .fold(f64::INFINITY, f64::min);
    width.is_finite() && width > within
}

/// `(b − a) × (c − a)` in the plane (rounded).
fn cross2(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Faces count as facing against each other when their normals are more than this far
/// from perpendicular (cosine): the two sides of a contact face each other; a body placed
/// twice has only parallel and perpendicular pairs.
const AGAINST: f64 = -1e-3;

/// Follows the corners the contacts carry inside other bodies. Each must lie within
/// the tolerance of a face of another body that faces against one of its own; the first
/// that does not makes the contact that led to it an overlap.
pub(super) fn verify<S: Soup>(
    soup: &S,
    tris: &[Tri],
    ids: &[u32],
    across: &[u32],
    mut contacts: Vec<Contact>,
) -> Result<Option<Contacts>, Overlap> {
    if contacts.is_empty() {
        return Ok(None);
    }
    contacts.sort_by_key(|c| (c.first, c.second));
    let n = tris.len();
    let corners = |t: usize| soup.triangle(t).map(|p| p.coords());
    // Bodies: triangles joined across edges used by exactly two of them (`across`).
    let manifold = || {
        (0..n).flat_map(move |t| {
            (0..3).filter_map(move |k| {
                let o = across[3 * t + k];
                ((o as usize) < n).then_some((t as u32, o))
            })
        })
    };
    let mut body = bodies(n, manifold());
    // Any face with three distinct corners, including one of no area (a sliver whose
    // corners lie on one line still joins its corners, and is crossed like any face once
    // the points are perturbed).
    let distinct = |t: usize| {
        let h = ids_of(ids, t);
        h[0] != h[1] && h[1] != h[2] && h[2] != h[0]
    };
    // The triangles at each corner, by its point number.
    let mut at: Vec<(u64, u32)> = (0..n)
        .filter(|&t| distinct(t))
        .flat_map(|t| ids_of(ids, t).map(|h| (h, t as u32)))
        .collect();
    at.par_sort_unstable();
    let around = |h: u64| around(&at, h);
    // Every face, for the faces near a corner and for the recount.
    let boxes: Vec<GeomWithData<Rectangle<[f64; 3]>, u32>> = (0..n)
        .filter(|&t| distinct(t))
        .map(|t| {
            let (lo, hi) = bounds(&corners(t));
            GeomWithData::new(Rectangle::from_corners(lo, hi), t as u32)
        })
        .collect();
    let tree = RTree::bulk_load(boxes);
    let seen = contacts.iter().enumerate().flat_map(|(x, c)| {
        c.crossings
            .iter()
            .map(move |&(t, k, face, way)| (t, k, face, way, x))
    });
    let found = settle(&tally(seen, ids, &body), ids, &body, &at, &corners);
    // Crossings that do not add up: one passes exactly through a corner or along an edge
    // of a face, where the exact test sees none. Counted again over every face near the
    // contacts' bodies, with the points perturbed symbolically so that none is missed.
    let (members, inside, led_by) = match found {
        Ok(found) => found,
        Err(x) => {
            let unsettled = || Overlap {
                first: contacts[x].first,
                second: contacts[x].second,
                kind: Kind::Unsettled(contacts[x].at, contacts[x].depth),
            };
            // Bodies closed across the edges more than two faces share, so that each is
            // a closed surface whose crossings add up.
            let faces = super::wedge::unpaired_faces(tris, across, ids);
            let paired = super::wedge::pairs_at(soup, ids, &faces)
                .into_iter()
                .map(|(_, x, y)| (x, y));
            let closed = bodies(n, manifold().chain(paired));
            // A surface crossing itself within the rounding: not a contact of two bodies,
            // so nothing tells its crossing from a fold; named as the crossing it is.
            let again = recount(&corners, ids, &closed, &tree, &contacts).map_err(|x| {
                let c = &contacts[x];
                Overlap {
                    first: c.first,
                    second: c.second,
                    kind: if c.crossings.is_empty() {
                        Kind::Unsettled(c.at, c.depth)
                    } else {
                        Kind::Cross(c.at)
                    },
                }
            })?;
            let found = settle(
                &tally(again.into_iter(), ids, &closed),
                ids,
                &closed,
                &at,
                &corners,
            )
            .map_err(|_| unsettled())?;
            body = closed;
            found
        }
    };
    // Faces of two bodies in one plane, facing the same way, put both bodies on the same
    // side of it: where they overlap wider than a repair may reach, the bodies share the
    // space behind them, however shallow the crossings (a body sunk into another along
    // faces the two share).
    for c in &contacts {
        let (a, b) = (corners(c.first), corners(c.second));
        if body[c.first] != body[c.second] && lie_on_each_other(&a, &b) {
            return Err(Overlap {
                first: c.first,
                second: c.second,
                kind: Kind::Coincide(c.at),
            });
        }
    }
    let mut deepest = contacts.iter().fold(0.0_f64, |m, c| m.max(c.depth));
    // By triangle, so that the faces' areas are summed in one order on every run.
    let mut area: std::collections::BTreeMap<usize, f64> = std::collections::BTreeMap::new();
    for c in &contacts {
        for t in [c.first, c.second] {
            area.entry(t).or_insert_with(|| normal(&corners(t)).1);
        }
    }
    for (id, vertices) in members.iter().enumerate() {
        if !inside[id] {
            continue;
        }
        for &(h, b, p) in vertices {
            // The corner's own faces, in its piece's body (another body may share the
            // point).
            let own: Vec<usize> = around(h).filter(|&t| body[t] == b).collect();
            let faces: Vec<[f64; 3]> = own.iter().map(|&t| normal(&corners(t)).0).collect();
            // How far a repair may reach here: from the corner's own faces and the
            // contact's pair (a face further off is looked for out to 64 times that).
            let c = &contacts[led_by[id]];
            let mut near: Vec<[[f64; 3]; 3]> = own.iter().map(|&t| corners(t)).collect();
            near.extend([corners(c.first), corners(c.second)]);
            let near: Vec<&[[f64; 3]; 3]> = near.iter().collect();
            let local = reach(&near);
            let reach = 64.0 * local;
            let env = AABB::from_corners(p.map(|x| x - reach), p.map(|x| x + reach));
            let mut depth = f64::INFINITY;
            let mut within = false;
            for g in tree.locate_in_envelope_intersecting(&env) {
                let g = g.data as usize;
                if body[g] == b {
                    continue;
                }
                let cg = corners(g);
                let ng = normal(&cg).0;
                if faces
                    .iter()
                    .any(|f| f[0] * ng[0] + f[1] * ng[1] + f[2] * ng[2] < AGAINST)
                {
                    let d = distance(&p, &cg);
                    within |= d <= local.max(crate::tolerance::reach(&[&cg])).min(reach);
                    depth = depth.min(d);
                }
            }
            if !within {
                return Err(Overlap {
                    first: c.first,
                    second: c.second,
                    kind: Kind::Sunk(c.at, p),
                });
            }
            deepest = deepest.max(depth);
            for &t in &own {
                area.entry(t).or_insert_with(|| normal(&corners(t)).1);
            }
        }
    }
    let faces: f64 = area.values().sum();
    Ok(Some(Contacts {
        count: contacts.len(),
        max_depth: deepest,
        volume_bound: deepest * faces,
        folds: 0,
        fold_area: 0.0,
        place: contacts
            .first()
            .map(|c| [c.first as u32 + 1, c.second as u32 + 1]),
    }))
}

/// Edges passing through faces of other bodies, by (lower point, higher point, body): the
/// net number of times each runs in (from its lower-numbered end to the other), and the
/// contact that first led to it (named if a corner it carries in is refused).
struct Tally {
    net: HashMap<(u64, u64, u32), i32>,
    ends: HashMap<(u64, u64, u32), usize>,
}

/// An edge through a face: (triangle, its edge from corner k to k + 1, the face, +1 into
/// the face's body or −1 out of it, the contact that led to it).
type Crossing = (usize, usize, usize, i8, usize);

/// Pieces of surface: each one's corners (point number, body, coordinates), whether it is
/// inside another body, and the contact that led to it.
type Pieces = (Vec<Vec<(u64, u32, [f64; 3])>>, Vec<bool>, Vec<usize>);

/// Tallies `crossings` (triangle, its edge from corner k to k + 1, the face, +1 into the
/// face's body or −1 out of it, the contact), each edge once per face.
fn tally(crossings: impl Iterator<Item = Crossing>, ids: &[u32], body: &[u32]) -> Tally {
    let mut once: HashSet<(u64, u64, u32, usize)> = HashSet::new();
    let mut net: HashMap<(u64, u64, u32), i32> = HashMap::new();
    let mut ends: HashMap<(u64, u64, u32), usize> = HashMap::new();
    for (t, k, face, way, x) in crossings {
        let h = ids_of(ids, t);
        let (u, v) = (h[k], h[(k + 1) % 3]);
        let key = (u.min(v), u.max(v), body[t]);
        if !once.insert((key.0, key.1, key.2, face)) {
            continue;
        }
        *net.entry(key).or_insert(0) += if u < v { way as i32 } else { -(way as i32) };
        ends.entry(key).or_insert(x);
    }
    Tally { net, ends }
}

/// The pieces of surface that crossings leave inside other bodies: each piece's corners
/// (point number, body, coordinates), whether it is inside, and the contact that led to it; or
/// the contact whose crossings do not add up (a piece reached at two levels).
fn settle(
    tally: &Tally,
    ids: &[u32],
    body: &[u32],
    at: &[(u64, u32)],
    corners: &impl Fn(usize) -> [[f64; 3]; 3],
) -> Result<Pieces, usize> {
    let Tally { net, ends } = tally;
    let around = |h: u64| around(at, h);
    // The corners joined by edges that cross nothing, within one body: pieces of surface
    // wholly inside or wholly outside the other bodies.
    let mut piece: HashMap<(u64, u32), usize> = HashMap::new();
    let mut members: Vec<Vec<(u64, u32, [f64; 3])>> = Vec::new();
    let mut starts: Vec<((u64, u32), usize)> = Vec::new();
    for (&(lo, hi, b), &x) in ends {
        starts.push(((lo, b), x));
        starts.push(((hi, b), x));
    }
    starts.sort_unstable_by_key(|s| (s.1, s.0));
    let mut led_by: Vec<usize> = Vec::new();
    for &((h, b), x) in &starts {
        if piece.contains_key(&(h, b)) {
            continue;
        }
        let id = members.len();
        members.push(Vec::new());
        led_by.push(x);
        let mut queue = vec![h];
        piece.insert((h, b), id);
        while let Some(h) = queue.pop() {
            let mut p = None;
            for t in around(h) {
                if body[t] != b {
                    continue;
                }
                let ht = ids_of(ids, t);
                if p.is_none() {
                    let k = (0..3).find(|&k| ht[k] == h).unwrap_or(0);
                    p = Some(corners(t)[k]);
                }
                for &g in &ht {
                    if g != h
                        && !net.contains_key(&(h.min(g), h.max(g), b))
                        && !piece.contains_key(&(g, b))
                    {
                        piece.insert((g, b), id);
                        queue.push(g);
                    }
                }
            }
            if let Some(p) = p {
                members[id].push((h, b, p));
            }
        }
    }
    // How many other bodies each piece lies in, relative to its neighbours across the
    // crossing edges; the least in each group of pieces is outside.
    let mut links: Vec<Vec<(usize, i32)>> = vec![Vec::new(); members.len()];
    // In the order of the edges (a map's own order changes from run to run, and with it
    // which of two crossings that do not add up would be named).
    let mut crossing: Vec<(&(u64, u64, u32), &i32)> = net.iter().collect();
    crossing.sort_unstable();
    for (&(lo, hi, b), &w) in crossing {
        let (p, q) = (piece[&(lo, b)], piece[&(hi, b)]);
        links[p].push((q, w));
        links[q].push((p, -w));
    }
    let mut level: Vec<Option<i32>> = vec![None; members.len()];
    let mut inside: Vec<bool> = vec![false; members.len()];
    for start in 0..members.len() {
        if level[start].is_some() {
            continue;
        }
        level[start] = Some(0);
        let mut group = vec![start];
        let mut k = 0;
        while k < group.len() {
            let p = group[k];
            k += 1;
            let w = level[p].unwrap_or(0);
            for &(q, d) in &links[p] {
                match level[q] {
                    None => {
                        level[q] = Some(w + d);
                        group.push(q);
                    }
                    // Crossings that do not add up: one was not seen (an edge through a
                    // vertex). Not certain to be a contact.
                    Some(v) if v != w + d => return Err(led_by[p]),
                    Some(_) => {}
                }
            }
        }
        let least = group.iter().filter_map(|&p| level[p]).min().unwrap_or(0);
        for &p in &group {
            inside[p] = level[p].is_some_and(|w| w > least);
        }
    }
    Ok((members, inside, led_by))
}

/// Every edge of the contacts' bodies that passes through a face of another body, found
/// again over every pair of faces whose boxes meet, with the points perturbed
/// symbolically ([`orient_perturbed`]): an edge through a corner or along an edge of a
/// face then passes on one side or the other, the same for every face around it, so the
/// crossings add up. A point is perturbed as the point of its body (two bodies sharing a
/// corner each move their own), so that no two of the four points of a test are one.
/// `Err` with the first contact that lies within one body (a surface passing through
/// itself, whose crossings are not between bodies).
fn recount(
    corners: &(impl Fn(usize) -> [[f64; 3]; 3] + Sync),
    ids: &[u32],
    body: &[u32],
    tree: &RTree<GeomWithData<Rectangle<[f64; 3]>, u32>>,
    contacts: &[Contact],
) -> Result<Vec<Crossing>, usize> {
    // The first contact of each body, to name.
    let mut first: HashMap<u32, usize> = HashMap::new();
    for (x, c) in contacts.iter().enumerate() {
        let (a, b) = (body[c.first], body[c.second]);
        if a == b {
            return Err(x);
        }
        first.entry(a).or_insert(x);
        first.entry(b).or_insert(x);
    }
    let key = |t: usize| ids_of(ids, t).map(|h| (h << 32) | body[t] as u64);
    let mut faces: Vec<usize> = tree.iter().map(|g| g.data as usize).collect();
    faces.sort_unstable();
    let of = |t: usize| {
        let mut found = Vec::new();
        let Some(&x) = first.get(&body[t]) else {
            return found;
        };
        let (ct, kt) = (corners(t), key(t));
        let (lo, hi) = bounds(&ct);
        for g in tree.locate_in_envelope_intersecting(&AABB::from_corners(lo, hi)) {
            let g = g.data as usize;
            if body[g] == body[t] {
                continue;
            }
            let (cg, kg) = (corners(g), key(g));
            let side = |k: usize| {
                orient_perturbed(
                    [&cg[0], &cg[1], &cg[2], &ct[k]],
                    [kg[0], kg[1], kg[2], kt[k]],
                )
            };
            let s = [side(0), side(1), side(2)];
            for k in 0..3 {
                let l = (k + 1) % 3;
                if s[k] == s[l] {
                    continue;
                }
                let edge = |i: usize, j: usize| {
                    orient_perturbed(
                        [&ct[k], &ct[l], &cg[i], &cg[j]],
                        [kt[k], kt[l], kg[i], kg[j]],
                    )
                };
                let o = [edge(0, 1), edge(1, 2), edge(2, 0)];
                if o[0] == o[1] && o[1] == o[2] {
                    // Behind the face: inside its body (`orient` > 0).
                    found.push((t, k, g, s[l], x));
                }
            }
        }
        found
    };
    Ok(faces.into_par_iter().flat_map_iter(of).collect())
}

/// Each triangle's body, by the least triangle of its group: triangles joined by `joins`.
fn bodies(n: usize, joins: impl Iterator<Item = (u32, u32)>) -> Vec<u32> {
    let mut sets = UnionFind::new(n);
    for (t, o) in joins {
        sets.union(t, o);
    }
    sets.least()
}

/// The triangles at point `h`, from `at` (point, triangle) sorted.
fn around(at: &[(u64, u32)], h: u64) -> impl Iterator<Item = usize> + '_ {
    let lo = at.partition_point(|e| e.0 < h);
    at[lo..]
        .iter()
        .take_while(move |e| e.0 == h)
        .map(|e| e.1 as usize)
}
