//! Closed-form shapes, and tessellations of them for cross-checking the methods.
//!
//! 2D: rectangle (Fauconnet 2023, eq. 3.4), regular polygon (Fauconnet 2023, eq. 3.6), circle (Singhal 2018).
//! 3D: box, sphere, cylinder (axis z), and Fiedler's biconvex go stone (two spherical caps,
//! axis y) with the true lens volume.
//!
//! Every shape is centred on the origin. Tessellations are inscribed (vertices on the true
//! surface), and [`revolved_polyhedron`] gives the exact mass properties of a tessellated
//! solid of revolution, so tests can tell tessellation error from method error.

use crate::body::BoundingBox2d;
use crate::error::{Error, Result};
use crate::mass2d::{MassProperties2d, SecondMoments2d};
use crate::mass3d::MassProperties3d;
use crate::mesh::RawMesh;
use nalgebra::{Matrix3, Point2, Point3, Vector3};
use std::f64::consts::PI;

/// A planar shape with a closed form.
///
/// # Examples
/// ```
/// let e = inertia::shape::Shape2d::Circle { radius: 1.0 }.exact();
/// assert!((e.perimeter - 2.0 * std::f64::consts::PI).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape2d {
    /// Width (along x) and height (along y).
    Rectangle {
        /// Along x.
        width: f64,
        /// Along y.
        height: f64,
    },
    /// A regular polygon with `sides` sides of length `side`, first vertex on +x.
    Regular {
        /// Number of sides (at least 3).
        sides: usize,
        /// Side length.
        side: f64,
    },
    /// A disc.
    Circle {
        /// Radius.
        radius: f64,
    },
}

/// A solid with a closed form.
///
/// # Examples
/// ```
/// let e = inertia::shape::Shape3d::Box { size: [1.0, 2.0, 3.0] }.exact();
/// assert_eq!(e.surface_area, 22.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape3d {
    /// Edge lengths along x, y, z.
    Box {
        /// Edge lengths.
        size: [f64; 3],
    },
    /// A ball.
    Sphere {
        /// Radius.
        radius: f64,
    },
    /// A circular cylinder with its axis along z.
    Cylinder {
        /// Radius.
        radius: f64,
        /// Length along z.
        height: f64,
    },
    /// A biconvex lens (a go stone): two equal spherical caps joined at their base circle,
    /// axis along y.
    Biconvex {
        /// Diameter of the base circle (the stone's width).
        width: f64,
        /// Total thickness along y (each cap is half of it).
        height: f64,
    },
}

/// Closed-form properties of a planar shape, unit density.
///
/// # Examples
/// ```
/// let e = inertia::shape::Shape2d::Regular { sides: 4, side: 1.0 }.exact();
/// assert_eq!(e.vertices, 4);
/// assert!((e.properties.area - 1.0).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exact2d {
    /// Area, centroid (the origin) and moments about it.
    pub properties: MassProperties2d,
    /// Perimeter.
    pub perimeter: f64,
    /// Vertices of the outline (0 for a circle).
    pub vertices: usize,
    /// The shape's axis-aligned box (a regular polygon's first vertex is on +x).
    pub bounding_box: BoundingBox2d,
}

/// Closed-form properties of a solid, unit density.
///
/// # Examples
/// ```
/// let e = inertia::shape::Shape3d::Sphere { radius: 2.0 }.exact();
/// assert_eq!(e.half_extent, [2.0; 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exact3d {
    /// Volume, centroid (the origin) and inertia tensor about it.
    pub properties: MassProperties3d,
    /// Surface area.
    pub surface_area: f64,
    /// Half the bounding box's size along each axis.
    pub half_extent: [f64; 3],
}

impl Shape2d {
    /// Checks the dimensions.
    ///
    /// # Examples
    /// ```
    /// use inertia::shape::Shape2d;
    /// assert!(Shape2d::Circle { radius: 1.0 }.validate().is_ok());
    /// assert!(Shape2d::Circle { radius: -1.0 }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        let pos = crate::positive;
        match *self {
            Shape2d::Rectangle { width, height } => {
                pos("--width", width)?;
                pos("--height", height)?;
            }
            Shape2d::Regular { sides, side } => {
                if sides < 3 {
                    return Err(Error::InvalidParameter {
                        name: "--sides (at least 3)".into(),
                        value: sides as f64,
                    });
                }
                pos("--side", side)?;
            }
            Shape2d::Circle { radius } => {
                pos("--radius", radius)?;
            }
        }
        Ok(())
    }

    /// Area, centroid, moments, perimeter for unit density.
    ///
    /// # Examples
    /// ```
    /// use inertia::shape::Shape2d;
    /// let e = Shape2d::Rectangle { width: 2.0, height: 1.0 }.exact();
    /// // Fauconnet (2023) eq. 3.4: I = m (w² + h²) / 12.
    /// assert!((e.properties.moments.polar() - 2.0 * 5.0 / 12.0).abs() < 1e-15);
    /// ```
    pub fn exact(&self) -> Exact2d {
        let (area, ixx, iyy, perimeter, vertices) = match *self {
            Shape2d::Rectangle {
                width: w,
                height: h,
            } => {
                let a = w * h;
                (a, a * h * h / 12.0, a * w * w / 12.0, 2.0 * (w + h), 4)
            }
            Shape2d::Regular { sides, side: l } => {
                let n = sides as f64;
                let t = (PI / n).tan();
                let a = n * l * l / (4.0 * t);
                // Fauconnet (2023) eq. 3.6: I = m l²/24 (1 + 3 cot²(π/n)); isotropic for n ≥ 3.
                let polar = a * l * l / 24.0 * (1.0 + 3.0 / (t * t));
                (a, polar / 2.0, polar / 2.0, n * l, sides)
            }
            Shape2d::Circle { radius: r } => {
                let a = PI * r * r;
                // Singhal (2018): I = m r²/2 about the centre, half of it about each diameter.
                (a, a * r * r / 4.0, a * r * r / 4.0, 2.0 * PI * r, 0)
            }
        };
        let half = |x: f64, y: f64| BoundingBox2d {
            min: [-x, -y],
            max: [x, y],
        };
        let bounding_box = match *self {
            Shape2d::Rectangle { width, height } => half(width / 2.0, height / 2.0),
            Shape2d::Circle { radius } => half(radius, radius),
            Shape2d::Regular { sides, side } => {
                // Vertices at angles 2πk/n on the circumcircle: the extremes of cos and
                // sin are at the k nearest 0, n/2, n/4 and 3n/4.
                let r = side / (2.0 * (PI / sides as f64).sin());
                let at = |k: usize| 2.0 * PI * (k % sides) as f64 / sides as f64;
                let best = |q: usize, f: fn(f64) -> f64| {
                    // k nearest q/4 of the way round: floor and ceil of q·n/4.
                    let lo = q * sides / 4;
                    f(at(lo)).abs().max(f(at(lo + 1)).abs())
                };
                BoundingBox2d {
                    min: [-r * best(2, f64::cos), -r * best(3, f64::sin)],
                    max: [r, r * best(1, f64::sin)],
                }
            }
        };
        Exact2d {
            properties: MassProperties2d {
                area,
                mass: area,
                centroid: Point2::origin(),
                moments: SecondMoments2d { ixx, iyy, ixy: 0.0 },
            },
            perimeter,
            vertices,
            bounding_box,
        }
    }

    /// The outline as points, counter-clockwise; a circle as an inscribed `segments`-gon.
    ///
    /// # Examples
    /// ```
    /// let pts = inertia::shape::Shape2d::Circle { radius: 1.0 }.tessellate(64);
    /// assert_eq!(pts.len(), 64);
    /// ```
    pub fn tessellate(&self, segments: usize) -> Vec<[f64; 2]> {
        let ngon = |n: usize, r: f64| -> Vec<[f64; 2]> {
            (0..n)
                .map(|k| {
                    let t = 2.0 * PI * k as f64 / n as f64;
                    [r * t.cos(), r * t.sin()]
                })
                .collect()
        };
        match *self {
            Shape2d::Rectangle {
                width: w,
                height: h,
            } => {
                vec![
                    [-w / 2.0, -h / 2.0],
                    [w / 2.0, -h / 2.0],
                    [w / 2.0, h / 2.0],
                    [-w / 2.0, h / 2.0],
                ]
            }
            Shape2d::Regular { sides, side } => {
                ngon(sides, side / (2.0 * (PI / sides as f64).sin()))
            }
            Shape2d::Circle { radius } => ngon(segments.max(3), radius),
        }
    }
}

/// Exact volume, centroid height and moments of the solid swept by an `n`-gon whose
/// circumradius follows `profile` (pairs `(z, ρ)`, z increasing) linearly between its
/// points: the exact mass properties of a tessellated solid of revolution about z (a UV
/// sphere, a prism, a lens), not of the smooth solid.
///
/// Returns `(volume, z of the centroid, Izz, Ixx = Iyy)` for unit density, moments about
/// the centroid. The cross-section at height z is a regular n-gon of circumradius ρ(z):
/// area `A = n/2 ρ² sin(2π/n)`, polar moment `J = A l²/24 (1 + 3 cot²(π/n))` with
/// `l = 2ρ sin(π/n)` (Fauconnet 2023, eq. 3.6); each band is a polynomial of degree ≤ 6 in z,
/// integrated exactly by 4-point Gauss–Legendre.
///
/// # Examples
/// ```
/// // A 4-gon prism of circumradius 1 and height 2: a square of side √2, volume 4.
/// let (v, zc, _, _) = inertia::shape::revolved_polyhedron(&[(0.0, 0.0), (0.0, 1.0), (2.0, 1.0), (2.0, 0.0)], 4);
/// assert!((v - 4.0).abs() < 1e-12 && (zc - 1.0).abs() < 1e-12);
/// ```
pub fn revolved_polyhedron(profile: &[(f64, f64)], n: usize) -> (f64, f64, f64, f64) {
    let nf = n as f64;
    let (gx, gw) = (
        [
            -0.861_136_311_594_052_6,
            -0.339_981_043_584_856_3,
            0.339_981_043_584_856_3,
            0.861_136_311_594_052_6,
        ],
        [
            0.347_854_845_137_453_9,
            0.652_145_154_862_546_1,
            0.652_145_154_862_546_1,
            0.347_854_845_137_453_9,
        ],
    );
    let (mut v, mut sz, mut izz, mut perp, mut szz) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for w in profile.windows(2) {
        let ((z0, r0), (z1, r1)) = (w[0], w[1]);
        for (x, wt) in gx.iter().zip(gw) {
            let s = 0.5 * (x + 1.0);
            let (z, rho) = (z0 + s * (z1 - z0), r0 + s * (r1 - r0));
            let dz = 0.5 * (z1 - z0) * wt;
            let area = 0.5 * nf * rho * rho * (2.0 * PI / nf).sin();
            let l = 2.0 * rho * (PI / nf).sin();
            let cot = 1.0 / (PI / nf).tan();
            let j = area * l * l / 24.0 * (1.0 + 3.0 * cot * cot);
            v += area * dz;
            sz += area * z * dz;
            szz += area * z * z * dz;
            izz += j * dz;
            perp += j / 2.0 * dz;
        }
    }
    let zc = sz / v;
    (v, zc, izz, perp + szz - v * zc * zc)
}

impl Shape3d {
    /// Checks the dimensions.
    ///
    /// # Examples
    /// ```
    /// use inertia::shape::Shape3d;
    /// assert!(Shape3d::Box { size: [1.0, 0.0, 1.0] }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        let pos = crate::positive;
        match *self {
            Shape3d::Box { size } => {
                for s in size {
                    pos("--size", s)?;
                }
            }
            Shape3d::Sphere { radius } => {
                pos("--radius", radius)?;
            }
            Shape3d::Cylinder { radius, height } => {
                pos("--radius", radius)?;
                pos("--height", height)?;
            }
            Shape3d::Biconvex { width, height } => {
                pos("--width", width)?;
                pos("--height", height)?;
                // Two caps of at most a hemisphere each: taller than wide, each cap would
                // bulge wider than `width` below its rim, and the lens would no longer be
                // the width × height body asked for (nor what the closed form describes).
                if height > width {
                    return Err(Error::parse(
                        "--height",
                        format!(
                            "{height} is more than --width {width}: a biconvex lens (two caps of at most a hemisphere) is at most as tall as it is wide"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Volume, centroid, inertia tensor, surface area for unit density.
    ///
    /// # Examples
    /// ```
    /// use inertia::shape::Shape3d;
    /// let e = Shape3d::Sphere { radius: 2.0 }.exact();
    /// let m = e.properties.mass;
    /// assert!((e.properties.inertia.m11 - 0.4 * m * 4.0).abs() < 1e-12);
    /// ```
    pub fn exact(&self) -> Exact3d {
        let (v, diag, area, half) = match *self {
            Shape3d::Box { size: [a, b, c] } => {
                let v = a * b * c;
                (
                    v,
                    [
                        v * (b * b + c * c) / 12.0,
                        v * (a * a + c * c) / 12.0,
                        v * (a * a + b * b) / 12.0,
                    ],
                    2.0 * (a * b + b * c + c * a),
                    [a / 2.0, b / 2.0, c / 2.0],
                )
            }
            Shape3d::Sphere { radius: r } => {
                let v = 4.0 / 3.0 * PI * r.powi(3);
                let i = 0.4 * v * r * r;
                (v, [i; 3], 4.0 * PI * r * r, [r; 3])
            }
            Shape3d::Cylinder {
                radius: r,
                height: h,
            } => {
                let v = PI * r * r * h;
                let perp = v * (3.0 * r * r + h * h) / 12.0;
                (
                    v,
                    [perp, perp, v * r * r / 2.0],
                    2.0 * PI * r * (r + h),
                    [r, r, h / 2.0],
                )
            }
            Shape3d::Biconvex { width, height } => {
                let (v, axial, perp, sphere_r) = lens(width / 2.0, height / 2.0);
                let c = height / 2.0;
                (
                    v,
                    [perp, axial, perp],
                    2.0 * (2.0 * PI * sphere_r * c),
                    [width / 2.0, c, width / 2.0],
                )
            }
        };
        Exact3d {
            properties: MassProperties3d {
                volume: v,
                mass: v,
                centroid: Point3::origin(),
                inertia: Matrix3::from_diagonal(&Vector3::from(diag)),
            },
            surface_area: area,
            half_extent: half,
        }
    }

    /// A closed, outward-wound tessellation with `segments` around each circle (vertices on
    /// the true surface).
    ///
    /// # Examples
    /// ```
    /// let raw = inertia::shape::Shape3d::Sphere { radius: 1.0 }.tessellate(32);
    /// assert!(inertia::Mesh::new(&raw).is_ok());
    /// ```
    pub fn tessellate(&self, segments: usize) -> RawMesh {
        let n = segments.max(3);
        match *self {
            Shape3d::Box { size: [a, b, c] } => box_mesh([a / 2.0, b / 2.0, c / 2.0]),
            Shape3d::Sphere { .. } | Shape3d::Cylinder { .. } => {
                revolve(&self.profile(n), n, false)
            }
            Shape3d::Biconvex { .. } => revolve(&self.profile(n), n, true),
        }
    }

    /// The profile `(z, ρ)` its tessellation revolves about its axis (z here; the lens is
    /// turned onto y afterwards).
    ///
    /// # Examples
    /// ```
    /// let p = inertia::shape::Shape3d::Cylinder { radius: 1.0, height: 2.0 }.profile(8);
    /// assert_eq!(p.first(), Some(&(-1.0, 0.0)));
    /// ```
    pub fn profile(&self, segments: usize) -> Vec<(f64, f64)> {
        let rings = (segments / 2).max(2);
        match *self {
            Shape3d::Box { .. } => vec![],
            Shape3d::Sphere { radius: r } => (0..=rings)
                .map(|k| {
                    let phi = -PI / 2.0 + PI * k as f64 / rings as f64;
                    if k == 0 {
                        (-r, 0.0)
                    } else if k == rings {
                        (r, 0.0)
                    } else {
                        (r * phi.sin(), r * phi.cos())
                    }
                })
                .collect(),
            Shape3d::Cylinder {
                radius: r,
                height: h,
            } => vec![(-h / 2.0, 0.0), (-h / 2.0, r), (h / 2.0, r), (h / 2.0, 0.0)],
            Shape3d::Biconvex { width, height } => {
                let (a, c) = (width / 2.0, height / 2.0);
                let sr = (a * a + c * c) / (2.0 * c);
                // Each cap is the part of a sphere of radius sr, centred (sr − c) beyond the
                // base plane, within angle α of the axis (sin α = a / sr).
                let alpha = (a / sr).asin();
                let k = (rings / 2).max(1);
                let point = |i: usize, top: bool| -> (f64, f64) {
                    if i == 0 {
                        return (if top { c } else { -c }, 0.0);
                    }
                    if i == k {
                        return (0.0, a);
                    }
                    let t = alpha * i as f64 / k as f64;
                    let z = sr * t.cos() - (sr - c);
                    (if top { z } else { -z }, sr * t.sin())
                };
                (0..=k)
                    .map(|i| point(i, false))
                    .chain((0..k).rev().map(|i| point(i, true)))
                    .collect()
            }
        }
    }
}

/// Volume, moment about the axis, moment about a diameter through the centre, and sphere
/// radius of a biconvex lens of base radius `a` made of two caps of height `c`.
///
/// With u the distance from the base plane into a cap, the cross-section radius is
/// `ρ²(u) = (c − u)(2R − c + u)` where `R = (a² + c²)/(2c)` is the sphere radius. Per cap:
/// `V = π∫ρ² du`, `I_axis = π/2 ∫ρ⁴ du`, `I_diameter = π∫(ρ⁴/4 + ρ² u²) du`, u from 0 to c,
/// integrated as polynomials (exact). Fiedler's `CalculateBiconvexVolume` is not this
/// volume; the true one is `2·π c² (3R − c)/3`.
fn lens(a: f64, c: f64) -> (f64, f64, f64, f64) {
    let r = (a * a + c * c) / (2.0 * c);
    // ρ²(u) = (c − u)(2r − c + u) = p0 + p1 u + p2 u², as polynomial coefficients.
    let k = 2.0 * r - c;
    let rho2 = [c * k, c - k, -1.0];
    let mul = |x: &[f64], y: &[f64]| {
        let mut out = vec![0.0; x.len() + y.len() - 1];
        for (i, a) in x.iter().enumerate() {
            for (j, b) in y.iter().enumerate() {
                out[i + j] += a * b;
            }
        }
        out
    };
    let integral = |p: &[f64]| {
        p.iter()
            .enumerate()
            .map(|(i, q)| q * c.powi(i as i32 + 1) / (i as f64 + 1.0))
            .sum::<f64>()
    };
    let rho4 = mul(&rho2, &rho2);
    let rho2u2 = mul(&rho2, &[0.0, 0.0, 1.0]);
    let v_cap = PI * integral(&rho2);
    let axial_cap = PI / 2.0 * integral(&rho4);
    let diam_cap = PI * (integral(&rho4) / 4.0 + integral(&rho2u2));
    (2.0 * v_cap, 2.0 * axial_cap, 2.0 * diam_cap, r)
}

fn box_mesh(h: [f64; 3]) -> RawMesh {
    let mut m = crate::mesh::RawMesh::default();
    for k in 0..8 {
        m.vertices.push([
            if k & 1 != 0 { h[0] } else { -h[0] },
            if k & 2 != 0 { h[1] } else { -h[1] },
            if k & 4 != 0 { h[2] } else { -h[2] },
        ]);
    }
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    m.triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    m
}

/// Revolves a profile `(z, ρ)` (z increasing, ρ = 0 at both ends) about z with `n`
/// segments; with `onto_y`, turns the result so the axis is y.
fn revolve(profile: &[(f64, f64)], n: usize, onto_y: bool) -> RawMesh {
    let mut vertices: Vec<[f64; 3]> = Vec::new();
    let mut rings: Vec<Vec<u32>> = Vec::new();
    for &(z, rho) in profile {
        if rho == 0.0 {
            vertices.push([0.0, 0.0, z]);
            rings.push(vec![vertices.len() as u32 - 1; n]);
        } else {
            let start = vertices.len() as u32;
            for j in 0..n {
                let t = 2.0 * PI * j as f64 / n as f64;
                vertices.push([rho * t.cos(), rho * t.sin(), z]);
            }
            rings.push((start..start + n as u32).collect());
        }
    }
    let mut triangles = Vec::new();
    for w in rings.windows(2) {
        let (lo, hi) = (&w[0], &w[1]);
        for j in 0..n {
            let k = (j + 1) % n;
            // Outward: going up the profile, counter-clockwise seen from outside.
            let (a, b, c, d) = (lo[j], lo[k], hi[k], hi[j]);
            for t in [[a, b, c], [a, c, d]] {
                if t[0] != t[1] && t[1] != t[2] && t[2] != t[0] {
                    triangles.push(t);
                }
            }
        }
    }
    if onto_y {
        for v in &mut vertices {
            *v = [v[0], v[2], -v[1]];
        }
    }
    RawMesh {
        vertices,
        triangles,
        lines: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::{PolygonMethod, tetra};
    use crate::{Mesh, Polygon};
    use approx::assert_relative_eq;

    #[test]
    fn bounding_boxes_are_those_of_the_outlines() {
        for n in 3..=41 {
            let s = Shape2d::Regular {
                sides: n,
                side: 1.5,
            };
            let b = s.exact().bounding_box;
            let p = Polygon::new(s.tessellate(0), vec![])
                .unwrap()
                .bounding_box();
            for k in 0..2 {
                assert_relative_eq!(b.min[k], p.min[k], epsilon = 1e-14, max_relative = 1e-14);
                assert_relative_eq!(b.max[k], p.max[k], epsilon = 1e-14, max_relative = 1e-14);
            }
        }
        let b = Shape2d::Rectangle {
            width: 2.0,
            height: 3.0,
        }
        .exact()
        .bounding_box;
        assert_eq!((b.min, b.max), ([-1.0, -1.5], [1.0, 1.5]));
        let b = Shape2d::Circle { radius: 2.5 }.exact().bounding_box;
        assert_eq!((b.min, b.max), ([-2.5, -2.5], [2.5, 2.5]));
    }

    #[test]
    fn regular_polygon_and_circle_tessellations_are_exact_by_eq_3_6() {
        for n in [3, 4, 7, 64, 1000] {
            let s = Shape2d::Regular {
                sides: n,
                side: 0.3,
            };
            let e = s.exact().properties;
            let p = Polygon::new(s.tessellate(0), vec![]).unwrap();
            for m in PolygonMethod::ALL {
                let r = m.integrate(&p);
                assert_relative_eq!(r.properties.area, e.area, max_relative = 1e-13);
                assert_relative_eq!(r.polar, e.moments.polar(), max_relative = 1e-13);
            }
        }
        // The inscribed 1000-gon approaches the circle: error ~ (2π/n)²/6 · 2.
        let c = Shape2d::Circle { radius: 2.0 };
        let r = PolygonMethod::Fan.integrate(&Polygon::new(c.tessellate(1000), vec![]).unwrap());
        let e = c.exact().properties;
        assert!((r.polar - e.moments.polar()).abs() / e.moments.polar() < 1e-4);
    }

    #[test]
    fn tessellated_solids_match_their_exact_polyhedral_values_and_converge() {
        for shape in [
            Shape3d::Sphere { radius: 1.5 },
            Shape3d::Cylinder {
                radius: 0.5,
                height: 3.0,
            },
            Shape3d::Biconvex {
                width: 2.2,
                height: 0.92,
            },
        ] {
            let mut last_err = f64::INFINITY;
            for n in [16, 64, 256] {
                let raw = shape.tessellate(n);
                let mesh = Mesh::new(&raw).unwrap();
                let p = tetra::integrate(&mesh);
                let (v, zc, izz, ixx) = revolved_polyhedron(&shape.profile(n), n);
                let (axial, perp) = if matches!(shape, Shape3d::Biconvex { .. }) {
                    (p.inertia.m22, p.inertia.m11)
                } else {
                    (p.inertia.m33, p.inertia.m11)
                };
                assert_relative_eq!(p.volume, v, max_relative = 1e-12);
                assert!(zc.abs() < 1e-12 && p.centroid.coords.norm() < 1e-12);
                assert_relative_eq!(axial, izz, max_relative = 1e-12);
                assert_relative_eq!(perp, ixx, max_relative = 1e-12);
                let e = shape.exact().properties;
                let err = (p.volume - e.volume).abs() / e.volume;
                assert!(err < last_err, "{shape:?} n={n}: {err} >= {last_err}");
                last_err = err;
            }
            assert!(last_err < 1e-3, "{shape:?}: {last_err}");
        }
    }

    #[test]
    fn go_stone_true_volume_and_moments() {
        // Fiedler's stone: width 2.2, height 0.92, mass 1.
        let e = Shape3d::Biconvex {
            width: 2.2,
            height: 0.92,
        }
        .exact()
        .properties;
        let (a, c): (f64, f64) = (1.1, 0.46);
        let r = (a * a + c * c) / (2.0 * c);
        // Two caps: 2·π c² (3r − c) / 3.
        assert_relative_eq!(
            e.volume,
            2.0 * PI * c * c * (3.0 * r - c) / 3.0,
            max_relative = 1e-14
        );
        let unit = e.scaled_mass(1.0 / e.volume);
        // Fiedler's own integral for Iy, π ρ h³(3h² − 30hr + 80r²)/480, with the true ρ.
        let h: f64 = 0.92;
        let iy = PI / e.volume * h.powi(3) * (3.0 * h * h - 30.0 * h * r + 80.0 * r * r) / 480.0;
        assert_relative_eq!(unit.inertia.m22, iy, max_relative = 1e-13);
        // The true figures (also by a 200,000-step numerical integration of the same
        // slices): volume 1.85054049183, Iy 0.415606897124, Ix = Iz 0.244624139941.
        assert_relative_eq!(e.volume, 1.85054049183, max_relative = 1e-11);
        assert_relative_eq!(unit.inertia.m22, 0.415606897124, max_relative = 1e-11);
        assert_relative_eq!(unit.inertia.m11, 0.244624139941, max_relative = 1e-11);
        assert_eq!(unit.inertia.m11, unit.inertia.m33);
        // The article prints Iy = 0.303588: the true Iy scaled by the true volume over its
        // `CalculateBiconvexVolume` (2.53336231191), i.e. the right integral with the wrong
        // density.
        let seed_volume = {
            let h = r - c;
            h * h + (PI * r / 4.0 + PI * h / 24.0)
        };
        assert_relative_eq!(
            unit.inertia.m22 * e.volume / seed_volume,
            0.303588,
            max_relative = 1e-5
        );
    }

    #[test]
    fn box_tessellation_is_exact() {
        let s = Shape3d::Box {
            size: [3.0, 2.0, 1.0],
        };
        let p = tetra::integrate(&Mesh::new(&s.tessellate(0)).unwrap());
        let e = s.exact().properties;
        assert_relative_eq!(p.volume, e.volume, max_relative = 1e-14);
        assert!((p.inertia - e.inertia).norm() < 1e-13 * e.inertia.norm());
    }
}
