//! Mass properties of a planar lamina (a polygon of uniform areal density).

use nalgebra::{Point2, Vector2};
use std::iter::Sum;
use std::ops::Add;

/// Second mass moments of a lamina about some point, axes parallel to x and y.
///
/// Conventions: `ixx = ∫y² dm` (about the x axis), `iyy = ∫x² dm` (about the y axis) and
/// `ixy = +∫xy dm`, the *product of inertia* as structural and CAD tools print it (the
/// in-plane inertia tensor is `[[ixx, -ixy], [-ixy, iyy]]`).
///
/// # Examples
/// ```
/// use inertia::SecondMoments2d;
/// let m = SecondMoments2d { ixx: 2.0, iyy: 1.0, ixy: 0.0 };
/// assert_eq!(m.polar(), 3.0);
/// assert_eq!(m.principal().moments, [1.0, 2.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SecondMoments2d {
    /// `∫y² dm`: moment about the x axis.
    pub ixx: f64,
    /// `∫x² dm`: moment about the y axis.
    pub iyy: f64,
    /// `+∫xy dm`: product of inertia.
    pub ixy: f64,
}

/// Principal moments of a lamina and the direction of the first principal axis.
///
/// # Examples
/// ```
/// let p = inertia::SecondMoments2d { ixx: 1.0, iyy: 4.0, ixy: 0.0 }.principal();
/// assert_eq!((p.moments, p.angle_deg), ([1.0, 4.0], 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Principal2d {
    /// `[I1, I2]` with `I1 <= I2`: the smallest and largest moment about an in-plane axis.
    pub moments: [f64; 2],
    /// Angle of the `I1` axis from +x, counter-clockwise, in degrees, in `(-90, 90]`.
    /// 0 when the moments are equal (every axis is principal).
    pub angle_deg: f64,
}

impl SecondMoments2d {
    /// The polar moment `∫(x² + y²) dm`, about the axis perpendicular to the plane.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::SecondMoments2d { ixx: 0.5, iyy: 0.25, ixy: 0.1 };
    /// assert_eq!(m.polar(), 0.75);
    /// ```
    #[must_use]
    pub fn polar(&self) -> f64 {
        self.ixx + self.iyy
    }

    /// The principal moments (ascending) and the angle of the first principal axis.
    ///
    /// # Examples
    /// ```
    /// // A thin rod along the diagonal y = x: its own axis (45°) has the least moment.
    /// let m = inertia::SecondMoments2d { ixx: 1.0, iyy: 1.0, ixy: 1.0 };
    /// let p = m.principal();
    /// assert!((p.angle_deg - 45.0).abs() < 1e-12);
    /// assert!(p.moments[0].abs() < 1e-12 && (p.moments[1] - 2.0).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn principal(&self) -> Principal2d {
        let mean = 0.5 * (self.ixx + self.iyy);
        let half_diff = 0.5 * (self.iyy - self.ixx);
        let radius = half_diff.hypot(self.ixy);
        // Equal moments within rounding: every axis is principal; report 0° rather than noise.
        let isotropic = radius <= 1e-13 * mean.abs();
        let angle_deg = if isotropic {
            0.0
        } else {
            let a = 0.5 * (2.0 * self.ixy).atan2(self.iyy - self.ixx).to_degrees();
            if a <= -90.0 { a + 180.0 } else { a }
        };
        let radius = if isotropic { 0.0 } else { radius };
        let big = mean + radius;
        // The smaller root as det / big keeps its digits when it is many orders below the
        // larger (a needle); mean − radius would cancel to 0.
        let det = self.ixx * self.iyy - self.ixy * self.ixy;
        let small = if big > 0.0 && det > 0.0 {
            det / big
        } else {
            mean - radius
        };
        Principal2d {
            moments: [small, big],
            angle_deg,
        }
    }

    /// The moment about the in-plane axis through the reference point with direction `dir`
    /// (need not be unit length).
    ///
    /// # Examples
    /// ```
    /// let m = inertia::SecondMoments2d { ixx: 2.0, iyy: 1.0, ixy: 0.0 };
    /// assert_eq!(m.about_axis(nalgebra::Vector2::new(3.0, 0.0)), 2.0);
    /// ```
    #[must_use]
    pub fn about_axis(&self, dir: Vector2<f64>) -> f64 {
        let u = unit(dir);
        self.ixx * u.x * u.x + self.iyy * u.y * u.y - 2.0 * self.ixy * u.x * u.y
    }

    /// Every moment multiplied by `factor` (a density, or a unit conversion).
    ///
    /// # Examples
    /// ```
    /// let m = inertia::SecondMoments2d { ixx: 1.0, iyy: 2.0, ixy: 0.5 }.scaled(2.0);
    /// assert_eq!((m.ixx, m.iyy, m.ixy), (2.0, 4.0, 1.0));
    /// ```
    #[must_use]
    pub fn scaled(&self, factor: f64) -> Self {
        SecondMoments2d {
            ixx: self.ixx * factor,
            iyy: self.iyy * factor,
            ixy: self.ixy * factor,
        }
    }

    /// The moments after moving the reference point by `d` from a body's centroid
    /// (parallel-axis theorem for a body of mass `mass`).
    ///
    /// # Examples
    /// ```
    /// // A unit point mass moved by (1, 2): ∫y² = 4, ∫x² = 1, ∫xy = 2.
    /// let m = inertia::SecondMoments2d::default().shifted(1.0, nalgebra::Vector2::new(1.0, 2.0));
    /// assert_eq!((m.ixx, m.iyy, m.ixy), (4.0, 1.0, 2.0));
    /// ```
    #[must_use]
    pub fn shifted(&self, mass: f64, d: Vector2<f64>) -> Self {
        SecondMoments2d {
            ixx: self.ixx + mass * d.y * d.y,
            iyy: self.iyy + mass * d.x * d.x,
            ixy: self.ixy + mass * d.x * d.y,
        }
    }
}

/// `dir` scaled to unit length, without overflow or underflow of its squares.
pub(crate) fn unit(dir: Vector2<f64>) -> Vector2<f64> {
    let big = dir.amax();
    let d = dir / big;
    d / d.norm()
}

impl Add for SecondMoments2d {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        SecondMoments2d {
            ixx: self.ixx + o.ixx,
            iyy: self.iyy + o.iyy,
            ixy: self.ixy + o.ixy,
        }
    }
}

/// Area, mass, centroid and second moments (about the centroid) of a uniform lamina.
///
/// A value you can combine with `+` (the assembly of two bodies) and take about another
/// point with [`MassProperties2d::moments_about`].
///
/// # Examples
/// ```
/// use inertia::{MassProperties2d, SecondMoments2d};
/// use nalgebra::Point2;
/// // Two unit squares side by side make a 2 × 1 rectangle.
/// let sq = |x: f64| MassProperties2d {
///     area: 1.0,
///     mass: 1.0,
///     centroid: Point2::new(x, 0.5),
///     moments: SecondMoments2d { ixx: 1.0 / 12.0, iyy: 1.0 / 12.0, ixy: 0.0 },
/// };
/// let r = sq(0.5) + sq(1.5);
/// assert_eq!(r.centroid, Point2::new(1.0, 0.5));
/// assert!((r.moments.polar() - 2.0 * (4.0 + 1.0) / 12.0).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties2d {
    /// Area (always positive for a valid polygon).
    pub area: f64,
    /// Mass = density × area.
    pub mass: f64,
    /// Centre of mass (the area centroid for a uniform lamina).
    pub centroid: Point2<f64>,
    /// Second mass moments about the centroid.
    pub moments: SecondMoments2d,
}

impl MassProperties2d {
    /// The same body with its density multiplied by `factor`.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::PolygonMethod::Fan.integrate(&inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?).properties;
    /// assert_eq!(p.scaled_mass(3.0).mass, 3.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn scaled_mass(&self, factor: f64) -> Self {
        MassProperties2d {
            area: self.area,
            mass: self.mass * factor,
            centroid: self.centroid,
            moments: self.moments.scaled(factor),
        }
    }

    /// The same body with every length multiplied by `k` and the same density (a unit
    /// change): area × k², centroid × k, mass × k², moments × k⁴.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::PolygonMethod::Fan.integrate(&inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?).properties;
    /// let q = p.scaled_lengths(10.0); // 1 × 1 → 10 × 10
    /// assert_eq!(q.area, 100.0);
    /// assert!((q.moments.polar() - 100.0 * 200.0 / 12.0).abs() < 1e-9);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn scaled_lengths(&self, k: f64) -> Self {
        let k2 = k * k;
        MassProperties2d {
            area: self.area * k2,
            mass: self.mass * k2,
            centroid: self.centroid * k,
            moments: self.moments.scaled(k2 * k2),
        }
    }

    /// Second moments about `point` instead of the centroid (parallel-axis theorem).
    ///
    /// # Examples
    /// ```
    /// use inertia::{MassProperties2d, SecondMoments2d};
    /// use nalgebra::Point2;
    /// let sq = MassProperties2d {
    ///     area: 1.0, mass: 1.0, centroid: Point2::new(0.5, 0.5),
    ///     moments: SecondMoments2d { ixx: 1.0 / 12.0, iyy: 1.0 / 12.0, ixy: 0.0 },
    /// };
    /// // About a corner: 1/3 about each edge, product +1/4.
    /// let c = sq.moments_about(Point2::origin());
    /// assert!((c.ixx - 1.0 / 3.0).abs() < 1e-15 && (c.ixy - 0.25).abs() < 1e-15);
    /// ```
    #[must_use]
    pub fn moments_about(&self, point: Point2<f64>) -> SecondMoments2d {
        self.moments.shifted(self.mass, self.centroid - point)
    }

    /// The moment about the in-plane line through `point` along `dir` (any length): the
    /// body's own moment about the parallel line through its centroid plus `m h²`, `h` the
    /// distance between the lines, so nothing cancels far from the centroid.
    ///
    /// # Examples
    /// ```
    /// use inertia::{MassProperties2d, SecondMoments2d};
    /// use nalgebra::{Point2, Vector2};
    /// let r = MassProperties2d {
    ///     area: 2.0, mass: 2.0, centroid: Point2::new(0.0, 0.0),
    ///     moments: SecondMoments2d { ixx: 2.0 * 4.0 / 12.0, iyy: 2.0 / 12.0, ixy: 0.0 },
    /// };
    /// // The line y = 1: 2/3 + 2 · 1².
    /// assert_eq!(r.moment_about_axis(Point2::new(1e8, 1.0), Vector2::new(1.0, 0.0)), 2.0 / 3.0 + 2.0);
    /// ```
    #[must_use]
    pub fn moment_about_axis(&self, point: Point2<f64>, dir: Vector2<f64>) -> f64 {
        let u = unit(dir);
        let d = self.centroid - point;
        let h = u.x * d.y - u.y * d.x;
        self.moments.about_axis(u) + self.mass * h * h
    }

    /// Principal moments about in-plane axes through `point`, and the angle of the first.
    ///
    /// Far from the centroid, the moments about `point` hold `m|d|²` beside the body's own,
    /// and the smaller principal moment drowns in their rounding. Here the moments are
    /// taken in a frame whose first axis points along `d = centroid − point`, where the
    /// shift is exactly `m|d|²` on one moment and nothing on the others, and the angle is
    /// turned back at the end.
    ///
    /// # Examples
    /// ```
    /// use inertia::{MassProperties2d, SecondMoments2d};
    /// use nalgebra::Point2;
    /// // A 1 × 2 rectangle of mass 2, seen from 1e8 along x: the least moment is about the
    /// // x axis through the centroid, m h²/12 = 2/3.
    /// let r = MassProperties2d {
    ///     area: 2.0, mass: 2.0, centroid: Point2::new(0.0, 0.0),
    ///     moments: SecondMoments2d { ixx: 2.0 * 4.0 / 12.0, iyy: 2.0 / 12.0, ixy: 0.0 },
    /// };
    /// let p = r.principal_about(Point2::new(1e8, 0.0));
    /// assert!((p.moments[0] - 2.0 / 3.0).abs() < 1e-15);
    /// assert_eq!(p.angle_deg, 0.0);
    /// ```
    #[must_use]
    pub fn principal_about(&self, point: Point2<f64>) -> Principal2d {
        let d = self.centroid - point;
        let big = d.amax();
        if big == 0.0 || !big.is_finite() {
            return self.moments_about(point).principal();
        }
        let len = big * (d / big).norm();
        // The line along d is the line along −d: take the direction with c ≥ 0, so its
        // angle lies in [−90°, 90°] and turning back is not rounded at ±180°.
        let (c, s) = if d.x < 0.0 {
            (-d.x / len, -d.y / len)
        } else {
            (d.x / len, d.y / len)
        };
        let m = &self.moments;
        let framed = SecondMoments2d {
            ixx: c * c * m.ixx + s * s * m.iyy - 2.0 * s * c * m.ixy,
            iyy: c * c * m.iyy + s * s * m.ixx + 2.0 * s * c * m.ixy + self.mass * len * len,
            ixy: s * c * (m.ixx - m.iyy) + (c * c - s * s) * m.ixy,
        };
        let p = framed.principal();
        let mut angle = p.angle_deg + s.atan2(c).to_degrees();
        while angle > 90.0 {
            angle -= 180.0;
        }
        while angle <= -90.0 {
            angle += 180.0;
        }
        Principal2d {
            moments: p.moments,
            angle_deg: angle,
        }
    }
}

impl Add for MassProperties2d {
    type Output = Self;
    /// Combines two bodies into one (masses add, centroid is the mass-weighted mean,
    /// moments are moved to the new centroid and added).
    fn add(self, o: Self) -> Self {
        let mass = self.mass + o.mass;
        // Weight by mass; fall back to area for massless parts so the result stays finite.
        let (w_self, w_other) = if mass != 0.0 {
            (self.mass, o.mass)
        } else {
            (self.area, o.area)
        };
        let total = w_self + w_other;
        let t = if total != 0.0 { w_other / total } else { 0.5 };
        // c = c1 + t (c2 - c1): stays exact for bodies far from the origin.
        let centroid = self.centroid + (o.centroid - self.centroid) * t;
        let moments = self.moments_about(centroid) + o.moments_about(centroid);
        MassProperties2d {
            area: self.area + o.area,
            mass,
            centroid,
            moments,
        }
    }
}

impl Sum for MassProperties2d {
    fn sum<I: Iterator<Item = Self>>(mut iter: I) -> Self {
        let first = iter.next().unwrap_or(MassProperties2d {
            area: 0.0,
            mass: 0.0,
            centroid: Point2::origin(),
            moments: SecondMoments2d::default(),
        });
        iter.fold(first, |a, b| a + b)
    }
}

/// Each moment within `epsilon` of the other's.
///
/// # Examples
/// ```
/// use inertia::SecondMoments2d;
/// let m = SecondMoments2d { ixx: 1.0, iyy: 2.0, ixy: 0.0 };
/// approx::assert_abs_diff_eq!(m, SecondMoments2d { ixy: 1e-17, ..m }, epsilon = 1e-15);
/// ```
impl approx::AbsDiffEq for SecondMoments2d {
    type Epsilon = f64;

    fn default_epsilon() -> f64 {
        f64::default_epsilon()
    }

    fn abs_diff_eq(&self, other: &Self, epsilon: f64) -> bool {
        self.ixx.abs_diff_eq(&other.ixx, epsilon)
            && self.iyy.abs_diff_eq(&other.iyy, epsilon)
            && self.ixy.abs_diff_eq(&other.ixy, epsilon)
    }
}

/// Each moment within `max_relative` of the other's, or within `epsilon` of it.
///
/// # Examples
/// ```
/// use inertia::SecondMoments2d;
/// let m = SecondMoments2d { ixx: 1.0, iyy: 2.0, ixy: 0.0 };
/// assert!(approx::relative_ne!(m, m.scaled(1.01), max_relative = 1e-3));
/// ```
impl approx::RelativeEq for SecondMoments2d {
    fn default_max_relative() -> f64 {
        f64::default_max_relative()
    }

    fn relative_eq(&self, other: &Self, epsilon: f64, max_relative: f64) -> bool {
        self.ixx.relative_eq(&other.ixx, epsilon, max_relative)
            && self.iyy.relative_eq(&other.iyy, epsilon, max_relative)
            && self.ixy.relative_eq(&other.ixy, epsilon, max_relative)
    }
}

/// Every field within `epsilon` of the other's.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let p = sq.mass_properties(1.0)?;
/// approx::assert_abs_diff_eq!(p, p.scaled_mass(1.0 + 1e-16), epsilon = 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
impl approx::AbsDiffEq for MassProperties2d {
    type Epsilon = f64;

    fn default_epsilon() -> f64 {
        f64::default_epsilon()
    }

    fn abs_diff_eq(&self, other: &Self, epsilon: f64) -> bool {
        self.area.abs_diff_eq(&other.area, epsilon)
            && self.mass.abs_diff_eq(&other.mass, epsilon)
            && self.centroid.abs_diff_eq(&other.centroid, epsilon)
            && self.moments.abs_diff_eq(&other.moments, epsilon)
    }
}

/// Every field within `max_relative` of the other's, or within `epsilon` of it (a product
/// that should be 0 is compared by `epsilon`).
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let p = sq.mass_properties(1.0)?;
/// approx::assert_relative_eq!(p, p.scaled_lengths(1.0 + 1e-13), max_relative = 1e-12);
/// assert!(approx::relative_ne!(p, p.scaled_lengths(1.1), max_relative = 1e-6));
/// # Ok::<(), inertia::Error>(())
/// ```
impl approx::RelativeEq for MassProperties2d {
    fn default_max_relative() -> f64 {
        f64::default_max_relative()
    }

    fn relative_eq(&self, other: &Self, epsilon: f64, max_relative: f64) -> bool {
        self.area.relative_eq(&other.area, epsilon, max_relative)
            && self.mass.relative_eq(&other.mass, epsilon, max_relative)
            && self
                .centroid
                .relative_eq(&other.centroid, epsilon, max_relative)
            && self
                .moments
                .relative_eq(&other.moments, epsilon, max_relative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn rect(x0: f64, y0: f64, w: f64, h: f64, density: f64) -> MassProperties2d {
        let m = density * w * h;
        MassProperties2d {
            area: w * h,
            mass: m,
            centroid: Point2::new(x0 + w / 2.0, y0 + h / 2.0),
            moments: SecondMoments2d {
                ixx: m * h * h / 12.0,
                iyy: m * w * w / 12.0,
                ixy: 0.0,
            },
        }
    }

    #[test]
    fn combine_rectangles_into_an_l() {
        // L = [0,2]x[0,1] + [0,1]x[1,2]; exact values by hand.
        let l = rect(0.0, 0.0, 2.0, 1.0, 1.0) + rect(0.0, 1.0, 1.0, 1.0, 1.0);
        assert_relative_eq!(l.area, 3.0);
        assert_relative_eq!(l.centroid.x, 5.0 / 6.0, epsilon = 1e-15);
        assert_relative_eq!(l.centroid.y, 5.0 / 6.0, epsilon = 1e-15);
        // About the origin: Ixx = ∫y² = 2/3 + 7/3 = 3; minus 3·(5/6)².
        assert_relative_eq!(l.moments.ixx, 3.0 - 3.0 * 25.0 / 36.0, epsilon = 1e-14);
        // ∫xy about origin = 1 + 3/4 = 7/4; minus 3·(5/6)².
        assert_relative_eq!(l.moments.ixy, 1.75 - 3.0 * 25.0 / 36.0, epsilon = 1e-14);
    }

    #[test]
    fn combine_is_exact_far_from_origin() {
        let a = rect(1e8, 1e8, 1.0, 1.0, 1.0) + rect(1e8 + 1.0, 1e8, 1.0, 1.0, 1.0);
        assert_relative_eq!(a.moments.polar(), 5.0 / 6.0, max_relative = 1e-12);
        assert_eq!(a.centroid, Point2::new(1e8 + 1.0, 1e8 + 0.5));
    }

    #[test]
    fn sum_of_parts_and_empty_sum() {
        let parts = [rect(0.0, 0.0, 1.0, 1.0, 2.0), rect(1.0, 0.0, 1.0, 1.0, 2.0)];
        let s: MassProperties2d = parts.iter().copied().sum();
        assert_relative_eq!(s.mass, 4.0);
        assert_relative_eq!(s.moments.iyy, 4.0 * 4.0 / 12.0, epsilon = 1e-15);
        let e: MassProperties2d = std::iter::empty().sum();
        assert_eq!(e.mass, 0.0);
        let e2 = e + e;
        assert!(e2.centroid.x.is_finite());
    }

    #[test]
    fn principal_of_rotated_rectangle() {
        // A 4 × 1 rectangle rotated by 30°: I1 = m/12, I2 = 16 m/12, axis at 30°.
        let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
        let (a, b) = (16.0 / 12.0, 1.0 / 12.0); // ∫x'², ∫y'² in the body frame
        let m = SecondMoments2d {
            iyy: a * c * c + b * s * s,
            ixx: a * s * s + b * c * c,
            ixy: (a - b) * c * s,
        };
        let p = m.principal();
        assert_relative_eq!(p.angle_deg, 30.0, epsilon = 1e-12);
        assert_relative_eq!(p.moments[0], b, epsilon = 1e-15);
        assert_relative_eq!(p.moments[1], a, epsilon = 1e-15);
        assert_relative_eq!(m.about_axis(Vector2::new(c, s)), b, epsilon = 1e-15);
    }

    #[test]
    fn principal_angle_range() {
        // Axis along y: angle 90, not -90.
        let p = SecondMoments2d {
            ixx: 2.0,
            iyy: 1.0,
            ixy: 0.0,
        }
        .principal();
        assert_eq!(p.angle_deg, 90.0);
        let p = SecondMoments2d {
            ixx: 1.0,
            iyy: 1.0,
            ixy: -1.0,
        }
        .principal();
        assert_relative_eq!(p.angle_deg, -45.0, epsilon = 1e-12);
        let p = SecondMoments2d {
            ixx: 1.0,
            iyy: 1.0,
            ixy: 1e-18,
        }
        .principal();
        assert_eq!(p.angle_deg, 0.0);
    }

    #[test]
    fn far_point_principal_and_axis_moment() {
        // A 1 × 2 rectangle of mass 2 (ixx = 2·4/12, iyy = 2/12), seen from (far, 1).
        let r = rect(-0.5, -1.0, 1.0, 2.0, 1.0);
        for far in [1e8, 1e15] {
            let p = r.principal_about(Point2::new(far, 1.0));
            // The least moment is about the line through the point and the centroid.
            assert_relative_eq!(p.moments[0], 2.0 / 3.0, max_relative = 1e-14);
            assert_relative_eq!(p.moments[1], 2.0 * (far * far + 1.0), max_relative = 1e-14);
            let angle = (1.0 / far).atan().to_degrees();
            assert_relative_eq!(p.angle_deg, angle, max_relative = 1e-12);
            // The x axis through (far, 1): 2/3 + 2 · 1².
            let i = r.moment_about_axis(Point2::new(far, 1.0), Vector2::new(1.0, 0.0));
            assert_eq!(i, 2.0 / 3.0 + 2.0);
        }
        let huge = r.moment_about_axis(Point2::origin(), Vector2::new(1e300, 1e300));
        let tiny = r.moment_about_axis(Point2::origin(), Vector2::new(1e-300, 1e-300));
        assert_relative_eq!(huge, 0.5 * (2.0 / 3.0 + 1.0 / 6.0), max_relative = 1e-15);
        assert_relative_eq!(tiny, huge, max_relative = 1e-15);
    }
}
