//! NURBS curves (a DXF `SPLINE`): checked, cut at their knots into rational Bézier spans
//! (which [`crate::curve::bezier`] integrates exactly), or cut into chords within a stated
//! distance.
//!
//! Each knot span is turned into a rational Bézier piece by blossoming (de Boor's scheme
//! with the span's ends as arguments). For chords, pieces are halved (de Casteljau) until
//! all their control points lie within the tolerance of the chord between their ends. A
//! rational curve with positive weights lies in the convex hull of its control points, so
//! the chord is then within that distance of the curve: the bound is rigorous, not a
//! sampled estimate.

pub use crate::error::SplineProblem;

/// A NURBS curve in the plane, checked.
///
/// # Examples
/// ```
/// use inertia::curve::spline::Nurbs;
/// // A quadratic Bézier from (0, 0) to (2, 0) through control point (1, 2): its apex is
/// // at (1, 1).
/// let c = Nurbs::new(2, vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0], vec![[0.0, 0.0], [1.0, 2.0], [2.0, 0.0]], vec![])?;
/// let (points, deviation) = c.flatten(1e-9, 1 << 20)?;
/// assert!(deviation <= 1e-9);
/// assert_eq!(points[0], [0.0, 0.0]);
/// assert_eq!(*points.last().unwrap(), [2.0, 0.0]);
/// # Ok::<(), inertia::error::SplineProblem>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Nurbs {
    degree: usize,
    knots: Vec<f64>,
    /// The first control point: the others are kept relative to it, so that a curve far
    /// from the origin is cut into spans with the digits of its own size.
    origin: [f64; 2],
    /// Control points in homogeneous form `[w x, w y, w]`, relative to `origin`.
    points: Vec<[f64; 3]>,
}

/// Points from a curve's start to its end.
pub type Polyline = Vec<[f64; 2]>;

/// Splines of higher degree are refused (DXF files use 1 to about 5).
pub const MAX_DEGREE: usize = crate::curve::bezier::MAX_DEGREE;

impl Nurbs {
    /// Checks a curve of `degree` with `knots`, control `points` and `weights` (empty for
    /// all 1): as many knots as points plus degree plus one, knots finite and never
    /// decreasing, weights finite and positive, a non-empty parameter range.
    ///
    /// # Errors
    /// The [`SplineProblem`] saying which of these fails.
    pub fn new(
        degree: usize,
        knots: Vec<f64>,
        points: Vec<[f64; 2]>,
        weights: Vec<f64>,
    ) -> Result<Nurbs, SplineProblem> {
        if degree == 0 || degree > MAX_DEGREE {
            return Err(SplineProblem::Degree {
                degree,
                max: MAX_DEGREE,
            });
        }
        let n = points.len();
        if n < degree + 1 {
            return Err(SplineProblem::TooFewPoints { points: n, degree });
        }
        if knots.len() != n + degree + 1 {
            return Err(SplineProblem::KnotCount {
                knots: knots.len(),
                points: n,
                degree,
            });
        }
        if knots.iter().any(|k| !k.is_finite()) || knots.windows(2).any(|w| w[1] < w[0]) {
            return Err(SplineProblem::Knots);
        }
        if knots[degree] >= knots[n] {
            return Err(SplineProblem::NoRange);
        }
        if !weights.is_empty() && weights.len() != n {
            return Err(SplineProblem::WeightCount {
                weights: weights.len(),
                points: n,
            });
        }
        if weights.iter().any(|w| !(w.is_finite() && *w > 0.0)) {
            return Err(SplineProblem::Weight);
        }
        if points.iter().flatten().any(|c| !c.is_finite()) {
            return Err(SplineProblem::Point);
        }
        let origin = points[0];
        let points = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let w = weights.get(i).copied().unwrap_or(1.0);
                [w * (p[0] - origin[0]), w * (p[1] - origin[1]), w]
            })
            .collect();
        Ok(Nurbs {
            origin,
            degree,
            knots,
            points,
        })
    }

    /// The blossom of the span `k` (knots[k] ≤ t < knots[k + 1]) at `args` (one per degree),
    /// in homogeneous form.
    fn blossom(&self, k: usize, args: &[f64]) -> [f64; 3] {
        let p = self.degree;
        let mut d: Vec<[f64; 3]> = self.points[k - p..=k].to_vec();
        for (r, &t) in args.iter().enumerate() {
            let r = r + 1;
            // d[j] holds the point of index i = k − p + j at level r − 1.
            for j in (r..=p).rev() {
                let i = k - p + j;
                let (lo, hi) = (self.knots[i], self.knots[i + p + 1 - r]);
                let a = if hi > lo { (t - lo) / (hi - lo) } else { 0.0 };
                let (prev, cur) = (d[j - 1], d[j]);
                d[j] = std::array::from_fn(|c| (1.0 - a) * prev[c] + a * cur[c]);
            }
        }
        d[p]
    }

    /// Chords from the curve's start to its end, each within `tolerance` of the curve,
    /// and the largest distance of a chord from the curve that the bound allows. More than
    /// `max_points` points is refused.
    ///
    /// # Errors
    /// When the curve needs more than `max_points` points, or is in several pieces (see
    /// [`Nurbs::flatten_pieces`]).
    pub fn flatten(
        &self,
        tolerance: f64,
        max_points: usize,
    ) -> Result<(Vec<[f64; 2]>, f64), SplineProblem> {
        let (mut pieces, deviation) = self.flatten_pieces(tolerance, max_points)?;
        if pieces.len() != 1 {
            return Err(SplineProblem::Pieces(pieces.len()));
        }
        Ok((pieces.remove(0), deviation))
    }

    /// [`Nurbs::flatten`] for a curve whose knot vector may be discontinuous: an interior
    /// knot repeated more than `degree` times ends one piece of the curve and starts
    /// another, which need not meet it. Each piece's chords, start to end.
    ///
    /// # Errors
    /// When the curve needs more than `max_points` points.
    ///
    /// # Examples
    /// ```
    /// use inertia::curve::spline::Nurbs;
    /// // Two straight pieces of degree 1: the interior knot 1 appears twice.
    /// let c = Nurbs::new(1, vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0],
    ///     vec![[0.0, 0.0], [1.0, 0.0], [5.0, 5.0], [6.0, 5.0]], vec![])?;
    /// let (pieces, _) = c.flatten_pieces(1e-9, 100)?;
    /// assert_eq!(pieces, vec![vec![[0.0, 0.0], [1.0, 0.0]], vec![[5.0, 5.0], [6.0, 5.0]]]);
    /// # Ok::<(), inertia::error::SplineProblem>(())
    /// ```
    pub fn flatten_pieces(
        &self,
        tolerance: f64,
        max_points: usize,
    ) -> Result<(Vec<Polyline>, f64), SplineProblem> {
        let p = self.degree;
        let mut pieces: Vec<Polyline> = Vec::new();
        let mut total = 0;
        let mut deviation = 0.0_f64;
        let o = self.origin;
        let cartesian = |h: [f64; 3]| [o[0] + h[0] / h[2], o[1] + h[1] / h[2]];
        for spans in self.bezier_pieces() {
            let mut out: Vec<[f64; 2]> = vec![cartesian(spans[0][0])];
            for bez in spans {
                let mut stack = vec![(bez, 0u32)];
                while let Some((piece, depth)) = stack.pop() {
                    let d = flatness(&piece);
                    if d <= tolerance || depth >= 48 {
                        deviation = deviation.max(d);
                        out.push(cartesian(piece[p]));
                        if total + out.len() > max_points {
                            return Err(SplineProblem::TooManyPoints {
                                max: max_points,
                                tolerance,
                            });
                        }
                        continue;
                    }
                    let (left, right) = crate::curve::bezier::halve(&piece);
                    // Depth first, left half first: points come out in order.
                    stack.push((right, depth + 1));
                    stack.push((left, depth + 1));
                }
            }
            total += out.len();
            pieces.push(out);
        }
        Ok((pieces, deviation))
    }

    /// The first control point, which [`Nurbs::bezier_pieces`] gives the spans relative to.
    pub fn origin(&self) -> [f64; 2] {
        self.origin
    }

    /// The curve as rational Bézier spans, one list per piece (an interior knot repeated
    /// more than `degree` times ends a piece): each span's `degree + 1` control points in
    /// homogeneous form `[w x, w y, w]`, x and y relative to [`Nurbs::origin`], found by
    /// blossoming (de Boor's scheme with the span's ends as arguments).
    ///
    /// # Examples
    /// ```
    /// use inertia::curve::spline::Nurbs;
    /// // A uniform clamped quadratic of 4 control points: two spans, one piece.
    /// let c = Nurbs::new(2, vec![0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 2.0],
    ///     vec![[0.0, 0.0], [2.0, 2.0], [4.0, 2.0], [6.0, 0.0]], vec![])?;
    /// let pieces = c.bezier_pieces();
    /// assert_eq!((pieces.len(), pieces[0].len()), (1, 2));
    /// assert_eq!(pieces[0][0], vec![[0.0, 0.0, 1.0], [2.0, 2.0, 1.0], [3.0, 2.0, 1.0]]);
    /// # Ok::<(), inertia::error::SplineProblem>(())
    /// ```
    pub fn bezier_pieces(&self) -> Vec<Vec<Vec<[f64; 3]>>> {
        let p = self.degree;
        let n = self.points.len();
        let mut pieces: Vec<Vec<Vec<[f64; 3]>>> = Vec::new();
        let mut spans: Vec<Vec<[f64; 3]>> = Vec::new();
        for k in p..n {
            let (a, b) = (self.knots[k], self.knots[k + 1]);
            if b <= a {
                continue;
            }
            // A knot repeated more than `degree` times where this span starts: the curve
            // may jump there, so a new piece starts.
            if !spans.is_empty() && self.knots.iter().filter(|&&x| x == a).count() > p {
                pieces.push(std::mem::take(&mut spans));
            }
            // The span's Bézier control points: blossoms at (a, …, a, b, …, b).
            spans.push(
                (0..=p)
                    .map(|j| {
                        let args: Vec<f64> =
                            (0..p).map(|i| if i < p - j { a } else { b }).collect();
                        self.blossom(k, &args)
                    })
                    .collect(),
            );
        }
        if !spans.is_empty() {
            pieces.push(spans);
        }
        pieces
    }
}

fn cartesian(h: [f64; 3]) -> [f64; 2] {
    [h[0] / h[2], h[1] / h[2]]
}

/// The largest distance of a Bézier piece's control points from its chord: a bound on the
/// curve's distance from it (convex hull).
fn flatness(piece: &[[f64; 3]]) -> f64 {
    let a = cartesian(piece[0]);
    let b = cartesian(piece[piece.len() - 1]);
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    piece[1..piece.len() - 1]
        .iter()
        .map(|h| {
            let q = cartesian(*h);
            let (qx, qy) = (q[0] - a[0], q[1] - a[1]);
            // Distance to the segment a–b.
            let t = if len2 > 0.0 {
                ((qx * dx + qy * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (qx - t * dx).hypot(qy - t * dy)
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rational_quadratic_is_a_circle() {
        // The quarter circle of radius 2 as a rational Bézier: weights 1, √2/2, 1.
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let c = Nurbs::new(
            2,
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            vec![[2.0, 0.0], [2.0, 2.0], [0.0, 2.0]],
            vec![1.0, w, 1.0],
        )
        .unwrap();
        let (pts, dev) = c.flatten(1e-7, 1 << 20).unwrap();
        assert!(dev <= 1e-7);
        for p in &pts {
            assert!((p[0].hypot(p[1]) - 2.0).abs() < 1e-14, "{p:?}");
        }
        // Chords h long stray h²/8r from a circle: within 1e-7, about 2500 for this quarter
        // (the control points' bound is at most twice the true distance).
        assert!(pts.len() > 2000 && pts.len() < 8200, "{}", pts.len());
    }

    #[test]
    fn a_cubic_b_spline_of_several_spans() {
        // Uniform clamped cubic through 6 control points: its ends are the end points, and
        // every flattened point lies on the curve (compare with de Boor at the same t is
        // not possible here, so check the convex hull and order instead).
        let pts = vec![
            [0.0, 0.0],
            [1.0, 2.0],
            [3.0, 2.0],
            [4.0, 0.0],
            [6.0, -1.0],
            [7.0, 1.0],
        ];
        let knots = vec![0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0];
        let c = Nurbs::new(3, knots, pts.clone(), vec![]).unwrap();
        let (out, dev) = c.flatten(1e-8, 1 << 20).unwrap();
        assert!(dev <= 1e-8);
        assert_eq!(out[0], [0.0, 0.0]);
        let last = out[out.len() - 1];
        assert!((last[0] - 7.0).abs() < 1e-15 && (last[1] - 1.0).abs() < 1e-15);
        assert!(out.windows(2).all(|w| w[1][0] >= w[0][0] - 1e-12));
    }

    #[test]
    fn bad_curves_are_refused() {
        let p = vec![[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]];
        assert!(Nurbs::new(2, vec![0.0; 5], p.clone(), vec![]).is_err());
        assert!(Nurbs::new(2, vec![0.0; 6], p.clone(), vec![]).is_err());
        assert!(
            Nurbs::new(
                2,
                vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
                p.clone(),
                vec![1.0, -1.0, 1.0]
            )
            .is_err()
        );
        assert!(Nurbs::new(0, vec![0.0, 1.0, 2.0], p.clone(), vec![]).is_err());
        let c = Nurbs::new(2, vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0], p, vec![]).unwrap();
        assert!(c.flatten(1e-300, 1000).is_err());
    }
}
