//! Validation: rings cleaned of repeated points, checked for crossings (a sweep line with
//! exact predicates) and zero area, holes nested inside the outer ring, every ring
//! oriented (outer counter-clockwise, holes clockwise).

use super::{Polygon, PolygonRings, Winding};
use crate::curve::Curve;
use crate::error::{Error, Result, Ring};
use crate::sweep::first_contact;
use nalgebra::Point2;
use rayon::prelude::*;

/// Polygons of this many vertices and more are checked and integrated at once, on two
/// cores.
const PARALLEL_FROM: usize = 1 << 16;

/// A ring after cleaning, with the input number (from 1) of each kept vertex.
struct CleanRing {
    points: Vec<Point2<f64>>,
    input_index: Vec<usize>,
    ring: Ring,
}

impl Polygon {
    /// Validates an outer ring and holes given as `[x, y]` points (either winding).
    ///
    /// # Errors
    /// [`Error::TooFewPoints`], [`Error::NonFiniteCoordinate`], [`Error::ZeroArea`],
    /// [`Error::SelfIntersection`] (edges that cross, touch or overlap, within a ring or
    /// between rings), [`Error::BadHole`] (a hole outside the outer ring or inside
    /// another), [`Error::Unresolvable`] (coordinates f64 cannot resolve),
    /// [`Error::TooLarge`] (more vertices than the crossing check takes).
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// assert_eq!(sq.vertex_count(), 4);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new(outer: Vec<[f64; 2]>, holes: Vec<Vec<[f64; 2]>>) -> Result<Self> {
        Self::new_swept(outer, holes, true)
    }

    /// [`Polygon::new`], without looking for edges that meet when `own_sweep` is false: for
    /// a part of a file whose rings are all swept together (which sees them too).
    pub(crate) fn new_swept(
        outer: Vec<[f64; 2]>,
        holes: Vec<Vec<[f64; 2]>>,
        own_sweep: bool,
    ) -> Result<Self> {
        let input_vertices = outer.len() + holes.iter().map(Vec::len).sum::<usize>();
        let mut rings = Vec::with_capacity(1 + holes.len());
        rings.push(clean_ring(&outer, Ring::Outer)?);
        for (k, h) in holes.iter().enumerate() {
            rings.push(clean_ring(h, Ring::Hole(k + 1))?);
        }
        // The cleaned copies are all that is needed from here on.
        drop((outer, holes));
        let areas: Vec<f64> = rings.iter().map(|r| signed_area(&r.points)).collect();
        // All points on one line: say so, rather than report overlapping edges.
        for (r, a) in rings.iter().zip(&areas) {
            if *a == 0.0 && collinear(&r.points) {
                return Err(Error::ZeroArea { ring: r.ring });
            }
        }
        let winding = if areas[0] > 0.0 {
            Winding::CounterClockwise
        } else {
            Winding::Clockwise
        };
        // Reverse a ring by keeping its first vertex and reversing the rest: the reference
        // point and every fan triangle stay the same, only negated, so the stored orientation
        // agrees with the sign just measured even where rounding is severe.
        let orient = |mut p: Vec<Point2<f64>>, flip: bool| {
            if flip {
                p[1..].reverse();
            }
            p
        };
        let build = |rings: Vec<Vec<Point2<f64>>>| {
            let mut rings = rings.into_iter().zip(&areas);
            let (outer, outer_area) = rings.next().expect("the outer ring is always present");
            let outer = orient(outer, *outer_area < 0.0);
            let holes: Vec<Vec<Point2<f64>>> = rings.map(|(h, a)| orient(h, *a > 0.0)).collect();
            Polygon {
                outer,
                holes,
                winding,
                input_vertices,
                arcs: vec![],
                outline: vec![],
                max_deviation: None,
                integrals: None,
            }
        };
        // A large polygon is integrated on one core while the other checks it (the sweep
        // runs on one): the checks' verdict comes first, as when they ran one after the
        // other, and the integrals of a polygon they refuse are thrown away. Not for a ring
        // of zero area, which the checks refuse after the sweep.
        if input_vertices >= PARALLEL_FROM && areas.iter().all(|a| *a != 0.0) {
            // One ring given counter-clockwise is integrated as it stands, without a copy.
            if rings.len() == 1 && areas[0] > 0.0 {
                let view = crate::method::Rings {
                    outer: &rings[0].points,
                    holes: &[],
                    arcs: &[],
                };
                let (checks, integrals) = rayon::join(
                    || {
                        if own_sweep {
                            check_intersections(&rings)?;
                        }
                        check_holes(&rings)
                    },
                    || super::resolve::integrals_of(view),
                );
                checks?;
                let integrals = integrals?;
                let mut polygon = build(rings.into_iter().map(|r| r.points).collect());
                polygon.integrals = Some(integrals);
                return Ok(polygon);
            }
            let copy = rings.iter().map(|r| r.points.clone()).collect();
            let (checks, integrated) = rayon::join(
                || {
                    if own_sweep {
                        check_intersections(&rings)?;
                    }
                    check_holes(&rings)
                },
                || build(copy).integrated(),
            );
            checks?;
            return integrated;
        }
        if own_sweep {
            check_intersections(&rings)?;
        }
        // A simple ring that is not collinear has non-zero area, but rounding may say
        // otherwise for a sliver: never divide by it.
        for (r, a) in rings.iter().zip(&areas) {
            if *a == 0.0 {
                return Err(Error::ZeroArea { ring: r.ring });
            }
        }
        check_holes(&rings)?;
        build(rings.into_iter().map(|r| r.points).collect()).integrated()
    }

    /// Validates a polygon whose edges may be circular or elliptic arcs (as a DXF drawing
    /// gives them): `rings.arcs` holds, per ring, the curve of each edge. The checks for
    /// crossing edges and nesting run on the curves cut into chords (at most 1/128 of a
    /// turn each); the integrals are exact for the curves themselves (see [`crate::curve::arc`]).
    ///
    /// # Errors
    /// As [`Polygon::new`], the checks running on the curves cut into chords.
    ///
    /// # Examples
    /// ```
    /// use inertia::{curve::ArcEdge, io::PolygonRings, Polygon, PolygonMethod};
    /// // A unit disc from two half circles (bulge 1).
    /// let (a, b) = ([1.0, 0.0], [-1.0, 0.0]);
    /// let halves = [ArcEdge::from_bulge(a, b, 1.0), ArcEdge::from_bulge(b, a, 1.0)];
    /// let arcs = vec![halves.map(|h| h.map(Into::into)).to_vec()];
    /// let disc = Polygon::from_rings(PolygonRings { outer: vec![a, b], arcs, ..Default::default() })?;
    /// let i = PolygonMethod::Fan.integrate(&disc);
    /// assert!((i.properties.area - std::f64::consts::PI).abs() < 1e-15);
    /// assert!((i.polar - std::f64::consts::PI / 2.0).abs() < 1e-15);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn from_rings(rings: PolygonRings) -> Result<Self> {
        Self::from_rings_swept(rings, true)
    }

    /// [`Polygon::from_rings`], without looking for edges that meet when `own_sweep` is
    /// false (see [`Polygon::new_swept`]).
    pub(crate) fn from_rings_swept(rings: PolygonRings, own_sweep: bool) -> Result<Self> {
        let PolygonRings {
            outer,
            holes,
            arcs,
            max_deviation,
        } = rings;
        if !arcs.iter().flatten().any(Option::is_some) {
            return Polygon::new_swept(outer, holes, own_sweep).map(|mut p| {
                p.max_deviation = max_deviation;
                p
            });
        }
        let input_vertices = outer.len() + holes.iter().map(Vec::len).sum::<usize>();
        // Each ring cleaned and cut into chords on every core; the first refusal in ring
        // order is the one reported, as when they were taken one by one.
        let all: Vec<&Vec<[f64; 2]>> = std::iter::once(&outer).chain(&holes).collect();
        let cut: Vec<Result<(CurvedRing, CleanRing)>> = all
            .par_iter()
            .enumerate()
            .map(|(k, points)| {
                let ring = if k == 0 { Ring::Outer } else { Ring::Hole(k) };
                let edges = arcs.get(k).map(Vec::as_slice).unwrap_or(&[]);
                let (p, e) = clean_curved_ring(points, edges, ring)?;
                let t = chords_of(&p, &e, ring)?;
                Ok(((p, e), t))
            })
            .collect();
        let mut exact = Vec::with_capacity(1 + holes.len());
        let mut tess = Vec::with_capacity(1 + holes.len());
        for r in cut {
            let (pe, t) = r?;
            exact.push(pe);
            tess.push(t);
        }
        // The exact signed area of each ring: its chord polygon and its segments.
        let areas: Vec<f64> = exact
            .iter()
            .map(|(p, e)| {
                let o = p[0];
                let local = |q: Point2<f64>| [q.x - o.x, q.y - o.y];
                signed_area(p)
                    + (0..p.len())
                        .filter_map(|i| {
                            let c = e[i].as_ref()?;
                            Some(
                                c.segment_integrals(
                                    local(p[i]),
                                    local(p[(i + 1) % p.len()]),
                                    [0.0; 2],
                                )
                                .0,
                            )
                        })
                        .sum::<f64>()
            })
            .collect();
        if own_sweep {
            check_intersections(&tess)?;
        }
        for (r, a) in tess.iter().zip(&areas) {
            if *a == 0.0 || !a.is_finite() {
                return Err(Error::ZeroArea { ring: r.ring });
            }
        }
        check_holes(&tess)?;
        let winding = if areas[0] > 0.0 {
            Winding::CounterClockwise
        } else {
            Winding::Clockwise
        };
        // Outer ring counter-clockwise, holes clockwise, as for straight polygons.
        let mut points = Vec::with_capacity(exact.len());
        let mut curves = Vec::with_capacity(exact.len());
        let mut outline = Vec::with_capacity(exact.len());
        for (k, (((mut p, mut e), t), a)) in exact.into_iter().zip(tess).zip(areas).enumerate() {
            let mut t = t.points;
            if (k == 0) == (a < 0.0) {
                p[1..].reverse();
                e.reverse();
                for c in e.iter_mut().flatten() {
                    *c = c.reversed();
                }
                t[1..].reverse();
            }
            points.push(p);
            curves.push(e);
            outline.push(t);
        }
        let mut rings = points.into_iter();
        let outer = rings.next().expect("the outer ring is always present");
        Polygon {
            outer,
            holes: rings.collect(),
            winding,
            input_vertices,
            arcs: curves,
            outline,
            max_deviation,
            integrals: None,
        }
        .integrated()
    }
}

/// A ring's vertices and the curve of each edge (`None` where straight).
type CurvedRing = (Vec<Point2<f64>>, Vec<Option<Curve>>);

/// A ring with curved edges, its finite points kept and a point that repeats its
/// neighbour across a straight edge dropped.
fn clean_curved_ring(
    points: &[[f64; 2]],
    edges: &[Option<Curve>],
    ring: Ring,
) -> Result<CurvedRing> {
    let n = points.len();
    let mut p = Vec::with_capacity(n);
    let mut e = Vec::with_capacity(n);
    for (i, q) in points.iter().enumerate() {
        for &v in q {
            if !v.is_finite() {
                return Err(Error::NonFiniteCoordinate {
                    ring,
                    vertex: i + 1,
                    value: v,
                });
            }
        }
        let edge = edges.get(i).cloned().flatten();
        if let Some(c) = &edge
            && !c.is_finite()
        {
            return Err(Error::Unresolvable {
                what: crate::error::Unresolved::CurvedEdge {
                    ring,
                    vertex: i + 1,
                },
            });
        }
        if edge.is_none() && points[(i + 1) % n] == *q && n > 1 {
            continue;
        }
        p.push(Point2::new(q[0], q[1]));
        e.push(edge);
    }
    if p.len() < 2 || (p.len() == 2 && e.iter().all(Option::is_none)) {
        return Err(Error::TooFewPoints {
            ring,
            count: p.len(),
        });
    }
    Ok((p, e))
}

/// A ring with its curves cut into chords; each point carries the number of the edge it
/// lies on, so that errors name the edges of the input.
fn chords_of(p: &[Point2<f64>], e: &[Option<Curve>], ring: Ring) -> Result<CleanRing> {
    let vertices: Vec<[f64; 2]> = p.iter().map(|q| [q.x, q.y]).collect();
    let mut points = Vec::with_capacity(p.len());
    let mut input_index = Vec::with_capacity(p.len());
    for (q, edge) in crate::curve::ring_chords(&vertices, e) {
        let q = Point2::new(q[0], q[1]);
        if points.last() != Some(&q) {
            points.push(q);
            input_index.push(edge + 1);
        }
    }
    while points.len() > 1 && points.last() == points.first() {
        points.pop();
        input_index.pop();
    }
    if points.len() < 3 {
        return Err(Error::TooFewPoints {
            ring,
            count: points.len(),
        });
    }
    Ok(CleanRing {
        points,
        input_index,
        ring,
    })
}

fn clean_ring(points: &[[f64; 2]], ring: Ring) -> Result<CleanRing> {
    let mut out = Vec::with_capacity(points.len());
    let mut input_index = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        for &v in p {
            if !v.is_finite() {
                return Err(Error::NonFiniteCoordinate {
                    ring,
                    vertex: i + 1,
                    value: v,
                });
            }
        }
        let q = Point2::new(p[0], p[1]);
        if out.last() == Some(&q) {
            // A repeated point: the edge onward starts at the last copy.
            if let Some(last) = input_index.last_mut() {
                *last = i + 1;
            }
        } else {
            out.push(q);
            input_index.push(i + 1);
        }
    }
    // A closing point equal to the first (possibly repeated) is not a vertex.
    while out.len() > 1 && out.last() == out.first() {
        out.pop();
        input_index.pop();
    }
    if out.len() < 3 {
        return Err(Error::TooFewPoints {
            ring,
            count: out.len(),
        });
    }
    Ok(CleanRing {
        points: out,
        input_index,
        ring,
    })
}

/// The signed area of a ring (shoelace, relative to its first vertex): positive if counter-clockwise.
fn signed_area(r: &[Point2<f64>]) -> f64 {
    let o = r[0];
    let mut s = 0.0;
    for i in 1..r.len() - 1 {
        let a = r[i] - o;
        let b = r[i + 1] - o;
        s += a.x * b.y - a.y * b.x;
    }
    0.5 * s
}

/// True if every point of the ring lies on the line through its first two points.
fn collinear(r: &[Point2<f64>]) -> bool {
    let (o, d) = (r[0], r[1] - r[0]);
    r.iter().all(|p| {
        let v = p - o;
        d.x * v.y - d.y * v.x == 0.0
    })
}

/// The ring points as the sweep takes them, refusing more than it can number.
pub(super) fn sweep_rings<'a>(
    rings: impl Iterator<Item = &'a [Point2<f64>]>,
) -> Result<Vec<&'a [Point2<f64>]>> {
    let rings: Vec<&[Point2<f64>]> = rings.collect();
    let total: usize = rings.iter().map(|r| r.len()).sum();
    if total > crate::sweep::MAX_VERTICES {
        return Err(Error::TooLarge {
            excess: crate::error::Excess::Vertices {
                count: total,
                max: crate::sweep::MAX_VERTICES,
            },
        });
    }
    Ok(rings)
}

fn check_intersections(rings: &[CleanRing]) -> Result<()> {
    let points = sweep_rings(rings.iter().map(|r| r.points.as_slice()))?;
    let Some(c) = first_contact(&points) else {
        return Ok(());
    };
    let (ra, rb) = (&rings[c.a.ring], &rings[c.b.ring]);
    Err(Error::SelfIntersection {
        ring_a: ra.ring,
        edge_a: ra.input_index[c.a.index],
        ring_b: rb.ring,
        edge_b: rb.input_index[c.b.index],
        kind: crate::error::EdgesMeet::from_word(c.kind),
        x: c.at[0],
        y: c.at[1],
    })
}

/// Even-odd test of a point against a ring (the point is known not to lie on it), exact:
/// an edge across the point's height is to its right when the point is left of the edge
/// taken upwards (an exact orientation sign).
pub(super) fn inside(p: Point2<f64>, ring: &[Point2<f64>]) -> bool {
    let mut c = false;
    let n = ring.len();
    let mut j = n - 1;
    let q = [p.x, p.y];
    for i in 0..n {
        let (a, b) = (ring[i], ring[j]);
        if (a.y > p.y) != (b.y > p.y) {
            let (lo, hi) = if a.y < b.y { (a, b) } else { (b, a) };
            if crate::predicates::orient2(&[lo.x, lo.y], &[hi.x, hi.y], &q) > 0 {
                c = !c;
            }
        }
        j = i;
    }
    c
}

pub(super) fn bbox(r: &[Point2<f64>]) -> [f64; 4] {
    r.iter().fold(
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
        |b, p| [b[0].min(p.x), b[1].min(p.y), b[2].max(p.x), b[3].max(p.y)],
    )
}

fn check_holes(rings: &[CleanRing]) -> Result<()> {
    // No edges cross, so one vertex tells whether a whole ring is inside another.
    let outer = &rings[0].points;
    let boxes: Vec<[f64; 4]> = rings.iter().map(|r| bbox(&r.points)).collect();
    let within =
        |a: &[f64; 4], b: &[f64; 4]| a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3];
    for (k, h) in rings.iter().enumerate().skip(1) {
        if !within(&boxes[k], &boxes[0]) || !inside(h.points[0], outer) {
            return Err(Error::BadHole {
                hole: k,
                problem: crate::error::HoleProblem::OutsideOuter,
            });
        }
    }
    // A hole inside another: only holes whose box holds its first point can contain it,
    // found with an R*-tree rather than by testing every pair (10⁵ holes).
    use rstar::{AABB, RTree, primitives::GeomWithData, primitives::Rectangle};
    let tree = RTree::bulk_load(
        boxes
            .iter()
            .enumerate()
            .skip(1)
            .map(|(j, b)| GeomWithData::new(Rectangle::from_corners([b[0], b[1]], [b[2], b[3]]), j))
            .collect(),
    );
    for (k, h) in rings.iter().enumerate().skip(1) {
        let p = h.points[0];
        let mut around: Vec<usize> = tree
            .locate_in_envelope_intersecting(&AABB::from_point([p.x, p.y]))
            .map(|g| g.data)
            .filter(|&j| j != k && within(&boxes[k], &boxes[j]) && inside(p, &rings[j].points))
            .collect();
        around.sort_unstable();
        if let Some(&j) = around.first() {
            return Err(Error::BadHole {
                hole: k,
                problem: crate::error::HoleProblem::InsideHole(j),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(outer: Vec<[f64; 2]>, holes: Vec<Vec<[f64; 2]>>) -> String {
        Polygon::new(outer, holes).unwrap_err().to_string()
    }

    const SQUARE: [[f64; 2]; 4] = [[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];

    #[test]
    fn cleaning_and_winding() {
        let p = Polygon::new(
            vec![
                [0.0, 0.0],
                [0.0, 0.0],
                [0.0, 1.0],
                [1.0, 1.0],
                [1.0, 0.0],
                [0.0, 0.0],
                [0.0, 0.0],
            ],
            vec![],
        )
        .unwrap();
        assert_eq!(p.outer().len(), 4);
        assert_eq!(p.winding(), Winding::Clockwise);
        assert!(signed_area(p.outer()) > 0.0);
        assert_eq!(p.input_vertex_count(), 7);
        assert_eq!(p.perimeter(), 4.0);
    }

    #[test]
    fn holes_are_stored_clockwise_whatever_their_winding() {
        let hole = vec![[1.0, 1.0], [2.0, 1.0], [2.0, 2.0], [1.0, 2.0]];
        let mut rev = hole.clone();
        rev.reverse();
        for h in [hole, rev] {
            let p = Polygon::new(SQUARE.to_vec(), vec![h]).unwrap();
            assert!(signed_area(&p.holes()[0]) < 0.0);
        }
    }

    #[test]
    fn refusals_name_the_place() {
        assert_eq!(
            err(vec![[0.0, 0.0], [1.0, 0.0]], vec![]),
            "outer ring has 2 distinct point(s); a polygon needs at least 3"
        );
        assert_eq!(
            err(vec![[0.0, 0.0], [1.0, f64::NAN], [1.0, 1.0]], vec![]),
            "outer ring, vertex 2: coordinate NaN is not a finite number"
        );
        assert_eq!(
            err(vec![[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], vec![]),
            "outer ring has zero area (its points are collinear)"
        );
        assert_eq!(
            err(vec![[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 3.0]], vec![]),
            "outer ring edge 1 and outer ring edge 3 cross at (1.2, 1.2); the polygon must not intersect itself"
        );
        // A symmetric bow tie has zero signed area: still reported as a crossing.
        assert!(
            err(vec![[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 2.0]], vec![])
                .contains("cross at (1, 1)")
        );
        // A hole crossing the outer ring.
        let e = err(
            SQUARE.to_vec(),
            vec![vec![[3.0, 1.0], [5.0, 1.0], [5.0, 2.0], [3.0, 2.0]]],
        );
        assert!(
            e.starts_with("outer ring edge 2 and hole 1 edge 1 cross at (4, 1)"),
            "{e}"
        );
        let e = err(
            SQUARE.to_vec(),
            vec![vec![[5.0, 1.0], [6.0, 1.0], [6.0, 2.0]]],
        );
        assert_eq!(e, "hole 1 is not inside the outer ring");
        let e = err(
            SQUARE.to_vec(),
            vec![
                vec![[0.5, 0.5], [3.5, 0.5], [3.5, 3.5], [0.5, 3.5]],
                vec![[1.0, 1.0], [2.0, 1.0], [2.0, 2.0]],
            ],
        );
        assert_eq!(e, "hole 2 lies inside hole 1; holes must not nest");
    }

    #[test]
    fn touching_and_overlapping_edges_are_refused() {
        // Vertex 5 touches edge 1 (a pinched ring).
        let e = err(
            vec![
                [0.0, 0.0],
                [4.0, 0.0],
                [4.0, 4.0],
                [2.0, 4.0],
                [2.0, 0.0],
                [0.0, 4.0],
            ],
            vec![],
        );
        assert!(e.contains("touch at (2, 0)"), "{e}");
        // A spike going back along itself.
        let e = err(vec![[0.0, 0.0], [4.0, 0.0], [2.0, 0.0], [2.0, 3.0]], vec![]);
        assert!(e.contains("overlap"), "{e}");
    }

    #[test]
    fn large_polygons_checked_and_integrated_at_once_as_in_turn() {
        let n = PARALLEL_FROM + 10;
        let star: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / n as f64;
                let r = if k % 2 == 0 { 1.0 } else { 1.3 };
                [1e6 + r * t.cos(), r * t.sin()]
            })
            .collect();
        let mut clockwise = star.clone();
        clockwise.reverse();
        for pts in [star.clone(), clockwise] {
            // Integrated beside the checks (without a copy when counter-clockwise): the
            // integrals of the polygon as stored, as when integrated after the checks.
            let p = Polygon::new(pts, vec![]).unwrap();
            let again = super::super::resolve::integrals_of(p.view()).unwrap();
            assert_eq!(p.integrals, Some(again));
        }
        // A crossing is still what is reported.
        let mut crossing = star;
        crossing.swap(100, 102);
        let e = err(crossing, vec![]);
        assert!(e.contains("cross"), "{e}");
    }

    #[test]
    fn edge_numbers_follow_the_input_after_dropping_duplicates() {
        let e = err(
            vec![[0.0, 0.0], [0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 3.0]],
            vec![],
        );
        assert!(
            e.starts_with("outer ring edge 2 and outer ring edge 4 cross"),
            "{e}"
        );
    }
}
