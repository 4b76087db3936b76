//! A validated simple polygon with optional holes.

use crate::error::{Error, Result, Ring};
use crate::method::{PolygonIntegral, PolygonMethod};
use crate::sweep::{SweepEdge, first_contact};
use nalgebra::Point2;

/// Orientation of a ring as given in the input.
///
/// # Examples
/// ```
/// let p = inertia::Polygon::new(vec![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]], vec![])?;
/// assert_eq!(p.winding(), inertia::Winding::Clockwise);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winding {
    /// Counter-clockwise (positive signed area).
    CounterClockwise,
    /// Clockwise (negative signed area).
    Clockwise,
}

impl Winding {
    /// `"ccw"` or `"cw"`.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::Winding::Clockwise.short_name(), "cw");
    /// ```
    pub fn short_name(self) -> &'static str {
        match self {
            Winding::CounterClockwise => "ccw",
            Winding::Clockwise => "cw",
        }
    }
}

/// A simple polygon, possibly with holes, checked to be valid.
///
/// Construction drops a repeated closing point and consecutive duplicate points, then refuses
/// non-finite coordinates, rings with fewer than three points or zero area, edges that cross
/// or touch (found with a sweep line, O(n log n) for ordinary shapes), holes outside the outer
/// ring and holes inside other holes. The outer ring is stored counter-clockwise and every
/// hole clockwise, so that signed sums over all rings give the area of the polygon with its
/// holes removed, whatever the input winding.
///
/// # Examples
/// ```
/// use inertia::Polygon;
/// let square = Polygon::new(vec![[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]], vec![])?;
/// assert_eq!(square.outer().len(), 4); // the closing point is dropped
/// assert_eq!(square.winding().short_name(), "cw"); // as given; stored ccw
///
/// let bowtie = Polygon::new(vec![[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 2.0]], vec![]);
/// assert!(bowtie.unwrap_err().to_string().contains("cross"));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Polygon {
    outer: Vec<Point2<f64>>,
    holes: Vec<Vec<Point2<f64>>>,
    winding: Winding,
    input_vertices: usize,
    /// Each method's integral (in `PolygonMethod::ALL` order), computed by the checks in
    /// [`Polygon::new`].
    integrals: Option<[PolygonIntegral; 3]>,
}

/// A ring after cleaning, with the input number (from 1) of each kept vertex.
struct CleanRing {
    points: Vec<Point2<f64>>,
    input_index: Vec<usize>,
    ring: Ring,
}

impl Polygon {
    /// Validates an outer ring and holes given as `[x, y]` points (either winding).
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// assert_eq!(sq.vertex_count(), 4);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new(outer: Vec<[f64; 2]>, holes: Vec<Vec<[f64; 2]>>) -> Result<Self> {
        let input_vertices = outer.len() + holes.iter().map(Vec::len).sum::<usize>();
        let mut rings = Vec::with_capacity(1 + holes.len());
        rings.push(clean_ring(&outer, Ring::Outer)?);
        for (k, h) in holes.iter().enumerate() {
            rings.push(clean_ring(h, Ring::Hole(k + 1))?);
        }
        let areas: Vec<f64> = rings.iter().map(|r| signed_area(&r.points)).collect();
        // All points on one line: say so, rather than report overlapping edges.
        for (r, a) in rings.iter().zip(&areas) {
            if *a == 0.0 && collinear(&r.points) {
                return Err(Error::ZeroArea { ring: r.ring });
            }
        }
        check_intersections(&rings)?;
        // A simple ring that is not collinear has non-zero area, but rounding may say
        // otherwise for a sliver: never divide by it.
        for (r, a) in rings.iter().zip(&areas) {
            if *a == 0.0 {
                return Err(Error::ZeroArea { ring: r.ring });
            }
        }
        check_holes(&rings)?;

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
        let mut rings = rings.into_iter().zip(areas);
        let (outer, outer_area) = rings.next().expect("the outer ring is always present");
        let outer = orient(outer.points, outer_area < 0.0);
        let holes: Vec<Vec<Point2<f64>>> = rings.map(|(h, a)| orient(h.points, a > 0.0)).collect();
        let mut polygon = Polygon {
            outer,
            holes,
            winding,
            input_vertices,
            integrals: None,
        };
        // The methods integrate fans about the outer ring's first vertex (area, centroid)
        // and then about the centroid (moments). Both must see the same, positive area:
        // coordinates spanning more than f64 resolves (a 1e8 edge on a 1e86 triangle) break
        // that, and would give moments of zero rather than an error.
        let frame = crate::method::LocalFrame::new(&polygon);
        let twice_about_centroid: f64 = frame
            .rings_about_centroid()
            .map(|r| {
                let p0 = r[0];
                r[1..]
                    .windows(2)
                    .map(|w| crate::method::cross(w[0] - p0, w[1] - p0))
                    .sum::<f64>()
            })
            .sum();
        let area_c = 0.5 * twice_about_centroid;
        if frame.area.is_infinite() {
            return Err(Error::Unresolvable(
                "the polygon's area overflows f64 (coordinates too large)".into(),
            ));
        }
        if !(frame.area > 0.0 && frame.centroid.x.is_finite() && frame.centroid.y.is_finite())
            || (area_c - frame.area).abs() > 1e-9 * frame.area
        {
            return Err(Error::Unresolvable(format!(
                "the polygon's coordinates span more than f64 can resolve (its area computes as {} about its first vertex and {} about its centroid)",
                frame.area, area_c
            )));
        }
        // Every method must give a physical, mutually consistent answer: a positive
        // semi-definite tensor, and each method's polar moment within 1e-6 of its trace.
        // Extreme shapes (needles 1e13 long per unit width) can defeat f64; refuse them.
        let integrals = PolygonMethod::ALL.map(|m| m.compute(&polygon));
        let m = integrals[0].properties.moments;
        let trace = m.polar();
        let physical = m.ixx >= 0.0
            && m.iyy >= 0.0
            && trace > 0.0
            && m.ixx * m.iyy - m.ixy * m.ixy >= -1e-9 * trace * trace;
        if !physical || !trace.is_finite() {
            return Err(Error::Unresolvable(format!(
                "the polygon's coordinates span more than f64 can resolve: its second moments come out unphysical (Ixx {}, Iyy {}, Ixy {})",
                m.ixx, m.iyy, m.ixy
            )));
        }
        for (method, integral) in PolygonMethod::ALL.iter().zip(&integrals).skip(1) {
            let polar = integral.polar;
            if polar.is_nan() || (polar - trace).abs() > 1e-6 * trace {
                return Err(Error::Unresolvable(format!(
                    "the polygon's coordinates span more than f64 can resolve: the {} method's polar moment {} differs from {}",
                    method.name(),
                    polar,
                    trace
                )));
            }
        }
        polygon.integrals = Some(integrals);
        Ok(polygon)
    }

    /// The integral `method` gave during validation, if this polygon was validated.
    pub(crate) fn integral(&self, method: PolygonMethod) -> Option<PolygonIntegral> {
        let k = PolygonMethod::ALL.iter().position(|m| *m == method)?;
        self.integrals.map(|i| i[k])
    }

    /// The outer ring, counter-clockwise, without a closing point.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]], vec![])?;
    /// assert_eq!(p.outer().len(), 3); // stored counter-clockwise
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn outer(&self) -> &[Point2<f64>] {
        &self.outer
    }

    /// The holes, each clockwise, without closing points.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]], vec![vec![[1.0, 1.0], [2.0, 1.0], [2.0, 2.0]]])?;
    /// assert_eq!(p.holes().len(), 1);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn holes(&self) -> &[Vec<Point2<f64>>] {
        &self.holes
    }

    /// The outer ring followed by the holes.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]], vec![vec![[1.0, 1.0], [2.0, 1.0], [2.0, 2.0]]])?;
    /// assert_eq!(p.rings().count(), 2);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn rings(&self) -> impl Iterator<Item = &[Point2<f64>]> {
        std::iter::once(self.outer.as_slice()).chain(self.holes.iter().map(Vec::as_slice))
    }

    /// The winding of the outer ring as it was given.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], vec![])?;
    /// assert_eq!(p.winding(), inertia::Winding::CounterClockwise);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn winding(&self) -> Winding {
        self.winding
    }

    /// The point all methods accumulate about: the first vertex of the outer ring.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[5.0, 5.0], [6.0, 5.0], [5.0, 6.0]], vec![])?;
    /// assert_eq!(p.reference(), nalgebra::Point2::new(5.0, 5.0));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn reference(&self) -> Point2<f64> {
        self.outer[0]
    }

    /// Number of distinct vertices kept, over all rings.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], vec![])?;
    /// assert_eq!((p.vertex_count(), p.input_vertex_count()), (3, 4));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn vertex_count(&self) -> usize {
        self.rings().map(<[_]>::len).sum()
    }

    /// Number of points given in the input, over all rings (closing points included).
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], vec![])?;
    /// assert_eq!(p.input_vertex_count(), 4);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn input_vertex_count(&self) -> usize {
        self.input_vertices
    }

    /// Total length of all edges, holes included.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [3.0, 0.0], [3.0, 4.0]], vec![])?;
    /// assert_eq!(p.perimeter(), 12.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn perimeter(&self) -> f64 {
        self.rings()
            .map(|r| {
                (0..r.len())
                    .map(|i| (r[(i + 1) % r.len()] - r[i]).norm())
                    .sum::<f64>()
            })
            .sum()
    }
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

/// The edges of a closed ring for the sweep, as ring number `ring`.
fn push_edges(edges: &mut Vec<SweepEdge>, points: &[Point2<f64>], ring: usize) {
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        edges.push(SweepEdge {
            from: [a.x, a.y],
            to: [b.x, b.y],
            ring,
            index: i,
            ring_len: n,
        });
    }
}

fn check_intersections(rings: &[CleanRing]) -> Result<()> {
    let total: usize = rings.iter().map(|r| r.points.len()).sum();
    let mut edges = Vec::with_capacity(total);
    for (k, r) in rings.iter().enumerate() {
        push_edges(&mut edges, &r.points, k);
    }
    let Some(c) = first_contact(&edges) else {
        return Ok(());
    };
    let (e, f) = (&edges[c.a], &edges[c.b]);
    let (ra, rb) = (&rings[e.ring], &rings[f.ring]);
    Err(Error::SelfIntersection {
        ring_a: ra.ring,
        edge_a: ra.input_index[e.index],
        ring_b: rb.ring,
        edge_b: rb.input_index[f.index],
        kind: c.kind,
        x: c.at[0],
        y: c.at[1],
    })
}

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
    let mut edges = Vec::new();
    let mut owner = Vec::new(); // part of each ring
    for (k, (_, poly)) in parts.iter().enumerate() {
        for ring in poly.rings() {
            push_edges(&mut edges, ring, owner.len());
            owner.push(k);
        }
    }
    let name = |k: usize| &parts[k].0;
    let refuse = |a: usize, b: usize, what: String| {
        let (a, b) = (a.min(b), a.max(b));
        Err(Error::Overlap {
            first: name(a).clone(),
            second: name(b).clone(),
            how: what,
        })
    };
    if let Some(c) = first_contact(&edges) {
        let (a, b) = (owner[edges[c.a].ring], owner[edges[c.b].ring]);
        return refuse(
            a,
            b,
            format!(
                "{} at ({}, {})",
                c.kind,
                crate::report::table::num(c.at[0]),
                crate::report::table::num(c.at[1])
            ),
        );
    }
    // No edges meet, so one vertex tells whether a part lies inside another.
    let boxes: Vec<[f64; 4]> = parts.iter().map(|(_, p)| bbox(p.outer())).collect();
    for (k, (_, p)) in parts.iter().enumerate() {
        let v = p.outer()[0];
        for (j, (_, q)) in parts.iter().enumerate() {
            let b = &boxes[j];
            if j == k || v.x < b[0] || v.y < b[1] || v.x > b[2] || v.y > b[3] {
                continue;
            }
            if inside(v, q.outer()) && !q.holes().iter().any(|h| inside(v, h)) {
                return refuse(k, j, "lie one inside the other".into());
            }
        }
    }
    Ok(())
}

/// Even-odd test of a point against a ring (the point is known not to lie on it).
fn inside(p: Point2<f64>, ring: &[Point2<f64>]) -> bool {
    let mut c = false;
    let n = ring.len();
    let mut j = n - 1;
    for i in 0..n {
        let (a, b) = (ring[i], ring[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            c = !c;
        }
        j = i;
    }
    c
}

fn bbox(r: &[Point2<f64>]) -> [f64; 4] {
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
                problem: "is not inside the outer ring".into(),
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
                problem: format!("lies inside hole {j}; holes must not nest"),
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
