//! What a polygon reader returns: rings as read, before any check. The readers
//! (`crate::io`) import this and nothing else of [`crate::polygon`], which validates.

use crate::curve::Curve;

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
    /// Curved edges (arcs and spline spans), per ring (outer first): the curve from point
    /// i to point i + 1, or `None` for a straight edge. Empty when every edge is straight.
    pub arcs: Vec<Vec<Option<Curve>>>,
    /// When the rings stand for curves cut into chords (the readers here keep curves
    /// exact): the largest distance between a curve and its chords; `None` when exact.
    pub max_deviation: Option<f64>,
}
