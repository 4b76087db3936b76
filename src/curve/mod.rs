//! Curved edges of a ring: circular and elliptic arcs ([`ArcEdge`]) and spline spans
//! ([`BezierSpan`]), both integrated exactly and cut into chords only for the validity
//! checks and drawings.

pub mod arc;
pub mod bezier;
pub mod spline;

pub use arc::ArcEdge;
pub use bezier::BezierSpan;
pub use spline::Nurbs;

/// The curve of one edge of a ring, from its vertex `p0` to the next, `p1`.
///
/// # Examples
/// ```
/// use inertia::{curve::ArcEdge, curve::Curve};
/// let half = Curve::from(ArcEdge::from_bulge([1.0, 0.0], [-1.0, 0.0], 1.0).unwrap());
/// let (area, _, _) = half.segment_integrals([1.0, 0.0], [-1.0, 0.0], [0.0, 0.0]);
/// assert!((area - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Curve {
    /// A circular or elliptic arc (bulges, ARCs, CIRCLEs, ELLIPSEs).
    Arc(ArcEdge),
    /// A Bézier span of a spline (SPLINEs).
    Bezier(BezierSpan),
}

impl From<ArcEdge> for Curve {
    fn from(a: ArcEdge) -> Curve {
        Curve::Arc(a)
    }
}

impl From<BezierSpan> for Curve {
    fn from(b: BezierSpan) -> Curve {
        Curve::Bezier(b)
    }
}

impl Curve {
    /// Signed integrals over the segment between the chord `p0`–`p1` and the curve, about
    /// `o`: `(area, [∫x, ∫y], [∫x², ∫y², ∫xy])`, positive when the curve bulges right of
    /// the chord (what to add to a counter-clockwise ring's chord polygon).
    pub fn segment_integrals(
        &self,
        p0: [f64; 2],
        p1: [f64; 2],
        o: [f64; 2],
    ) -> (f64, [f64; 2], [f64; 3]) {
        match self {
            Curve::Arc(a) => a.segment_integrals(p0, p1, o),
            Curve::Bezier(b) => b.segment_integrals(p0, p1, o),
        }
    }

    /// The same curve run the other way, from `p1` to `p0`.
    pub fn reversed(&self) -> Curve {
        match self {
            Curve::Arc(a) => Curve::Arc(a.reversed()),
            Curve::Bezier(b) => Curve::Bezier(b.reversed()),
        }
    }

    /// The same curve after the linear part `m` (row-major) of an affine map.
    pub fn transformed(&self, m: &[[f64; 2]; 2]) -> Curve {
        match self {
            Curve::Arc(a) => Curve::Arc(a.transformed(m)),
            Curve::Bezier(b) => Curve::Bezier(b.transformed(m)),
        }
    }

    /// Length of the curve.
    pub fn length(&self) -> f64 {
        match self {
            Curve::Arc(a) => a.length(),
            Curve::Bezier(b) => b.length(),
        }
    }

    /// The curve's extent: `(min, max)` of x and y over it, from `p0` to `p1`.
    pub fn extent(&self, p0: [f64; 2], p1: [f64; 2]) -> ([f64; 2], [f64; 2]) {
        match self {
            Curve::Arc(a) => a.extent(p0, p1),
            Curve::Bezier(b) => b.extent(p0),
        }
    }

    /// How many chords the validity checks and drawings cut the curve into.
    pub fn chord_count(&self) -> usize {
        match self {
            Curve::Arc(a) => a.chord_count(),
            Curve::Bezier(b) => b.chord_count(),
        }
    }

    /// The ends of those chords strictly inside the curve, in order, appended to `out`.
    pub fn interior_points(&self, p0: [f64; 2], p1: [f64; 2], out: &mut Vec<[f64; 2]>) {
        match self {
            Curve::Arc(a) => a.interior_points(p0, p1, a.chord_count(), out),
            Curve::Bezier(b) => b.interior_points(p0, out),
        }
    }

    /// Whether the curve's numbers are all finite.
    pub fn is_finite(&self) -> bool {
        match self {
            Curve::Arc(a) => {
                a.b.iter().flatten().all(|v| v.is_finite()) && a.half_angle.is_finite()
            }
            // Checked when it was made.
            Curve::Bezier(_) => true,
        }
    }
}

/// The closed ring of `points` whose edge i (to vertex i + 1, the last back to the first)
/// is `curves[i]` (straight where `None` or missing), as it is drawn and checked: each
/// vertex followed by the interior points of its edge's curve, each with the number (from
/// 0) of the edge it lies on.
///
/// # Examples
/// ```
/// use inertia::{curve::ArcEdge, curve::ring_chords};
/// let (a, b) = ([1.0, 0.0], [-1.0, 0.0]);
/// let halves = [ArcEdge::from_bulge(a, b, 1.0), ArcEdge::from_bulge(b, a, 1.0)];
/// let disc = ring_chords(&[a, b], &halves.map(|h| h.map(Into::into)));
/// assert_eq!(disc.len(), 128);
/// assert_eq!(disc[64], (b, 1));
/// ```
pub fn ring_chords(points: &[[f64; 2]], curves: &[Option<Curve>]) -> Vec<([f64; 2], usize)> {
    let n = points.len();
    let mut out = Vec::with_capacity(n);
    let mut inner = Vec::new();
    for i in 0..n {
        out.push((points[i], i));
        if let Some(Some(c)) = curves.get(i) {
            inner.clear();
            c.interior_points(points[i], points[(i + 1) % n], &mut inner);
            out.extend(inner.iter().map(|q| (*q, i)));
        }
    }
    out
}
