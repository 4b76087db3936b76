//! Mass properties of a solid body: volume, mass, centre of mass and inertia tensor.

use nalgebra::{Matrix3, Point3, SymmetricEigen, Vector3};
use std::iter::Sum;
use std::ops::Add;

/// Principal moments (ascending) and axes of an inertia tensor.
///
/// # Examples
/// ```
/// let p = inertia::mass3d::principal(&nalgebra::Matrix3::from_diagonal(&nalgebra::Vector3::new(2.0, 1.0, 3.0)));
/// assert_eq!(p.moments, [1.0, 2.0, 3.0]);
/// assert_eq!(p.axes[0].y.abs(), 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Principal3d {
    /// `[I1, I2, I3]`, ascending.
    pub moments: [f64; 3],
    /// Unit axes, `axes[k]` for `moments[k]`, forming a right-handed frame
    /// (`axes[0] × axes[1] = axes[2]`). Where moments are equal the axes among them are
    /// arbitrary; for three equal moments they are x, y, z.
    pub axes: [Vector3<f64>; 3],
}

/// Principal moments and axes of a symmetric 3×3 inertia tensor.
///
/// # Examples
/// ```
/// use nalgebra::Matrix3;
/// let p = inertia::mass3d::principal(&Matrix3::new(3.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0));
/// assert_eq!(p.moments, [1.0, 2.0, 3.0]);
/// assert_eq!(p.axes[0].y.abs(), 1.0);
/// assert!((p.axes[0].cross(&p.axes[1]) - p.axes[2]).norm() < 1e-15);
/// ```
pub fn principal(tensor: &Matrix3<f64>) -> Principal3d {
    let scale = tensor.trace().abs();
    let off = tensor.m12.abs() + tensor.m13.abs() + tensor.m23.abs();
    let diag = [tensor.m11, tensor.m22, tensor.m33];
    let spread = diag.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b))
        - diag.iter().fold(f64::INFINITY, |a, &b| a.min(b));
    // Isotropic within rounding (a sphere, a cube): every axis is principal; report x, y, z
    // rather than directions picked by noise.
    if off + spread <= 1e-13 * scale {
        let m = tensor.trace() / 3.0;
        return Principal3d {
            moments: [m, m, m],
            axes: [Vector3::x(), Vector3::y(), Vector3::z()],
        };
    }
    let eig = SymmetricEigen::new(*tensor);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&a, &b| eig.eigenvalues[a].total_cmp(&eig.eigenvalues[b]));
    let mut axes = order.map(|k| {
        let v: Vector3<f64> = eig.eigenvectors.column(k).into_owned().normalize();
        // A deterministic sign: the largest component positive.
        let big = (0..3)
            .max_by(|&i, &j| v[i].abs().total_cmp(&v[j].abs()))
            .unwrap_or(0);
        if v[big] < 0.0 { -v } else { v }
    });
    axes[2] = axes[0].cross(&axes[1]).normalize();
    Principal3d {
        moments: order.map(|k| eig.eigenvalues[k]),
        axes,
    }
}

/// The length of `v`, without overflow or underflow of the squares of its components.
///
/// # Examples
/// ```
/// let v = nalgebra::Vector3::new(3e200, 4e200, 0.0);
/// assert!((inertia::mass3d::scaled_norm(&v) / 5e200 - 1.0).abs() < 1e-15);
/// let w = nalgebra::Vector3::new(3e-200, 4e-200, 0.0);
/// assert!((inertia::mass3d::scaled_norm(&w) - 5e-200).abs() < 1e-214);
/// ```
pub fn scaled_norm(v: &Vector3<f64>) -> f64 {
    let big = v.amax();
    if big == 0.0 || !big.is_finite() {
        return big;
    }
    big * (v / big).norm()
}

/// The inertia tensor of a body after moving the reference point by `d` from its centroid
/// (parallel-axis theorem): `I + m (|d|² Id − d dᵀ)`.
///
/// # Examples
/// ```
/// use nalgebra::{Matrix3, Vector3};
/// // A unit point mass at (0, 0, 2): I = diag(4, 4, 0).
/// let t = inertia::mass3d::shift_tensor(&Matrix3::zeros(), 1.0, Vector3::new(0.0, 0.0, 2.0));
/// assert_eq!(t, Matrix3::from_diagonal(&Vector3::new(4.0, 4.0, 0.0)));
/// ```
pub fn shift_tensor(tensor: &Matrix3<f64>, mass: f64, d: Vector3<f64>) -> Matrix3<f64> {
    // Each diagonal term from its own two components (dy² + dz² for Ixx): forming |d|² and
    // then subtracting dx² cancels every digit of a small dy, dz next to a large dx (a box
    // 1e8 away along x would lose its Ixx shift entirely).
    let (x, y, z) = (d.x, d.y, d.z);
    let shift = Matrix3::new(
        y * y + z * z,
        -x * y,
        -x * z,
        -x * y,
        x * x + z * z,
        -y * z,
        -x * z,
        -y * z,
        x * x + y * y,
    );
    tensor + shift * mass
}

/// Volume, mass, centre of mass and inertia tensor (about the centre of mass) of a body.
///
/// Tensor convention: the diagonal holds the moments about the x, y and z axes
/// (`Ixx = ∫(y² + z²) dm`), the off-diagonals the negated products (`Ixy = −∫xy dm`), so
/// that angular momentum is `I ω`. Combine bodies with `+` (Blow & Binstock's `Combine`); take
/// the tensor about another point with [`MassProperties3d::inertia_about`].
///
/// # Examples
/// ```
/// use inertia::MassProperties3d;
/// use nalgebra::{Matrix3, Point3};
/// // Two unit cubes side by side make a 2 × 1 × 1 box.
/// let cube = |x: f64| MassProperties3d {
///     volume: 1.0, mass: 1.0, centroid: Point3::new(x, 0.5, 0.5),
///     inertia: Matrix3::identity() / 6.0,
/// };
/// let b = cube(0.5) + cube(1.5);
/// assert_eq!(b.centroid, Point3::new(1.0, 0.5, 0.5));
/// assert!((b.inertia.m11 - 2.0 * 2.0 / 12.0).abs() < 1e-15); // m (1² + 1²) / 12
/// assert!((b.inertia.m22 - 2.0 * 5.0 / 12.0).abs() < 1e-15); // m (2² + 1²) / 12
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties3d {
    /// Volume (positive for a properly oriented closed mesh).
    pub volume: f64,
    /// Mass = density × volume.
    pub mass: f64,
    /// Centre of mass.
    pub centroid: Point3<f64>,
    /// Inertia tensor about the centre of mass, axes parallel to x, y, z.
    pub inertia: Matrix3<f64>,
}

impl MassProperties3d {
    /// The inertia tensor about `point` (parallel-axis theorem).
    ///
    /// # Examples
    /// ```
    /// use inertia::MassProperties3d;
    /// use nalgebra::{Matrix3, Point3};
    /// let cube = MassProperties3d {
    ///     volume: 1.0, mass: 1.0, centroid: Point3::new(0.5, 0.5, 0.5),
    ///     inertia: Matrix3::identity() / 6.0,
    /// };
    /// let corner = cube.inertia_about(Point3::origin());
    /// assert!((corner.m11 - 2.0 / 3.0).abs() < 1e-15);
    /// assert!((corner.m12 + 0.25).abs() < 1e-15); // −∫xy dm
    /// ```
    #[must_use]
    pub fn inertia_about(&self, point: Point3<f64>) -> Matrix3<f64> {
        shift_tensor(&self.inertia, self.mass, self.centroid - point)
    }

    /// The same body with every length multiplied by `k` and the same density (a unit
    /// change): volume and mass × k³, centroid × k, tensor × k⁵.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties.scaled_lengths(2.0);
    /// assert_eq!(p.volume, 8.0);
    /// assert!((p.inertia.m11 - 8.0 * 8.0 / 12.0).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn scaled_lengths(&self, k: f64) -> Self {
        let k3 = k * k * k;
        MassProperties3d {
            volume: self.volume * k3,
            mass: self.mass * k3,
            centroid: self.centroid * k,
            inertia: self.inertia * (k3 * k * k),
        }
    }

    /// The same body with its density multiplied by `factor`.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties.scaled_mass(7850.0);
    /// assert_eq!(p.mass, 7850.0);
    /// ```
    #[must_use]
    pub fn scaled_mass(&self, factor: f64) -> Self {
        MassProperties3d {
            volume: self.volume,
            mass: self.mass * factor,
            centroid: self.centroid,
            inertia: self.inertia * factor,
        }
    }

    /// Principal moments and axes about `point` (the centroid's when `point` is the centroid).
    ///
    /// Far from the centroid the tensor about `point` holds `m|d|²` next to the body's own
    /// moments, and its smallest eigenvalue drowns in the rounding of the large entries
    /// (a box 1e8 away would get noise). Here the tensor is taken in a frame whose first
    /// axis points along `d = centroid − point`: there the shift is exactly
    /// `m|d|² diag(0, 1, 1)`, the body's own tensor keeps its digits, and the axes are
    /// turned back at the end.
    ///
    /// # Examples
    /// ```
    /// use inertia::shape::Shape3d;
    /// use nalgebra::Point3;
    /// // A 1 × 2 × 3 box of mass 6, seen from 1e8 along x: the least moment is about the line
    /// // through the box's centre, m (2² + 3²)/12 = 6.5, to the last digits.
    /// let p = Shape3d::Box { size: [1.0, 2.0, 3.0] }.exact().properties;
    /// let pr = p.principal_about(Point3::new(1e8, 0.0, 0.0));
    /// assert!((pr.moments[0] - 6.5).abs() < 1e-12);
    /// assert!((pr.moments[2] - 6e16).abs() < 1e2);
    /// ```
    #[must_use]
    pub fn principal_about(&self, point: Point3<f64>) -> Principal3d {
        let d = self.centroid - point;
        let len = scaled_norm(&d);
        if len == 0.0 || !len.is_finite() {
            return principal(&self.inertia_about(point));
        }
        let e1 = d / len;
        // Any unit vector across e1, from the coordinate axis most across it.
        let pick = if e1.x.abs() <= e1.y.abs() && e1.x.abs() <= e1.z.abs() {
            Vector3::x()
        } else if e1.y.abs() <= e1.z.abs() {
            Vector3::y()
        } else {
            Vector3::z()
        };
        let e2 = e1.cross(&pick).normalize();
        let e3 = e1.cross(&e2);
        // Rows e1, e2, e3: a rotation taking world vectors into the frame.
        let r = Matrix3::from_rows(&[e1.transpose(), e2.transpose(), e3.transpose()]);
        let shift = self.mass * len * len;
        let mut t = r * self.inertia * r.transpose();
        t.m22 += shift;
        t.m33 += shift;
        // Exactly symmetric before the eigen-decomposition.
        let t = (t + t.transpose()) * 0.5;
        let pr = principal(&t);
        let mut axes = pr.axes.map(|a| r.transpose() * a);
        for a in axes.iter_mut().take(2) {
            let big = (0..3)
                .max_by(|&i, &j| a[i].abs().total_cmp(&a[j].abs()))
                .unwrap_or(0);
            if a[big] < 0.0 {
                *a = -*a;
            }
        }
        axes[2] = axes[0].cross(&axes[1]).normalize();
        Principal3d {
            moments: pr.moments,
            axes,
        }
    }

    /// The moment of inertia about the line through `point` along `dir` (any length):
    /// the body's own moment about the parallel line through its centroid plus
    /// `m |d × u|²`, both sums of positive terms, so nothing cancels far away.
    ///
    /// # Examples
    /// ```
    /// use inertia::shape::Shape3d;
    /// use nalgebra::{Point3, Vector3};
    /// let p = Shape3d::Box { size: [1.0, 2.0, 3.0] }.exact().properties;
    /// // The x axis through (1e8, 1, 1): 6.5 + 6 (1² + 1²).
    /// let i = p.moment_about_axis(Point3::new(1e8, 1.0, 1.0), Vector3::new(1.0, 0.0, 0.0));
    /// assert_eq!(i, 18.5);
    /// ```
    #[must_use]
    pub fn moment_about_axis(&self, point: Point3<f64>, dir: Vector3<f64>) -> f64 {
        let u = dir / scaled_norm(&dir);
        let own = u.dot(&(self.inertia * u));
        let d = self.centroid - point;
        // |d × u|, scaled so that neither squares of huge nor of tiny components matter.
        let c = d.cross(&u);
        let len = scaled_norm(&c);
        own + self.mass * len * len
    }

    /// Principal moments and axes about the centre of mass.
    ///
    /// # Examples
    /// ```
    /// let p = inertia::shape::Shape3d::Cylinder { radius: 1.0, height: 10.0 }.exact().properties;
    /// let pr = p.principal();
    /// assert!(pr.moments[0] < pr.moments[2]);
    /// assert_eq!(pr.axes[0].z.abs(), 1.0); // the least moment is about the axis
    /// ```
    #[must_use]
    pub fn principal(&self) -> Principal3d {
        principal(&self.inertia)
    }
}

impl Add for MassProperties3d {
    type Output = Self;
    /// Combines two bodies (Blow & Binstock's `Combine`): masses add, the centre of mass is the
    /// mass-weighted mean, tensors are moved to it and added.
    fn add(self, o: Self) -> Self {
        let mass = self.mass + o.mass;
        let (ws, wo) = if mass != 0.0 {
            (self.mass, o.mass)
        } else {
            (self.volume, o.volume)
        };
        let total = ws + wo;
        let t = if total != 0.0 { wo / total } else { 0.5 };
        let centroid = self.centroid + (o.centroid - self.centroid) * t;
        MassProperties3d {
            volume: self.volume + o.volume,
            mass,
            centroid,
            inertia: self.inertia_about(centroid) + o.inertia_about(centroid),
        }
    }
}

impl Sum for MassProperties3d {
    fn sum<I: Iterator<Item = Self>>(mut iter: I) -> Self {
        let first = iter.next().unwrap_or(MassProperties3d {
            volume: 0.0,
            mass: 0.0,
            centroid: Point3::origin(),
            inertia: Matrix3::zeros(),
        });
        iter.fold(first, |a, b| a + b)
    }
}

/// Every field within `epsilon` of the other's (the centroid and tensor component by
/// component), as nalgebra compares its points and matrices.
///
/// # Examples
/// ```
/// use approx::assert_abs_diff_eq;
/// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
/// assert_abs_diff_eq!(cube, cube.scaled_mass(1.0 + 1e-15), epsilon = 1e-14);
/// ```
impl approx::AbsDiffEq for MassProperties3d {
    type Epsilon = f64;

    fn default_epsilon() -> f64 {
        f64::default_epsilon()
    }

    fn abs_diff_eq(&self, other: &Self, epsilon: f64) -> bool {
        self.volume.abs_diff_eq(&other.volume, epsilon)
            && self.mass.abs_diff_eq(&other.mass, epsilon)
            && self.centroid.abs_diff_eq(&other.centroid, epsilon)
            && self.inertia.abs_diff_eq(&other.inertia, epsilon)
    }
}

/// Every field within `max_relative` of the other's, or within `epsilon` of it (a product
/// of inertia that should be 0 is compared by `epsilon`, not relative to itself).
///
/// # Examples
/// ```
/// use approx::{assert_relative_eq, relative_ne};
/// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
/// assert_relative_eq!(cube, cube.scaled_mass(1.0 + 1e-12), max_relative = 1e-11);
/// assert!(relative_ne!(cube, cube.scaled_mass(1.001), max_relative = 1e-6));
/// ```
impl approx::RelativeEq for MassProperties3d {
    fn default_max_relative() -> f64 {
        f64::default_max_relative()
    }

    fn relative_eq(&self, other: &Self, epsilon: f64, max_relative: f64) -> bool {
        self.volume
            .relative_eq(&other.volume, epsilon, max_relative)
            && self.mass.relative_eq(&other.mass, epsilon, max_relative)
            && self
                .centroid
                .relative_eq(&other.centroid, epsilon, max_relative)
            && self
                .inertia
                .relative_eq(&other.inertia, epsilon, max_relative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn cuboid(min: [f64; 3], size: [f64; 3]) -> MassProperties3d {
        let [a, b, c] = size;
        let m = a * b * c;
        MassProperties3d {
            volume: m,
            mass: m,
            centroid: Point3::new(min[0] + a / 2.0, min[1] + b / 2.0, min[2] + c / 2.0),
            inertia: Matrix3::from_diagonal(&Vector3::new(
                b * b + c * c,
                a * a + c * c,
                a * a + b * b,
            )) * (m / 12.0),
        }
    }

    #[test]
    fn combine_into_an_l_block_far_away() {
        let o = 1e8;
        let l = cuboid([o, o, o], [2.0, 1.0, 1.0]) + cuboid([o, o + 1.0, o], [1.0, 1.0, 1.0]);
        // Extruded 2D L (area 3, Ixy_2d = -1/3 about the centroid) by depth 1.
        assert_relative_eq!(l.mass, 3.0);
        assert_relative_eq!(l.centroid.x - o, 5.0 / 6.0, epsilon = 1e-8);
        assert_relative_eq!(l.inertia.m12, 1.0 / 3.0, epsilon = 1e-12);
        assert_relative_eq!(l.inertia.m33, 11.0 / 6.0, epsilon = 1e-12);
        assert_relative_eq!(l.inertia.m11, 11.0 / 12.0 + 3.0 / 12.0, epsilon = 1e-12);
    }

    #[test]
    fn principal_axes_of_a_rotated_box_are_right_handed() {
        let b = cuboid([0.0; 3], [3.0, 2.0, 1.0]);
        let r = nalgebra::Rotation3::from_euler_angles(0.3, -0.7, 1.1);
        let t = r.matrix() * b.inertia * r.matrix().transpose();
        let p = principal(&t);
        assert_relative_eq!(p.moments[0], b.inertia.m11, max_relative = 1e-13);
        assert_relative_eq!(p.moments[2], b.inertia.m33, max_relative = 1e-13);
        // The I1 axis is the rotated x axis (up to sign).
        assert_relative_eq!(
            p.axes[0].dot(&(r * Vector3::x())).abs(),
            1.0,
            epsilon = 1e-12
        );
        assert_relative_eq!(p.axes[0].cross(&p.axes[1]), p.axes[2], epsilon = 1e-12);
        for a in p.axes {
            assert_relative_eq!((t * a - a * (a.dot(&(t * a)))).norm(), 0.0, epsilon = 1e-12);
        }
    }

    #[test]
    fn isotropic_tensor_gives_the_coordinate_axes() {
        let p = principal(&(Matrix3::identity() * 2.0));
        assert_eq!(p.axes, [Vector3::x(), Vector3::y(), Vector3::z()]);
        assert_eq!(p.moments, [2.0; 3]);
    }

    #[test]
    fn far_point_shift_and_principal_keep_their_digits() {
        // Issue 12: about (1e8, 1, 1), Ixx of a 1 × 2 × 3 box of mass 6 is
        // 6 (2² + 3²)/12 + 6 (1² + 1²) = 18.5 exactly; (dx² + dy² + dz²) − dx² gave 6.5.
        let b = cuboid([-0.5, -1.0, -1.5], [1.0, 2.0, 3.0]);
        for far in [1e8, 1e15] {
            let p = Point3::new(far, 1.0, 1.0);
            let t = b.inertia_about(p);
            assert_eq!(t.m11, 18.5);
            assert_eq!(t.m23, -6.0);
            assert_eq!(t.m12, -6.0 * far);
            // The least principal moment: about the line through p and the centroid, which
            // is the centroid's own moment along it (6.5 to within 1e-16 · far²/far²).
            let pr = b.principal_about(p);
            assert_relative_eq!(pr.moments[0], 6.5, max_relative = 1e-14);
            assert_relative_eq!(pr.moments[2], 6.0 * (far * far + 2.0), max_relative = 1e-14);
            let axis = Vector3::new(far, 1.0, 1.0).normalize();
            assert_relative_eq!(pr.axes[0].dot(&axis).abs(), 1.0, max_relative = 1e-14);
            // The moment about x through p, and about a tilted axis, summed without cancelling.
            assert_eq!(b.moment_about_axis(p, Vector3::x()), 18.5);
            let tilted =
                b.moment_about_axis(Point3::new(0.0, 0.0, 0.0), Vector3::new(1e300, 1e300, 0.0));
            assert_relative_eq!(tilted, 0.5 * (6.5 + 5.0), max_relative = 1e-15);
            let tiny = b.moment_about_axis(
                Point3::new(0.0, 0.0, 0.0),
                Vector3::new(1e-300, 1e-300, 0.0),
            );
            assert_relative_eq!(tiny, 0.5 * (6.5 + 5.0), max_relative = 1e-15);
        }
    }
}
