//! DXF profiles, read with the `dxf` crate: closed `LWPOLYLINE`s, closed 2D `POLYLINE`s,
//! `CIRCLE`s and full `ELLIPSE`s, and closed outlines chained end to end from `LINE`s,
//! `ARC`s, elliptical arcs and open polylines, as CAD programs draw them; `INSERT`s expand
//! their blocks.
//!
//! Bulges (arc segments), arcs, circles and ellipses stay curves: they are integrated in
//! closed form ([`crate::arc`]), so a circle's area is π r² to rounding. Pieces are
//! joined where their ends meet within a tolerance (a few units in the last place of the
//! drawing's largest coordinate, or `--join-tolerance`); an end that meets no other piece,
//! or three pieces meeting at one point, is refused naming the piece or the point. Closed
//! curves inside another are its holes (an even-odd nesting: an island inside a hole is a
//! part of its own). Entities that would change the outline but are not read yet (`SPLINE`,
//! `SOLID`, `REGION`, ...) are refused rather than dropped; annotations (text,
//! dimensions, hatches, points) are ignored. Entities in another plane are refused.

use super::PolygonRings;
use crate::arc::ArcEdge;
use crate::error::{Error, Result};
use std::f64::consts::PI;

/// A path of the drawing: a closed curve (edge i from vertex i to i + 1, the last back to
/// the first) or an open piece to chain (one edge fewer than vertices), with the curve of
/// each edge (`None` where straight).
struct Path {
    name: String,
    points: Vec<[f64; 2]>,
    arcs: Vec<Option<ArcEdge>>,
    /// For a path made of spline chords: their largest distance from the splines.
    deviation: Option<f64>,
}

impl Path {
    /// A path that is the drawing's geometry exactly.
    fn exact(name: String, points: Vec<[f64; 2]>, arcs: Vec<Option<ArcEdge>>) -> Path {
        Path {
            name,
            points,
            arcs,
            deviation: None,
        }
    }

    /// A closed path cut into chords (at most 1/128 of a turn each), for nesting.
    fn chords(&self) -> Vec<[f64; 2]> {
        crate::arc::ring_chords(&self.points, &self.arcs)
            .into_iter()
            .map(|(q, _)| q)
            .collect()
    }
}

/// Vertices with bulges as points and curved edges (`closed`: the last vertex joins the
/// first, which a bulge on the last vertex bends).
fn bulged(vertices: &[([f64; 2], f64)], closed: bool) -> (Vec<[f64; 2]>, Vec<Option<ArcEdge>>) {
    let n = vertices.len();
    let edges = if closed { n } else { n.saturating_sub(1) };
    let points = vertices.iter().map(|v| v.0).collect();
    let arcs = (0..edges)
        .map(|i| ArcEdge::from_bulge(vertices[i].0, vertices[(i + 1) % n].0, vertices[i].1))
        .collect();
    (points, arcs)
}

/// A counter-clockwise sweep `span` (end minus start) brought into (0, full]: a
/// non-positive one goes round once more, as DXF reads it (0 is a full turn); one more
/// than a turn (up to rounding) is taken modulo a turn.
fn turn(span: f64, full: f64) -> f64 {
    let s = if span <= 0.0 || span > full * (1.0 + 1e-12) {
        span.rem_euclid(full)
    } else {
        span
    };
    if s == 0.0 { full } else { s }
}

/// The arc of `c + A (cos t, sin t)` from `t0` to `t1` (t1 > t0) in pieces of at most a
/// quarter turn: its points (both ends included) and the curve of each piece.
fn elliptic_arc(
    c: [f64; 2],
    a: [[f64; 2]; 2],
    t0: f64,
    t1: f64,
) -> (Vec<[f64; 2]>, Vec<Option<ArcEdge>>) {
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
        .map(|k| Some(ArcEdge::elliptic(a, at(k), at(k + 1))))
        .collect();
    (points, arcs)
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
    // An ASCII drawing's header comes first: read `$INSUNITS` from it without parsing the
    // whole drawing (which `parse` does next); binary DXF goes through the library.
    if !bytes.starts_with(b"AutoCAD Binary DXF")
        && let Ok(text) = std::str::from_utf8(&bytes[..bytes.len().min(1 << 20)])
            .or_else(|e| std::str::from_utf8(&bytes[..e.valid_up_to()]))
    {
        let mut lines = text.lines().map(str::trim);
        while let Some(l) = lines.next() {
            if l == "ENTITIES" || l == "BLOCKS" {
                return Ok(None);
            }
            if l == "$INSUNITS" {
                return Ok(match (lines.next(), lines.next()) {
                    (Some("70"), Some(v)) => v
                        .parse::<i32>()
                        .ok()
                        .and_then(crate::units::LengthUnit::from_insunits),
                    _ => None,
                });
            }
        }
        return Ok(None);
    }
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
        Error::parse("DXF", crate::error::clip_to(&text, 200))
    })
}

/// How to read a drawing's pieces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// Ends of pieces closer than this are joined; `None`: 64 units in the last place of
    /// the drawing's largest coordinate.
    pub join_tolerance: Option<f64>,
    /// Leave out pieces that belong to no closed outline (centre lines, construction
    /// lines), naming them in [`Read::ignored`], instead of refusing the drawing.
    pub ignore_open: bool,
    /// Read only entities on these layers (all when empty). Entities on layer `0` inside a
    /// block take the layer of the INSERT that places them, as in CAD programs.
    pub layers: Vec<String>,
}

/// What a drawing holds: its polygons, and the pieces left out with
/// [`Options::ignore_open`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Read {
    /// Each polygon (outer ring and holes), named by its outline's entity.
    pub parts: Vec<(String, PolygonRings)>,
    /// Pieces that belong to no closed outline, left out (`LINE 2F`, ...).
    pub ignored: Vec<String>,
    /// Annotations and construction geometry ignored, counted by DXF entity type
    /// (`{"DIMENSION": 4, "TEXT": 2}`): they never change an outline.
    pub annotations: std::collections::BTreeMap<String, usize>,
}

/// What a drawing held outside its polygons.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeftOut {
    /// Pieces in no closed outline, left out with [`Options::ignore_open`].
    pub pieces: Vec<String>,
    /// Annotations ignored, counted by DXF entity type.
    pub annotations: std::collections::BTreeMap<String, usize>,
}

fn describe(p: [f64; 2]) -> String {
    format!("({}, {})", crate::error::num(p[0]), crate::error::num(p[1]))
}

/// Chains pieces end to end into closed curves: every end must meet exactly one other
/// end within `tol`.
fn chain(pieces: Vec<Path>, tol: f64, ignore_open: bool) -> Result<(Vec<Path>, Vec<String>)> {
    if pieces.is_empty() {
        return Ok((vec![], vec![]));
    }
    // Ends 2k (start of piece k) and 2k + 1 (its end), grouped into points by union-find
    // over a grid of cells of side tol.
    let ends: Vec<[f64; 2]> = pieces
        .iter()
        .flat_map(|p| [p.points[0], p.points[p.points.len() - 1]])
        .collect();
    let n = ends.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // Cells of side tol/√2: ends in one cell are within tol and are joined outright; an end
    // is compared with up to 8 ends of each neighbouring cell, so a crowd of ends at one
    // point costs linear time (it is refused as a branch anyway).
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
    let join = |parent: &mut [usize], i: usize, j: usize| {
        let (a, b) = (root(parent, i), root(parent, j));
        parent[a.max(b)] = a.min(b);
    };
    for list in grid.values() {
        for &j in &list[1..] {
            join(&mut parent, list[0], j);
        }
    }
    for (i, p) in ends.iter().enumerate() {
        let c = cell(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let Some(list) = grid.get(&[c[0].saturating_add(dx), c[1].saturating_add(dy)])
                else {
                    continue;
                };
                for &j in list.iter().take(8) {
                    let q = &ends[j];
                    if (p[0] - q[0]).hypot(p[1] - q[1]) <= tol {
                        join(&mut parent, i, j);
                    }
                }
            }
        }
    }
    let group: Vec<usize> = (0..n).map(|i| root(&mut parent, i)).collect();
    let mut at: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for (e, g) in group.iter().enumerate() {
        at.entry(*g).or_default().push(e);
    }
    // With ignore_open, prune pieces with a free end, over and over (a chain of lines
    // hanging off an outline goes piece by piece), and name them.
    let mut used = vec![false; pieces.len()];
    let mut ignored = Vec::new();
    if ignore_open {
        let mut queue: Vec<usize> = at
            .values()
            .filter(|l| l.len() == 1)
            .map(|l| l[0] / 2)
            .collect();
        while let Some(k) = queue.pop() {
            if used[k] {
                continue;
            }
            used[k] = true;
            ignored.push(pieces[k].name.clone());
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
            let e = list[0];
            let p = &pieces[e / 2];
            // The nearest other end, to say how far the gap is.
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
            let hint = if gap.is_finite() && gap < 1e-3 * span {
                format!(
                    " (the nearest other end is {} away: --join-tolerance {} would join them)",
                    crate::error::num(gap),
                    crate::error::num(gap * 1.5)
                )
            } else if gap.is_finite() {
                format!(
                    " (the nearest other end is {} away)",
                    crate::error::num(gap)
                )
            } else {
                String::new()
            };
            return Err(Error::parse(
                p.name.clone(),
                format!(
                    "{}–{} is not part of a closed outline: its end at {} meets no other piece{hint}",
                    describe(p.points[0]),
                    describe(p.points[p.points.len() - 1]),
                    describe(ends[e])
                ),
            ));
        }
        if list.len() > 2 {
            let names: Vec<&str> = list.iter().map(|e| pieces[e / 2].name.as_str()).collect();
            return Err(Error::parse(
                "DXF",
                format!(
                    "{} pieces meet at {} ({}): an outline cannot branch",
                    list.len(),
                    describe(ends[list[0]]),
                    names.join(", ")
                ),
            ));
        }
    }
    // Walk each loop: from a piece's end to the other end at that point, and on.
    let mut curves = Vec::new();
    for first in 0..pieces.len() {
        if used[first] {
            continue;
        }
        let mut points: Vec<[f64; 2]> = Vec::new();
        let mut arcs: Vec<Option<ArcEdge>> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        let mut deviation: Option<f64> = None;
        let mut end = 2 * first; // the end we enter the piece by
        loop {
            let k = end / 2;
            if used[k] {
                break;
            }
            used[k] = true;
            names.push(&pieces[k].name);
            if let Some(d) = pieces[k].deviation {
                deviation = Some(deviation.map_or(d, |x| x.max(d)));
            }
            let pts = &pieces[k].points;
            // Each piece contributes all but its last point (the next piece starts there),
            // and its edges, run backwards when it is entered by its end.
            if end % 2 == 0 {
                points.extend_from_slice(&pts[..pts.len() - 1]);
                arcs.extend_from_slice(&pieces[k].arcs);
            } else {
                points.extend(pts[1..].iter().rev());
                arcs.extend(pieces[k].arcs.iter().rev().map(|c| c.map(|c| c.reversed())));
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
            points,
            arcs,
            deviation,
        });
    }
    ignored.sort();
    Ok((curves, ignored))
}

/// An affine map of the plane, `p ↦ m p + t` (`m` row-major): how a block's entities land
/// in the drawing through the INSERTs that place it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Affine {
    m: [[f64; 2]; 2],
    t: [f64; 2],
}

impl Affine {
    const IDENTITY: Affine = Affine {
        m: [[1.0, 0.0], [0.0, 1.0]],
        t: [0.0, 0.0],
    };

    fn apply(&self, p: [f64; 2]) -> [f64; 2] {
        [
            self.m[0][0] * p[0] + self.m[0][1] * p[1] + self.t[0],
            self.m[1][0] * p[0] + self.m[1][1] * p[1] + self.t[1],
        ]
    }

    /// Moves points and the curves between them.
    fn place(&self, points: &mut [[f64; 2]], arcs: &mut [Option<ArcEdge>]) {
        for p in points {
            *p = self.apply(*p);
        }
        for c in arcs.iter_mut().flatten() {
            *c = c.transformed(&self.m);
        }
    }

    /// The mirror image in the y axis when `sx` is −1 (an entity seen from below).
    fn mirror_x(sx: f64) -> Affine {
        Affine {
            m: [[sx, 0.0], [0.0, 1.0]],
            t: [0.0, 0.0],
        }
    }

    /// `self` after `inner`: p ↦ self(inner(p)).
    fn after(&self, inner: &Affine) -> Affine {
        let a = &self.m;
        let b = &inner.m;
        let m = [
            [
                a[0][0] * b[0][0] + a[0][1] * b[1][0],
                a[0][0] * b[0][1] + a[0][1] * b[1][1],
            ],
            [
                a[1][0] * b[0][0] + a[1][1] * b[1][0],
                a[1][0] * b[0][1] + a[1][1] * b[1][1],
            ],
        ];
        Affine {
            m,
            t: self.apply(inner.t),
        }
    }
}

/// INSERTs nested deeper than this are refused (a block that places itself through others
/// is refused earlier, as a cycle).
const MAX_DEPTH: usize = 32;
/// Entities that INSERTs may expand to, in all: a small file that places a block of
/// blocks of blocks a million times is refused, not expanded.
const MAX_EXPANDED: usize = 1 << 22;

/// Gathers a drawing's closed curves and open pieces, expanding INSERTs.
struct Collector<'a> {
    layers: Vec<String>,
    blocks: std::collections::HashMap<&'a str, &'a ::dxf::Block>,
    curves: Vec<Path>,
    pieces: Vec<Path>,
    expanded: usize,
    annotations: std::collections::BTreeMap<String, usize>,
    /// Chord points of the splines read so far.
    spline_points: usize,
}

impl<'a> Collector<'a> {
    /// Adds a path placed by `xf` (named with the INSERTs that placed it): to the closed
    /// curves, or to the pieces to chain.
    fn add(&mut self, xf: &Affine, where_: &str, mut c: Path, closed: bool) {
        if *xf != Affine::IDENTITY {
            xf.place(&mut c.points, &mut c.arcs);
        }
        c.name.push_str(where_);
        if closed {
            self.curves.push(c);
        } else {
            self.pieces.push(c);
        }
    }

    /// A polyline's vertices with their bulges: a closed curve, or a piece to chain.
    fn polyline(
        &mut self,
        xf: &Affine,
        where_: &str,
        name: String,
        v: &[([f64; 2], f64)],
        closed: bool,
    ) -> Result<()> {
        check_bulges(&name, v)?;
        if v.is_empty() {
            return Ok(());
        }
        let (points, arcs) = bulged(v, closed);
        if closed {
            self.add(xf, where_, Path::exact(name, points, arcs), true);
        } else if points.len() >= 2 {
            self.add(xf, where_, Path::exact(name, points, arcs), false);
        }
        Ok(())
    }

    /// Reads `entities` placed by `xf`; `where_` says which INSERTs placed them (for names)
    /// and `stack` which blocks are being expanded (for cycles).
    fn entities(
        &mut self,
        entities: &[&'a ::dxf::entities::Entity],
        xf: &Affine,
        where_: &str,
        inherited: &str,
        stack: &mut Vec<&'a str>,
    ) -> Result<()> {
        for e in entities {
            if !stack.is_empty() {
                self.expanded += 1;
                if self.expanded > MAX_EXPANDED {
                    return Err(Error::parse(
                        "DXF",
                        format!(
                            "INSERTs expand to more than {MAX_EXPANDED} entities: refused rather than expanded"
                        ),
                    ));
                }
            }
            self.entity(e, xf, where_, inherited, stack)?;
        }
        Ok(())
    }

    fn entity(
        &mut self,
        e: &'a ::dxf::entities::Entity,
        xf: &Affine,
        where_: &str,
        inherited: &str,
        stack: &mut Vec<&'a str>,
    ) -> Result<()> {
        use ::dxf::entities::EntityType;
        // Layer 0 inside a block is the layer of the INSERT that places it.
        let layer = if e.common.layer == "0" && !inherited.is_empty() {
            inherited
        } else {
            e.common.layer.as_str()
        };
        if !self.layers.is_empty() && !self.layers.iter().any(|l| l == layer) {
            return Ok(());
        }
        // Names carry the layer when it is not the default one.
        let handle = if layer == "0" || layer.is_empty() {
            e.common.handle.as_string()
        } else {
            format!(
                "{} (layer {})",
                e.common.handle.as_string(),
                crate::error::clip(layer)
            )
        };
        if let EntityType::Insert(ins) = &e.specific {
            return self.insert(ins, &handle, xf, where_, layer, stack);
        }
        match &e.specific {
            EntityType::LwPolyline(lw) => {
                let name = format!("LWPOLYLINE {handle}");
                let sx = planar(lw.extrusion_direction.z, &name)?;
                let v: Vec<([f64; 2], f64)> = lw
                    .vertices
                    .iter()
                    .map(|p| ([sx * p.x, p.y], sx * p.bulge))
                    .collect();
                self.polyline(xf, where_, name, &v, lw.is_closed())?;
            }
            EntityType::Polyline(pl) => {
                let name = format!("POLYLINE {handle}");
                if pl.is_3d_polyline() || pl.is_polyface_mesh() || pl.is_3d_polygon_mesh() {
                    return Err(Error::parse(
                        name,
                        "is a 3D polyline or mesh, not a plane profile",
                    ));
                }
                let sx = planar(pl.normal.z, &name)?;
                let v: Vec<([f64; 2], f64)> = pl
                    .vertices()
                    .map(|p| ([sx * p.location.x, p.location.y], sx * p.bulge))
                    .collect();
                self.polyline(xf, where_, name, &v, pl.is_closed())?;
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
                if ![c.center.x, c.center.y, c.radius]
                    .iter()
                    .all(|v| v.is_finite())
                {
                    return Err(Error::parse(name, "needs a finite centre and radius"));
                }
                // Four quarter arcs, in the entity's plane, then seen from above.
                let r = c.radius;
                let (mut points, mut arcs) = elliptic_arc(
                    [c.center.x, c.center.y],
                    [[r, 0.0], [0.0, r]],
                    0.0,
                    2.0 * PI,
                );
                points.pop();
                Affine::mirror_x(sx).place(&mut points, &mut arcs);
                self.add(xf, where_, Path::exact(name, points, arcs), true);
            }
            EntityType::Line(l) => {
                let name = format!("LINE {handle}");
                let (a, b) = ([l.p1.x, l.p1.y], [l.p2.x, l.p2.y]);
                if ![a, b].iter().flatten().all(|c| c.is_finite()) {
                    return Err(Error::parse(name, "has a coordinate that is not finite"));
                }
                // A zero-length line joins nothing.
                if a != b {
                    self.add(xf, where_, Path::exact(name, vec![a, b], vec![None]), false);
                }
            }
            EntityType::Arc(a) => {
                let name = format!("ARC {handle}");
                let sx = planar(a.normal.z, &name)?;
                let ok = [a.center.x, a.center.y, a.start_angle, a.end_angle]
                    .iter()
                    .all(|c| c.is_finite());
                if !ok || a.radius.is_nan() || a.radius <= 0.0 || !a.radius.is_finite() {
                    return Err(Error::parse(
                        name,
                        "needs a finite centre and angles and a positive finite radius",
                    ));
                }
                // Counter-clockwise from start to end, less than a turn past a full one (a
                // loop adding 360° to huge angles would never end).
                let s = a.start_angle.rem_euclid(360.0).to_radians();
                let e = s + turn(a.end_angle - a.start_angle, 360.0).to_radians();
                let r = a.radius;
                let (mut points, mut arcs) =
                    elliptic_arc([a.center.x, a.center.y], [[r, 0.0], [0.0, r]], s, e);
                Affine::mirror_x(sx).place(&mut points, &mut arcs);
                self.add(xf, where_, Path::exact(name, points, arcs), false);
            }
            EntityType::Ellipse(el) => {
                let name = format!("ELLIPSE {handle}");
                let nz = planar(el.normal.z, &name)?;
                let nums = [
                    el.center.x,
                    el.center.y,
                    el.major_axis.x,
                    el.major_axis.y,
                    el.minor_axis_ratio,
                    el.start_parameter,
                    el.end_parameter,
                ];
                let major = el.major_axis.x.hypot(el.major_axis.y);
                if nums.iter().any(|v| !v.is_finite())
                    || major == 0.0
                    || el.minor_axis_ratio <= 0.0
                    || el.minor_axis_ratio > 1.0
                    || el.major_axis.z != 0.0
                {
                    return Err(Error::parse(
                        name,
                        "needs a finite centre, a non-zero major axis in the plane and a minor/major ratio in (0, 1]",
                    ));
                }
                // P(t) = C + cos t · M + sin t · r (N × M), N = ±z.
                let m = [el.major_axis.x, el.major_axis.y];
                let minor = [
                    -nz * el.minor_axis_ratio * m[1],
                    nz * el.minor_axis_ratio * m[0],
                ];
                let t0 = el.start_parameter.rem_euclid(2.0 * PI);
                let t1 = t0 + turn(el.end_parameter - el.start_parameter, 2.0 * PI);
                let full = (t1 - t0 - 2.0 * PI).abs() < 1e-12;
                let a = [[m[0], minor[0]], [m[1], minor[1]]];
                let c = [el.center.x, el.center.y];
                if full {
                    let (mut points, arcs) = elliptic_arc(c, a, t0, t0 + 2.0 * PI);
                    points.pop();
                    self.add(xf, where_, Path::exact(name, points, arcs), true);
                } else {
                    let (points, arcs) = elliptic_arc(c, a, t0, t1);
                    self.add(xf, where_, Path::exact(name, points, arcs), false);
                }
            }
            EntityType::Spline(sp) => {
                let name = format!("SPLINE {handle}");
                let room = MAX_SPLINE_POINTS.saturating_sub(self.spline_points);
                let (points, deviation) = spline_points(sp, &name, room)?;
                self.spline_points += points.len();
                // A chord within d of the curve lands within ‖m‖ d of it once placed.
                let m = &xf.m;
                let norm =
                    (m[0][0].powi(2) + m[0][1].powi(2) + m[1][0].powi(2) + m[1][1].powi(2)).sqrt();
                let d = deviation * norm;
                let arcs = vec![None; points.len() - 1];
                if points.len() > 2 && points[0] == points[points.len() - 1] {
                    let mut points = points;
                    points.pop();
                    let arcs = vec![None; points.len()];
                    let deviation = Some(d);
                    self.add(
                        xf,
                        where_,
                        Path {
                            name,
                            points,
                            arcs,
                            deviation,
                        },
                        true,
                    );
                } else {
                    let deviation = Some(d);
                    self.add(
                        xf,
                        where_,
                        Path {
                            name,
                            points,
                            arcs,
                            deviation,
                        },
                        false,
                    );
                }
            }
            EntityType::Helix(_)
            | EntityType::MLine(_)
            | EntityType::Solid(_)
            | EntityType::Trace(_)
            | EntityType::Face3D(_)
            | EntityType::Region(_)
            | EntityType::Solid3D(_)
            | EntityType::Body(_) => {
                let kind = format!("{:?}", e.specific)
                    .split('(')
                    .next()
                    .unwrap_or("entity")
                    .to_ascii_uppercase();
                return Err(Error::parse(
                    format!("{kind} {handle}"),
                    "this kind of entity is not read yet, and dropping it could change the outline: explode it into lines, arcs and polylines",
                ));
            }
            // Annotations and construction geometry: text, dimensions, points, leaders,
            // images, xlines and rays. Counted, so that the report says what was left out.
            other => {
                *self.annotations.entry(kind_name(other)).or_default() += 1;
            }
        }
        Ok(())
    }

    /// Expands an INSERT: its block's entities, moved from the block's base point, scaled
    /// (a negative scale mirrors), rotated and placed at the insertion point, once per cell
    /// of its row × column array.
    fn insert(
        &mut self,
        ins: &'a ::dxf::entities::Insert,
        handle: &str,
        xf: &Affine,
        where_: &str,
        layer: &str,
        stack: &mut Vec<&'a str>,
    ) -> Result<()> {
        let name = format!("INSERT {handle}");
        let block = *self.blocks.get(ins.name.as_str()).ok_or_else(|| {
            Error::parse(
                name.clone(),
                format!(
                    "places block \"{}\", which the drawing does not define",
                    crate::error::clip(&ins.name)
                ),
            )
        })?;
        if stack.contains(&block.name.as_str()) {
            return Err(Error::parse(
                name,
                format!(
                    "block \"{}\" places itself (through {}): a cycle",
                    crate::error::clip(&block.name),
                    stack.join(" → ")
                ),
            ));
        }
        if stack.len() >= MAX_DEPTH {
            return Err(Error::parse(
                name,
                format!("blocks nested more than {MAX_DEPTH} deep"),
            ));
        }
        let sx = planar(ins.extrusion_direction.z, &name)?;
        let nums = [
            ins.location.x,
            ins.location.y,
            ins.x_scale_factor,
            ins.y_scale_factor,
            ins.rotation,
            ins.column_spacing,
            ins.row_spacing,
            block.base_point.x,
            block.base_point.y,
        ];
        if nums.iter().any(|v| !v.is_finite())
            || ins.x_scale_factor == 0.0
            || ins.y_scale_factor == 0.0
        {
            return Err(Error::parse(
                name,
                "needs finite numbers and non-zero scale factors",
            ));
        }
        let (sin, cos) = ins.rotation.to_radians().sin_cos();
        let (kx, ky) = (ins.x_scale_factor, ins.y_scale_factor);
        // In the INSERT's own plane: p ↦ location + R (S (p − base) + array offset).
        let local = |dx: f64, dy: f64| Affine {
            m: [[cos * kx, -sin * ky], [sin * kx, cos * ky]],
            t: [
                ins.location.x + cos * dx
                    - sin * dy
                    - (cos * kx * block.base_point.x - sin * ky * block.base_point.y),
                ins.location.y + sin * dx + cos * dy
                    - (sin * kx * block.base_point.x + cos * ky * block.base_point.y),
            ],
        };
        // An INSERT seen from below (extrusion −z) mirrors x, as for the other entities.
        let plane = Affine {
            m: [[sx, 0.0], [0.0, 1.0]],
            t: [0.0, 0.0],
        };
        let cols = ins.column_count.max(1) as usize;
        let rows = ins.row_count.max(1) as usize;
        let entities: Vec<&'a ::dxf::entities::Entity> = block.entities.iter().collect();
        stack.push(block.name.as_str());
        for r in 0..rows {
            for c in 0..cols {
                // Every placed copy counts, even of an empty block: an array of 32767 ×
                // 32767 cells is refused, not walked.
                self.expanded += 1;
                if self.expanded > MAX_EXPANDED {
                    return Err(Error::parse(
                        name,
                        format!(
                            "INSERTs expand to more than {MAX_EXPANDED} entities and copies: refused rather than expanded"
                        ),
                    ));
                }
                let inner = plane.after(&local(
                    c as f64 * ins.column_spacing,
                    r as f64 * ins.row_spacing,
                ));
                let placed = xf.after(&inner);
                let cell = if rows * cols > 1 {
                    format!(" [{}, {}]", r + 1, c + 1)
                } else {
                    String::new()
                };
                let here = format!(" in {name}{cell}{where_}");
                self.entities(&entities, &placed, &here, layer, stack)?;
            }
        }
        stack.pop();
        Ok(())
    }
}

/// Splines are cut into chords within this fraction of their control points' extent.
pub const SPLINE_TOLERANCE: f64 = 1e-7;
/// Splines needing more chord points than this, together, are refused (a small file of
/// wiggly splines must not become gigabytes of points).
const MAX_SPLINE_POINTS: usize = 1 << 22;

/// A SPLINE's chords (start to end) and their largest distance from it.
fn spline_points(
    sp: &::dxf::entities::Spline,
    name: &str,
    max_points: usize,
) -> Result<(Vec<[f64; 2]>, f64)> {
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
    let degree = usize::try_from(sp.degree_of_curve).unwrap_or(0);
    let curve = crate::spline::Nurbs::new(degree, sp.knot_values.clone(), points.clone(), weights)
        .map_err(|e| Error::parse(name.to_string(), e))?;
    let (lo, hi) = points.iter().fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    );
    let size = (hi[0] - lo[0]).hypot(hi[1] - lo[1]);
    let tolerance = SPLINE_TOLERANCE * size;
    let (pts, deviation) = curve.flatten(tolerance, max_points).map_err(|e| {
        Error::parse(
            name.to_string(),
            format!("{e} (the splines of one drawing may take {MAX_SPLINE_POINTS} points in all)"),
        )
    })?;
    if pts.len() < 2 {
        return Err(Error::parse(name.to_string(), "has no length"));
    }
    Ok((pts, deviation))
}

/// The DXF type name of an entity the reader ignores (`DIMENSION` for every kind of
/// dimension).
fn kind_name(e: &::dxf::entities::EntityType) -> String {
    let variant = format!("{e:?}");
    let variant = variant.split('(').next().unwrap_or("entity");
    match variant {
        v if v.ends_with("Dimension") => "DIMENSION".into(),
        "ModelPoint" => "POINT".into(),
        "AttributeDefinition" => "ATTDEF".into(),
        "Attribute" => "ATTRIB".into(),
        "ProxyEntity" => "ACAD_PROXY_ENTITY".into(),
        v => v.to_ascii_uppercase(),
    }
}

/// Entity types the `dxf` crate reads; any other type in an ASCII drawing's ENTITIES
/// section is skipped by it, and counted here instead.
const KNOWN: &[&str] = &[
    "3DFACE",
    "3DSOLID",
    "ACAD_PROXY_ENTITY",
    "ARC",
    "ARCALIGNEDTEXT",
    "ATTDEF",
    "ATTRIB",
    "BODY",
    "CIRCLE",
    "DIMENSION",
    "ELLIPSE",
    "HELIX",
    "IMAGE",
    "INSERT",
    "LEADER",
    "LIGHT",
    "LINE",
    "3DLINE",
    "LWPOLYLINE",
    "MLINE",
    "MTEXT",
    "OLEFRAME",
    "OLE2FRAME",
    "POINT",
    "POLYLINE",
    "RAY",
    "REGION",
    "RTEXT",
    "SECTION",
    "SEQEND",
    "SHAPE",
    "SOLID",
    "SPLINE",
    "TEXT",
    "TOLERANCE",
    "TRACE",
    "DGNUNDERLAY",
    "DWFUNDERLAY",
    "PDFUNDERLAY",
    "VERTEX",
    "WIPEOUT",
    "XLINE",
];

/// Entity types the `dxf` crate does not read that carry an outline or a body: refused,
/// since they cannot be dropped without changing the answer.
const GEOMETRIC: &[&str] = &[
    "MESH",
    "SURFACE",
    "EXTRUDEDSURFACE",
    "LOFTEDSURFACE",
    "NURBSURFACE",
    "PLANESURFACE",
    "REVOLVEDSURFACE",
    "SWEPTSURFACE",
];

/// Counts the top-level entities of an ASCII drawing whose type the `dxf` crate skips
/// (`HATCH`, `MULTILEADER`, `ACAD_TABLE`, ...), refusing those that are geometry.
fn unread_entities(bytes: &[u8]) -> Result<std::collections::BTreeMap<String, usize>> {
    let mut counts = std::collections::BTreeMap::new();
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(counts);
    };
    let mut lines = text.lines().map(str::trim);
    let mut in_entities = false;
    while let Some(code) = lines.next() {
        let Some(value) = lines.next() else { break };
        if code != "0" {
            if code == "2" && value == "ENTITIES" {
                in_entities = true;
            }
            continue;
        }
        match value {
            "ENDSEC" if in_entities => break,
            v if in_entities && !KNOWN.contains(&v) => {
                if GEOMETRIC.contains(&v) {
                    return Err(Error::parse(
                        crate::error::clip(v),
                        "this kind of entity is not read, and dropping it could change the outline: export the profile as lines, arcs and polylines",
                    ));
                }
                *counts.entry(crate::error::clip(v)).or_default() += 1;
            }
            _ => {}
        }
    }
    Ok(counts)
}

/// Parses a DXF drawing into polygons (with holes), each named by its outline's entity.
///
/// # Examples
/// ```
/// let dxf = "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n5\n2A\n8\n0\n10\n0\n20\n0\n30\n0\n40\n2\n0\nENDSEC\n0\nEOF\n";
/// let parts = inertia::io::dxf::parse(dxf.as_bytes())?;
/// assert_eq!(parts.len(), 1);
/// let poly = inertia::Polygon::from_rings(parts[0].1.clone())?;
/// let area = inertia::PolygonMethod::Fan.integrate(&poly).properties.area;
/// assert!((area - std::f64::consts::PI * 4.0).abs() < 1e-15 * area); // exact arcs
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<Vec<(String, PolygonRings)>> {
    Ok(parse_with(bytes, &Options::default())?.parts)
}

/// [`parse`] with options (the tolerance within which pieces' ends are joined).
///
/// # Examples
/// ```
/// // A 4 × 2 rectangle drawn as four LINEs, the last one ending 1e-6 short.
/// let line = |h: &str, a: (f64, f64), b: (f64, f64)| format!("0\nLINE\n5\n{h}\n8\n0\n10\n{}\n20\n{}\n11\n{}\n21\n{}\n", a.0, a.1, b.0, b.1);
/// let body = [line("1", (0.0, 0.0), (4.0, 0.0)), line("2", (4.0, 0.0), (4.0, 2.0)),
///             line("3", (4.0, 2.0), (0.0, 2.0)), line("4", (0.0, 2.0), (0.0, 1e-6))].concat();
/// let dxf = format!("0\nSECTION\n2\nENTITIES\n{body}0\nENDSEC\n0\nEOF\n");
/// assert!(inertia::io::dxf::parse(dxf.as_bytes()).is_err());
/// let opts = inertia::io::dxf::Options { join_tolerance: Some(1e-5), ..Default::default() };
/// let read = inertia::io::dxf::parse_with(dxf.as_bytes(), &opts)?;
/// assert_eq!(read.parts[0].1.outer.len(), 4);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse_with(bytes: &[u8], options: &Options) -> Result<Read> {
    let drawing = load(bytes)?;
    let mut c = Collector {
        layers: options.layers.clone(),
        blocks: drawing.blocks().map(|b| (b.name.as_str(), b)).collect(),
        curves: Vec::new(),
        pieces: Vec::new(),
        expanded: 0,
        annotations: Default::default(),
        spline_points: 0,
    };
    let entities: Vec<&::dxf::entities::Entity> = drawing.entities().collect();
    c.entities(&entities, &Affine::IDENTITY, "", "", &mut Vec::new())?;
    let Collector {
        mut curves,
        pieces,
        mut annotations,
        ..
    } = c;
    // Only with all layers: the skipped entities' layers are not read.
    if options.layers.is_empty() {
        for (k, n) in unread_entities(bytes)? {
            *annotations.entry(k).or_default() += n;
        }
    }
    let tol = options.join_tolerance.unwrap_or_else(|| {
        let big = pieces
            .iter()
            .flat_map(|p| p.points.iter())
            .flatten()
            .fold(0.0_f64, |a, c| a.max(c.abs()));
        64.0 * f64::EPSILON * big
    });
    let (chained, ignored) = chain(pieces, tol, options.ignore_open)?;
    curves.extend(chained);
    if curves.is_empty() {
        let on = if options.layers.is_empty() {
            "in the DXF drawing".to_string()
        } else {
            format!("on layer {} of the DXF drawing", options.layers.join(", "))
        };
        return Err(Error::Empty(format!(
            "no closed outline (polyline, circle, or lines and arcs joined end to end) {on}"
        )));
    }
    Ok(Read {
        parts: nest(curves),
        ignored,
        annotations,
    })
}

/// Even-odd nesting: a curve inside an odd number of others is a hole of the innermost
/// curve containing it.
fn nest(curves: Vec<Path>) -> Vec<(String, PolygonRings)> {
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
    // Nesting is decided on the curves cut into chords.
    let drawn: Vec<Vec<[f64; 2]>> = curves.iter().map(Path::chords).collect();
    let areas: Vec<f64> = drawn.iter().map(|c| area(c)).collect();
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
                    max_deviation: curves[i].deviation,
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
            if let Some(d) = curves[h].deviation {
                p.1.max_deviation = Some(p.1.max_deviation.map_or(d, |x| x.max(d)));
            }
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
        let p = crate::Polygon::from_rings(parts[0].1.clone()).unwrap();
        let a = crate::PolygonMethod::Fan.integrate(&p).properties.area;
        let exact = 8.0 + PI - PI / 4.0;
        assert!((a - exact).abs() < 1e-14 * exact, "{a} vs {exact}");
    }

    #[test]
    fn annotations_are_counted_and_unread_geometry_refused() {
        let square = lwpolyline(
            "A1",
            &[
                (0.0, 0.0, 0.0),
                (1.0, 0.0, 0.0),
                (1.0, 1.0, 0.0),
                (0.0, 1.0, 0.0),
            ],
            true,
        );
        let text = "0\nTEXT\n5\n1F\n8\n0\n10\n0\n20\n0\n40\n1\n1\nhello\n";
        // A HATCH, which the dxf crate skips: counted from the file's text.
        let hatch = "0\nHATCH\n5\n2F\n8\n0\n10\n0\n20\n0\n";
        let body = [square.as_str(), text, text, hatch].concat();
        let read = parse_with(&drawing(&body), &Options::default()).unwrap();
        assert_eq!(read.parts.len(), 1);
        let counts: Vec<(&str, usize)> = read
            .annotations
            .iter()
            .map(|(k, n)| (k.as_str(), *n))
            .collect();
        assert_eq!(counts, [("HATCH", 1), ("TEXT", 2)]);
        // A MESH carries a body: refused, not skipped.
        let mesh = "0\nMESH\n5\n3F\n8\n0\n";
        let e = parse(&drawing(&[square.as_str(), mesh].concat()))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("MESH: this kind of entity is not read"),
            "{e}"
        );
    }

    #[test]
    fn huge_angles_end() {
        // A loop adding a turn until the end passes the start never ended for 1e300.
        assert!(turn(-1e300, 360.0) > 0.0);
        assert_eq!(turn(0.0, 360.0), 360.0);
        assert_eq!(turn(-90.0, 360.0), 270.0);
        assert_eq!(turn(360.0, 360.0), 360.0);
        assert_eq!(turn(2.0 * PI, 2.0 * PI), 2.0 * PI);
        // An ARC from 1e300° to 0°: read as from 1e300 mod 360 (= 0 in f64) to 0, a full
        // circle, at once; an ARC from 45° to 1e300° + 45° likewise.
        let arc = "0\nARC\n5\n1A\n8\n0\n10\n0\n20\n0\n40\n1\n50\n1e300\n51\n0\n";
        let parts = parse(&drawing(arc)).unwrap();
        assert_eq!(parts[0].1.outer.len(), 4);
        let arc = "0\nARC\n5\n1C\n8\n0\n10\n0\n20\n0\n40\n1\n50\n45\n51\n-1e300\n";
        assert!(parse(&drawing(arc)).is_ok());
        let ellipse =
            "0\nELLIPSE\n5\n1B\n8\n0\n10\n0\n20\n0\n11\n2\n21\n0\n40\n0.5\n41\n1e300\n42\n0\n";
        assert!(parse(&drawing(ellipse)).is_err() || parse(&drawing(ellipse)).is_ok());
    }

    #[test]
    fn refusals() {
        let e = |b: &[u8]| parse(b).unwrap_err().to_string();
        assert!(
            e(&drawing(&lwpolyline(
                "C3",
                &[(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0)],
                false
            )))
            .starts_with(
                "LWPOLYLINE C3: (0, 0)–(1, 1) is not part of a closed outline: its end at (0, 0) meets no other piece"
            )
        );
        assert_eq!(
            e(&drawing(
                "0\nLINE\n5\nD4\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n"
            )),
            "LINE D4: (0, 0)–(1, 0) is not part of a closed outline: its end at (0, 0) meets no other piece (the nearest other end is 1 away)"
        );
        // A gap small beside the drawing gets the tolerance that would close it.
        let gap = [
            "0\nLINE\n5\nE1\n8\n0\n10\n0\n20\n0\n11\n4\n21\n0\n",
            "0\nLINE\n5\nE2\n8\n0\n10\n4\n20\n0\n11\n4\n21\n2\n",
            "0\nLINE\n5\nE3\n8\n0\n10\n4\n20\n2\n11\n0\n21\n2\n",
            "0\nLINE\n5\nE4\n8\n0\n10\n0\n20\n2\n11\n0\n21\n0.000001\n",
        ]
        .concat();
        let msg = e(&drawing(&gap));
        assert!(
            msg.contains(
                "the nearest other end is 1e-6 away: --join-tolerance 1.5e-6 would join them"
            ),
            "{msg}"
        );
        assert!(e(b"garbage").starts_with("DXF"));
        assert!(e(&drawing("")).contains("no closed outline"));
    }

    #[test]
    fn lines_arcs_and_open_polylines_chain_into_outlines() {
        let line = |h: &str, a: [f64; 2], b: [f64; 2]| {
            format!(
                "0\nLINE\n5\n{h}\n8\n0\n10\n{}\n20\n{}\n11\n{}\n21\n{}\n",
                a[0], a[1], b[0], b[1]
            )
        };
        let arc = |h: &str, c: [f64; 2], r: f64, s: f64, e: f64| {
            format!(
                "0\nARC\n5\n{h}\n8\n0\n10\n{}\n20\n{}\n40\n{r}\n50\n{s}\n51\n{e}\n",
                c[0], c[1]
            )
        };
        let area = |text: &str| {
            let parts = parse(&drawing(text)).unwrap();
            assert_eq!(parts.len(), 1);
            let p = crate::Polygon::from_rings(parts[0].1.clone()).unwrap();
            crate::PolygonMethod::Fan.integrate(&p).properties.area
        };
        // A 100 × 50 plate of four LINEs, out of order and two reversed.
        let plate = [
            line("A", [0.0, 0.0], [100.0, 0.0]),
            line("C", [100.0, 50.0], [0.0, 50.0]),
            line("B", [100.0, 50.0], [100.0, 0.0]),
            line("D", [0.0, 0.0], [0.0, 50.0]),
        ]
        .concat();
        assert_eq!(area(&plate), 5000.0);
        // A slot: two LINEs and two half-circle ARCs, 40 between centres, radius 5.
        let slot = [
            line("1", [0.0, -5.0], [40.0, -5.0]),
            arc("2", [40.0, 0.0], 5.0, 270.0, 90.0),
            line("3", [40.0, 5.0], [0.0, 5.0]),
            arc("4", [0.0, 0.0], 5.0, 90.0, 270.0),
        ]
        .concat();
        let exact = 400.0 + PI * 25.0;
        let a = area(&slot);
        assert!((a - exact).abs() < 1e-14 * exact, "{a} vs {exact}");
        // An open polyline closed by a LINE, and one whose last point is its first.
        let l = lwpolyline(
            "E1",
            &[(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (4.0, 3.0, 0.0)],
            false,
        );
        assert_eq!(area(&(l + &line("E2", [4.0, 3.0], [0.0, 0.0]))), 6.0);
        let l = lwpolyline(
            "E3",
            &[
                (0.0, 0.0, 0.0),
                (4.0, 0.0, 0.0),
                (4.0, 3.0, 0.0),
                (0.0, 0.0, 0.0),
            ],
            false,
        );
        assert_eq!(area(&l), 6.0);
        // Three pieces at one point branch; a SPLINE without control points is refused,
        // never dropped.
        let e = parse(&drawing(
            &(plate.clone()
                + &line("E", [0.0, 0.0], [50.0, 25.0])
                + &line("F", [50.0, 25.0], [100.0, 50.0])),
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("3 pieces meet at (0, 0)"), "{e}");
        let e = parse(&drawing(&(plate + "0\nSPLINE\n5\n5A\n8\n0\n")))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("SPLINE 5A: is given by fit points only"),
            "{e}"
        );
    }
}
