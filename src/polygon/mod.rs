//! A validated simple polygon with optional holes: the type and what it tells of itself.
//! `validate.rs` builds it from rings (cleaning, crossings, nesting, orientation);
//! `resolve.rs` checks that f64 resolves it and keeps each method's integral.

mod disjoint;
mod resolve;
pub(crate) mod rings;
mod validate;

pub use disjoint::check_disjoint;
pub use rings::PolygonRings;

use crate::curve::Curve;
use crate::error::{Error, Result};
use crate::method::{PolygonIntegral, PolygonMethod};
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
    /// For a polygon with curved edges: per ring (outer first), the curve of each edge
    /// (from vertex i to i + 1), `None` where it is straight. Empty when all are straight.
    arcs: Vec<Vec<Option<Curve>>>,
    /// For a polygon with curved edges: its rings with every curve cut into chords (what
    /// the validity checks and drawings see). Empty when all edges are straight.
    outline: Vec<Vec<Point2<f64>>>,
    /// When curves of the input were replaced by chords: how far from them at most.
    max_deviation: Option<f64>,
    /// Each method's integral (in `PolygonMethod::ALL` order), computed by the checks in
    /// [`Polygon::new`].
    integrals: Option<[PolygonIntegral; 3]>,
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
    pub fn arcs(&self) -> &[Vec<Option<Curve>>] {
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

    /// When the rings it was made from stood for curves cut into chords: the largest
    /// distance between a curve and its chords; `None` when the polygon is the input
    /// exactly.
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
                name: crate::error::Parameter::Density,
                value: density,
                need: crate::error::Need::Positive,
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
    /// use inertia::{curve::ArcEdge, io::PolygonRings};
    /// // A half-disc of radius 2: flat side on y = 0, arc up to y = 2.
    /// let (a, b) = ([2.0, 0.0], [-2.0, 0.0]);
    /// let p = inertia::Polygon::from_rings(PolygonRings {
    ///     outer: vec![a, b],
    ///     holes: vec![],
    ///     arcs: vec![vec![ArcEdge::from_bulge(a, b, 1.0).map(Into::into), None]],
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
            let (l, h) = match self
                .arcs
                .first()
                .and_then(|e| e.get(i))
                .and_then(Option::as_ref)
            {
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
        use rayon::prelude::*;
        // Each ring's length on every core (a spline's is an adaptive quadrature), the
        // rings' added in order as before.
        let rings: Vec<&[Point2<f64>]> = self.rings().collect();
        let each: Vec<f64> = rings
            .par_iter()
            .enumerate()
            .map(|(k, r)| {
                (0..r.len())
                    .map(|i| match self.arcs.get(k).and_then(|e| e[i].as_ref()) {
                        Some(c) => c.length(),
                        None => (r[(i + 1) % r.len()] - r[i]).norm(),
                    })
                    .sum::<f64>()
            })
            .collect();
        each.into_iter().sum()
    }
}
