//! What is printed of a mesh: `MeshReport` and its parts.

use super::*;

impl MeshReport {
    /// Builds the report of a mesh integrated by `method` (`resolution` for `voxel`),
    /// moments about `about` (the centroid if `None`).
    ///
    /// # Examples
    /// ```
    /// use inertia::{Amount, Mesh, MeshMethod, io::{read_raw_mesh, MeshFormat}, report::MeshReport};
    /// let obj = b"v 0 0 0\nv 5 0 0\nv 0 4 0\nv 0 0 3\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    /// let m = Mesh::new(&read_raw_mesh(obj, MeshFormat::Obj)?)?;
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
        let body = body.scaled_lengths(k);
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
            // A density given is printed as given (converting it to the output unit and
            // back would print 7850.000000000001 for 7850).
            match amount {
                Amount::Density(d) => d,
                Amount::Mass(_) => view.units.density_to_si(density, 3),
            },
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
        let products = view.products;
        // t holds −∫xy dm off the diagonal; CAD prints +∫xy dm.
        let flip = -products.sign();
        let print = |t: &nalgebra::Matrix3<f64>| {
            [0, 1, 2].map(|r| [0, 1, 2].map(|c| if r == c { t[(r, c)] } else { flip * t[(r, c)] }))
        };
        let printed = print(&t);
        let centroidal = (about != p.centroid).then(|| print(&p.inertia));
        // The unit direction, whatever length it was given with.
        let axis = view.axis.as_ref().map(|a| {
            let v = nalgebra::Vector3::new(a[0], a[1], a[2]);
            let u = v / crate::mass3d::scaled_norm(&v);
            [u.x, u.y, u.z]
        });
        let axis_moment = axis.map(|a| p.moment_about_axis(about, nalgebra::Vector3::from(a)));
        MeshReport {
            source: source.to_string(),
            method,
            tolerance: None,
            color: None,
            material: None,
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
            contacts: body.contacts,
            left_out: body.left_out,
            junctions: body.junctions,
            overlap: body.union.map(|_| "union".into()),
            union: body.union,
            volume: p.volume,
            density,
            mass: p.mass,
            centroid: p.centroid.into(),
            about: about.into(),
            inertia_tensor: printed,
            centroidal_inertia_tensor: centroidal,
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
