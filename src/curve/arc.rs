//! Curved edges: circular and elliptical arcs integrated in closed form.
//!
//! A curved edge from `p0` to `p1` is stored as the image of an arc of the unit circle
//! under an affine map, which covers a circle's arc, an ellipse's arc, and either of them
//! placed by a DXF `INSERT` with any scale, mirror or rotation. The unit arc runs
//! counter-clockwise from angle −α to α (0 < α < π); in the frame whose origin is its
//! chord's midpoint `(cos α, 0)` the map is `X ↦ P + B X`, where `P` is the midpoint of
//! `p0` and `p1` (affine maps keep midpoints) and `B`'s columns map the direction towards
//! the arc's apex and the direction along the chord.
//!
//! By Green's theorem, the integrals over a region bounded by straight and curved edges
//! are those of the polygon of its chords plus, for each curved edge, those of the
//! circular (or elliptic) segment between the chord and the arc, signed by `det B`. The
//! unit segment's area, first and second moments are closed forms in α — sector minus
//! triangle — except for a flat segment (α < 1/2), where that difference would cancel and
//! a Gauss–Legendre rule over the chord of the smooth height function is exact to
//! rounding instead. The map then carries them to the plane exactly.

use std::f64::consts::PI;

/// A curved edge between two vertices of a ring; see the [module documentation](self).
///
/// # Examples
/// ```
/// use inertia::curve::arc::ArcEdge;
/// // A semicircle of radius 1 from (1, 0) to (−1, 0), bulging upwards (counter-clockwise).
/// let e = ArcEdge::from_bulge([1.0, 0.0], [-1.0, 0.0], 1.0).unwrap();
/// let (area, _, _) = e.segment_integrals([1.0, 0.0], [-1.0, 0.0], [0.0, 0.0]);
/// assert!((area - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArcEdge {
    /// `B` (row-major): its first column maps the unit direction towards the arc's apex,
    /// its second the unit direction along the chord.
    pub b: [[f64; 2]; 2],
    /// Half the angle the unit arc spans, in (0, π).
    pub half_angle: f64,
}

impl ArcEdge {
    /// The circular arc from `p0` to `p1` with DXF bulge `bulge` (tan of a quarter of the
    /// included angle, positive counter-clockwise); `None` for a straight edge (bulge 0)
    /// or coincident ends.
    ///
    /// # Examples
    /// ```
    /// use inertia::curve::arc::ArcEdge;
    /// assert!(ArcEdge::from_bulge([0.0, 0.0], [1.0, 0.0], 0.0).is_none());
    /// let quarter = ArcEdge::from_bulge([1.0, 0.0], [0.0, 1.0], (std::f64::consts::PI / 8.0).tan()).unwrap();
    /// assert!((quarter.half_angle - std::f64::consts::PI / 4.0).abs() < 1e-15);
    /// ```
    pub fn from_bulge(p0: [f64; 2], p1: [f64; 2], bulge: f64) -> Option<ArcEdge> {
        let d = [p1[0] - p0[0], p1[1] - p0[1]];
        if bulge == 0.0 || !bulge.is_finite() || d == [0.0, 0.0] {
            return None;
        }
        let half_angle = 2.0 * bulge.abs().atan();
        let s = half_angle.sin();
        // Apex direction: to the right of the chord for a counter-clockwise arc (the
        // centre is on its left), to the left for a clockwise one.
        let k = bulge.signum() / (2.0 * s);
        let t = 1.0 / (2.0 * s);
        Some(ArcEdge {
            b: [[k * d[1], t * d[0]], [-k * d[0], t * d[1]]],
            half_angle,
        })
    }

    /// The arc of the ellipse `c + A (cos t, sin t)` (`a` row-major; a circle of radius r
    /// is `A = r I`) from parameter `t0` to `t1`, as an edge from `point(t0)` to
    /// `point(t1)`: counter-clockwise in the parameter when `t1 > t0`. `|t1 − t0|` must
    /// be in (0, 2π); split longer arcs.
    ///
    /// # Examples
    /// ```
    /// use inertia::curve::arc::ArcEdge;
    /// let e = ArcEdge::elliptic([[2.0, 0.0], [0.0, 1.0]], 0.0, std::f64::consts::PI);
    /// // The upper half of the ellipse with semi-axes 2 and 1: area π.
    /// let (area, _, _) = e.segment_integrals([2.0, 0.0], [-2.0, 0.0], [0.0, 0.0]);
    /// assert!((area - std::f64::consts::PI).abs() < 1e-14);
    /// ```
    pub fn elliptic(a: [[f64; 2]; 2], t0: f64, t1: f64) -> ArcEdge {
        let mid = 0.5 * (t0 + t1);
        let half = 0.5 * (t1 - t0);
        let (s, c) = mid.sin_cos();
        // B = A · R(mid), the second column negated for a clockwise run (the unit arc is
        // then traversed from α to −α, its mirror image from −α to α).
        let sign = half.signum();
        ArcEdge {
            b: [
                [
                    a[0][0] * c + a[0][1] * s,
                    sign * (-a[0][0] * s + a[0][1] * c),
                ],
                [
                    a[1][0] * c + a[1][1] * s,
                    sign * (-a[1][0] * s + a[1][1] * c),
                ],
            ],
            half_angle: half.abs(),
        }
    }

    /// The same edge after the linear part `m` (row-major) of an affine map of the plane.
    pub fn transformed(&self, m: &[[f64; 2]; 2]) -> ArcEdge {
        let b = &self.b;
        let mut out = [[0.0; 2]; 2];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = m[i][0] * b[0][j] + m[i][1] * b[1][j];
            }
        }
        ArcEdge {
            b: out,
            half_angle: self.half_angle,
        }
    }

    /// The same arc run the other way, from `p1` to `p0`.
    pub fn reversed(&self) -> ArcEdge {
        let b = &self.b;
        ArcEdge {
            b: [[b[0][0], -b[0][1]], [b[1][0], -b[1][1]]],
            half_angle: self.half_angle,
        }
    }

    /// `det B`: positive when the arc bulges to the right of the chord run from `p0` to
    /// `p1` (adding its segment to a counter-clockwise ring).
    pub fn det(&self) -> f64 {
        self.b[0][0] * self.b[1][1] - self.b[0][1] * self.b[1][0]
    }

    /// The point at unit angle `t` ∈ [−α, α] of the edge from `p0` to `p1`.
    pub fn point(&self, p0: [f64; 2], p1: [f64; 2], t: f64) -> [f64; 2] {
        let (s, c) = t.sin_cos();
        let x = c - self.half_angle.cos();
        let m = [0.5 * (p0[0] + p1[0]), 0.5 * (p0[1] + p1[1])];
        [
            m[0] + self.b[0][0] * x + self.b[0][1] * s,
            m[1] + self.b[1][0] * x + self.b[1][1] * s,
        ]
    }

    /// Points strictly inside the arc from `p0` to `p1`, `n − 1` of them at equal unit
    /// angles (the arc cut into `n` chords), appended to `out`. They are computed from the
    /// lower end (in `x`, then `y`) whichever way the arc is run, so that two outlines
    /// drawing one arc from opposite sides share its chords exactly.
    ///
    /// # Examples
    /// ```
    /// use inertia::curve::arc::ArcEdge;
    /// let b = (std::f64::consts::PI / 8.0).tan();
    /// let (p, q) = ([1.0, 0.0], [1.0, 1.0]);
    /// let (mut there, mut back) = (Vec::new(), Vec::new());
    /// ArcEdge::from_bulge(p, q, b).unwrap().interior_points(p, q, 7, &mut there);
    /// ArcEdge::from_bulge(q, p, -b).unwrap().interior_points(q, p, 7, &mut back);
    /// back.reverse();
    /// assert_eq!(there, back);
    /// ```
    pub fn interior_points(&self, p0: [f64; 2], p1: [f64; 2], n: usize, out: &mut Vec<[f64; 2]>) {
        if p1 < p0 {
            let start = out.len();
            self.reversed().interior_points(p1, p0, n, out);
            out[start..].reverse();
            return;
        }
        let a = self.half_angle;
        for k in 1..n {
            let t = -a + 2.0 * a * k as f64 / n as f64;
            out.push(self.point(p0, p1, t));
        }
    }

    /// How many chords the validity checks and drawings cut this arc into: at most 1/128
    /// of a turn of the unit circle each (a sagitta below 3.1e-4 of a circle's radius).
    pub fn chord_count(&self) -> usize {
        (2.0 * self.half_angle / (std::f64::consts::TAU / 128.0))
            .ceil()
            .max(2.0) as usize
    }

    /// Length of the arc (exact for a circle; Gauss–Legendre for an ellipse).
    pub fn length(&self) -> f64 {
        let b = &self.b;
        let col = |j: usize| b[0][j].hypot(b[1][j]);
        let (c0, c1) = (col(0), col(1));
        let dot = b[0][0] * b[0][1] + b[1][0] * b[1][1];
        if (c0 - c1).abs() <= 1e-15 * c0.max(c1) && dot.abs() <= 1e-15 * c0 * c1 {
            return c0 * 2.0 * self.half_angle;
        }
        // |B (−sin t, cos t)| over t ∈ [−α, α], in pieces of at most π/8.
        let a = self.half_angle;
        let pieces = (2.0 * a / (PI / 8.0)).ceil().max(1.0) as usize;
        let h = 2.0 * a / pieces as f64;
        let mut total = 0.0;
        for k in 0..pieces {
            let lo = -a + h * k as f64;
            for (x, w) in gauss_legendre() {
                let t = lo + 0.5 * h * (x + 1.0);
                let (s, c) = t.sin_cos();
                let v = [-b[0][0] * s + b[0][1] * c, -b[1][0] * s + b[1][1] * c];
                total += 0.5 * h * w * v[0].hypot(v[1]);
            }
        }
        total
    }

    /// The arc's exact extent: `(min, max)` of x and y over the curve from `p0` to `p1`
    /// (its ends, and each point where the curve runs parallel to an axis, when that
    /// point lies on the arc).
    ///
    /// # Examples
    /// ```
    /// use inertia::curve::arc::ArcEdge;
    /// // The upper semicircle of radius 1: it reaches y = 1 at its apex, not only at its ends.
    /// let e = ArcEdge::from_bulge([1.0, 0.0], [-1.0, 0.0], 1.0).unwrap();
    /// let (lo, hi) = e.extent([1.0, 0.0], [-1.0, 0.0]);
    /// assert_eq!(lo, [-1.0, 0.0]);
    /// assert!((hi[0] - 1.0).abs() < 1e-15 && (hi[1] - 1.0).abs() < 1e-15);
    /// ```
    pub fn extent(&self, p0: [f64; 2], p1: [f64; 2]) -> ([f64; 2], [f64; 2]) {
        let mut lo = [p0[0].min(p1[0]), p0[1].min(p1[1])];
        let mut hi = [p0[0].max(p1[0]), p0[1].max(p1[1])];
        let a = self.half_angle;
        for (i, row) in self.b.iter().enumerate() {
            // Coordinate i is m + row·(cos t − cos α, sin t): stationary where
            // −row[0] sin t + row[1] cos t = 0, at t* and t* ± π.
            if row[0] == 0.0 && row[1] == 0.0 {
                continue;
            }
            let t = row[1].atan2(row[0]);
            for t in [t, t - PI, t + PI] {
                if t > -a && t < a {
                    let v = self.point(p0, p1, t)[i];
                    lo[i] = lo[i].min(v);
                    hi[i] = hi[i].max(v);
                }
            }
        }
        (lo, hi)
    }

    /// Signed integrals over the segment between the chord `p0`–`p1` and the arc, about
    /// the point `o`: `(area, [∫x, ∫y], [∫x², ∫y², ∫xy])`, with the sign of [`det`](Self::det)
    /// (the amount to add to the integrals of the ring's chord polygon).
    pub fn segment_integrals(
        &self,
        p0: [f64; 2],
        p1: [f64; 2],
        o: [f64; 2],
    ) -> (f64, [f64; 2], [f64; 3]) {
        let u = unit_segment(self.half_angle);
        let det = self.det();
        let b = &self.b;
        let p = [0.5 * (p0[0] + p1[0]) - o[0], 0.5 * (p0[1] + p1[1]) - o[1]];
        // The unit segment's first moment lies along its axis: B (m1x, 0).
        let v = [b[0][0] * u.m1x, b[1][0] * u.m1x];
        let area = det * u.m0;
        let first = [det * (p[0] * u.m0 + v[0]), det * (p[1] * u.m0 + v[1])];
        // B diag(mxx, myy) Bᵀ.
        let q = |i: usize, j: usize| u.mxx * b[i][0] * b[j][0] + u.myy * b[i][1] * b[j][1];
        let second = [
            det * (p[0] * p[0] * u.m0 + 2.0 * p[0] * v[0] + q(0, 0)),
            det * (p[1] * p[1] * u.m0 + 2.0 * p[1] * v[1] + q(1, 1)),
            det * (p[0] * p[1] * u.m0 + p[0] * v[1] + p[1] * v[0] + q(0, 1)),
        ];
        (area, first, second)
    }
}

/// Integrals of the unit circle's segment cut off by the chord at `x = cos α`, in the frame
/// with its origin at the chord's midpoint, x towards the apex and y along the chord.
#[derive(Clone, Copy, Debug, PartialEq)]
struct UnitSegment {
    m0: f64,
    m1x: f64,
    mxx: f64,
    myy: f64,
}

fn unit_segment(alpha: f64) -> UnitSegment {
    if alpha < 0.5 {
        quadrature(alpha)
    } else {
        closed_form(alpha)
    }
}

fn quadrature(alpha: f64) -> UnitSegment {
    let (s, c) = alpha.sin_cos();
    {
        // Height above the chord at y: √(1 − y²) − cos α = (sin²α − y²)/(√(1 − y²) + cos α),
        // analytic on the chord with its nearest singularity at y = ±1, so the rule
        // converges geometrically (ratio about 4 per node at α = 1/2). Even in y.
        let (mut m0, mut m1x, mut mxx, mut myy) = (0.0, 0.0, 0.0, 0.0);
        for (x, w) in gauss_legendre() {
            let y = 0.5 * s * (x + 1.0); // over [0, sin α]
            let h = (s - y) * (s + y) / ((1.0 - y * y).sqrt() + c);
            let w = w * s; // ×2 for both halves, ×s/2 for the interval
            m0 += w * h;
            m1x += w * h * h / 2.0;
            mxx += w * h * h * h / 3.0;
            myy += w * y * y * h;
        }
        UnitSegment { m0, m1x, mxx, myy }
    }
}

fn closed_form(alpha: f64) -> UnitSegment {
    let (s, c) = alpha.sin_cos();
    // Sector minus triangle (centre, chord ends), about the centre.
    let m0 = alpha - s * c;
    let ix = 2.0 / 3.0 * s * s * s;
    let ixx = 0.25 * (alpha + s * c) - 0.5 * s * c * c * c;
    let iyy = 0.25 * (alpha - s * c) - s * s * s * c / 6.0;
    UnitSegment {
        m0,
        m1x: ix - c * m0,
        mxx: ixx - 2.0 * c * ix + c * c * m0,
        myy: iyy,
    }
}

/// The 20-point Gauss–Legendre rule on [−1, 1].
fn gauss_legendre() -> impl Iterator<Item = (f64, f64)> {
    crate::quadrature::gauss_legendre(20).iter().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[test]
    fn the_rule_integrates_polynomials_exactly() {
        let sum: f64 = gauss_legendre().map(|(_, w)| w).sum();
        assert!(close(sum, 2.0, 1e-15));
        let x38: f64 = gauss_legendre().map(|(x, w)| w * x.powi(38)).sum();
        assert!(close(x38, 2.0 / 39.0, 1e-13), "{x38}");
    }

    #[test]
    fn both_branches_agree_where_they_meet() {
        // Around α = 1/2 the quadrature and the closed form must agree (the closed form
        // loses digits as α falls, the quadrature as α grows).
        for alpha in [0.4, 0.5, 0.6] {
            let below = quadrature(alpha);
            let above = closed_form(alpha);
            for (a, b) in [
                (below.m0, above.m0),
                (below.m1x, above.m1x),
                (below.mxx, above.mxx),
                (below.myy, above.myy),
            ] {
                assert!(close(a, b, 1e-13), "{alpha}: {a} {b}");
            }
        }
    }

    #[test]
    fn flat_segments_keep_their_digits() {
        // Series: area (2/3)α³ − (2/15)α⁵ + …, first moment about the chord (2/15)α⁵ + …
        let a = 1e-4_f64;
        let u = unit_segment(a);
        let area = 2.0 / 3.0 * a.powi(3) - 2.0 / 15.0 * a.powi(5);
        assert!(close(u.m0, area, 1e-14), "{} {}", u.m0, area);
        assert!(close(u.m1x, 2.0 / 15.0 * a.powi(5), 1e-7), "{}", u.m1x);
    }

    #[test]
    fn a_full_disc_from_four_quarter_arcs() {
        // Disc of radius 3 about (1e6, −2e6): area 9π, polar moment about the centre 81π/2.
        let (cx, cy, r) = (1e6, -2e6, 3.0);
        let at = |t: f64| [cx + r * t.cos(), cy + r * t.sin()];
        let (mut a, mut ix, mut iy, mut ixx, mut iyy, mut ixy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        let o = [cx, cy];
        for k in 0..4 {
            let (t0, t1) = (k as f64 * PI / 2.0, (k + 1) as f64 * PI / 2.0);
            let (p0, p1) = (at(t0), at(t1));
            let e = ArcEdge::elliptic([[r, 0.0], [0.0, r]], t0, t1);
            let (sa, s1, s2) = e.segment_integrals(p0, p1, o);
            // The chord triangle (o, p0, p1).
            let (u, v) = ([p0[0] - cx, p0[1] - cy], [p1[0] - cx, p1[1] - cy]);
            let d = u[0] * v[1] - u[1] * v[0];
            a += sa + d / 2.0;
            ix += s1[0] + d / 6.0 * (u[0] + v[0]);
            iy += s1[1] + d / 6.0 * (u[1] + v[1]);
            ixx += s2[0] + d / 12.0 * (u[0] * u[0] + u[0] * v[0] + v[0] * v[0]);
            iyy += s2[1] + d / 12.0 * (u[1] * u[1] + u[1] * v[1] + v[1] * v[1]);
            ixy += s2[2]
                + d / 24.0 * (2.0 * u[0] * u[1] + 2.0 * v[0] * v[1] + u[0] * v[1] + u[1] * v[0]);
        }
        assert!(close(a, 9.0 * PI, 1e-15), "{a}");
        assert!(ix.abs() < 1e-13 && iy.abs() < 1e-13, "{ix} {iy}");
        assert!(close(ixx, 81.0 * PI / 4.0, 1e-15) && close(iyy, 81.0 * PI / 4.0, 1e-15));
        assert!(ixy.abs() < 1e-13);
    }

    #[test]
    fn bulges_match_circular_arcs_and_reverse() {
        // Bulge tan(θ/4) from (1, 0) counter-clockwise by θ about the origin.
        for theta in [1e-3, 0.3, 1.0, 2.0, 3.0, 4.0, 6.0] {
            let b = (theta / 4.0_f64).tan();
            let (p0, p1) = ([1.0, 0.0], [theta.cos(), theta.sin()]);
            let e = ArcEdge::from_bulge(p0, p1, b).unwrap();
            let f = ArcEdge::elliptic([[1.0, 0.0], [0.0, 1.0]], 0.0, theta);
            let (a, m1, m2) = e.segment_integrals(p0, p1, [0.0, 0.0]);
            let (fa, f1, f2) = f.segment_integrals(p0, p1, [0.0, 0.0]);
            // θ − sin θ by its series where the difference would cancel.
            let exact = if theta < 0.01 {
                0.5 * (theta.powi(3) / 6.0 - theta.powi(5) / 120.0 + theta.powi(7) / 5040.0)
            } else {
                0.5 * (theta - theta.sin())
            };
            assert!(
                close(a, exact, 1e-13) && close(fa, exact, 1e-13),
                "{theta}: {a} {fa}"
            );
            for (x, y) in m1.iter().zip(&f1).chain(m2.iter().zip(&f2)) {
                assert!((x - y).abs() < 1e-13, "{theta}: {x} {y}");
            }
            // The mid-point of the arc lies on the unit circle.
            let m = e.point(p0, p1, 0.0);
            assert!(close(m[0].hypot(m[1]), 1.0, 1e-14));
            // Run backwards, the segment counts negatively.
            let (ra, _, _) = e.reversed().segment_integrals(p1, p0, [0.0, 0.0]);
            assert!(close(ra, -a, 1e-15));
            assert!(close(e.length(), theta, 1e-14));
        }
        // Clockwise (negative bulge): the segment lies left of the chord, subtracted.
        let e = ArcEdge::from_bulge([0.0, 0.0], [2.0, 0.0], -1.0).unwrap();
        let (a, m1, _) = e.segment_integrals([0.0, 0.0], [2.0, 0.0], [0.0, 0.0]);
        assert!(close(a, -PI / 2.0, 1e-15));
        // The semicircle lies above the chord (y > 0): ∫y = −(2/3) with the sign.
        assert!(close(m1[1], -2.0 / 3.0, 1e-15), "{m1:?}");
    }

    #[test]
    fn an_ellipse_length() {
        // Quarter of the ellipse with semi-axes 2 and 1 (a quarter of 9.688448220547675)
        let e = ArcEdge::elliptic([[2.0, 0.0], [0.0, 1.0]], 0.0, PI / 2.0);
        assert!(
            close(e.length(), 2.422_112_055_136_919, 1e-12),
            "{}",
            e.length()
        );
    }
}
