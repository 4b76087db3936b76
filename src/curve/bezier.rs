//! Spline spans as curved edges: rational Bézier pieces integrated exactly, cut into
//! chords only for the validity checks.
//!
//! A NURBS curve (a DXF `SPLINE`) is cut at its knots into Bézier spans
//! ([`crate::curve::spline::Nurbs::bezier_pieces`]); each span is one edge of a ring, from `p0` to
//! `p1`. As for arcs ([`crate::curve::arc`]), the integrals over a ring are those of its chord
//! polygon plus, for each curved edge, those of the segment between the chord and the
//! curve. Taken about the span's start, the segment's integral of a homogeneous polynomial
//! `f` of degree `k` is, by the divergence theorem applied to the field `r f / (k + 2)`,
//! `∫ f(r) (r × r′) dt / (k + 2)` over the curve alone: `r × r′` vanishes on the chord,
//! which runs through the start.
//!
//! - A polynomial span of degree `n` makes that integrand a polynomial of degree at most
//!   `4n − 2` (for the second moments, `k = 2`), which the `2n`-point Gauss–Legendre rule
//!   integrates exactly: the closed form, to rounding.
//! - A rational span, `r = N / w`, makes it the rational function `P / w^(k+2)`, with
//!   `P = f(N) (N × N′)` a polynomial of degree `kn + 2n − 2`: smooth on the span (the
//!   weights are positive), but as steep as its weights are uneven (a middle weight of
//!   1e10 puts poles 1e-10 from its ends). It is cut into pieces (de Casteljau on the
//!   homogeneous control points) until each piece's weights, balanced by the
//!   reparametrisation `t = λu / (1 − u + λu)` (weights `w_i λ^i`, the same curve), lie
//!   within `c (1 ± δ)`; each piece is integrated by a Gauss–Legendre rule of a size the
//!   bound below says is enough, at most 64 points (116 at degree 25; else it is halved
//!   again).
//!
//! The bound. On a piece, `w = c (1 + e)` with `e = Σ (w_i / c − 1) B_i`, and since
//! `Σ |B_i(z)| = (|z| + |1 − z|)^n`, `|e(z)| ≤ δ A^n = θ < 1` inside the ellipse
//! `|z| + |1 − z| < A` about the piece: there `h = (1 + e)^−(k+2)` is analytic and at most
//! `(1 − θ)^−(k+2)`, so its Chebyshev projection `q` of degree `d` is within
//! `2 (1 − θ)^−(k+2) ρ^−d / (ρ − 1)` of it, `ρ = A + √(A² − 1)` (Trefethen, *Approximation
//! Theory and Approximation Practice*, thm. 8.2). The `N`-point rule integrates `P q`
//! exactly when `2N − 1 ≥ deg P + d`, and has positive weights, so its error on `P h` is at
//! most `‖h − q‖ (∫|P| + Σ ω |P|)`; with `w ≤ c (1 + δ)` on the piece, the error on `g` is
//! at most `(1 + δ)^(k+2) ‖h − q‖ (∫|g| + Σ ω |g|)`. The rule's size is the least for which
//! that factor is at most 1e-14 (for `k = 2`, the worst; `θ` from a few choices). So each
//! moment of a rational span is within 1e-14 of the integrand's magnitude (`∫|g|`, and the
//! rule's `Σ ω |g|`), plus rounding. Halving makes the weights even doubly exponentially
//! fast where they are steep (a quadratic's `(1, s, 1)` becomes `(1, √((1 + s)/2), 1)` on
//! each half): a middle weight of 1e4 is cut into 4 pieces, 1e12 into 16, 1e300 into 256,
//! so the work per span is bounded, whatever its weights.
//!
//! The chords the validity checks see come from halving the span (de Casteljau), level by
//! level, until every piece of a level has its control points within 1/2048 of the span's
//! extent (its control points' box) of the chord between its ends; the chords join the
//! curve's points at those equal parameter steps. A rational curve with positive weights lies in
//! the convex hull of its control points, so the curve then stays within that distance of
//! its chords: a rigorous bound, like the sagitta of an arc's 1/128-turn chords (a circle
//! written as four rational quadratic spans is cut into 128 chords, as an arc is).

use crate::quadrature::gauss_legendre;
use std::sync::Arc;

/// The highest degree of a span (and of a spline: DXF files use 1 to about 5).
pub const MAX_DEGREE: usize = 25;

/// Chords stay within this fraction of the span's extent of the curve.
pub const CHORD_FRACTION: f64 = 1.0 / 2048.0;

/// Halving stops at this depth (a span of 65,536 chords) whatever the flatness.
const MAX_CHORD_DEPTH: u32 = 16;

/// A Bézier span of a spline as an edge of a ring; see the [module documentation](self).
///
/// # Examples
/// ```
/// use inertia::curve::bezier::BezierSpan;
/// // The parabolic arch from (0, 0) to (2, 0) with control point (1, 2): the segment
/// // between it and its chord has area 2/3 · 2 · 1 (Archimedes), and lies left of the
/// // chord run from (0, 0) to (2, 0): it counts negatively.
/// let s = BezierSpan::new(&[[0.0, 0.0, 1.0], [1.0, 2.0, 1.0], [2.0, 0.0, 1.0]]).unwrap();
/// let (area, first, _) = s.segment_integrals([0.0, 0.0], [2.0, 0.0], [0.0, 0.0]);
/// assert!((area + 4.0 / 3.0).abs() < 1e-15);
/// assert!((first[0] + 4.0 / 3.0).abs() < 1e-15); // centroid x = 1
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BezierSpan(Arc<Span>);

#[derive(Debug, PartialEq)]
struct Span {
    /// Control points `[w x, w y, w]`, x and y relative to the span's start.
    points: Vec<[f64; 3]>,
    /// Whether the weights differ (otherwise the curve is a polynomial).
    rational: bool,
    /// The segment between the chord and the curve, about the span's start: area, `∫x`,
    /// `∫y`, `∫x²`, `∫y²`, `∫xy`, signed as [`BezierSpan::segment_integrals`] gives them.
    moments: [f64; 6],
    /// How many chords of equal parameter steps the validity checks see.
    chords: u32,
}

impl BezierSpan {
    /// The span with control points `control` (homogeneous, `[w x, w y, w]`, in the
    /// plane's coordinates); `None` unless there are 2 to [`MAX_DEGREE`] + 1 of them,
    /// finite with positive weights, and the curve has a length (not all one point).
    ///
    /// # Examples
    /// ```
    /// use inertia::curve::bezier::BezierSpan;
    /// assert!(BezierSpan::new(&[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]).is_none()); // one point
    /// assert!(BezierSpan::new(&[[0.0, 0.0, 1.0], [1.0, 0.0, -1.0]]).is_none());
    /// let s = BezierSpan::new(&[[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0]]).unwrap();
    /// assert_eq!((s.degree(), s.is_rational()), (2, false));
    /// ```
    pub fn new(control: &[[f64; 3]]) -> Option<BezierSpan> {
        if control.len() < 2
            || control.len() > MAX_DEGREE + 1
            || control
                .iter()
                .any(|h| !(h.iter().all(|v| v.is_finite()) && h[2] > 0.0))
        {
            return None;
        }
        let s = cartesian(control[0]);
        let mut points: Vec<[f64; 3]> = control
            .iter()
            .map(|h| [h[0] - h[2] * s[0], h[1] - h[2] * s[1], h[2]])
            .collect();
        points[0] = [0.0, 0.0, control[0][2]];
        if points.iter().all(|h| h[0] == 0.0 && h[1] == 0.0) {
            return None;
        }
        let rational = points.iter().any(|h| h[2] != points[0][2]);
        let mut span = Span {
            points,
            rational,
            moments: [0.0; 6],
            chords: 1,
        };
        span.chords = chord_count(&span.points);
        span.moments = span.integrate();
        span.moments
            .iter()
            .all(|v| v.is_finite())
            .then(|| BezierSpan(Arc::new(span)))
    }

    /// The degree of the span (control points less one).
    pub fn degree(&self) -> usize {
        self.0.points.len() - 1
    }

    /// Whether the span's weights differ (a rational curve, integrated by adaptive
    /// quadrature) rather than being all equal (a polynomial curve, integrated exactly).
    pub fn is_rational(&self) -> bool {
        self.0.rational
    }

    /// The span's end relative to its start.
    pub fn end_offset(&self) -> [f64; 2] {
        cartesian(self.0.points[self.0.points.len() - 1])
    }

    /// The point at parameter `t` ∈ [0, 1] of the span starting at `p0`.
    pub fn point(&self, p0: [f64; 2], t: f64) -> [f64; 2] {
        let q = cartesian(eval(&self.0.points, t).0);
        [p0[0] + q[0], p0[1] + q[1]]
    }

    /// The same span run the other way, from its end to its start.
    pub fn reversed(&self) -> BezierSpan {
        // The same segment, counted the other way and taken about the other end: its
        // moments moved by the chord (parallel axes), its chords the same.
        let e = self.end_offset();
        let points = self
            .0
            .points
            .iter()
            .rev()
            .map(|h| [h[0] - h[2] * e[0], h[1] - h[2] * e[1], h[2]])
            .collect();
        let [a, mx, my, mxx, myy, mxy] = self.0.moments;
        let d = [-e[0], -e[1]];
        let moments = [
            a,
            mx + d[0] * a,
            my + d[1] * a,
            mxx + 2.0 * d[0] * mx + d[0] * d[0] * a,
            myy + 2.0 * d[1] * my + d[1] * d[1] * a,
            mxy + d[0] * my + d[1] * mx + d[0] * d[1] * a,
        ]
        .map(|v| -v);
        BezierSpan(Arc::new(Span {
            points,
            rational: self.0.rational,
            moments,
            chords: self.0.chords,
        }))
    }

    /// The same span after the linear part `m` (row-major) of an affine map of the plane.
    pub fn transformed(&self, m: &[[f64; 2]; 2]) -> BezierSpan {
        let pts: Vec<[f64; 3]> = self
            .0
            .points
            .iter()
            .map(|h| {
                [
                    m[0][0] * h[0] + m[0][1] * h[1],
                    m[1][0] * h[0] + m[1][1] * h[1],
                    h[2],
                ]
            })
            .collect();
        BezierSpan::new(&pts).unwrap_or_else(|| self.clone())
    }

    /// Signed integrals over the segment between the chord from `p0` (the span's start)
    /// to its end and the curve, about the point `o`: `(area, [∫x, ∫y], [∫x², ∫y², ∫xy])`,
    /// positive when the curve bulges to the right of the chord (the amount to add to the
    /// integrals of a counter-clockwise ring's chord polygon). `p1`, the ring's next
    /// vertex, is the span's end up to rounding and is not read.
    pub fn segment_integrals(
        &self,
        p0: [f64; 2],
        _p1: [f64; 2],
        o: [f64; 2],
    ) -> (f64, [f64; 2], [f64; 3]) {
        // The moments about the start, moved to `o` (parallel axes, exactly).
        let [a, mx, my, mxx, myy, mxy] = self.0.moments;
        let d = [p0[0] - o[0], p0[1] - o[1]];
        (
            a,
            [mx + d[0] * a, my + d[1] * a],
            [
                mxx + 2.0 * d[0] * mx + d[0] * d[0] * a,
                myy + 2.0 * d[1] * my + d[1] * d[1] * a,
                mxy + d[0] * my + d[1] * mx + d[0] * d[1] * a,
            ],
        )
    }

    /// The length of the span: adaptive Gauss–Legendre on its speed (for a rational span,
    /// on each of the pieces its integrals are taken on, whose weights are even).
    pub fn length(&self) -> f64 {
        let pts = &self.0.points;
        if !self.0.rational {
            return adaptive(&[(pts.clone(), 0)], speed)[0];
        }
        adaptive(&rational_pieces(pts), speed)[0]
    }

    /// The span's extent from `p0`: `(min, max)` of x and y over the curve, found by
    /// halving the pieces whose control points reach beyond the extreme found so far,
    /// to a few units in the last place.
    pub fn extent(&self, p0: [f64; 2]) -> ([f64; 2], [f64; 2]) {
        let pts = &self.0.points;
        let e = self.end_offset();
        let size = pts
            .iter()
            .map(|h| {
                let q = cartesian(*h);
                q[0].abs().max(q[1].abs())
            })
            .fold(0.0, f64::max);
        let slack = 4.0 * f64::EPSILON * size;
        let mut lo = [e[0].min(0.0), e[1].min(0.0)];
        let mut hi = [e[0].max(0.0), e[1].max(0.0)];
        for axis in 0..2 {
            for sign in [1.0, -1.0] {
                // The largest of sign · coordinate over the curve.
                let mut best = sign * if sign > 0.0 { hi[axis] } else { lo[axis] };
                let mut stack = vec![(pts.clone(), 0u32)];
                while let Some((piece, depth)) = stack.pop() {
                    let reach = piece
                        .iter()
                        .map(|h| sign * cartesian(*h)[axis])
                        .fold(f64::NEG_INFINITY, f64::max);
                    if reach <= best + slack {
                        continue;
                    }
                    if depth >= 60 {
                        best = best.max(reach);
                        continue;
                    }
                    let (l, r) = halve(&piece);
                    best = best.max(sign * cartesian(r[0])[axis]);
                    stack.push((l, depth + 1));
                    stack.push((r, depth + 1));
                }
                if sign > 0.0 {
                    hi[axis] = best;
                } else {
                    lo[axis] = -best;
                }
            }
        }
        (
            [p0[0] + lo[0], p0[1] + lo[1]],
            [p0[0] + hi[0], p0[1] + hi[1]],
        )
    }

    /// Points strictly inside the span from `p0`, in order: the ends of its chords for
    /// the validity checks and drawings (see the [module documentation](self)).
    pub fn interior_points(&self, p0: [f64; 2], out: &mut Vec<[f64; 2]>) {
        let m = self.0.chords;
        for j in 1..m {
            let q = cartesian(eval(&self.0.points, j as f64 / m as f64).0);
            out.push([p0[0] + q[0], p0[1] + q[1]]);
        }
    }

    /// How many chords [`interior_points`](Self::interior_points) cuts the span into.
    pub fn chord_count(&self) -> usize {
        self.0.chords as usize
    }
}

/// How many chords of equal parameter steps, a power of two, keep the span within
/// [`CHORD_FRACTION`] of its extent: the span is halved level by level until every piece
/// of the level is flat (its control points that close to its chord).
fn chord_count(points: &[[f64; 3]]) -> u32 {
    let (lo, hi) = points.iter().fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), h| {
            let q = cartesian(*h);
            (
                [lo[0].min(q[0]), lo[1].min(q[1])],
                [hi[0].max(q[0]), hi[1].max(q[1])],
            )
        },
    );
    let tol = CHORD_FRACTION * (hi[0] - lo[0]).hypot(hi[1] - lo[1]);
    let tol2 = tol * tol;
    let stride = points.len();
    // The pieces of one level, one after another.
    let mut level: Vec<[f64; 3]> = points.to_vec();
    let mut next: Vec<[f64; 3]> = Vec::new();
    let mut depth = 0;
    while depth < MAX_CHORD_DEPTH && level.chunks(stride).any(|p| flatness2(p) > tol2) {
        next.clear();
        next.resize(2 * level.len(), [0.0; 3]);
        for (piece, out) in level.chunks(stride).zip(next.chunks_mut(2 * stride)) {
            let (l, r) = out.split_at_mut(stride);
            halve_into(piece, l, r);
        }
        std::mem::swap(&mut level, &mut next);
        depth += 1;
    }
    1 << depth
}

impl Span {
    /// The segment's integrals about the start (see the module documentation).
    fn integrate(&self) -> [f64; 6] {
        let pts = &self.points;
        // Green's theorem runs the curve from start to end and the chord back: counter-
        // clockwise, so positive, for a curve bulging right of the chord (as an arc's
        // segment is signed).
        if self.rational {
            let mut total = [0.0; 6];
            for (piece, size) in rational_pieces(pts) {
                let (s, _) = rule(&moments_integrand(&piece), 0.0, 1.0, size);
                for k in 0..6 {
                    total[k] += s[k];
                }
            }
            total
        } else {
            rule(&moments_integrand(pts), 0.0, 1.0, 2 * (pts.len() - 1)).0
        }
    }
}

/// The integrand of the segment's integrals about the start (see the module
/// documentation) on the curve of `pts`: area, `∫x`, `∫y`, `∫x²`, `∫y²`, `∫xy`.
fn moments_integrand(pts: &[[f64; 3]]) -> impl Fn(f64) -> [f64; 6] + '_ {
    move |t: f64| {
        let (n, dn) = eval(pts, t);
        let w = n[2];
        let (x, y) = (n[0] / w, n[1] / w);
        // r × r′ = (N × N′) / w², the weight's derivative cancelling.
        let c = (n[0] * dn[1] - n[1] * dn[0]) / (w * w);
        [
            c / 2.0,
            x * c / 3.0,
            y * c / 3.0,
            x * x * c / 4.0,
            y * y * c / 4.0,
            x * y * c / 4.0,
        ]
    }
}

/// The speed `|r′|` on the curve of `pts` (in the first component).
fn speed(pts: &[[f64; 3]]) -> impl Fn(f64) -> [f64; 6] + '_ {
    move |t: f64| {
        let (n, dn) = eval(pts, t);
        let w = n[2];
        let v = [
            (dn[0] * w - n[0] * dn[2]) / (w * w),
            (dn[1] * w - n[1] * dn[2]) / (w * w),
        ];
        [v[0].hypot(v[1]), 0.0, 0.0, 0.0, 0.0, 0.0]
    }
}

/// The error a piece's rule may make, relative to the integrand's magnitude (see the
/// module documentation).
const RATIONAL_TOLERANCE: f64 = 1e-14;

/// The most points a piece of a rational span of degree `n` is integrated with; a piece
/// that needs more is halved.
fn max_rule(n: usize) -> usize {
    (4 * n + 16).clamp(64, crate::quadrature::MAX_POINTS)
}

/// Halving stops at this depth whatever the weights (never reached: see the module
/// documentation); a piece there takes the largest rule.
const MAX_PIECE_DEPTH: u32 = 256;

/// A rational span cut into pieces whose weights are even enough for the bound of the
/// module documentation: each piece's control points (weights balanced) and the number of
/// Gauss–Legendre points that meet it, in order along the span.
fn rational_pieces(points: &[[f64; 3]]) -> Vec<(Vec<[f64; 3]>, usize)> {
    let n = points.len() - 1;
    let mut out = Vec::new();
    let mut stack = vec![(points.to_vec(), 0u32)];
    while let Some((piece, depth)) = stack.pop() {
        let piece = balanced(piece);
        match rule_size(spread(&piece), n) {
            Some(size) => out.push((piece, size)),
            None if depth >= MAX_PIECE_DEPTH => out.push((piece, max_rule(n))),
            None => {
                let (l, r) = halve(&piece);
                stack.push((r, depth + 1));
                stack.push((l, depth + 1));
            }
        }
    }
    out
}

/// The same curve with its end weights made equal (weights `w_i λ^i`, the
/// reparametrisation `t = λu / (1 − u + λu)`) and the largest weight 1; the piece as it
/// was where that would not be finite.
fn balanced(piece: Vec<[f64; 3]>) -> Vec<[f64; 3]> {
    let n = piece.len() - 1;
    let lambda = (piece[0][2] / piece[n][2]).powf(1.0 / n as f64);
    let mut out = Vec::with_capacity(n + 1);
    let mut f = 1.0;
    for h in &piece {
        out.push(h.map(|v| v * f));
        f *= lambda;
    }
    let top = out.iter().map(|h| h[2]).fold(0.0, f64::max);
    for h in &mut out {
        *h = h.map(|v| v / top);
    }
    if out
        .iter()
        .all(|h| h.iter().all(|v| v.is_finite()) && h[2] > 0.0)
    {
        out
    } else {
        piece
    }
}

/// `δ`: the weights lie within `c (1 ± δ)`, `c` the middle of their range.
fn spread(piece: &[[f64; 3]]) -> f64 {
    let (lo, hi) = piece.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), h| {
        (lo.min(h[2]), hi.max(h[2]))
    });
    (hi - lo) / (hi + lo)
}

/// The least number of Gauss–Legendre points for which the bound of the module
/// documentation holds on a piece of degree `n` whose weights lie within `c (1 ± δ)`;
/// `None` when more than [`max_rule`] would be needed.
fn rule_size(delta: f64, n: usize) -> Option<usize> {
    // The second moments' numerator has degree 4n − 2, their denominator w⁴.
    let degree = (4 * n - 2) as f64;
    if delta == 0.0 {
        return Some(2 * n);
    }
    let mut best: Option<usize> = None;
    for theta in [0.25, 0.5, 0.75, 0.9, 0.97] {
        if theta <= delta {
            continue;
        }
        let a = (theta / delta).powf(1.0 / n as f64);
        let rho = a + (a * a - 1.0).sqrt();
        let factor = 2.0 * ((1.0 + delta) / (1.0 - theta)).powi(4) / (rho - 1.0);
        // The least d with factor · ρ^−d within the tolerance (halved for the rounding of
        // this very computation), then 2N − 1 ≥ deg P + d.
        let d = ((2.0 * factor / RATIONAL_TOLERANCE).ln() / rho.ln())
            .ceil()
            .max(0.0);
        if !d.is_finite() {
            continue;
        }
        let size = (((degree + d + 1.0) / 2.0).ceil() as usize).max(2 * n);
        if size <= max_rule(n) {
            best = Some(best.map_or(size, |b| b.min(size)));
        }
    }
    best
}

/// The `n`-point Gauss–Legendre rule for `g` on [a, b], and the same for `|g|`.
fn rule(g: &impl Fn(f64) -> [f64; 6], a: f64, b: f64, n: usize) -> ([f64; 6], [f64; 6]) {
    let h = 0.5 * (b - a);
    let (mut s, mut abs) = ([0.0; 6], [0.0; 6]);
    for &(x, w) in gauss_legendre(n) {
        let v = g(a + h * (x + 1.0));
        for k in 0..6 {
            s[k] += h * w * v[k];
            abs[k] += h * w * v[k].abs();
        }
    }
    (s, abs)
}

/// `∫ g` over the curves of `pieces` (control points, one after another), each on [0, 1]
/// by the 20-point rule on halves of halves, until the two halves of a piece agree with
/// the whole to 1e-14 of `∫ |g|` over all of them in every component (or 24 halvings).
fn adaptive<'a, G: Fn(f64) -> [f64; 6] + 'a>(
    pieces: &'a [(Vec<[f64; 3]>, usize)],
    g: impl Fn(&'a [[f64; 3]]) -> G,
) -> [f64; 6] {
    const N: usize = 20;
    let wholes: Vec<([f64; 6], [f64; 6])> = pieces
        .iter()
        .map(|(p, _)| rule(&g(p), 0.0, 1.0, N))
        .collect();
    let mut scale = [0.0; 6];
    for (_, abs) in &wholes {
        for k in 0..6 {
            scale[k] += abs[k];
        }
    }
    let mut total = [0.0; 6];
    for ((p, _), (whole, _)) in pieces.iter().zip(wholes) {
        let g = g(p);
        let mut stack = vec![(0.0, 1.0, whole, 0u32)];
        while let Some((a, b, est, depth)) = stack.pop() {
            let m = 0.5 * (a + b);
            let (l, _) = rule(&g, a, m, N);
            let (r, _) = rule(&g, m, b, N);
            let done = depth >= 24
                || (0..6)
                    .all(|k| (l[k] + r[k] - est[k]).abs() <= 1e-14 * scale[k] + f64::MIN_POSITIVE);
            if done {
                for k in 0..6 {
                    total[k] += l[k] + r[k];
                }
            } else {
                stack.push((a, m, l, depth + 1));
                stack.push((m, b, r, depth + 1));
            }
        }
    }
    total
}

fn cartesian(h: [f64; 3]) -> [f64; 2] {
    [h[0] / h[2], h[1] / h[2]]
}

/// De Casteljau at `t`: the point and the derivative, in homogeneous form.
fn eval(points: &[[f64; 3]], t: f64) -> ([f64; 3], [f64; 3]) {
    // The usual degrees (1 to 4) unrolled, the same arithmetic in the same order; a small
    // buffer for degrees up to 7, without filling the largest one.
    match points.len() {
        2 => casteljau_of::<2>(points, t),
        3 => casteljau_of::<3>(points, t),
        4 => casteljau_of::<4>(points, t),
        5 => casteljau_of::<5>(points, t),
        ..=8 => casteljau::<8>(points, t),
        _ => casteljau::<{ MAX_DEGREE + 1 }>(points, t),
    }
}

/// [`casteljau`] for exactly `N` control points (a length known when compiling, so the
/// loops unroll): the same operations in the same order, so the same bits.
#[inline(always)]
fn casteljau_of<const N: usize>(points: &[[f64; 3]], t: f64) -> ([f64; 3], [f64; 3]) {
    match <[[f64; 3]; N]>::try_from(points) {
        Ok(b) => reduce(b, N - 1, t),
        Err(_) => casteljau::<{ MAX_DEGREE + 1 }>(points, t),
    }
}

fn casteljau<const N: usize>(points: &[[f64; 3]], t: f64) -> ([f64; 3], [f64; 3]) {
    let n = points.len() - 1;
    let mut b = [[0.0; 3]; N];
    b[..=n].copy_from_slice(points);
    reduce(b, n, t)
}

/// De Casteljau's levels on the control points `b[..=n]`: the point at `t` and the
/// derivative there (inlined, so that a constant `n` unrolls the loops).
#[inline(always)]
fn reduce<const N: usize>(mut b: [[f64; 3]; N], n: usize, t: f64) -> ([f64; 3], [f64; 3]) {
    for level in 1..n {
        for j in 0..=n - level {
            b[j] = std::array::from_fn(|c| (1.0 - t) * b[j][c] + t * b[j + 1][c]);
        }
    }
    let p = std::array::from_fn(|c| (1.0 - t) * b[0][c] + t * b[1][c]);
    let d = std::array::from_fn(|c| n as f64 * (b[1][c] - b[0][c]));
    (p, d)
}

/// The square of the largest distance of a piece's control points from the chord between
/// its ends.
fn flatness2(piece: &[[f64; 3]]) -> f64 {
    let a = cartesian(piece[0]);
    let b = cartesian(piece[piece.len() - 1]);
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    piece[1..piece.len() - 1]
        .iter()
        .map(|h| {
            let q = cartesian(*h);
            let (qx, qy) = (q[0] - a[0], q[1] - a[1]);
            let t = if len2 > 0.0 {
                ((qx * dx + qy * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (ex, ey) = (qx - t * dx, qy - t * dy);
            ex * ex + ey * ey
        })
        .fold(0.0, f64::max)
}

/// De Casteljau at the middle of the parameter: the two halves, written to `left` and
/// `right` (each as long as `piece`).
fn halve_into(piece: &[[f64; 3]], left: &mut [[f64; 3]], right: &mut [[f64; 3]]) {
    // The usual degrees with a row of their own length (the loops unroll), the others in
    // one of the largest; the same operations either way.
    match piece.len() {
        3 => halve_row::<3>(piece, left, right),
        4 => halve_row::<4>(piece, left, right),
        5 => halve_row::<5>(piece, left, right),
        ..=8 => halve_row::<8>(piece, left, right),
        _ => halve_row::<{ MAX_DEGREE + 1 }>(piece, left, right),
    }
}

/// [`halve_into`] with a row of `N` points (at least the piece's).
#[inline(always)]
fn halve_row<const N: usize>(piece: &[[f64; 3]], left: &mut [[f64; 3]], right: &mut [[f64; 3]]) {
    let n = piece.len();
    let mut row = [[0.0; 3]; N];
    row[..n].copy_from_slice(piece);
    left[0] = row[0];
    right[n - 1] = row[n - 1];
    for level in 1..n {
        for j in 0..n - level {
            let (a, b) = (row[j], row[j + 1]);
            row[j] = std::array::from_fn(|c| 0.5 * (a[c] + b[c]));
        }
        left[level] = row[0];
        right[n - 1 - level] = row[n - 1 - level];
    }
}

/// De Casteljau at the middle of the parameter: the two halves.
pub(crate) fn halve(piece: &[[f64; 3]]) -> (Vec<[f64; 3]>, Vec<[f64; 3]>) {
    let mut left = piece.to_vec();
    let mut right = piece.to_vec();
    halve_into(piece, &mut left, &mut right);
    (left, right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_1_SQRT_2, PI};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    /// The quarter of the circle of radius `r` about `c` from angle `t0` counter-clockwise,
    /// as a rational quadratic: weights 1, √2/2, 1.
    fn quarter(c: [f64; 2], r: f64, t0: f64) -> ([f64; 2], BezierSpan) {
        let at = |t: f64| [c[0] + r * t.cos(), c[1] + r * t.sin()];
        let (a, b) = (at(t0), at(t0 + PI / 2.0));
        let k = [
            c[0] + r * (t0.cos() - t0.sin()),
            c[1] + r * (t0.sin() + t0.cos()),
        ];
        let w = FRAC_1_SQRT_2;
        let s = BezierSpan::new(&[
            [a[0], a[1], 1.0],
            [w * k[0], w * k[1], w],
            [b[0], b[1], 1.0],
        ])
        .unwrap();
        (a, s)
    }

    #[test]
    fn a_quarter_circle_segment_is_exact() {
        // The segment of a quarter disc of radius 1, π/4 − 1/2: run counter-clockwise
        // about the centre, the arc bulges right of its chord, so it counts positively.
        let (a, s) = quarter([0.0, 0.0], 1.0, 0.0);
        assert!(s.is_rational());
        let (area, first, second) = s.segment_integrals(a, [0.0, 1.0], [0.0, 0.0]);
        let exact = PI / 4.0 - 0.5;
        assert!(close(area, exact, 1e-14), "{area} {exact}");
        // ∫x over the segment: quarter disc 1/3 minus triangle (0,0),(1,0),(0,1) 1/6.
        assert!(close(first[0], 1.0 / 6.0, 1e-14), "{first:?}");
        // ∫x²: quarter disc π/16 minus triangle 1/12.
        assert!(
            close(second[0], PI / 16.0 - 1.0 / 12.0, 1e-14),
            "{second:?}"
        );
        // ∫xy: quarter disc 1/8 minus triangle 1/24.
        assert!(
            close(second[2], 1.0 / 8.0 - 1.0 / 24.0, 1e-14),
            "{second:?}"
        );
        // The same against the arc's closed form, about another point.
        let arc = crate::curve::arc::ArcEdge::elliptic([[1.0, 0.0], [0.0, 1.0]], 0.0, PI / 2.0);
        let (aa, a1, a2) = arc.segment_integrals(a, [0.0, 1.0], [0.3, -0.2]);
        let (ba, b1, b2) = s.segment_integrals(a, [0.0, 1.0], [0.3, -0.2]);
        assert!(close(ba, aa, 1e-14), "{ba} {aa}");
        for (x, y) in a1.iter().zip(&b1).chain(a2.iter().zip(&b2)) {
            assert!((x - y).abs() < 1e-14, "{x} {y}");
        }
    }

    #[test]
    fn reversed_and_transformed_spans() {
        let (a, s) = quarter([2.0, 1.0], 3.0, 0.4);
        let e = s.end_offset();
        let b = [a[0] + e[0], a[1] + e[1]];
        let (area, f, g) = s.segment_integrals(a, b, [1.0, 1.0]);
        let (ra, rf, rg) = s.reversed().segment_integrals(b, a, [1.0, 1.0]);
        assert!(close(ra, -area, 1e-14));
        for (x, y) in f.iter().zip(&rf).chain(g.iter().zip(&rg)) {
            assert!((x + y).abs() < 1e-13 * g[0].abs(), "{x} {y}");
        }
        // A mirror image changes the sign and keeps the size.
        let m = s.transformed(&[[-1.0, 0.0], [0.0, 1.0]]);
        let (ma, _, _) = m.segment_integrals([0.0; 2], [0.0; 2], [0.0; 2]);
        assert!(close(ma, -area, 1e-14));
        assert!(close(s.length(), 1.5 * PI, 1e-14), "{}", s.length());
    }

    #[test]
    fn a_polynomial_cubic_is_integrated_exactly() {
        // y = 3t(1 − t) over x = t³ − … : the Bézier (0, 0), (1, 1), (3, 1), (4, 0) of
        // dxf_cad's test mirrored: ∫ y dx = 2.1, to the left of the chord from (0, 0).
        let s = BezierSpan::new(&[
            [0.0, 0.0, 1.0],
            [1.0, 1.0, 1.0],
            [3.0, 1.0, 1.0],
            [4.0, 0.0, 1.0],
        ])
        .unwrap();
        let (area, _, _) = s.segment_integrals([0.0; 2], [4.0, 0.0], [0.0; 2]);
        assert!(close(area, -2.1, 1e-15), "{area}");
        // The same with all weights 2 (still a polynomial).
        let w = BezierSpan::new(&[
            [0.0, 0.0, 2.0],
            [2.0, 2.0, 2.0],
            [6.0, 2.0, 2.0],
            [8.0, 0.0, 2.0],
        ])
        .unwrap();
        assert!(!w.is_rational());
        assert_eq!(w.segment_integrals([0.0; 2], [4.0, 0.0], [0.0; 2]).0, area);
    }

    /// The segment between the chord from (0, 0) to (2, 0) and the rational quadratic with
    /// control point (1, h) and weights (1, w, 1), in closed form: area, ∫x, ∫y, ∫x², ∫y²,
    /// ∫xy about the origin. The curve is a conic: for w < 1 the image of the unit
    /// circle's arc within α = acos w of the +y axis, for w > 1 of the hyperbola y² − x² = 1
    /// between ±β = ±acosh w, under the affine map taking the arc's ends and its tangents'
    /// meeting point (0, 1/w) to the control points; w = 1 is a parabola.
    fn conic_segment(w: f64, h: f64) -> [f64; 6] {
        if w == 1.0 {
            // y = h x (2 − x) / 2.
            let (a, hh) = (2.0 * h / 3.0, h * h);
            return [
                a,
                a,
                2.0 * hh / 15.0,
                0.8 * h,
                4.0 * hh * h / 105.0,
                2.0 * hh / 15.0,
            ];
        }
        // The arc's segment (between y = c and the arc): area, ∫y, ∫x², ∫y² (∫x = ∫xy = 0).
        let (s, c, [area, sy, sxx, syy]) = if w < 1.0 {
            let (al, c) = (w.acos(), w);
            let s = al.sin();
            let a = al - s * c;
            (
                s,
                c,
                [
                    a,
                    2.0 * s.powi(3) / 3.0,
                    a / 4.0 - s.powi(3) * c / 6.0,
                    (al + s * c) / 4.0 - s * c.powi(3) / 2.0,
                ],
            )
        } else {
            let (be, c) = (w.acosh(), w);
            let s = (w * w - 1.0).sqrt();
            (
                s,
                c,
                [
                    s * c - be,
                    2.0 * s.powi(3) / 3.0,
                    2.0 * c * s.powi(3) / 3.0 - (s * (2.0 * s * s + 1.0) * c - be) / 4.0,
                    2.0 * s * c.powi(3) / 3.0 - (s * (2.0 * s * s + 5.0) * c + 3.0 * be) / 12.0,
                ],
            )
        };
        // x' = x / s + 1, y' = k (y − c), with (0, 1/c) going to (1, h).
        let k = h / (1.0 / c - c);
        let jac = (k / s).abs();
        let shifted_y = sy - c * area; // ∫(y − c)
        [
            jac * area,
            jac * area,
            jac * k * shifted_y,
            jac * (sxx / (s * s) + area),
            jac * k * k * (syy - 2.0 * c * sy + c * c * area),
            jac * k * shifted_y,
        ]
    }

    #[test]
    fn rational_quadratics_of_any_weight_match_their_conics() {
        for w in [1e-8, 1e-4, 0.3, 1.0, 3.0, 1e4, 1e8, 1e10, 1e12, 1e300] {
            for h in [1.0, 0.5] {
                let s =
                    BezierSpan::new(&[[0.0, 0.0, 1.0], [w, w * h, w], [2.0, 0.0, 1.0]]).unwrap();
                assert_eq!(s.is_rational(), w != 1.0);
                let (a, f, g) = s.segment_integrals([0.0; 2], [2.0, 0.0], [0.0; 2]);
                // Left of the chord: negative.
                let got = [a, f[0], f[1], g[0], g[1], g[2]].map(|v| -v);
                // Beyond 1e150 the closed form overflows (w²); the triangle below holds.
                let want = if w < 1e150 { conic_segment(w, h) } else { got };
                for k in 0..6 {
                    assert!(
                        close(got[k], want[k], 1e-13),
                        "w {w} h {h} [{k}]: {got:?} vs {want:?}"
                    );
                }
                if w >= 1e10 {
                    // The control triangle, to within 1e-18.
                    let tri = [
                        h,
                        h,
                        h * h / 3.0,
                        7.0 * h / 6.0,
                        h.powi(3) / 6.0,
                        h * h / 3.0,
                    ];
                    for k in 0..6 {
                        assert!(
                            close(got[k], tri[k], 1e-14),
                            "w {w} [{k}]: {got:?} vs {tri:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn steep_weights_are_cut_into_few_pieces() {
        // Each halving takes (1, s, 1) to about (1, √(s/2), 1): levels grow as log log s.
        for (w, most) in [(0.7, 1), (1e4, 4), (1e12, 16), (1e300, 256)] {
            let pieces = rational_pieces(&[[0.0, 0.0, 1.0], [w, w, w], [2.0, 0.0, 1.0]]);
            assert!(pieces.len() <= most, "{w}: {} pieces", pieces.len());
            assert!(pieces.iter().all(|(_, size)| *size <= max_rule(2)));
        }
        // A cubic with steep weights, and one rising along the span (a polynomial curve
        // reparametrised: balanced, it is one piece).
        let cubic = rational_pieces(&[
            [0.0, 0.0, 1.0],
            [1e9, 1e9, 1e9],
            [2e9, 0.0, 1e9],
            [3.0, 1.0, 1.0],
        ]);
        assert!(cubic.len() <= 16, "{}", cubic.len());
        let rising = rational_pieces(&[[0.0, 0.0, 1.0], [1e5, 1e5, 1e5], [2e10, 0.0, 1e10]]);
        assert_eq!(rising.len(), 1);
    }

    #[test]
    fn circular_arcs_of_any_angle_as_rational_quadratics() {
        // The arc of the unit circle from angle −θ/2 to θ/2 about the +x axis: weight
        // cos(θ/2), control point where the end tangents meet. Against the arc's closed form.
        for theta in [0.5_f64, 1.0, 2.0, 3.0, 3.1] {
            let (sn, cs) = (theta / 2.0).sin_cos();
            let (a, b, k) = ([cs, -sn], [cs, sn], [1.0 / cs, 0.0]);
            let s = BezierSpan::new(&[
                [a[0], a[1], 1.0],
                [cs * k[0], cs * k[1], cs],
                [b[0], b[1], 1.0],
            ])
            .unwrap();
            let arc = crate::curve::arc::ArcEdge::elliptic(
                [[1.0, 0.0], [0.0, 1.0]],
                -theta / 2.0,
                theta / 2.0,
            );
            let o = [0.2, -0.1];
            let (ba, b1, b2) = s.segment_integrals(a, b, o);
            let (aa, a1, a2) = arc.segment_integrals(a, b, o);
            assert!(close(ba, aa, 1e-13), "{theta}: {ba} {aa}");
            for (x, y) in a1.iter().zip(&b1).chain(a2.iter().zip(&b2)) {
                assert!((x - y).abs() <= 1e-13 * aa.abs(), "{theta}: {x} {y}");
            }
            assert!(close(s.length(), theta, 1e-13), "{theta}: {}", s.length());
        }
    }

    #[test]
    fn chords_and_extent() {
        let (a, s) = quarter([0.0, 0.0], 1.0, 0.0);
        // 32 chords of 1/128 of a turn.
        assert_eq!(s.chord_count(), 32);
        let mut pts = Vec::new();
        s.interior_points(a, &mut pts);
        assert_eq!(pts.len(), 31);
        assert!(pts.iter().all(|p| close(p[0].hypot(p[1]), 1.0, 1e-15)));
        // A quarter from 45°: its extent reaches y = 1 at 90°.
        let (a, s) = quarter([0.0, 0.0], 1.0, PI / 4.0);
        let (lo, hi) = s.extent(a);
        assert!(close(hi[1], 1.0, 1e-15), "{hi:?}");
        assert!(close(lo[0], -FRAC_1_SQRT_2, 1e-15) && close(hi[0], FRAC_1_SQRT_2, 1e-15));
        assert!(close(lo[1], FRAC_1_SQRT_2, 1e-15), "{lo:?}");
    }
}
