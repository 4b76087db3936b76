//! Reports: what is printed, and one file per output format.
//!
//! A report is a plain, serialisable value built from a result; each output format turns it
//! into text ([`table`] for people, [`json`] for pipelines).

pub mod compare;
pub mod csv;
pub mod json;
pub mod jsonl;
pub mod svg;
pub mod table;

use crate::Amount;
pub use crate::body::{Body, BoundingBox};
use crate::mass2d::MassProperties2d;
use crate::mass2d::Principal2d;
use crate::mass3d::MassProperties3d;
use crate::mesh::Mesh;
use crate::method::{MeshIntegral, MeshMethod, PolygonIntegral, PolygonMethod};
use crate::polygon::Polygon;
use crate::units::{Products, UnitLabels, Units};
use nalgebra::{Point2, Point3};
use serde::Serialize;

/// An output format.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert!(inertia::report::OutputFormat::Csv.polygon(&r).starts_with("source,"));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OutputFormat {
    /// An aligned, labelled table for people.
    Table,
    /// One pretty-printed JSON object.
    Json,
    /// A header and one comma-separated row per input (batches).
    Csv,
    /// One compact JSON object per line per input (batches).
    Jsonl,
}

impl OutputFormat {
    /// Renders a polygon report in this format.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{OutputFormat, PolygonReport};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let r = PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
    /// assert!(OutputFormat::Jsonl.polygon(&r).starts_with("{"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn polygon(self, r: &PolygonReport) -> String {
        match self {
            OutputFormat::Table => table::polygon(r),
            OutputFormat::Json => json::polygon(r),
            OutputFormat::Csv => csv::polygons(&[Ok(r.clone())]),
            OutputFormat::Jsonl => jsonl::lines::<PolygonReport>(&[Ok(r.clone())]),
        }
    }

    /// Renders a mesh report in this format.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{MeshReport, OutputFormat};
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let r = MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
    /// assert!(OutputFormat::Table.mesh(&r).contains("inertia tensor"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn mesh(self, r: &MeshReport) -> String {
        match self {
            OutputFormat::Table => table::mesh(r),
            OutputFormat::Json => json::mesh(r),
            OutputFormat::Csv => csv::meshes(&[Ok(r.clone())]),
            OutputFormat::Jsonl => jsonl::lines::<MeshReport>(&[Ok(r.clone())]),
        }
    }
}

/// Mass moments `ixx = ∫y² dm`, `iyy = ∫x² dm`, `ixy = +∫xy dm` about the report's point.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert!((r.second_moments.ixx - 1.0 / 12.0).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlanarMoments {
    /// `∫y² dm`.
    pub ixx: f64,
    /// `∫x² dm`.
    pub iyy: f64,
    /// `+∫xy dm` (product of inertia).
    pub ixy: f64,
}

/// Second moments of area (`∫y² dA` ...), density-free, about the report's point.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(5.0), None);
/// assert!((r.area_moments.polar - 1.0 / 6.0).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AreaMoments {
    /// `∫y² dA`.
    pub ixx: f64,
    /// `∫x² dA`.
    pub iyy: f64,
    /// `+∫xy dA`.
    pub ixy: f64,
    /// `∫(x² + y²) dA`.
    pub polar: f64,
}

/// Principal moments and the angle of the first axis.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.principal.angle, 0.0);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PrincipalReport {
    /// `[I1, I2]`, ascending.
    pub moments: [f64; 2],
    /// Angle of the I1 axis from +x, counter-clockwise, degrees in (-90, 90].
    pub angle: f64,
}

impl From<Principal2d> for PrincipalReport {
    fn from(p: Principal2d) -> Self {
        PrincipalReport {
            moments: p.moments,
            angle: p.angle_deg,
        }
    }
}

/// Radii of gyration `sqrt(I / m)` about the report's point.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert!((r.radii_of_gyration.polar - (1.0f64 / 6.0).sqrt()).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Radii2d {
    /// About the x axis: `sqrt(ixx / m)`.
    pub x: f64,
    /// About the y axis: `sqrt(iyy / m)`.
    pub y: f64,
    /// Polar: `sqrt(inertia / m)`.
    pub polar: f64,
}

/// How a report is expressed: units, the sign of products of inertia, and an optional axis
/// to report the moment about.
///
/// # Examples
/// ```
/// let v = inertia::report::View { products: Some(inertia::units::Products::Tensor), ..Default::default() };
/// assert!(v.axis.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct View {
    /// Units of the input and the output.
    pub units: Units,
    /// Sign convention of products; `None` for the default (CAD `+∫xy` for polygons,
    /// tensor `−∫xy` for meshes).
    pub products: Option<Products>,
    /// A direction (2 components for polygons, in-plane; 3 for meshes): the moment about
    /// the axis through the `about` point along it is reported as `axis_moment`.
    pub axis: Option<Vec<f64>>,
}

/// What a report says of a polygon's outline besides its integrals.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// assert_eq!(inertia::report::Outline::of(&sq).vertices, 4);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outline {
    /// Distinct vertices over all rings (0 for a circle).
    pub vertices: usize,
    /// Number of holes.
    pub holes: usize,
    /// Winding of the outer ring as given: `"ccw"` or `"cw"`.
    pub winding: &'static str,
    /// Total edge length.
    pub perimeter: f64,
    /// When curves were replaced by chords (DXF splines): the largest distance between a
    /// curve and its chords.
    pub max_deviation: Option<f64>,
}

impl Outline {
    /// The outlines of several plates taken together (counts and perimeters add).
    ///
    /// # Examples
    /// ```
    /// use inertia::report::Outline;
    /// let sq = Outline { vertices: 4, holes: 0, winding: "ccw", perimeter: 4.0, max_deviation: None };
    /// assert_eq!(Outline::sum([sq, sq]).perimeter, 8.0);
    /// ```
    pub fn sum(parts: impl IntoIterator<Item = Outline>) -> Outline {
        parts.into_iter().fold(
            Outline {
                vertices: 0,
                holes: 0,
                winding: "ccw",
                perimeter: 0.0,
                max_deviation: None,
            },
            |a, b| Outline {
                vertices: a.vertices + b.vertices,
                holes: a.holes + b.holes,
                winding: "ccw",
                perimeter: a.perimeter + b.perimeter,
                max_deviation: match (a.max_deviation, b.max_deviation) {
                    (Some(x), Some(y)) => Some(x.max(y)),
                    (x, y) => x.or(y),
                },
            },
        )
    }

    /// The description of a validated polygon.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// assert_eq!(inertia::report::Outline::of(&sq).perimeter, 4.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn of(polygon: &Polygon) -> Self {
        Outline {
            vertices: polygon.vertex_count(),
            holes: polygon.holes().len(),
            winding: polygon.winding().short_name(),
            perimeter: polygon.perimeter(),
            max_deviation: polygon.max_deviation(),
        }
    }
}

/// Everything `inertia polygon` prints.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.winding, "ccw");
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolygonReport {
    /// The input's name (a path, or `-` for stdin).
    pub source: String,
    /// The method used.
    pub method: &'static str,
    /// Distinct vertices over all rings.
    pub vertices: usize,
    /// Number of holes.
    pub holes: usize,
    /// Winding of the outer ring as given: `"ccw"` or `"cw"`.
    pub winding: &'static str,
    /// Total edge length, holes included.
    pub perimeter: f64,
    /// Area, holes removed.
    pub area: f64,
    /// Areal density (mass per unit area).
    pub density: f64,
    /// Mass.
    pub mass: f64,
    /// Centre of mass `[x, y]`.
    pub centroid: [f64; 2],
    /// The point the moments below are about (the centroid unless `--about` says otherwise).
    pub about: [f64; 2],
    /// Polar mass moment of inertia about `about` (axis perpendicular to the plane).
    pub inertia: f64,
    /// Planar mass moments about `about`.
    pub second_moments: PlanarMoments,
    /// Principal moments about `about`.
    pub principal: PrincipalReport,
    /// Radii of gyration about `about`.
    pub radii_of_gyration: Radii2d,
    /// Second moments of area about `about` (as section tables give them).
    pub area_moments: AreaMoments,
    /// The in-plane axis direction of `axis_moment`, if asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<[f64; 2]>,
    /// The moment about the in-plane axis through `about` along `axis`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis_moment: Option<f64>,
    /// Sign of `ixy`: `"cad"` (+∫xy dm, the default) or `"tensor"` (−∫xy dm).
    pub products: Products,
    /// Units of every quantity.
    pub units: UnitLabels,
    /// What the input held that is in no polygon, counted by kind: a DXF drawing's
    /// annotations (`{"DIMENSION": 4}`) and, with `--open ignore`, its open pieces
    /// (`"open pieces"`). Left out of the JSON when empty.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub ignored: std::collections::BTreeMap<String, usize>,
    /// True when curves were replaced by chords (a DXF spline): the result is then that of
    /// a region within `max_deviation` of the drawn one. Left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub approximate: bool,
    /// The largest distance between a curve and the chords that replaced it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_deviation: Option<f64>,
}

impl PolygonReport {
    /// Builds the report of a polygon integrated by `method` with a density (or a total mass),
    /// moments about `about` (the centroid if `None`).
    ///
    /// # Examples
    /// ```
    /// use inertia::{Amount, Polygon, PolygonMethod, report::PolygonReport};
    /// let p = Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let r = PolygonReport::new("rect", &p, PolygonMethod::Fan, Amount::Density(3.0), None);
    /// assert_eq!(r.mass, 6.0);
    /// assert!((r.inertia - 6.0 * 5.0 / 12.0).abs() < 1e-14);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new(
        source: &str,
        polygon: &Polygon,
        method: PolygonMethod,
        amount: Amount,
        about: Option<Point2<f64>>,
    ) -> Self {
        Self::new_with(source, polygon, method, amount, about, &View::default())
    }

    /// [`PolygonReport::new`] expressed in `view` (units, product sign, axis).
    ///
    /// # Examples
    /// ```
    /// use inertia::{report::{PolygonReport, View}, units::{LengthUnit, Units}};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let view = View { units: Units { input: Some(LengthUnit::Mm), output: None }, ..Default::default() };
    /// let r = PolygonReport::new_with("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None, &view);
    /// assert_eq!(r.area, 1e-6); // m²
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new_with(
        source: &str,
        polygon: &Polygon,
        method: PolygonMethod,
        amount: Amount,
        about: Option<Point2<f64>>,
        view: &View,
    ) -> Self {
        let outline = Outline::of(polygon);
        let unit = method.integrate(polygon);
        Self::from_integral(source, method.name(), outline, unit, amount, about, view)
    }

    /// Builds a report from a unit-density result (of a method or a closed form) and the
    /// outline's description.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{Outline, PolygonReport, View};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let unit = inertia::PolygonMethod::Centroid.integrate(&sq);
    /// let r = PolygonReport::from_integral("sq", "centroid", Outline::of(&sq), unit, inertia::Amount::Mass(6.0), None, &View::default());
    /// assert_eq!(r.density, 6.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn from_integral(
        source: &str,
        method: &'static str,
        outline: Outline,
        unit: PolygonIntegral,
        amount: Amount,
        about: Option<Point2<f64>>,
        view: &View,
    ) -> Self {
        // Input lengths to output lengths; SI densities to kg per output unit².
        let k = view.units.length_factor();
        let unit = unit.scaled_lengths(k);
        let density = match amount {
            Amount::Density(d) => view.units.density_to_output(d, 2),
            Amount::Mass(m) => m / unit.properties.area,
        };
        let PolygonIntegral {
            properties: p,
            polar,
            principal,
        } = unit.with_density(density);
        let outline = Outline {
            perimeter: outline.perimeter * k,
            ..outline
        };
        let about = about.map(|a| a * k);
        let mut r = Self::from_properties(
            source,
            method,
            outline,
            p,
            polar,
            view.units.density_to_si(density, 2),
            about,
            view,
        );
        // About the centroid, the integral's principal moments (a thin body's least one
        // integrated from the outline) are better than the tensor's.
        if about.is_none_or(|a| a == p.centroid) {
            r.principal = principal.into();
        }
        r
    }

    /// Builds a report from mass properties already in output units (`density` as it
    /// should be printed, `about` in output units); `polar` is the polar moment about the
    /// centroid by the method's own formula.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{Outline, PolygonReport, View};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let p = inertia::PolygonMethod::Fan.integrate(&sq).properties.scaled_mass(2.0);
    /// let r = PolygonReport::from_properties("sq", "fan", Outline::of(&sq), p, p.moments.polar(), 2.0, None, &View::default());
    /// assert!((r.inertia - 2.0 / 6.0).abs() < 1e-15);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn from_properties(
        source: &str,
        method: &'static str,
        outline: Outline,
        p: MassProperties2d,
        polar: f64,
        density: f64,
        about: Option<Point2<f64>>,
        view: &View,
    ) -> Self {
        let about = about.unwrap_or(p.centroid);
        let d = p.centroid - about;
        let m = p.moments_about(about);
        // The method's own polar moment, moved by the parallel-axis theorem.
        let inertia = polar + p.mass * d.norm_squared();
        let products = view.products.unwrap_or(Products::Cad);
        let sign = products.sign();
        let per_area = p.mass / p.area;
        let area = |x: f64| x / per_area;
        let axis = view.axis.as_ref().map(|a| [a[0], a[1]]);
        PolygonReport {
            source: source.to_string(),
            method,
            vertices: outline.vertices,
            holes: outline.holes,
            winding: outline.winding,
            perimeter: outline.perimeter,
            area: p.area,
            density,
            mass: p.mass,
            centroid: [p.centroid.x, p.centroid.y],
            about: [about.x, about.y],
            inertia,
            second_moments: PlanarMoments {
                ixx: m.ixx,
                iyy: m.iyy,
                ixy: sign * m.ixy,
            },
            principal: p.principal_about(about).into(),
            radii_of_gyration: Radii2d {
                x: (m.ixx / p.mass).sqrt(),
                y: (m.iyy / p.mass).sqrt(),
                polar: (inertia / p.mass).sqrt(),
            },
            area_moments: AreaMoments {
                ixx: area(m.ixx),
                iyy: area(m.iyy),
                ixy: sign * area(m.ixy),
                polar: area(inertia),
            },
            axis,
            axis_moment: axis
                .map(|a| p.moment_about_axis(about, nalgebra::Vector2::new(a[0], a[1]))),
            products,
            units: view.units.labels(2),
            ignored: Default::default(),
            approximate: outline.max_deviation.is_some(),
            max_deviation: outline.max_deviation,
        }
    }

    /// True when the moments are about the centroid.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), Some(nalgebra::Point2::origin()));
    /// assert!(!r.about_centroid());
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn about_centroid(&self) -> bool {
        self.about == self.centroid
    }
}

/// Principal moments and axes of a 3D body.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.principal.axes[2], [0.0, 0.0, 1.0]);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Principal3dReport {
    /// `[I1, I2, I3]`, ascending.
    pub moments: [f64; 3],
    /// Unit axes for `moments`, one per row, forming a right-handed frame.
    pub axes: [[f64; 3]; 3],
}

/// Radii of gyration `sqrt(I / m)` of a 3D body.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert!((r.radii_of_gyration.z - (1.0f64 / 6.0).sqrt()).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Radii3d {
    /// About the x axis through the report's point: `sqrt(Ixx / m)`.
    pub x: f64,
    /// About the y axis: `sqrt(Iyy / m)`.
    pub y: f64,
    /// About the z axis: `sqrt(Izz / m)`.
    pub z: f64,
    /// About the principal axes, ascending.
    pub principal: [f64; 3],
}

/// The grid of a `voxel` integration.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Voxel, 20, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.resolution.unwrap().cells, [20, 20]);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GridReport {
    /// Columns along x and y.
    pub cells: [usize; 2],
    /// Column size along x and y.
    pub cell_size: [f64; 2],
}

/// Everything `inertia mesh` prints.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.volume, 1.0);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeshReport {
    /// The input's name (a path, or `-` for stdin).
    pub source: String,
    /// The method used.
    pub method: &'static str,
    /// The grid, for `voxel` (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<GridReport>,

    /// Triangles in the input; absent when there was no mesh (a closed form, or a
    /// combination of reports without counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triangles: Option<usize>,
    /// Degenerate triangles (repeated vertex or zero area), left out of the integrals;
    /// absent with `triangles`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degenerate_triangles: Option<usize>,
    /// Distinct vertices after welding identical coordinates; absent with `triangles`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<usize>,
    /// Closed surfaces (bodies and cavities).
    pub shells: usize,
    /// Shells wound inward inside another shell, subtracted.
    pub cavities: usize,
    /// True if the input was entirely inside-out (it was turned right way out).
    pub inside_out: bool,
    /// Total triangle area.
    pub surface_area: f64,
    /// Axis-aligned bounding box.
    pub bounding_box: BoundingBox,
    /// Enclosed volume.
    pub volume: f64,
    /// Density (mass per unit volume).
    pub density: f64,
    /// Mass.
    pub mass: f64,
    /// Centre of mass `[x, y, z]`.
    pub centroid: [f64; 3],
    /// The point the tensor and moments below are about.
    pub about: [f64; 3],
    /// Inertia tensor about `about`; rows x, y, z; off-diagonals are `−∫xy dm` (tensor
    /// convention).
    pub inertia_tensor: [[f64; 3]; 3],
    /// Principal moments and axes of `inertia_tensor`.
    pub principal: Principal3dReport,
    /// Radii of gyration.
    pub radii_of_gyration: Radii3d,
    /// The axis direction of `axis_moment`, if asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<[f64; 3]>,
    /// The moment about the axis through `about` along `axis`: `uᵀ I u`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis_moment: Option<f64>,
    /// Sign of the off-diagonals of `inertia_tensor`: `"tensor"` (−∫xy dm, the default) or
    /// `"cad"` (+∫xy dm).
    pub products: Products,
    /// Units of every quantity.
    pub units: UnitLabels,
}

impl MeshReport {
    /// Builds the report of a mesh integrated by `method` (`resolution` for `voxel`),
    /// moments about `about` (the centroid if `None`).
    ///
    /// # Examples
    /// ```
    /// use inertia::{Amount, MeshMethod, io::{read_mesh, MeshFormat}, report::MeshReport};
    /// let obj = b"v 0 0 0\nv 5 0 0\nv 0 4 0\nv 0 0 3\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    /// let m = read_mesh(obj, MeshFormat::Obj)?;
    /// let r = MeshReport::new("tet.obj", &m, MeshMethod::Tetra, 0, Amount::Mass(20.0), None);
    /// assert!((r.volume - 10.0).abs() < 1e-13 && (r.density - 2.0).abs() < 1e-15);
    /// assert!((r.inertia_tensor[0][0] - 2.0 * 75.0 / 8.0).abs() < 1e-12);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new(
        source: &str,
        mesh: &Mesh,
        method: MeshMethod,
        resolution: usize,
        amount: Amount,
        about: Option<Point3<f64>>,
    ) -> Self {
        Self::new_with(
            source,
            mesh,
            method,
            resolution,
            amount,
            about,
            &View::default(),
        )
    }

    /// [`MeshReport::new`] expressed in `view` (units, product sign, axis).
    ///
    /// # Examples
    /// ```
    /// use inertia::{report::{MeshReport, View}, units::{LengthUnit, Units}};
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let view = View { units: Units { input: Some(LengthUnit::Mm), output: None }, ..Default::default() };
    /// let r = MeshReport::new_with("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1000.0), None, &view);
    /// assert!((r.mass - 1e-6).abs() < 1e-18); // 1 mm³ of water
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new_with(
        source: &str,
        mesh: &Mesh,
        method: MeshMethod,
        resolution: usize,
        amount: Amount,
        about: Option<Point3<f64>>,
        view: &View,
    ) -> Self {
        let unit = method.integrate(mesh, resolution);
        Self::from_integral(
            source,
            method.name(),
            Body::of(mesh),
            unit,
            amount,
            about,
            view,
        )
    }

    /// Builds a report from a unit-density result (of a method or a closed form) and the
    /// body's description.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{Body, MeshReport, View};
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let unit = inertia::MeshMethod::Tetra.integrate(&cube, 0);
    /// let r = MeshReport::from_integral("cube", "tetra", Body::of(&cube), unit, inertia::Amount::Mass(3.0), None, &View::default());
    /// assert_eq!(r.density, 3.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn from_integral(
        source: &str,
        method: &'static str,
        body: Body,
        unit: MeshIntegral,
        amount: Amount,
        about: Option<Point3<f64>>,
        view: &View,
    ) -> Self {
        let k = view.units.length_factor();
        let geometric = unit.properties.scaled_lengths(k);
        let density = match amount {
            Amount::Density(d) => view.units.density_to_output(d, 3),
            Amount::Mass(m) => m / geometric.volume,
        };
        let p = geometric.scaled_mass(density);
        let scale_box = |v: [f64; 3]| v.map(|x| x * k);
        let body = Body {
            surface_area: body.surface_area * k * k,
            bounding_box: BoundingBox {
                min: scale_box(body.bounding_box.min),
                max: scale_box(body.bounding_box.max),
            },
            ..body
        };
        let grid = unit.grid.map(|g| GridReport {
            cells: g.cells,
            cell_size: g.cell_size.map(|x| x * k),
        });
        let about = about.map(|a| a * k);
        Self::from_properties(
            source,
            method,
            body,
            grid,
            p,
            view.units.density_to_si(density, 3),
            about,
            view,
        )
    }

    /// Builds a report from mass properties already in output units (`density` as it
    /// should be printed, `about` in output units).
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{Body, MeshReport, View};
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let p = inertia::MeshMethod::Tetra.integrate(&cube, 0).properties.scaled_mass(2.0);
    /// let r = MeshReport::from_properties("cube", "tetra", Body::of(&cube), None, p, 2.0, None, &View::default());
    /// assert!((r.inertia_tensor[0][0] - 2.0 / 6.0).abs() < 1e-15);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn from_properties(
        source: &str,
        method: &'static str,
        body: Body,
        grid: Option<GridReport>,
        p: MassProperties3d,
        density: f64,
        about: Option<Point3<f64>>,
        view: &View,
    ) -> Self {
        let about = about.unwrap_or(p.centroid);
        let t = p.inertia_about(about);
        let pr = p.principal_about(about);
        let rg = |i: f64| (i.max(0.0) / p.mass).sqrt();
        let products = view.products.unwrap_or(Products::Tensor);
        // t holds −∫xy dm off the diagonal; CAD prints +∫xy dm.
        let flip = -products.sign();
        let printed =
            [0, 1, 2].map(|r| [0, 1, 2].map(|c| if r == c { t[(r, c)] } else { flip * t[(r, c)] }));
        let axis = view.axis.as_ref().map(|a| [a[0], a[1], a[2]]);
        let axis_moment = axis.map(|a| p.moment_about_axis(about, nalgebra::Vector3::from(a)));
        MeshReport {
            source: source.to_string(),
            method,
            resolution: grid,
            // A mesh has triangles; none means there was no mesh, not a mesh of none.
            triangles: (body.triangles > 0).then_some(body.triangles),
            degenerate_triangles: (body.triangles > 0).then_some(body.degenerate_triangles),
            vertices: (body.triangles > 0).then_some(body.vertices),
            shells: body.shells,
            cavities: body.cavities,
            inside_out: body.inside_out,
            surface_area: body.surface_area,
            bounding_box: body.bounding_box,
            volume: p.volume,
            density,
            mass: p.mass,
            centroid: p.centroid.into(),
            about: about.into(),
            inertia_tensor: printed,
            principal: Principal3dReport {
                moments: pr.moments,
                axes: pr.axes.map(|a| a.into()),
            },
            radii_of_gyration: Radii3d {
                x: rg(t.m11),
                y: rg(t.m22),
                z: rg(t.m33),
                principal: pr.moments.map(rg),
            },
            axis,
            axis_moment,
            products,
            units: view.units.labels(3),
        }
    }

    /// True when the moments are about the centroid.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::MeshReport;
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let r = MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
    /// assert!(r.about_centroid());
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn about_centroid(&self) -> bool {
        self.about == self.centroid
    }
}

/// Checks a report before it is printed: every number finite, and its measure, mass and
/// greatest moment not underflowed to zero. Returns the first offence, naming the field.
///
/// A NaN or infinity (a size or density beyond f64, a direction whose squares overflow)
/// or a result that rounded to nothing (a body 1e-200 across) is refused here, whatever
/// command produced it, rather than printed as `null`, `inf` or `0`.
///
/// # Examples
/// ```
/// use inertia::report::{check_numbers, MeshReport};
/// use inertia::{Amount, Mesh, MeshMethod, shape::Shape3d};
/// let cube = Mesh::new(&Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = MeshReport::new("cube", &cube, MeshMethod::Tetra, 0, Amount::Density(1.0), None);
/// assert!(check_numbers(&r).is_ok());
/// let tiny = Mesh::new(&Shape3d::Box { size: [1e-100; 3] }.tessellate(0))?;
/// let r = MeshReport::new("tiny", &tiny, MeshMethod::Tetra, 0, Amount::Density(1.0), None);
/// assert_eq!(
///     check_numbers(&r).unwrap_err(),
///     "the inertia_tensor underflows f64 (it rounds to 0): the sizes or the density are too small"
/// );
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn check_numbers<R: Serialize>(report: &R) -> std::result::Result<(), String> {
    let value = serde_json::to_value(report).map_err(|e| e.to_string())?;
    let positive = |key: &str| value.get(key).and_then(serde_json::Value::as_f64);
    for key in ["area", "volume", "mass"] {
        if positive(key).is_some_and(|v| v <= 0.0) {
            return Err(format!(
                "the {key} underflows f64 (it rounds to 0): the sizes or the density are too small"
            ));
        }
    }
    if let Some(path) = first_null(&value, String::new()) {
        return Err(format!(
            "{path} is not a finite number in f64 (NaN or infinite): the coordinates, sizes, \
             density or directions are too large or too small"
        ));
    }
    // The greatest principal moment: a body with mass has one, and it must not round to 0.
    let moments = value
        .get("principal")
        .and_then(|p| p.get("moments"))
        .and_then(serde_json::Value::as_array);
    if let Some(m) = moments {
        let greatest = m
            .iter()
            .filter_map(serde_json::Value::as_f64)
            .fold(0.0_f64, f64::max);
        if greatest <= 0.0 {
            let what = if value.get("inertia_tensor").is_some() {
                "inertia_tensor"
            } else {
                "second_moments"
            };
            return Err(format!(
                "the {what} underflows f64 (it rounds to 0): the sizes or the density are too small"
            ));
        }
    }
    Ok(())
}

/// The path of the first `null` (a non-finite number, as serde_json writes it) in `v`.
fn first_null(v: &serde_json::Value, path: String) -> Option<String> {
    match v {
        serde_json::Value::Null => Some(if path.is_empty() {
            "a value".into()
        } else {
            path
        }),
        serde_json::Value::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, x)| first_null(x, format!("{path}[{i}]"))),
        serde_json::Value::Object(o) => o.iter().find_map(|(k, x)| {
            let p = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            first_null(x, p)
        }),
        _ => None,
    }
}
