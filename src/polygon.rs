//! A validated simple polygon with optional holes.

use crate::arc::ArcEdge;
use crate::error::{Error, Result, Ring};
use crate::method::{PolygonIntegral, PolygonMethod};
use crate::sweep::{SweepEdge, first_contact};
use nalgebra::Point2;

/// The rings of a polygon as read, before validation.
///
/// # Examples
/// ```
/// let r = inertia::io::json::parse(b"[[0,0],[1,0],[0,1]]")?;
/// assert!(r.holes.is_empty());
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolygonRings {
    /// The outer boundary.
    pub outer: Vec<[f64; 2]>,
    /// The holes.
    pub holes: Vec<Vec<[f64; 2]>>,
    /// Curved edges, per ring (outer first): the curve from point i to point i + 1, or
    /// `None` for a straight edge. Empty when every edge is straight.
    pub arcs: Vec<Vec<Option<crate::arc::ArcEdge>>>,
    /// When curves were replaced by chords (DXF splines): the largest distance between a
    /// curve and its chords; `None` when the rings are exact.
    pub max_deviation: Option<f64>,
}

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
    /// For a polygon with curved edges: per ring (outer first), the curve of each edge
    /// (from vertex i to i + 1), `None` where it is straight. Empty when all are straight.
    arcs: Vec<Vec<Option<ArcEdge>>>,
    /// For a polygon with curved edges: its rings with every curve cut into chords (what
    /// the validity checks and drawings see). Empty when all edges are straight.
    outline: Vec<Vec<Point2<f64>>>,
    /// When curves of the input were replaced by chords: how far from them at most.
    max_deviation: Option<f64>,
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

impl PolygonMethod {
    /// Integrates a polygon of unit density.
    ///
    /// # Examples
    /// ```
    /// use inertia::{Polygon, PolygonMethod};
    /// let sq = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// for m in PolygonMethod::ALL {
    ///     let r = m.integrate(&sq);
    ///     assert!((r.polar - 1.0 / 6.0).abs() < 1e-15);
    /// }
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn integrate(self, polygon: &Polygon) -> PolygonIntegral {
        // Validation has integrated every method already (to check they agree).
        polygon
            .integral(self)
            .unwrap_or_else(|| self.compute(polygon.view()))
    }
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
        .integrated()
    }

    /// Validates a polygon whose edges may be circular or elliptic arcs (as a DXF drawing
    /// gives them): `rings.arcs` holds, per ring, the curve of each edge. The checks for
    /// crossing edges and nesting run on the curves cut into chords (at most 1/128 of a
    /// turn each); the integrals are exact for the curves themselves (see [`crate::arc`]).
    ///
    /// # Examples
    /// ```
    /// use inertia::{arc::ArcEdge, io::PolygonRings, Polygon, PolygonMethod};
    /// // A unit disc from two half circles (bulge 1).
    /// let (a, b) = ([1.0, 0.0], [-1.0, 0.0]);
    /// let arcs = vec![vec![ArcEdge::from_bulge(a, b, 1.0), ArcEdge::from_bulge(b, a, 1.0)]];
    /// let disc = Polygon::from_rings(PolygonRings { outer: vec![a, b], arcs, ..Default::default() })?;
    /// let i = PolygonMethod::Fan.integrate(&disc);
    /// assert!((i.properties.area - std::f64::consts::PI).abs() < 1e-15);
    /// assert!((i.polar - std::f64::consts::PI / 2.0).abs() < 1e-15);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn from_rings(rings: PolygonRings) -> Result<Self> {
        let PolygonRings {
            outer,
            holes,
            arcs,
            max_deviation,
        } = rings;
        if !arcs.iter().flatten().any(Option::is_some) {
            return Polygon::new(outer, holes).map(|mut p| {
                p.max_deviation = max_deviation;
                p
            });
        }
        let input_vertices = outer.len() + holes.iter().map(Vec::len).sum::<usize>();
        let mut exact = Vec::with_capacity(1 + holes.len());
        let mut tess = Vec::with_capacity(1 + holes.len());
        for (k, points) in std::iter::once(&outer).chain(&holes).enumerate() {
            let ring = if k == 0 { Ring::Outer } else { Ring::Hole(k) };
            let edges = arcs.get(k).map(Vec::as_slice).unwrap_or(&[]);
            let (p, e) = clean_curved_ring(points, edges, ring)?;
            tess.push(chords_of(&p, &e, ring)?);
            exact.push((p, e));
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
                            let c = e[i]?;
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
        check_intersections(&tess)?;
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

    /// Checks that f64 resolves the polygon and that every method agrees, keeping their
    /// integrals.
    fn integrated(self) -> Result<Self> {
        let mut polygon = self;
        // The methods integrate fans about the outer ring's first vertex (area, centroid)
        // and then about the centroid (moments). Both must see the same, positive area:
        // coordinates spanning more than f64 resolves (a 1e8 edge on a 1e86 triangle) break
        // that, and would give moments of zero rather than an error.
        let frame = crate::method::LocalFrame::new(polygon.view());
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
        let area_c = 0.5 * twice_about_centroid + frame.segments(frame.centroid.coords).0;
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
        let integrals = PolygonMethod::ALL.map(|m| m.compute(polygon.view()));
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

    /// The curve of each edge, per ring (outer first; edge i runs from vertex i to i + 1),
    /// `None` where the edge is straight; empty when every edge is straight.
    pub fn arcs(&self) -> &[Vec<Option<ArcEdge>>] {
        &self.arcs
    }

    /// The rings as drawn: [`rings`](Self::rings), with every curved edge cut into chords
    /// of at most 1/128 of a turn.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], vec![])?;
    /// assert_eq!(p.outline_rings().next().unwrap().len(), 3);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn outline_rings(&self) -> Box<dyn Iterator<Item = &[Point2<f64>]> + '_> {
        if self.outline.is_empty() {
            Box::new(self.rings())
        } else {
            Box::new(self.outline.iter().map(Vec::as_slice))
        }
    }

    /// When curves of the input were replaced by chords (DXF splines): the largest distance
    /// between a curve and its chords; `None` when the polygon is the input exactly.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], vec![])?;
    /// assert_eq!(p.max_deviation(), None);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn max_deviation(&self) -> Option<f64> {
        self.max_deviation
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

    /// Area, mass, centroid and second moments about the centroid of this polygon as a
    /// lamina of uniform `density` (mass per unit area), by the `fan` method: one call, as
    /// parry's `shape.mass_properties(density)`. All three methods agree to about 1e-12
    /// ([`PolygonMethod::integrate`] gives each, with the polar moment and principal axes).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a density that is not positive and finite.
    ///
    /// # Examples
    /// ```
    /// // A 4 × 2 plate with a 1 × 1 hole, 2 kg per unit area.
    /// let plate = inertia::Polygon::new(
    ///     vec![[0.0, 0.0], [4.0, 0.0], [4.0, 2.0], [0.0, 2.0]],
    ///     vec![vec![[1.0, 0.5], [1.0, 1.5], [2.0, 1.5], [2.0, 0.5]]],
    /// )?;
    /// let p = plate.mass_properties(2.0)?;
    /// assert_eq!((p.area, p.mass), (7.0, 14.0));
    /// assert!((p.centroid.x - 29.0 / 14.0).abs() < 1e-15);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn mass_properties(&self, density: f64) -> Result<crate::MassProperties2d> {
        if !(density.is_finite() && density > 0.0) {
            return Err(Error::InvalidParameter {
                name: "density".into(),
                value: density,
            });
        }
        Ok(PolygonMethod::Fan
            .integrate(self)
            .properties
            .scaled_mass(density))
    }

    /// What the polygon methods read of it.
    pub(crate) fn view(&self) -> crate::method::Rings<'_> {
        crate::method::Rings {
            outer: &self.outer,
            holes: &self.holes,
            arcs: &self.arcs,
        }
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

    /// The smallest axis-aligned box holding the polygon; a curved edge counts with its
    /// exact extent (an arc bulging past its ends widens the box), not its chords.
    ///
    /// # Examples
    /// ```
    /// use inertia::{arc::ArcEdge, io::PolygonRings};
    /// // A half-disc of radius 2: flat side on y = 0, arc up to y = 2.
    /// let (a, b) = ([2.0, 0.0], [-2.0, 0.0]);
    /// let p = inertia::Polygon::from_rings(PolygonRings {
    ///     outer: vec![a, b],
    ///     holes: vec![],
    ///     arcs: vec![vec![ArcEdge::from_bulge(a, b, 1.0), None]],
    ///     max_deviation: None,
    /// })?;
    /// let bb = p.bounding_box();
    /// assert_eq!(bb.min, [-2.0, 0.0]);
    /// assert!((bb.max[1] - 2.0).abs() < 1e-15);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn bounding_box(&self) -> crate::body::BoundingBox2d {
        // The outer ring holds the holes.
        let r = &self.outer;
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for (i, p) in r.iter().enumerate() {
            let (l, h) = match self.arcs.first().and_then(|e| e.get(i).copied().flatten()) {
                Some(c) => {
                    let q = r[(i + 1) % r.len()];
                    c.extent([p.x, p.y], [q.x, q.y])
                }
                None => ([p.x, p.y], [p.x, p.y]),
            };
            for k in 0..2 {
                lo[k] = lo[k].min(l[k]);
                hi[k] = hi[k].max(h[k]);
            }
        }
        crate::body::BoundingBox2d { min: lo, max: hi }
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
            .enumerate()
            .map(|(k, r)| {
                (0..r.len())
                    .map(|i| match self.arcs.get(k).and_then(|e| e[i]) {
                        Some(c) => c.length(),
                        None => (r[(i + 1) % r.len()] - r[i]).norm(),
                    })
                    .sum::<f64>()
            })
            .sum()
    }
}

/// A ring's vertices and the curve of each edge (`None` where straight).
type CurvedRing = (Vec<Point2<f64>>, Vec<Option<ArcEdge>>);

/// A ring with curved edges, its finite points kept and a point that repeats its
/// neighbour across a straight edge dropped.
fn clean_curved_ring(
    points: &[[f64; 2]],
    edges: &[Option<ArcEdge>],
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
        let edge = edges.get(i).copied().flatten();
        if let Some(c) = edge
            && !(c.b.iter().flatten().all(|v| v.is_finite()) && c.half_angle.is_finite())
        {
            return Err(Error::Unresolvable(format!(
                "the curved edge from vertex {} of the {ring} is not finite",
                i + 1
            )));
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
fn chords_of(p: &[Point2<f64>], e: &[Option<ArcEdge>], ring: Ring) -> Result<CleanRing> {
    let vertices: Vec<[f64; 2]> = p.iter().map(|q| [q.x, q.y]).collect();
    let mut points = Vec::with_capacity(p.len());
    let mut input_index = Vec::with_capacity(p.len());
    for (q, edge) in crate::arc::ring_chords(&vertices, e) {
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
        for ring in poly.outline_rings() {
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
                crate::error::num(c.at[0]),
                crate::error::num(c.at[1])
            ),
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
