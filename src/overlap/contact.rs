//! Contact within the input's own precision: bodies that touch in the design but whose
//! coordinates were rounded (6-digit text, an STL's `f32`, or `f64` arithmetic turning a
//! part) cross or fold into each other by a few units of the last written digit. Such
//! crossings are accepted and reported ([`Contacts`]); anything deeper is refused.
//!
//! A crossing is judged twice. Locally, it must reach no further past the other
//! triangle's plane than the tolerance ([`Precision::tolerance`]). Globally, a local test
//! cannot see a body sunk deep into another whose surface happens to cross it only near
//! the surface (a cylinder whose wall has a ring of vertices just below a plate's top
//! face, its bottom half a unit inside): so every corner that a crossing edge carries
//! inside the other body is followed across the edges that cross nothing (they stay
//! inside), and each corner reached must lie within the tolerance of a face of another
//! body that faces against one of its own faces — the two sides of a contact. A body
//! placed twice (the same faces, facing the same way) or sunk deep has corners with no
//! such face near, and is refused with the corner named.

use super::*;
use std::collections::{HashMap, HashSet};

/// What a file's coordinates can say, estimated from a sample of them: how many
/// significant digits (and decimals) they were written with, or whether they are `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Precision {
    /// Significant digits of the longest coordinate sampled, when the coordinates look
    /// rounded to a fixed number of digits (6 to 16); `None` for short, exact values (a
    /// tidy fixture: no rounding to forgive beyond `f64`'s) or full precision.
    digits: Option<u32>,
    /// The most digits after the decimal point seen (a file written `%.6f`).
    decimals: i32,
    /// Every sampled coordinate is an `f32` (a binary STL).
    single: bool,
}

/// Half-units of the resolution a crossing may reach: two units of the last written
/// digit for text; for binary values (whose arithmetic, turning a part, errs by a few
/// units) eight units in the last place.
const TEXT_HALF_UNITS: f64 = 4.0;
const BINARY_HALF_UNITS: f64 = 16.0;

/// Significant digits and decimals of the shortest text that reads back as `x`.
fn written(x: f64, single: bool) -> (u32, i32) {
    let s = if single {
        format!("{:e}", x as f32)
    } else {
        format!("{x:e}")
    };
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count() as u32;
    (digits, digits as i32 - 1 - exp)
}

impl Precision {
    /// Estimated from up to 4,096 triangles spread over the soup.
    pub(super) fn of<S: Soup>(soup: &S) -> Precision {
        let n = soup.len();
        let step = n.div_ceil(4096).max(1);
        Precision::of_values(
            (0..n)
                .step_by(step)
                .flat_map(|t| soup.triangle(t).map(|p| p.coords()))
                .flatten(),
        )
    }

    /// Estimated from these coordinates (a sample of a file's).
    pub(crate) fn of_values(values: impl Iterator<Item = f64>) -> Precision {
        let values: Vec<f64> = values.filter(|x| x.is_finite() && *x != 0.0).collect();
        let single = values.iter().all(|&x| (x as f32) as f64 == x);
        let (mut digits, mut decimals) = (0, i32::MIN);
        for &x in &values {
            let (d, p) = written(x, single);
            digits = digits.max(d);
            decimals = decimals.max(p);
        }
        // Six digits or more: rounded (to a fixed count, or to f32). Fewer: values as
        // written, exact (a tidy fixture's), with nothing to forgive beyond f64's rounding.
        let rounded = digits >= 6;
        Precision {
            digits: (rounded && !single && digits <= 16).then_some(digits),
            decimals,
            single: rounded && single,
        }
    }

    /// Half a unit of the last place a coordinate of magnitude `m` can be trusted to.
    fn resolution(&self, m: f64) -> f64 {
        let m = m.abs().max(f64::MIN_POSITIVE);
        let ulp = |x: f64| x.next_up() - x;
        let mut r = ulp(m) / 2.0;
        if self.single {
            let f = m as f32;
            r = r.max(((f.next_up() - f) as f64) / 2.0);
        }
        r
    }

    /// How far a crossing at coordinates of magnitude up to `m` may reach and still be
    /// taken for touching.
    pub(crate) fn tolerance(&self, m: f64) -> f64 {
        let binary = BINARY_HALF_UNITS * self.resolution(m);
        match self.digits {
            Some(d) => {
                let m = m.abs().max(f64::MIN_POSITIVE);
                let last = 10f64.powi(m.log10().floor() as i32 - d as i32 + 1);
                let fixed = 10f64.powi(-self.decimals.clamp(-300, 300));
                binary.max(TEXT_HALF_UNITS * 0.5 * last.max(fixed))
            }
            None => binary,
        }
    }

    /// What the tolerance comes from, for a message.
    pub(super) fn rounding(&self) -> crate::error::Rounding {
        match self.digits {
            Some(d) => crate::error::Rounding::Digits(d),
            None if self.single => crate::error::Rounding::Single,
            None => crate::error::Rounding::Double,
        }
    }
}

/// The largest magnitude of any coordinate of the triangles.
pub(super) fn magnitude(ts: &[&[[f64; 3]; 3]]) -> f64 {
    ts.iter()
        .flat_map(|t| t.iter().flatten())
        .fold(0.0_f64, |m, x| m.max(x.abs()))
}

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

/// The distance from `p` to the closed triangle `t` (rounded; Ericson, *Real-Time
/// Collision Detection*, closest point on a triangle).
pub(crate) fn distance(p: &[f64; 3], t: &[[f64; 3]; 3]) -> f64 {
    let sub = |x: &[f64; 3], y: &[f64; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let dot = |x: &[f64; 3], y: &[f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let (a, b, c) = (&t[0], &t[1], &t[2]);
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let at = |u: f64, v: f64| {
        let q = [0, 1, 2].map(|k| a[k] + u * ab[k] + v * ac[k]);
        let d = sub(p, &q);
        dot(&d, &d).sqrt()
    };
    let (d1, d2) = (dot(&ab, &ap), dot(&ac, &ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return at(0.0, 0.0);
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(&ab, &bp), dot(&ac, &bp));
    if d3 >= 0.0 && d4 <= d3 {
        return at(1.0, 0.0);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return at(d1 / (d1 - d3), 0.0);
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(&ab, &cp), dot(&ac, &cp));
    if d6 >= 0.0 && d5 <= d6 {
        return at(0.0, 1.0);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return at(0.0, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return at(1.0 - w, w);
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    if !(v.is_finite() && w.is_finite()) {
        return at(0.0, 0.0);
    }
    at(v, w)
}

/// A triangle's unit normal (zero for a degenerate one) and its area.
fn normal(t: &[[f64; 3]; 3]) -> ([f64; 3], f64) {
    let n = cross3(
        &[t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]],
        &[t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]],
    );
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        (n.map(|x| x / len), len / 2.0)
    } else {
        ([0.0; 3], 0.0)
    }
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
    across: &[u32],
    mut contacts: Vec<Contact>,
    precision: &Precision,
) -> Result<Option<Contacts>, Overlap> {
    if contacts.is_empty() {
        return Ok(None);
    }
    contacts.sort_by_key(|c| (c.first, c.second));
    let n = tris.len();
    let corners = |t: usize| soup.triangle(t).map(|p| p.coords());
    // Bodies: triangles joined across edges used by exactly two of them (`across`).
    let mut body: Vec<u32> = (0..n as u32).collect();
    fn root(body: &mut [u32], mut x: u32) -> u32 {
        while body[x as usize] != x {
            let up = body[body[x as usize] as usize];
            body[x as usize] = up;
            x = up;
        }
        x
    }
    for t in 0..n {
        for k in 0..3 {
            let o = across[3 * t + k];
            if (o as usize) < n {
                let (a, b) = (root(&mut body, t as u32), root(&mut body, o));
                if a != b {
                    body[a.max(b) as usize] = a.min(b);
                }
            }
        }
    }
    for t in 0..n {
        body[t] = root(&mut body, t as u32);
    }
    // The triangles at each corner, by its point number.
    let mut at: Vec<(u64, u32)> = (0..n)
        .filter(|&t| !tris[t].is_empty())
        .flat_map(|t| tris[t].ids().map(|h| (h, t as u32)))
        .collect();
    at.par_sort_unstable();
    let around = |h: u64| {
        let lo = at.partition_point(|e| e.0 < h);
        at[lo..]
            .iter()
            .take_while(move |e| e.0 == h)
            .map(|e| e.1 as usize)
    };
    // Every face, for the faces near a corner.
    let boxes: Vec<GeomWithData<Rectangle<[f64; 3]>, u32>> = (0..n)
        .filter(|&t| !tris[t].is_empty())
        .map(|t| {
            let (lo, hi) = bounds(&corners(t));
            GeomWithData::new(Rectangle::from_corners(lo, hi), t as u32)
        })
        .collect();
    let tree = RTree::bulk_load(boxes);
    // Each edge passing through faces, once per face, with its net way in (from its
    // lower-numbered end to the other), by (lower point, higher point, body).
    let mut once: HashSet<(u64, u64, usize)> = HashSet::new();
    let mut net: HashMap<(u64, u64, u32), i32> = HashMap::new();
    let mut ends: HashMap<(u64, u64, u32), usize> = HashMap::new();
    for (x, c) in contacts.iter().enumerate() {
        for &(t, k, face, way) in &c.crossings {
            let h = tris[t].ids();
            let (u, v) = (h[k], h[(k + 1) % 3]);
            let key = (u.min(v), u.max(v), body[t]);
            if !once.insert((key.0, key.1, face)) {
                continue;
            }
            *net.entry(key).or_insert(0) += if u < v { way as i32 } else { -(way as i32) };
            ends.entry(key).or_insert(x);
        }
    }
    // The corners joined by edges that cross nothing, within one body: pieces of surface
    // wholly inside or wholly outside the other bodies.
    let mut piece: HashMap<(u64, u32), usize> = HashMap::new();
    let mut members: Vec<Vec<(u64, [f64; 3])>> = Vec::new();
    let mut starts: Vec<((u64, u32), usize)> = Vec::new();
    for (&(lo, hi, b), &x) in &ends {
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
                let ht = tris[t].ids();
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
                members[id].push((h, p));
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
                    Some(v) if v != w + d => {
                        let c = &contacts[led_by[p]];
                        return Err(Overlap {
                            first: c.first,
                            second: c.second,
                            kind: Kind::Unsettled(c.at, c.depth),
                        });
                    }
                    Some(_) => {}
                }
            }
        }
        let least = group.iter().filter_map(|&p| level[p]).min().unwrap_or(0);
        for &p in &group {
            inside[p] = level[p].is_some_and(|w| w > least);
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
        for &(h, p) in vertices {
            let own: Vec<usize> = around(h).collect();
            let b = own.iter().map(|&t| body[t]).min().unwrap_or(0);
            let faces: Vec<[f64; 3]> = own
                .iter()
                .filter(|&&t| body[t] == b)
                .map(|&t| normal(&corners(t)).0)
                .collect();
            let tol = precision.tolerance(magnitude(&[&[p; 3]]));
            let env = AABB::from_corners(p.map(|x| x - tol), p.map(|x| x + tol));
            let mut depth = f64::INFINITY;
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
                    depth = depth.min(distance(&p, &cg));
                }
            }
            if depth > tol {
                let c = &contacts[led_by[id]];
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
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_precision_is_read_from_the_digits_written() {
        let p = |xs: &[f64]| {
            let t: Vec<[f64; 3]> = xs.iter().map(|&x| [x, x, x]).collect();
            Precision::of(&crate::soup::VertexSoup(&t))
        };
        // Six significant digits: two units of the sixth digit at each magnitude.
        let six = p(&[1.23457, 0.173648, 98.4808, 3.0]);
        assert_eq!(six.digits, Some(6));
        assert!((six.tolerance(98.0) - 2e-4).abs() < 1e-12, "{six:?}");
        assert!((six.tolerance(1.5) - 2e-5).abs() < 1e-15);
        // Tidy values: nothing to forgive but f64's own rounding.
        let tidy = p(&[0.0, 1.0, 0.5, 2.25, 10.0]);
        assert_eq!(tidy.digits, None);
        assert!(tidy.tolerance(10.0) < 2e-14);
        // Full precision.
        let full = p(&[0.1 + 0.2, std::f64::consts::PI, 1.0 / 3.0]);
        assert_eq!(full.digits, None);
        assert!(!full.single);
        assert!(full.tolerance(1.0) < 2e-15);
        // f32 values (a binary STL): eight f32 units in the last place.
        let single = p(&[0.123457f32 as f64, 1.73648f32 as f64, 98.4808f32 as f64]);
        assert!(single.single);
        assert!((single.tolerance(1.5) - 8.0 * f32::EPSILON as f64).abs() < 1e-18);
    }

    #[test]
    fn distance_to_a_triangle() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        assert_eq!(distance(&[0.25, 0.25, 2.0], &t), 2.0);
        assert_eq!(distance(&[-3.0, 0.0, 4.0], &t), 5.0);
        assert!((distance(&[1.0, 1.0, 0.0], &t) - 0.5f64.sqrt()).abs() < 1e-15);
        assert_eq!(distance(&[0.5, -1.0, 0.0], &t), 1.0);
    }
}
