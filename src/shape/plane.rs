//! Plane shapes: rectangle (Fauconnet 2023, eq. 3.4), regular polygon (Fauconnet 2023,
//! eq. 3.6) and circle (Singhal 2018), each centred on the origin.

use crate::body::BoundingBox2d;
use crate::error::{Error, Result};
use crate::mass2d::{MassProperties2d, SecondMoments2d};
use nalgebra::Point2;
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

impl Shape2d {
    /// Checks the dimensions.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a size that is not positive and finite, or fewer
    /// than 3 sides.
    ///
    /// # Examples
    /// ```
    /// use inertia::shape::Shape2d;
    /// assert!(Shape2d::Circle { radius: 1.0 }.validate().is_ok());
    /// assert!(Shape2d::Circle { radius: -1.0 }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        use crate::error::Parameter;
        let pos = crate::positive;
        match *self {
            Shape2d::Rectangle { width, height } => {
                pos(Parameter::Width, width)?;
                pos(Parameter::Height, height)?;
            }
            Shape2d::Regular { sides, side } => {
                if sides < 3 {
                    return Err(Error::InvalidParameter {
                        name: Parameter::Sides,
                        value: sides as f64,
                        need: crate::error::Need::AtLeast(3.0),
                    });
                }
                pos(Parameter::Side, side)?;
            }
            Shape2d::Circle { radius } => {
                pos(Parameter::Radius, radius)?;
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
