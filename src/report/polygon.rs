//! What is printed of a polygon: `PolygonReport` and its parts.

use super::*;

impl From<Principal2d> for PrincipalReport {
    fn from(p: Principal2d) -> Self {
        PrincipalReport {
            moments: p.moments,
            angle_deg: p.angle_deg,
        }
    }
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
    /// When curves were replaced by chords (rings given so): the largest distance between
    /// a curve and its chords.
    pub max_deviation: Option<f64>,
    /// The axis-aligned box holding the outline (curves by their exact extent); `None`
    /// when not known (a part read back from a report that did not give it).
    pub bounding_box: Option<BoundingBox2d>,
}

impl Outline {
    /// The same outline with every length multiplied by `k` (a unit change): its
    /// perimeter, box and chords' deviation.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let o = inertia::report::Outline::of(&sq).scaled_lengths(10.0);
    /// assert_eq!((o.perimeter, o.bounding_box.unwrap().max), (40.0, [10.0, 10.0]));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn scaled_lengths(&self, k: f64) -> Outline {
        Outline {
            perimeter: self.perimeter * k,
            bounding_box: self
                .bounding_box
                .map(|b| b.mapped(|p| [p[0] * k, p[1] * k])),
            max_deviation: self.max_deviation.map(|d| d * k),
            ..*self
        }
    }

    /// The outlines of several plates taken together: counts and perimeters add, boxes
    /// join (no box when any part has none, or there are no parts).
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{BoundingBox2d, Outline};
    /// let unit = Some(BoundingBox2d { min: [0.0, 0.0], max: [1.0, 1.0] });
    /// let sq = Outline { vertices: 4, holes: 0, winding: "ccw", perimeter: 4.0, max_deviation: None, bounding_box: unit };
    /// let far = Outline { bounding_box: Some(BoundingBox2d { min: [5.0, 5.0], max: [6.0, 6.0] }), ..sq };
    /// let both = Outline::sum([sq, far]);
    /// assert_eq!(both.perimeter, 8.0);
    /// assert_eq!(both.bounding_box.unwrap().max, [6.0, 6.0]);
    /// ```
    pub fn sum(parts: impl IntoIterator<Item = Outline>) -> Outline {
        let mut parts = parts.into_iter();
        let Some(first) = parts.next() else {
            return Outline {
                vertices: 0,
                holes: 0,
                winding: "ccw",
                perimeter: 0.0,
                max_deviation: None,
                bounding_box: None,
            };
        };
        parts.fold(
            Outline {
                winding: "ccw",
                ..first
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
                bounding_box: match (a.bounding_box, b.bounding_box) {
                    (Some(x), Some(y)) => Some(x.union(&y)),
                    _ => None,
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
            bounding_box: Some(polygon.bounding_box()),
        }
    }
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
        // Every length in the output unit: the spline chords' deviation too.
        let outline = outline.scaled_lengths(k);
        let about = about.map(|a| a * k);
        let mut r = Self::from_properties(
            source,
            method,
            outline,
            p,
            polar,
            // A density given is printed as given (converting it to the output unit and
            // back would print 7850.000000000001 for 7850).
            match amount {
                Amount::Density(d) => d,
                Amount::Mass(_) => view.units.density_to_si(density, 2),
            },
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
        let products = view.products;
        let sign = products.sign();
        let per_area = p.mass / p.area;
        let area = |x: f64| x / per_area;
        // The unit direction, whatever length it was given with.
        let axis = view.axis.as_ref().map(|a| {
            let u = crate::mass2d::unit(nalgebra::Vector2::new(a[0], a[1]));
            [u.x, u.y]
        });
        PolygonReport {
            source: source.to_string(),
            method,
            vertices: outline.vertices,
            holes: outline.holes,
            winding: outline.winding,
            perimeter: outline.perimeter,
            bounding_box: outline.bounding_box,
            area: p.area,
            density,
            mass: p.mass,
            centroid: [p.centroid.x, p.centroid.y],
            about: [about.x, about.y],
            inertia,
            mass_moments: PlanarMoments {
                ixx: m.ixx,
                iyy: m.iyy,
                ixy: sign * m.ixy,
            },
            centroidal_mass_moments: (about != p.centroid).then_some(PlanarMoments {
                ixx: p.moments.ixx,
                iyy: p.moments.iyy,
                ixy: sign * p.moments.ixy,
            }),
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
