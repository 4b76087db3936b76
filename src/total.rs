//! Several parts taken together, as a batch's total row reports them: [`MeshTotal`] and
//! [`PolygonTotal`] (and [`crate::read::Parts::total`] for the parts of one file).
//!
//! Each is built from one part (`part`) and added (`+`, or [`MeshTotal::of`]): masses add,
//! the centroid is the common one, each tensor is moved to it by the parallel-axis theorem
//! component by component (parts far from the origin keep their digits), counts add and
//! boxes join.

use crate::Amount;
use crate::mass2d::MassProperties2d;
use crate::mass3d::MassProperties3d;
use crate::method::{MeshIntegral, PolygonIntegral};
use crate::report::{Body, Outline};
use crate::units::Units;
use std::ops::Add;

/// Solids taken together: what `inertia mesh` prints as the total of a batch.
///
/// # Examples
/// Two unit cubes side by side make a 2 × 1 × 1 box:
/// ```
/// use inertia::read::MeshTotal;
/// use inertia::report::Body;
/// use inertia::shape::Shape3d;
/// use nalgebra::Vector3;
/// let cube = Shape3d::Box { size: [1.0; 3] }.exact().properties;
/// let moved = inertia::MassProperties3d { centroid: cube.centroid + Vector3::x(), ..cube };
/// let t = MeshTotal::part(cube, Body::default()) + MeshTotal::part(moved, Body::default());
/// assert_eq!((t.parts, t.properties.mass, t.properties.centroid.x), (2, 2.0, 0.5));
/// assert!((t.properties.inertia.m22 - 2.0 * 5.0 / 12.0).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshTotal {
    /// How many parts.
    pub parts: usize,
    /// Their volume, mass, common centroid and tensor about it. Each part weighs its own
    /// density when it was given one ([`MeshTotal::with_density`]), else 1 (mass = volume).
    pub properties: MassProperties3d,
    /// Their counts and areas added, boxes merged ([`Body::sum`]).
    pub body: Body,
    /// Whether some part was weighed with a density of its own; [`MeshTotal::density`] is
    /// then their mean.
    pub own_densities: bool,
    /// The relative tolerance of B-rep integrations: the loosest, when every part has one.
    pub tolerance: Option<f64>,
    /// The units its numbers are in ([`MeshTotal::weighed`]; the input's, not named, until
    /// then).
    pub units: Units,
}

impl MeshTotal {
    /// One part: its properties for density 1 (an integral's) and its body.
    ///
    /// # Examples
    /// ```
    /// use inertia::read::MeshTotal;
    /// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
    /// let t = MeshTotal::part(cube, inertia::report::Body::default());
    /// assert_eq!((t.parts, t.properties.volume, t.density()), (1, 1.0, None));
    /// ```
    pub fn part(properties: MassProperties3d, body: Body) -> MeshTotal {
        MeshTotal {
            parts: 1,
            properties,
            body: Body::sum([body]),
            own_densities: false,
            tolerance: None,
            units: Units::default(),
        }
    }

    /// This part weighed with a density of its own (its mass and tensor times `density`).
    ///
    /// # Examples
    /// ```
    /// use inertia::read::MeshTotal;
    /// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
    /// let t = MeshTotal::part(cube, Default::default()).with_density(7850.0);
    /// assert_eq!((t.properties.mass, t.density()), (7850.0, Some(7850.0)));
    /// ```
    #[must_use]
    pub fn with_density(self, density: f64) -> MeshTotal {
        MeshTotal {
            properties: self.properties.scaled_mass(density),
            own_densities: true,
            ..self
        }
    }

    /// This part integrated on its B-rep to the relative tolerance `tolerance`.
    ///
    /// # Examples
    /// ```
    /// use inertia::read::MeshTotal;
    /// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
    /// let t = MeshTotal::part(cube, Default::default()).with_tolerance(1e-9);
    /// assert_eq!(t.tolerance, Some(1e-9));
    /// ```
    #[must_use]
    pub fn with_tolerance(self, tolerance: f64) -> MeshTotal {
        MeshTotal {
            tolerance: Some(tolerance),
            ..self
        }
    }

    /// The parts added in order; `None` when there are none.
    ///
    /// # Examples
    /// ```
    /// use inertia::read::MeshTotal;
    /// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
    /// let t = MeshTotal::of((0..3).map(|_| MeshTotal::part(cube, Default::default())));
    /// assert_eq!(t.map(|t| t.properties.volume), Some(3.0));
    /// assert!(MeshTotal::of([]).is_none());
    /// ```
    pub fn of(parts: impl IntoIterator<Item = MeshTotal>) -> Option<MeshTotal> {
        parts.into_iter().reduce(Add::add)
    }

    /// The mean density of parts weighed with their own (total mass over total volume);
    /// `None` when none was.
    ///
    /// # Examples
    /// ```
    /// use inertia::read::MeshTotal;
    /// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
    /// let steel = MeshTotal::part(cube, Default::default()).with_density(8000.0);
    /// let water = MeshTotal::part(cube, Default::default()).with_density(1000.0);
    /// assert_eq!((steel + water).density(), Some(4500.0));
    /// ```
    pub fn density(&self) -> Option<f64> {
        self.own_densities
            .then(|| self.properties.mass / self.properties.volume)
    }

    /// These parts (weighed with density 1, in the input's lengths) in `units` and weighed
    /// with `amount` (a density in kg/m³ when `units` has the input's unit, as
    /// [`Units::density_to_output`] takes it), as a report of them gives their numbers:
    /// lengths × [`Units::length_factor`], then the density.
    ///
    /// # Examples
    /// A 10 mm cube of steel, in metres and kilograms:
    /// ```
    /// use inertia::read::MeshTotal;
    /// use inertia::units::{LengthUnit, Units};
    /// let cube = inertia::shape::Shape3d::Box { size: [10.0; 3] }.exact().properties;
    /// let mm = Units { input: Some(LengthUnit::Mm), output: None };
    /// let t = MeshTotal::part(cube, Default::default()).weighed(inertia::Amount::Density(7850.0), mm);
    /// assert!((t.properties.mass - 7.85e-3).abs() < 1e-15);
    /// assert!((t.properties.volume - 1e-6).abs() < 1e-21);
    /// ```
    #[must_use]
    pub fn weighed(self, amount: Amount, units: Units) -> MeshTotal {
        let k = units.length_factor();
        let geometric = self.properties.scaled_lengths(k);
        let density = match amount {
            Amount::Density(d) => units.density_to_output(d, 3),
            Amount::Mass(m) => m / geometric.volume,
        };
        MeshTotal {
            properties: geometric.scaled_mass(density),
            body: self.body.scaled_lengths(k),
            units,
            ..self
        }
    }

    /// The total as an integral (for [`crate::report::MeshReport::from_integral`]).
    ///
    /// # Examples
    /// ```
    /// use inertia::read::MeshTotal;
    /// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
    /// let t = MeshTotal::part(cube, Default::default());
    /// assert_eq!(t.integral().properties, cube);
    /// ```
    pub fn integral(&self) -> MeshIntegral {
        MeshIntegral {
            properties: self.properties,
            grid: None,
        }
    }
}

impl Add for MeshTotal {
    type Output = MeshTotal;
    /// Two totals taken together: masses add, tensors move to the common centroid, counts
    /// add, boxes join.
    fn add(self, o: MeshTotal) -> MeshTotal {
        MeshTotal {
            parts: self.parts + o.parts,
            properties: self.properties + o.properties,
            body: Body::sum([self.body, o.body]),
            own_densities: self.own_densities || o.own_densities,
            tolerance: match (self.tolerance, o.tolerance) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            },
            units: same_units(self.units, o.units),
        }
    }
}

/// Plates (or sections) taken together: what `inertia polygon` prints as the total of a
/// batch.
///
/// # Examples
/// ```
/// use inertia::read::PolygonTotal;
/// use inertia::{Polygon, PolygonMethod};
/// let square = |x: f64| Polygon::new(vec![[x, 0.0], [x + 1.0, 0.0], [x + 1.0, 1.0], [x, 1.0]], vec![]);
/// let t = PolygonTotal::of([square(0.0)?, square(1.0)?].iter().map(PolygonTotal::polygon));
/// let t = t.expect("two parts");
/// assert_eq!((t.properties.area, t.properties.centroid.x, t.outline.perimeter), (2.0, 1.0, 8.0));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygonTotal {
    /// How many parts.
    pub parts: usize,
    /// Their area, mass (for density 1: the area), common centroid and second moments
    /// about it.
    pub properties: MassProperties2d,
    /// Their outlines taken together ([`Outline::sum`]).
    pub outline: Outline,
    /// The units its numbers are in ([`PolygonTotal::weighed`]; the input's, not named,
    /// until then).
    pub units: Units,
}

impl PolygonTotal {
    /// One part: its properties for density 1 (an integral's) and its outline.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let p = inertia::PolygonMethod::Fan.integrate(&sq).properties;
    /// let t = inertia::read::PolygonTotal::part(p, inertia::report::Outline::of(&sq));
    /// assert_eq!((t.parts, t.properties.area), (1, 1.0));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn part(properties: MassProperties2d, outline: Outline) -> PolygonTotal {
        PolygonTotal {
            parts: 1,
            properties,
            outline: Outline::sum([outline]),
            units: Units::default(),
        }
    }

    /// One validated polygon, integrated by `fan`.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], vec![])?;
    /// assert_eq!(inertia::read::PolygonTotal::polygon(&sq).properties.area, 4.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn polygon(polygon: &crate::Polygon) -> PolygonTotal {
        PolygonTotal::part(
            crate::PolygonMethod::Fan.integrate(polygon).properties,
            Outline::of(polygon),
        )
    }

    /// The parts added in order; `None` when there are none.
    ///
    /// # Examples
    /// ```
    /// assert!(inertia::read::PolygonTotal::of([]).is_none());
    /// ```
    pub fn of(parts: impl IntoIterator<Item = PolygonTotal>) -> Option<PolygonTotal> {
        parts.into_iter().reduce(Add::add)
    }

    /// These parts (weighed with density 1, in the input's lengths) in `units` and weighed
    /// with `amount` (kg/m² when `units` has the input's unit), as a report of them gives
    /// their numbers.
    ///
    /// # Examples
    /// ```
    /// use inertia::units::{LengthUnit, Units};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], vec![])?;
    /// let cm = Units { input: Some(LengthUnit::Cm), output: None };
    /// let t = inertia::read::PolygonTotal::polygon(&sq).weighed(inertia::Amount::Mass(3.0), cm);
    /// assert!((t.properties.area - 4e-4).abs() < 1e-18 && t.properties.mass == 3.0);
    /// assert!((t.outline.perimeter - 0.08).abs() < 1e-16);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn weighed(self, amount: Amount, units: Units) -> PolygonTotal {
        let k = units.length_factor();
        let geometric = self.properties.scaled_lengths(k);
        let density = match amount {
            Amount::Density(d) => units.density_to_output(d, 2),
            Amount::Mass(m) => m / geometric.area,
        };
        PolygonTotal {
            properties: geometric.scaled_mass(density),
            outline: self.outline.scaled_lengths(k),
            units,
            ..self
        }
    }

    /// The total as an integral (for [`crate::report::PolygonReport::from_integral`]): the
    /// polar and principal moments from the summed second moments.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let t = inertia::read::PolygonTotal::polygon(&sq);
    /// assert!((t.integral().polar - 1.0 / 6.0).abs() < 1e-15);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn integral(&self) -> PolygonIntegral {
        PolygonIntegral::from_properties(self.properties)
    }
}

impl Add for PolygonTotal {
    type Output = PolygonTotal;
    /// Two totals taken together: masses add, tensors move to the common centroid, counts
    /// add, boxes join.
    fn add(self, o: PolygonTotal) -> PolygonTotal {
        PolygonTotal {
            parts: self.parts + o.parts,
            properties: self.properties + o.properties,
            outline: Outline::sum([self.outline, o.outline]),
            units: same_units(self.units, o.units),
        }
    }
}

/// The units of two totals added: theirs when they are the same, else none named (parts
/// are added in the units they were integrated in).
fn same_units(a: Units, b: Units) -> Units {
    if a == b { a } else { Units::default() }
}

/// What a CAD solid is besides its integrals, as a mesh's [`Body`]: its shells (one a
/// body, the rest cavities), surface area and box; no triangle or vertex counts.
#[cfg(feature = "step")]
pub fn cad_body(s: &crate::io::step::CadSolid) -> Body {
    Body {
        shells: s.shells,
        cavities: s.shells.saturating_sub(1),
        surface_area: s.surface_area,
        bounding_box: s.bounding_box,
        ..Body::default()
    }
}

impl Total {
    /// The mass of the parts taken together.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], vec![])?;
    /// let t = inertia::read::Total::Polygons(inertia::read::PolygonTotal::polygon(&sq));
    /// assert_eq!(t.mass(), 4.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn mass(&self) -> f64 {
        match self {
            Total::Polygons(t) => t.properties.mass,
            Total::Solids(t) => t.properties.mass,
        }
    }

    /// How many parts.
    ///
    /// # Examples
    /// ```
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], vec![])?;
    /// assert_eq!(inertia::read::Total::Polygons(inertia::read::PolygonTotal::polygon(&sq)).parts(), 1);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn parts(&self) -> usize {
        match self {
            Total::Polygons(t) => t.parts,
            Total::Solids(t) => t.parts,
        }
    }
}

/// The total of one file's parts ([`crate::read::Parts::total`]).
// One value a file, made once: boxing the mesh total would cost a `Copy` for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Total {
    /// A polygon file's.
    Polygons(PolygonTotal),
    /// A mesh (or CAD) file's.
    Solids(MeshTotal),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::BoundingBox;
    use approx::assert_relative_eq;
    use nalgebra::Point3;

    /// An a × b × c box of density 1 with its least corner at `min`, and its body.
    fn cuboid(min: [f64; 3], size: [f64; 3]) -> MeshTotal {
        let [a, b, c] = size;
        let p = crate::shape::Shape3d::Box { size }.exact().properties;
        let p = MassProperties3d {
            centroid: Point3::new(min[0] + a / 2.0, min[1] + b / 2.0, min[2] + c / 2.0),
            ..p
        };
        let body = Body {
            triangles: 12,
            vertices: 8,
            shells: 1,
            surface_area: 2.0 * (a * b + b * c + a * c),
            bounding_box: BoundingBox {
                min,
                max: [min[0] + a, min[1] + b, min[2] + c],
            },
            ..Body::default()
        };
        MeshTotal::part(p, body)
    }

    #[test]
    fn two_part_assembly_is_exact() {
        // A unit cube at the origin and a 2 × 1 × 1 box beside it along x: together a
        // 3 × 1 × 1 box of volume 3, centroid (1.5, 0.5, 0.5).
        let t = cuboid([0.0; 3], [1.0; 3]) + cuboid([1.0, 0.0, 0.0], [2.0, 1.0, 1.0]);
        assert_eq!(t.parts, 2);
        assert_eq!(t.properties.mass, 3.0);
        assert_eq!(t.properties.centroid, Point3::new(1.5, 0.5, 0.5));
        // About the common centroid: m (b² + c²)/12, m (a² + c²)/12, m (a² + b²)/12.
        let i = t.properties.inertia;
        assert_relative_eq!(i.m11, 3.0 * 2.0 / 12.0, epsilon = 1e-15);
        assert_relative_eq!(i.m22, 3.0 * 10.0 / 12.0, epsilon = 1e-14);
        assert_relative_eq!(i.m33, 3.0 * 10.0 / 12.0, epsilon = 1e-14);
        assert_eq!((i.m12, i.m13, i.m23), (0.0, 0.0, 0.0));
        // Counts add, boxes merge.
        assert_eq!((t.body.triangles, t.body.shells), (24, 2));
        assert_eq!(t.body.bounding_box.max, [3.0, 1.0, 1.0]);
        assert_eq!(t.body.surface_area, 6.0 + 10.0);
        assert_eq!(t.density(), None);
        assert_eq!(t.tolerance, None);
    }

    #[test]
    fn far_parts_keep_their_digits() {
        // The same assembly 1e6 from the origin along every axis, and the two parts 1e6
        // apart: the tensor about the common centroid is the exact one.
        let far = 1e6;
        let t = cuboid([far; 3], [1.0; 3]) + cuboid([far + 1.0, far, far], [2.0, 1.0, 1.0]);
        assert_eq!(
            t.properties.centroid,
            Point3::new(far + 1.5, far + 0.5, far + 0.5)
        );
        assert_relative_eq!(t.properties.inertia.m11, 0.5, max_relative = 1e-12);
        assert_relative_eq!(t.properties.inertia.m22, 2.5, max_relative = 1e-12);

        // Two unit cubes 1e6 apart along x, each of mass 1: Iyy = 2/6 + 2 (5e5)².
        let apart = cuboid([0.0; 3], [1.0; 3]) + cuboid([far, 0.0, 0.0], [1.0; 3]);
        let half = far / 2.0;
        assert_eq!(apart.properties.centroid.x, half + 0.5);
        assert_eq!(apart.properties.inertia.m11, 2.0 / 6.0);
        assert_relative_eq!(
            apart.properties.inertia.m22,
            2.0 / 6.0 + 2.0 * half * half,
            max_relative = 1e-15
        );
        // The small moment about x keeps every digit next to the large ones.
        let p = apart.properties.principal();
        assert_relative_eq!(p.moments[0], 2.0 / 6.0, max_relative = 1e-12);
    }

    #[test]
    fn parts_of_different_densities() {
        // Steel (8) at x ∈ [0, 1] and water (1) at x ∈ [1, 2]: mass 9, centroid at
        // x = (8 · 0.5 + 1 · 1.5) / 9, mean density 4.5.
        let t = cuboid([0.0; 3], [1.0; 3]).with_density(8.0)
            + cuboid([1.0, 0.0, 0.0], [1.0; 3]).with_density(1.0);
        assert_eq!(t.properties.mass, 9.0);
        assert_eq!(t.properties.volume, 2.0);
        assert_relative_eq!(t.properties.centroid.x, 5.5 / 9.0, epsilon = 1e-15);
        assert_eq!(t.density(), Some(4.5));
        // Iyy: each cube's own m/6 plus m d² about the common centroid.
        let c = 5.5 / 9.0;
        let iyy = 9.0 / 6.0 + 8.0 * (0.5 - c) * (0.5 - c) + (1.5 - c) * (1.5 - c);
        assert_relative_eq!(t.properties.inertia.m22, iyy, epsilon = 1e-14);
        // A part of no density of its own weighs 1.
        let mixed =
            cuboid([0.0; 3], [1.0; 3]).with_density(8.0) + cuboid([1.0, 0.0, 0.0], [1.0; 3]);
        assert_eq!((mixed.properties.mass, mixed.density()), (9.0, Some(4.5)));
    }

    #[test]
    fn counts_only_when_every_part_is_a_mesh_and_tolerance_only_when_every_part_has_one() {
        let brep = MeshTotal::part(cuboid([0.0; 3], [1.0; 3]).properties, Body::default())
            .with_tolerance(1e-6);
        let t = cuboid([2.0; 3], [1.0; 3]) + brep;
        assert_eq!(
            (t.body.triangles, t.body.vertices, t.body.shells),
            (0, 0, 1)
        );
        assert_eq!(t.tolerance, None);
        let both = MeshTotal::of([brep, brep.with_tolerance(1e-9)]).expect("two");
        assert_eq!(both.tolerance, Some(1e-6));
        // The sum is the same taken at once as in pairs.
        let parts = [
            cuboid([0.0; 3], [1.0; 3]),
            cuboid([5.0; 3], [1.0, 2.0, 3.0]),
            cuboid([-3.0; 3], [0.5; 3]),
        ];
        let all = MeshTotal::of(parts).expect("three");
        assert_eq!(all.properties, parts.iter().map(|p| p.properties).sum());
        assert_eq!(all.body, Body::sum(parts.iter().map(|p| p.body)));
    }

    #[test]
    fn polygons_add_about_the_common_centroid() {
        let square = |x: f64, y: f64| {
            crate::Polygon::new(
                vec![[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]],
                vec![],
            )
            .expect("a square")
        };
        let t = PolygonTotal::polygon(&square(0.0, 0.0)) + PolygonTotal::polygon(&square(1.0, 0.0));
        assert_eq!((t.parts, t.properties.area), (2, 2.0));
        assert_eq!(t.properties.centroid, nalgebra::Point2::new(1.0, 0.5));
        // A 2 × 1 rectangle: Ixx = 2 · 1/12, Iyy = 2 · 4/12.
        assert_relative_eq!(t.properties.moments.ixx, 2.0 / 12.0, epsilon = 1e-15);
        assert_relative_eq!(t.properties.moments.iyy, 8.0 / 12.0, epsilon = 1e-15);
        assert_eq!(t.outline.vertices, 8);
        // Far apart and far away, the digits stay.
        let far = 1e6;
        let t = PolygonTotal::polygon(&square(far, far))
            + PolygonTotal::polygon(&square(2.0 * far, far));
        assert_eq!(t.properties.centroid.x, 1.5 * far + 0.5);
        assert_relative_eq!(t.properties.moments.ixx, 2.0 / 12.0, max_relative = 1e-9);
    }
}
