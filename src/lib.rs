#![warn(missing_docs)]
// Every public function returning a `Result` says when it fails (CI denies warnings).
#![warn(clippy::missing_errors_doc)]
//! # inertia
//!
//! Exact, validated mass properties of polygons and closed triangle meshes: area or volume,
//! mass, centroid, second moments, principal moments and axes.
//!
//! The library is what the `inertia` command-line tool runs: parse an input
//! ([`io`]), validate it ([`Polygon::new`], [`Mesh::new`]), integrate it with a
//! [`method`], and build a [report] to print. One call does it all for a file of either
//! kind ([`read_path`]: the format told, the unit the file states, named parts validated,
//! warnings as [`Warning`] values), or for bytes of a known format ([`read_solids`],
//! [`read::read_polygons`]); a validated shape gives its
//! mass properties with [`Polygon::mass_properties`] and [`Mesh::mass_properties`].
//!
//! Every method accumulates about a reference point on the body, never about the global
//! origin, so a part 1e8 from the origin is computed as accurately as one at the origin.
//!
//! ```
//! use inertia::{Polygon, PolygonMethod};
//! // An L shape: area 3, centroid (5/6, 5/6).
//! let l = Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0], [1.0, 2.0], [0.0, 2.0]], vec![])?;
//! let r = PolygonMethod::Fan.integrate(&l).with_density(2.0);
//! assert_eq!(r.properties.mass, 6.0);
//! assert!((r.properties.centroid.x - 5.0 / 6.0).abs() < 1e-15);
//! # Ok::<(), inertia::Error>(())
//! ```

pub mod about;
pub mod assembly;
mod body;
mod boxes;
pub mod crs;
pub mod curve;
#[doc(hidden)]
pub mod details;
pub mod error;
mod fans;
pub mod io;
pub mod mass2d;
pub mod mass3d;
pub mod mesh;
pub mod method;
mod overlap;
pub mod polygon;
mod predicates;
mod quadrature;
pub mod read;
pub mod report;
mod scratch;
pub mod shape;
mod shells;
pub mod solid;
mod soup;
mod sums;
mod sweep;
#[cfg(test)]
mod test_rng;
mod text;
pub mod tolerance;
mod total;
#[cfg(feature = "union")]
pub mod union;
mod union_find;
pub mod units;
mod warning;

pub use about::About;
pub use error::{Error, Result, Ring};
pub use mass2d::{MassProperties2d, Principal2d, SecondMoments2d};
pub use mass3d::{MassProperties3d, Principal3d};
pub use mesh::{Mesh, RawMesh};
pub use method::{MeshIntegral, MeshMethod, PolygonIntegral, PolygonMethod};
pub use polygon::{Polygon, Winding};
pub use read::{Parts, ReadOptions, Warning, read_path};
pub use solid::{Solid, read_solids};

/// The Rust code of the README and of docs/library.md, run as doctests (`cargo test
/// --doc`): the examples a user copies first are ones that work.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[doc = include_str!("../docs/library.md")]
pub struct ReadmeDoctests;

/// The linear algebra crate of the public API (points, vectors, the inertia tensor), so
/// that a user names the same `nalgebra` types without depending on a matching version.
pub use nalgebra;

/// Checks that a density, mass or size is positive and finite.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `name` when `value` is not positive and finite.
///
/// # Examples
/// ```
/// use inertia::error::Parameter;
/// assert!(inertia::positive(Parameter::Density, 2.5).is_ok());
/// assert_eq!(
///     inertia::positive(Parameter::Mass, -1.0).unwrap_err().to_string(),
///     "the mass must be a positive finite number, got -1"
/// );
/// ```
pub fn positive(name: error::Parameter, value: f64) -> Result<f64> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(Error::InvalidParameter {
            name,
            value,
            need: error::Need::Positive,
        })
    }
}

/// How much matter a body holds: a density, or a total mass to spread uniformly.
///
/// # Examples
/// ```
/// assert_eq!(inertia::Amount::Mass(10.0).density(4.0), 2.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    /// Mass per unit area (polygons) or volume (meshes).
    Density(f64),
    /// Total mass; the density is this divided by the area or volume.
    Mass(f64),
}

impl Amount {
    /// The density for a body of the given area or volume.
    ///
    /// # Examples
    /// ```
    /// use inertia::Amount;
    /// assert_eq!(Amount::Mass(6.0).density(3.0), 2.0);
    /// assert_eq!(Amount::Density(7.0).density(3.0), 7.0);
    /// ```
    pub fn density(self, measure: f64) -> f64 {
        match self {
            Amount::Density(d) => d,
            Amount::Mass(m) => m / measure,
        }
    }
}
