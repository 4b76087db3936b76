//! The integration methods: three for polygons, and the mesh methods.
//!
//! Every polygon method works in a local frame whose origin is the polygon's
//! [reference point](crate::Polygon::reference) (its first vertex), never about the global
//! origin, so a shape 1e8 from the origin is computed as accurately as one at the origin.
//! Area and centroid come from one shared pass (a fan of signed triangles); the planar
//! tensor from the shared triangle integrals; each method computes the polar moment with
//! its own formula, so comparing methods is a real cross-check.

mod centroid;
mod fan;
mod right_triangle;
pub mod shell;
pub mod tetra;
pub mod voxel;

use crate::mass2d::{MassProperties2d, Principal2d, SecondMoments2d};
use nalgebra::{Point2, Vector2};
use std::sync::OnceLock;

/// How to integrate a polygon.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::PolygonMethod::RightTriangle.integrate(&sq);
/// assert!((r.polar - 1.0 / 6.0).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PolygonMethod {
    /// Fan of signed triangles from the first vertex of each ring (Fotino; Singhal 2018).
    Fan,
    /// Each fan triangle's polar moment from two right triangles split at the foot of its
    /// altitude, signed by the triangle's own orientation (Fotino, corrected).
    RightTriangle,
    /// Signed sub-triangles from the centroid to each edge (Fauconnet 2023, eq. 3.14).
    Centroid,
}

impl PolygonMethod {
    /// Every polygon method, in a fixed order.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::PolygonMethod::ALL.len(), 3);
    /// ```
    pub const ALL: [PolygonMethod; 3] = [
        PolygonMethod::Fan,
        PolygonMethod::RightTriangle,
        PolygonMethod::Centroid,
    ];

    /// The name used on the command line and in reports.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::PolygonMethod::RightTriangle.name(), "right-triangle");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            PolygonMethod::Fan => "fan",
            PolygonMethod::RightTriangle => "right-triangle",
            PolygonMethod::Centroid => "centroid",
        }
    }

    /// The integration itself, without the cache kept by
    /// [`Polygon::new`](crate::Polygon::new).
    pub(crate) fn compute(self, polygon: Rings) -> PolygonIntegral {
        self.compute_in(&LocalFrame::new(polygon))
    }

    /// [`PolygonMethod::compute`] in a frame already found (the methods share one).
    pub(crate) fn compute_in(self, frame: &LocalFrame) -> PolygonIntegral {
        let polygon = frame.polygon;
        let (mut moments, mut polar) = match self {
            PolygonMethod::Fan => fan::moments(frame),
            PolygonMethod::RightTriangle => right_triangle::moments(frame),
            PolygonMethod::Centroid => centroid::moments(frame),
        };
        // Curved edges: each method integrates the polygon of their chords; the segments
        // between chords and curves are added in closed form (the same for every method).
        if !polygon.arcs().is_empty() {
            let [sxx, syy, sxy] = frame.segments(frame.centroid.coords).2;
            moments = moments
                + SecondMoments2d {
                    ixx: syy,
                    iyy: sxx,
                    ixy: sxy,
                };
            polar += sxx + syy;
        }
        PolygonIntegral {
            properties: MassProperties2d {
                area: frame.area,
                mass: frame.area,
                centroid: polygon.reference() + frame.centroid.coords,
                moments,
            },
            polar,
            principal: principal_from_outline(frame, &moments),
        }
    }
}

/// How to integrate a closed mesh.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// assert!((inertia::MeshMethod::Voxel.integrate(&cube, 10).properties.volume - 1.0).abs() < 1e-12);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum MeshMethod {
    /// One signed tetrahedron per triangle against a reference point (Blow & Binstock). Exact.
    Tetra,
    /// Numerical integration over a grid of columns, exact along each column (Fiedler).
    /// Approximate: the error falls with the resolution.
    Voxel,
}

impl MeshMethod {
    /// Every mesh method, in a fixed order.
    pub const ALL: [MeshMethod; 2] = [MeshMethod::Tetra, MeshMethod::Voxel];

    /// The name used on the command line and in reports.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::MeshMethod::Voxel.name(), "voxel");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            MeshMethod::Tetra => "tetra",
            MeshMethod::Voxel => "voxel",
        }
    }

    /// True for methods exact up to rounding (their results must agree to ~1e-12).
    ///
    /// # Examples
    /// ```
    /// assert!(inertia::MeshMethod::Tetra.is_exact() && !inertia::MeshMethod::Voxel.is_exact());
    /// ```
    pub fn is_exact(self) -> bool {
        matches!(self, MeshMethod::Tetra)
    }

    /// Integrates a mesh of unit density; `resolution` (cells along the longest side) is
    /// used by `voxel` only.
    ///
    /// # Examples
    /// ```
    /// use inertia::{MeshMethod, shape::Shape3d, Mesh};
    /// let cube = Mesh::new(&Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// for m in MeshMethod::ALL {
    ///     let r = m.integrate(&cube, 10);
    ///     assert!((r.properties.volume - 1.0).abs() < 1e-12);
    ///     assert_eq!(r.grid.is_some(), m == MeshMethod::Voxel);
    /// }
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn integrate(self, mesh: &crate::mesh::Mesh, resolution: usize) -> MeshIntegral {
        match self {
            MeshMethod::Tetra => MeshIntegral {
                // Validation has integrated it already (and checked it is physical).
                properties: mesh
                    .tetra_integral()
                    .unwrap_or_else(|| tetra::integrate(mesh)),
                grid: None,
            },
            MeshMethod::Voxel => {
                let (properties, grid) = voxel::integrate(mesh, resolution);
                MeshIntegral {
                    properties,
                    grid: Some(grid),
                }
            }
        }
    }
}

/// What a mesh method returns, for unit density.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let i = inertia::MeshMethod::Voxel.integrate(&cube, 10);
/// assert_eq!(i.grid.unwrap().cells, [10, 10]);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshIntegral {
    /// Volume, centroid and inertia tensor about the centroid (mass = volume).
    pub properties: crate::mass3d::MassProperties3d,
    /// The grid used, for `voxel`.
    pub grid: Option<voxel::Grid>,
}

/// What a polygon method returns, for unit density.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let i = inertia::PolygonMethod::Centroid.integrate(&sq);
/// assert_eq!(i.properties.area, 1.0);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygonIntegral {
    /// Area, centroid and second moments about the centroid (mass = area).
    pub properties: MassProperties2d,
    /// The polar moment about the centroid, from the method's own formula.
    pub polar: f64,
    /// Principal moments about the centroid. For a thin body (the least moment below 1e-4
    /// of the greatest) the least is integrated again from the outline in the principal
    /// frame, where it keeps its digits: from the tensor alone it would cancel to zero
    /// for a strip 1e8 long at 45°.
    pub principal: Principal2d,
}

impl PolygonIntegral {
    /// The same result for a lamina of the given areal density.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let r = inertia::PolygonMethod::Fan.integrate(&sq).with_density(2.0);
    /// assert_eq!(r.properties.mass, 2.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn with_density(&self, density: f64) -> Self {
        PolygonIntegral {
            properties: self.properties.scaled_mass(density),
            polar: self.polar * density,
            principal: Principal2d {
                moments: self.principal.moments.map(|m| m * density),
                ..self.principal
            },
        }
    }

    /// The same result with every length multiplied by `k` (a unit change): area × k²,
    /// moments × k⁴.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let r = inertia::PolygonMethod::Fan.integrate(&sq).scaled_lengths(10.0);
    /// assert!((r.polar - 1e4 / 6.0).abs() < 1e-10);
    /// assert!((r.principal.moments[0] - 1e4 / 12.0).abs() < 1e-10);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn scaled_lengths(&self, k: f64) -> Self {
        let k4 = k * k * k * k;
        PolygonIntegral {
            properties: self.properties.scaled_lengths(k),
            polar: self.polar * k4,
            principal: Principal2d {
                moments: self.principal.moments.map(|m| m * k4),
                ..self.principal
            },
        }
    }

    /// A result known only by its mass properties (a closed form, a sum of parts): the polar
    /// and principal moments from its tensor.
    ///
    /// # Examples
    /// ```
    /// use inertia::{MassProperties2d, PolygonIntegral, SecondMoments2d};
    /// let p = MassProperties2d {
    ///     area: 1.0, mass: 1.0, centroid: nalgebra::Point2::origin(),
    ///     moments: SecondMoments2d { ixx: 1.0, iyy: 2.0, ixy: 0.0 },
    /// };
    /// let i = PolygonIntegral::from_properties(p);
    /// assert_eq!((i.polar, i.principal.moments), (3.0, [1.0, 2.0]));
    /// ```
    pub fn from_properties(properties: MassProperties2d) -> Self {
        PolygonIntegral {
            properties,
            polar: properties.moments.polar(),
            principal: properties.moments.principal(),
        }
    }
}

/// What the polygon methods read of a validated polygon: its rings (the outer one
/// counter-clockwise, holes clockwise, no closing points) and their curved edges.
#[derive(Clone, Copy)]
pub(crate) struct Rings<'a> {
    /// The outer ring.
    pub outer: &'a [Point2<f64>],
    /// The holes.
    pub holes: &'a [Vec<Point2<f64>>],
    /// Per ring (outer first), the curve of each edge, or empty when all are straight.
    pub arcs: &'a [Vec<Option<crate::curve::Curve>>],
}

impl<'a> Rings<'a> {
    /// The point sums are taken about: the outer ring's first vertex.
    pub(crate) fn reference(&self) -> Point2<f64> {
        self.outer[0]
    }

    /// Every ring, outer first.
    pub(crate) fn rings(&self) -> impl Iterator<Item = &'a [Point2<f64>]> + 'a {
        std::iter::once(self.outer).chain(self.holes.iter().map(Vec::as_slice))
    }

    /// Per ring, the curve of each edge.
    pub(crate) fn arcs(&self) -> &'a [Vec<Option<crate::curve::Curve>>] {
        self.arcs
    }
}

/// A polygon seen from its reference point, with its area and centroid.
pub(crate) struct LocalFrame<'a> {
    polygon: Rings<'a>,
    /// Area of the polygon (holes removed).
    pub area: f64,
    /// Centroid, relative to the reference point.
    pub centroid: Point2<f64>,
    /// Each ring's vertices relative to the centroid, made when first asked for and then
    /// shared by every pass (the methods may run at once).
    about_centroid: OnceLock<Vec<Vec<Vector2<f64>>>>,
    /// The fan's planar tensor, which every method reports: found once.
    tensor: OnceLock<SecondMoments2d>,
}

impl<'a> LocalFrame<'a> {
    /// Area and centroid of `polygon` by a fan per ring about its reference point (and
    /// the segments of its curved edges).
    pub(crate) fn new(polygon: Rings<'a>) -> Self {
        let o = polygon.reference();
        let (mut a2, mut sx, mut sy) = (0.0, 0.0, 0.0);
        for ring in polygon.rings() {
            let p0 = ring[0] - o;
            for w in ring[1..].windows(2) {
                let (p1, p2) = (w[0] - o, w[1] - o);
                let d = cross(p1 - p0, p2 - p0);
                a2 += d;
                sx += d * (p0.x + p1.x + p2.x);
                sy += d * (p0.y + p1.y + p2.y);
            }
        }
        let mut frame = LocalFrame {
            polygon,
            area: 0.0,
            centroid: Point2::origin(),
            about_centroid: OnceLock::new(),
            tensor: OnceLock::new(),
        };
        if !polygon.arcs().is_empty() {
            // Σ d (p0 + p1 + p2) over the fan is 6 ∫x: add each segment's the same way.
            let (a, s, _) = frame.segments(Vector2::zeros());
            a2 += 2.0 * a;
            sx += 6.0 * s[0];
            sy += 6.0 * s[1];
        }
        frame.area = 0.5 * a2;
        frame.centroid = Point2::new(sx / (3.0 * a2), sy / (3.0 * a2));
        frame
    }

    /// The summed integrals of the segments between the curved edges and their chords,
    /// about `about` (relative to the reference point): `(area, [∫x, ∫y], [∫x², ∫y², ∫xy])`.
    pub(crate) fn segments(&self, about: Vector2<f64>) -> (f64, [f64; 2], [f64; 3]) {
        let o = self.polygon.reference();
        let (mut a, mut s1, mut s2) = (0.0, [0.0; 2], [0.0; 3]);
        for (ring, edges) in self.polygon.rings().zip(self.polygon.arcs()) {
            for (i, c) in edges.iter().enumerate() {
                let Some(c) = c else { continue };
                let (p, q) = (ring[i] - o, ring[(i + 1) % ring.len()] - o);
                let (da, d1, d2) = c.segment_integrals([p.x, p.y], [q.x, q.y], [about.x, about.y]);
                a += da;
                for k in 0..2 {
                    s1[k] += d1[k];
                }
                for k in 0..3 {
                    s2[k] += d2[k];
                }
            }
        }
        (a, s1, s2)
    }

    /// Each ring's vertices relative to the centroid (the frame all second moments use).
    pub(crate) fn rings_about_centroid(&self) -> impl Iterator<Item = &[Vector2<f64>]> + '_ {
        self.about_centroid
            .get_or_init(|| {
                let o = self.polygon.reference();
                let c = self.centroid.coords;
                self.polygon
                    .rings()
                    .map(move |r| r.iter().map(|p| (p - o) - c).collect())
                    .collect()
            })
            .iter()
            .map(Vec::as_slice)
    }
}

/// z-component of the cross product of two plane vectors.
pub(crate) fn cross(a: Vector2<f64>, b: Vector2<f64>) -> f64 {
    a.x * b.y - a.y * b.x
}

/// `[∫x², ∫y², ∫xy]` over the signed triangle (a, b, c) (negative if clockwise).
pub(crate) fn triangle_second_moments(
    a: Vector2<f64>,
    b: Vector2<f64>,
    c: Vector2<f64>,
) -> [f64; 3] {
    let d = cross(b - a, c - a); // twice the signed area
    let sxx = a.x * a.x + b.x * b.x + c.x * c.x + a.x * b.x + b.x * c.x + c.x * a.x;
    let syy = a.y * a.y + b.y * b.y + c.y * c.y + a.y * b.y + b.y * c.y + c.y * a.y;
    let sxy = 2.0 * (a.x * a.y + b.x * b.y + c.x * c.y)
        + a.x * b.y
        + a.y * b.x
        + b.x * c.y
        + b.y * c.x
        + c.x * a.y
        + c.y * a.x;
    [d * sxx / 12.0, d * syy / 12.0, d * sxy / 24.0]
}

/// Principal moments about the centroid, the least integrated again in the principal frame
/// when the body is thin.
///
/// The tensor's entries are rounded to a few units in the last place of the greatest
/// moment, so a least moment below about 1e-16 of it (a strip of aspect 1e8 at 45°) is
/// lost in them however the eigenvalues are taken. The outline still holds it: each
/// vertex's distance from the least axis, `v·r`, is found to a rounding of the body's
/// length, and `∫(v·r)² dA` over the fan gives the least moment to about `ε·L/w` relative
/// (1e-8 for that strip) instead of nothing.
pub(crate) fn principal_from_outline(frame: &LocalFrame, moments: &SecondMoments2d) -> Principal2d {
    let p = moments.principal();
    if p.moments[0] >= 1e-4 * p.moments[1] || p.moments.iter().any(|m| m.is_nan()) {
        return p;
    }
    let (s, c) = p.angle_deg.to_radians().sin_cos();
    // The unit normal of the least axis: distances from that axis are v·r.
    let v = Vector2::new(-s, c);
    let mut least = 0.0;
    for ring in frame.rings_about_centroid() {
        let p0 = ring[0];
        let w0 = v.dot(&p0);
        for e in ring[1..].windows(2) {
            let (w1, w2) = (v.dot(&e[0]), v.dot(&e[1]));
            let d = cross(e[0] - p0, e[1] - p0);
            least += d * (w0 * w0 + w1 * w1 + w2 * w2 + w0 * w1 + w1 * w2 + w2 * w0) / 12.0;
        }
    }
    if !frame.polygon.arcs().is_empty() {
        let [sxx, syy, sxy] = frame.segments(frame.centroid.coords).2;
        least += v.x * v.x * sxx + v.y * v.y * syy + 2.0 * v.x * v.y * sxy;
    }
    // Trust it only where its own rounding is small: the distances carry about ε·L of
    // error for a body L long and w wide, ε·L/w relative, L/w = √(I2/I1). Beyond that
    // (aspect above ~1e12) neither this nor the tensor resolves I1: keep the tensor's, as
    // before. It can never exceed the least of the axis moments.
    let aspect = (p.moments[1] / least).sqrt();
    let bound = moments.ixx.min(moments.iyy);
    if least.is_finite() && least >= 0.0 && least <= bound && 8.0 * f64::EPSILON * aspect < 1e-3 {
        Principal2d {
            moments: [least, p.moments[1]],
            angle_deg: p.angle_deg,
        }
    } else {
        p
    }
}

/// The planar tensor about the centroid from a fan of triangles per ring (shared by all
/// polygon methods).
pub(crate) fn fan_tensor(frame: &LocalFrame) -> SecondMoments2d {
    *frame.tensor.get_or_init(|| fan_tensor_once(frame))
}

fn fan_tensor_once(frame: &LocalFrame) -> SecondMoments2d {
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for ring in frame.rings_about_centroid() {
        let p0 = ring[0];
        for w in ring[1..].windows(2) {
            let [a, b, c] = triangle_second_moments(p0, w[0], w[1]);
            sxx += a;
            syy += b;
            sxy += c;
        }
    }
    SecondMoments2d {
        ixx: syy,
        iyy: sxx,
        ixy: sxy,
    }
}

#[cfg(test)]
pub(crate) mod test_shapes {
    //! Polygons with exact reference values, shared by the method tests.
    use crate::polygon::Polygon;

    /// A polygon and its exact area, centroid and (unit-density) moments about the centroid.
    pub struct Case {
        pub name: String,
        pub outer: Vec<[f64; 2]>,
        pub holes: Vec<Vec<[f64; 2]>>,
        pub area: f64,
        pub centroid: [f64; 2],
        /// ixx, iyy, ixy (product, +∫xy) about the centroid.
        pub moments: [f64; 3],
        /// Set when a shift rounded the vertices (the shape at 1e8 is no longer exactly the
        /// closed-form one): the expected values are then those of the rounded input, found
        /// by moving it back by this (exactly) and integrating there.
        pub rounded_by_shift: Option<[f64; 2]>,
    }

    impl Case {
        pub fn polygon(&self) -> Polygon {
            Polygon::new(self.outer.clone(), self.holes.clone()).unwrap()
        }

        fn rings(&self) -> impl Iterator<Item = &[f64; 2]> {
            self.outer.iter().chain(self.holes.iter().flatten())
        }

        /// The polygon moved back by `shift` (exact: Sterbenz), for rounded-input references.
        pub fn unshifted_polygon(&self, shift: [f64; 2]) -> Polygon {
            let mv = |r: &Vec<[f64; 2]>| {
                r.iter()
                    .map(|p| [p[0] - shift[0], p[1] - shift[1]])
                    .collect()
            };
            Polygon::new(mv(&self.outer), self.holes.iter().map(mv).collect()).unwrap()
        }

        /// The same shape moved by (dx, dy).
        pub fn shifted(&self, dx: f64, dy: f64) -> Case {
            let mv = |r: &Vec<[f64; 2]>| r.iter().map(|p| [p[0] + dx, p[1] + dy]).collect();
            let exact = self
                .rings()
                .all(|p| (p[0] + dx) - dx == p[0] && (p[1] + dy) - dy == p[1]);
            Case {
                name: format!("{} shifted by ({dx}, {dy})", self.name),
                outer: mv(&self.outer),
                holes: self.holes.iter().map(mv).collect(),
                centroid: [self.centroid[0] + dx, self.centroid[1] + dy],
                rounded_by_shift: if exact { None } else { Some([dx, dy]) },
                ..*self
            }
        }

        /// The same shape scaled by s about the origin.
        pub fn scaled(&self, s: f64) -> Case {
            let sc = |r: &Vec<[f64; 2]>| r.iter().map(|p| [p[0] * s, p[1] * s]).collect();
            Case {
                name: format!("{} scaled by {s}", self.name),
                outer: sc(&self.outer),
                holes: self.holes.iter().map(sc).collect(),
                area: self.area * s * s,
                centroid: [self.centroid[0] * s, self.centroid[1] * s],
                moments: self.moments.map(|m| m * s.powi(4)),
                rounded_by_shift: None,
            }
        }

        /// The same shape with every ring reversed.
        pub fn reversed(&self) -> Case {
            let rev = |r: &Vec<[f64; 2]>| r.iter().rev().copied().collect();
            Case {
                name: format!("{} reversed", self.name),
                outer: rev(&self.outer),
                holes: self.holes.iter().map(rev).collect(),
                ..*self
            }
        }

        /// The same shape rotated by `deg` about its centroid.
        pub fn rotated(&self, deg: f64) -> Case {
            let (s, c) = deg.to_radians().sin_cos();
            let [cx, cy] = self.centroid;
            let rot = |r: &Vec<[f64; 2]>| {
                r.iter()
                    .map(|p| {
                        let (x, y) = (p[0] - cx, p[1] - cy);
                        [cx + c * x - s * y, cy + s * x + c * y]
                    })
                    .collect()
            };
            let [ixx, iyy, ixy] = self.moments;
            // ∫x'² etc. for x' = c x - s y, y' = s x + c y.
            let xx = c * c * iyy + s * s * ixx - 2.0 * s * c * ixy;
            let yy = s * s * iyy + c * c * ixx + 2.0 * s * c * ixy;
            let xy = s * c * (iyy - ixx) + (c * c - s * s) * ixy;
            Case {
                name: format!("{} rotated by {deg}°", self.name),
                outer: rot(&self.outer),
                holes: self.holes.iter().map(rot).collect(),
                moments: [yy, xx, xy],
                ..*self
            }
        }
    }

    fn rect_case(name: &str, w: f64, h: f64) -> Case {
        let a = w * h;
        Case {
            name: name.into(),
            outer: vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]],
            holes: vec![],
            area: a,
            centroid: [w / 2.0, h / 2.0],
            moments: [a * h * h / 12.0, a * w * w / 12.0, 0.0],
            rounded_by_shift: None,
        }
    }

    /// Regular n-gon of side l centred at the origin; exact polar from Fauconnet (2023) eq. 3.6.
    fn regular(n: usize, l: f64) -> Case {
        let pi = std::f64::consts::PI;
        let r = l / (2.0 * (pi / n as f64).sin());
        let outer = (0..n)
            .map(|k| {
                let t = 2.0 * pi * k as f64 / n as f64;
                [r * t.cos(), r * t.sin()]
            })
            .collect();
        let area = n as f64 * l * l / (4.0 * (pi / n as f64).tan());
        let cot = 1.0 / (pi / n as f64).tan();
        let polar = area * l * l / 24.0 * (1.0 + 3.0 * cot * cot);
        Case {
            name: format!("regular {n}-gon"),
            outer,
            holes: vec![],
            area,
            centroid: [0.0, 0.0],
            // n >= 3: the tensor is isotropic.
            moments: [polar / 2.0, polar / 2.0, 0.0],
            rounded_by_shift: None,
        }
    }

    /// The catalogue: closed forms and shapes worked out by hand.
    pub fn cases() -> Vec<Case> {
        let mut v = vec![
            rect_case("unit square", 1.0, 1.0),
            rect_case("3 × 2 rectangle", 3.0, 2.0),
            rect_case("0.1 × 7 rectangle", 0.1, 7.0),
            // L = [0,2]x[0,1] ∪ [0,1]x[1,2]: area 3, centroid (5/6, 5/6),
            // ∫y² about origin 3, ∫xy about origin 7/4.
            Case {
                name: "L shape".into(),
                outer: vec![
                    [0.0, 0.0],
                    [2.0, 0.0],
                    [2.0, 1.0],
                    [1.0, 1.0],
                    [1.0, 2.0],
                    [0.0, 2.0],
                ],
                holes: vec![],
                area: 3.0,
                centroid: [5.0 / 6.0, 5.0 / 6.0],
                moments: [
                    3.0 - 3.0 * 25.0 / 36.0,
                    3.0 - 3.0 * 25.0 / 36.0,
                    1.75 - 3.0 * 25.0 / 36.0,
                ],
                rounded_by_shift: None,
            },
            // U = [0,3]² minus the notch [1,2]×[1,3]: area 7, centroid (1.5, 9.5/7) lies
            // in the notch, outside the polygon. About the origin: ∫y² = 27 - 26/3 = 55/3,
            // ∫x² = 27 - 14/3 = 67/3, ∫xy = 81/4 - 6 = 57/4.
            {
                let cy = 9.5 / 7.0;
                Case {
                    name: "U shape".into(),
                    outer: vec![
                        [0.0, 0.0],
                        [3.0, 0.0],
                        [3.0, 3.0],
                        [2.0, 3.0],
                        [2.0, 1.0],
                        [1.0, 1.0],
                        [1.0, 3.0],
                        [0.0, 3.0],
                    ],
                    holes: vec![],
                    area: 7.0,
                    centroid: [1.5, cy],
                    moments: [
                        55.0 / 3.0 - 7.0 * cy * cy,
                        67.0 / 3.0 - 7.0 * 2.25,
                        57.0 / 4.0 - 7.0 * 1.5 * cy,
                    ],
                    rounded_by_shift: None,
                }
            },
            // Obtuse triangle (0,0), (4,0), (-1,3) (obtuse at the first vertex); by the
            // vertex formula: area 6, centroid (1, 1),
            // ∫x² = A/6 Σ x_i² + x_i x_j = 1·(16 + 1 - 4) = 13, ∫y² = 9, ∫xy = A/12 (...)
            Case {
                name: "obtuse triangle".into(),
                outer: vec![[0.0, 0.0], [4.0, 0.0], [-1.0, 3.0]],
                holes: vec![],
                area: 6.0,
                centroid: [1.0, 1.0],
                moments: [9.0 - 6.0, 13.0 - 6.0, 0.5 * (2.0 * -3.0 + 12.0) - 6.0],
                rounded_by_shift: None,
            },
            // Triangle obtuse at its second vertex, the case Fotino's code gets wrong.
            Case {
                name: "triangle obtuse at p2".into(),
                outer: vec![[0.0, 0.0], [1.0, 0.0], [3.0, 1.0]],
                holes: vec![],
                area: 0.5,
                centroid: [4.0 / 3.0, 1.0 / 3.0],
                // ∫x² = A/6(1+9+3) = 13/12, ∫y² = A/6·1 = 1/12, ∫xy = A/12(2·3 + 1) = 7/24
                moments: [
                    1.0 / 12.0 - 0.5 / 9.0,
                    13.0 / 12.0 - 0.5 * 16.0 / 9.0,
                    7.0 / 24.0 - 0.5 * 4.0 / 9.0,
                ],
                rounded_by_shift: None,
            },
            // Square with a square hole: [0,4]² minus [1,2]² (off-centre).
            // area 15, centroid: (4·4·2 - 1·1.5)/15 = 30.5/15 for both axes.
            {
                let c = 30.5 / 15.0;
                let ixx_origin = 256.0 / 3.0 - 7.0 / 3.0; // ∫y²: 4·64/3 - 1·(8-1)/3
                let ixy_origin = 64.0 - 2.25; // ∫xy: 8·8 - 1.5·1.5
                Case {
                    name: "square with a hole".into(),
                    outer: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]],
                    holes: vec![vec![[1.0, 1.0], [2.0, 1.0], [2.0, 2.0], [1.0, 2.0]]],
                    area: 15.0,
                    centroid: [c, c],
                    moments: [
                        ixx_origin - 15.0 * c * c,
                        ixx_origin - 15.0 * c * c,
                        ixy_origin - 15.0 * c * c,
                    ],
                    rounded_by_shift: None,
                }
            },
        ];
        for n in [3, 4, 5, 6, 7, 12, 100, 1000] {
            v.push(regular(n, 1.0));
        }
        v
    }

    /// Every case, and its variants: clockwise, rotated, far from the origin, tiny, huge.
    /// Returns each case with the relative tolerance it must meet.
    pub fn all_variants() -> Vec<(Case, f64)> {
        let mut out = Vec::new();
        for c in cases() {
            out.push((c.reversed(), 1e-12));
            out.push((c.rotated(37.0), 1e-12));
            out.push((c.shifted(1e6, -1e6), 1e-12));
            out.push((c.shifted(1e8, 1e8), 1e-9));
            out.push((c.rotated(-71.0).shifted(-1e8, 3e7), 1e-9));
            out.push((c.scaled(1e-6), 1e-12));
            out.push((c.scaled(1e6), 1e-12));
            out.push((c, 1e-12));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::test_shapes::all_variants;
    use super::*;
    use approx::assert_relative_eq;

    /// |a - b| <= tol · scale, where `scale` is the size of the quantity's natural magnitude.
    fn close(a: f64, b: f64, scale: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * scale
    }

    #[test]
    fn every_method_matches_exact_values() {
        for (mut case, tol) in all_variants() {
            let poly = case.polygon();
            if let Some(shift) = case.rounded_by_shift {
                // Expected values: the rounded input, integrated where it is exact.
                let r = PolygonMethod::Fan
                    .integrate(&case.unshifted_polygon(shift))
                    .properties;
                case.area = r.area;
                case.centroid = [r.centroid.x + shift[0], r.centroid.y + shift[1]];
                case.moments = [r.moments.ixx, r.moments.iyy, r.moments.ixy];
            }
            // Moments are compared relative to the polar moment (ixy may be 0 exactly).
            let polar = case.moments[0] + case.moments[1];
            let size = case.area.sqrt();
            let cscale = case.centroid[0].abs().max(case.centroid[1].abs()).max(size);
            for m in PolygonMethod::ALL {
                let r = m.integrate(&poly);
                let p = r.properties;
                let what = format!("{} by {}", case.name, m.name());
                assert!(
                    close(p.area, case.area, case.area, tol),
                    "{what}: area {} vs {}",
                    p.area,
                    case.area
                );
                // The centroid is exact to the input's own resolution, so compare relative
                // to its magnitude (a shape at 1e8 carries ~1e-8 absolute error in its input).
                for k in 0..2 {
                    assert!(
                        close(
                            p.centroid[k],
                            case.centroid[k],
                            cscale,
                            1e-15_f64.max(tol * size / cscale)
                        ),
                        "{what}: centroid {:?} vs {:?}",
                        p.centroid,
                        case.centroid
                    );
                }
                let got = [p.moments.ixx, p.moments.iyy, p.moments.ixy];
                for k in 0..3 {
                    assert!(
                        close(got[k], case.moments[k], polar, tol),
                        "{what}: moments {got:?} vs {:?}",
                        case.moments
                    );
                }
                assert!(
                    close(r.polar, polar, polar, tol),
                    "{what}: polar {} vs {polar}",
                    r.polar
                );
            }
        }
    }

    #[test]
    fn thin_strip_at_45_degrees_keeps_its_least_moment() {
        // Issue 12: a strip of length a√2 and width b√2 along y = x, aspect a/b. Exactly,
        // area 2ab, I1 = a b³/3 about its long axis, I2 = a³ b/3. From the tensor alone
        // I1 cancels to 0 (its entries round at 1e-16 of I2); from the outline it keeps
        // about ε·a/b of relative error.
        for (a, b, shift) in [
            (1e8, 1.0, 0.0),
            (1e8, 1.0, 1e8),
            (1e4, 1.0, 0.0),
            (1e6, 0.25, -3e7),
        ] {
            let outer = vec![
                [shift, shift],
                [shift + a, shift + a],
                [shift + a - b, shift + a + b],
                [shift - b, shift + b],
            ];
            let p = crate::Polygon::new(outer, vec![]).unwrap();
            let i1 = a * b * b * b / 3.0;
            let i2 = a * a * a * b / 3.0;
            for m in PolygonMethod::ALL {
                let r = m.integrate(&p);
                let pr = r.principal;
                let bound = 1e-15 * (a / b).max(1.0) * 10.0;
                assert!(
                    (pr.moments[0] - i1).abs() <= bound.max(1e-14) * i1,
                    "{a}/{b} at {shift}, {}: I1 {} vs {i1}",
                    m.name(),
                    pr.moments[0]
                );
                assert_relative_eq!(pr.moments[1], i2, max_relative = 1e-12);
                assert_relative_eq!(pr.angle_deg, 45.0, max_relative = 1e-12);
            }
        }
    }

    #[test]
    fn needle_triangle_least_moment_against_exact_rationals() {
        // A fuzz-corpus triangle of aspect ~7e6: its least principal moment, worked out in
        // exact rational arithmetic (Python fractions, 60 digits), is
        // 5.0328692355043220086965e28; from the tensor alone it came out 1.6e-5 off.
        let p = crate::Polygon::new(
            vec![
                [1.0, 0.0],
                [0.998, 37844387.0],
                [-99999999933.0, -4735602378439.0],
            ],
            vec![],
        )
        .unwrap();
        let exact = 5.032_869_235_504_322e28;
        for m in PolygonMethod::ALL {
            let i1 = m.integrate(&p).principal.moments[0];
            assert!((i1 / exact - 1.0).abs() < 1e-10, "{}: {i1}", m.name());
        }
    }
}
