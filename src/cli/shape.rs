//! `inertia shape`: closed-form shapes, and their tessellations written to files.

use super::*;

#[derive(Subcommand, Debug)]
pub(super) enum ShapeKind {
    /// A rectangle centred on the origin (A. Fauconnet, "From Flying Balls to Colliding
    /// Polygons", 2023, eq. 3.4).
    Rectangle {
        /// Width along x.
        #[arg(long, allow_negative_numbers = true)]
        width: f64,
        /// Height along y.
        #[arg(long, allow_negative_numbers = true)]
        height: f64,
        #[command(flatten)]
        out: Out2d,
    },
    /// A regular polygon centred on the origin, first vertex on +x (A. Fauconnet, "From Flying
    /// Balls to Colliding Polygons", 2023, eq. 3.6).
    Regular {
        /// Number of sides.
        #[arg(long)]
        sides: usize,
        /// Side length.
        #[arg(
            long,
            allow_negative_numbers = true,
            required_unless_present = "circumradius",
            conflicts_with = "circumradius"
        )]
        side: Option<f64>,
        /// Circumradius (instead of --side).
        #[arg(long, allow_negative_numbers = true)]
        circumradius: Option<f64>,
        #[command(flatten)]
        out: Out2d,
    },
    /// A disc centred on the origin (A. Singhal, "Making a 2D Physics Engine: Mass, Inertia
    /// and Forces", 2018).
    Circle {
        /// Radius.
        #[arg(long, allow_negative_numbers = true)]
        radius: f64,
        #[command(flatten)]
        out: Out2d,
    },
    /// A box centred on the origin.
    Box {
        /// Edge lengths X,Y,Z.
        #[arg(
            long,
            required = true,
            value_delimiter = ',',
            num_args = 1,
            allow_hyphen_values = true
        )]
        size: Vec<f64>,
        #[command(flatten)]
        out: Out3d,
    },
    /// A ball centred on the origin.
    Sphere {
        /// Radius.
        #[arg(long, allow_negative_numbers = true)]
        radius: f64,
        #[command(flatten)]
        out: Out3d,
    },
    /// A cylinder centred on the origin, axis z.
    Cylinder {
        /// Radius.
        #[arg(long, allow_negative_numbers = true)]
        radius: f64,
        /// Length along z.
        #[arg(long, allow_negative_numbers = true)]
        height: f64,
        #[command(flatten)]
        out: Out3d,
    },
    /// G. Fiedler's go stone ("Rotation and Inertia Tensors", Virtual Go): a biconvex lens of
    /// two spherical caps, axis y.
    Biconvex {
        /// Diameter (width across).
        #[arg(long, allow_negative_numbers = true)]
        width: f64,
        /// Thickness along y.
        #[arg(long, allow_negative_numbers = true)]
        height: f64,
        #[command(flatten)]
        out: Out3d,
    },
}

/// A shape reads no file: the flags about files' units say so (`--units-override`, which
/// has nothing to override, is hidden and refused).
fn no_file_units(a: clap::Arg) -> clap::Arg {
    match a.get_id().as_str() {
        "units" => a.help(
            "The length unit of the dimensions given: mm, cm, m, in, ft, ... Densities are then SI and results are in kg and metres (or --output-units)",
        ),
        "output_units" => a.help(
            "The length unit of the results (with --units): mm, cm, m, in, ft, ... as for --units. Default m",
        ),
        "material" => a.help(
            "A material from `inertia materials`: its density in kg/m³, so it needs --units (and, for a plate, its --thickness)",
        ),
        "units_override" => a.hide(true),
        _ => a,
    }
}

#[derive(Args, Debug)]
#[command(mut_args(no_file_units))]
pub(super) struct Out2d {
    /// Plate thickness (input units): the density is then per volume.
    #[arg(long, allow_negative_numbers = true)]
    pub(super) thickness: Option<f64>,
    /// Also write the outline to this file as a JSON polygon (a circle as a --segments-gon),
    /// which `inertia polygon` reads.
    #[arg(long, value_name = "FILE.json")]
    pub(super) polygon_out: Option<PathBuf>,
    /// Segments of a tessellated circle (3 to 10000000; only --polygon-out uses them).
    #[arg(long, default_value_t = 64)]
    pub(super) segments: usize,
    #[command(flatten)]
    pub(super) common: Common,
}

#[derive(Args, Debug)]
#[command(mut_args(no_file_units))]
pub(super) struct Out3d {
    /// Also write a tessellation to this file: OBJ when its name ends in .obj (every
    /// digit), else binary STL (coordinates rounded to f32; see --ascii).
    #[arg(long, value_name = "FILE")]
    pub(super) mesh_out: Option<PathBuf>,
    /// Write --mesh-out's STL as ASCII with every digit of f64 (it reads back exactly; about
    /// five times the size of binary STL).
    #[arg(long, requires = "mesh_out")]
    pub(super) ascii: bool,
    /// Segments around each circle of --mesh-out's tessellation (3 to 100000; a box has
    /// 12 triangles whatever this says).
    #[arg(long, default_value_t = 64)]
    pub(super) segments: usize,
    #[command(flatten)]
    pub(super) common: Common,
}

/// A shape as given on the command line, with its name in the report.
enum Given {
    /// A plate (a 2D shape) and its flags.
    Plate {
        name: String,
        shape: Shape2d,
        out: Out2d,
    },
    /// A solid and its flags.
    Solid {
        name: String,
        shape: Shape3d,
        out: Out3d,
    },
}

impl Given {
    /// The shape `kind` names, with its report's name (`box 1 × 2 × 3`).
    fn of(kind: ShapeKind) -> Result<Given> {
        let plate = |name, shape, out| Given::Plate { name, shape, out };
        let solid = |name, shape, out| Given::Solid { name, shape, out };
        Ok(match kind {
            ShapeKind::Rectangle { width, height, out } => plate(
                format!("rectangle {} × {}", num(width), num(height)),
                Shape2d::Rectangle { width, height },
                out,
            ),
            ShapeKind::Regular {
                sides,
                side,
                circumradius,
                out,
            } => {
                let side = match (side, circumradius) {
                    (Some(l), _) => l,
                    (None, Some(r)) => {
                        positive(Parameter::Circumradius, r)?;
                        2.0 * r * (std::f64::consts::PI / sides.max(1) as f64).sin()
                    }
                    (None, None) => bail!("regular needs --side or --circumradius"),
                };
                plate(
                    format!("regular {sides}-gon of side {}", num(side)),
                    Shape2d::Regular { sides, side },
                    out,
                )
            }
            ShapeKind::Circle { radius, out } => plate(
                format!("circle of radius {}", num(radius)),
                Shape2d::Circle { radius },
                out,
            ),
            ShapeKind::Box { size, out } => {
                if size.len() != 3 {
                    bail!("--size takes X,Y,Z (3 numbers), got {}", size.len());
                }
                let size = [size[0], size[1], size[2]];
                solid(
                    format!("box {} × {} × {}", num(size[0]), num(size[1]), num(size[2])),
                    Shape3d::Box { size },
                    out,
                )
            }
            ShapeKind::Sphere { radius, out } => solid(
                format!("sphere of radius {}", num(radius)),
                Shape3d::Sphere { radius },
                out,
            ),
            ShapeKind::Cylinder {
                radius,
                height,
                out,
            } => solid(
                format!("cylinder of radius {}, height {}", num(radius), num(height)),
                Shape3d::Cylinder { radius, height },
                out,
            ),
            ShapeKind::Biconvex { width, height, out } => solid(
                format!("biconvex {} × {}", num(width), num(height)),
                Shape3d::Biconvex { width, height },
                out,
            ),
        })
    }
}

/// The method's name in a shape's report.
const CLOSED_FORM: &str = "closed-form";

pub(super) fn shape(kind: ShapeKind) -> Result<Outcome> {
    let common = match &kind {
        ShapeKind::Rectangle { out, .. }
        | ShapeKind::Regular { out, .. }
        | ShapeKind::Circle { out, .. } => &out.common,
        ShapeKind::Box { out, .. }
        | ShapeKind::Sphere { out, .. }
        | ShapeKind::Cylinder { out, .. }
        | ShapeKind::Biconvex { out, .. } => &out.common,
    };
    if common.units_override {
        bail!("--units-override reads a file in --units; a shape reads no file: leave it out");
    }
    match Given::of(kind)? {
        Given::Plate { name, shape, out } => plate(&name, shape, out),
        Given::Solid { name, shape, out } => solid(&name, shape, out),
    }
}

/// `inertia shape` of a plate: its report, and `--polygon-out`.
fn plate(name: &str, shape: Shape2d, out: Out2d) -> Result<Outcome> {
    shape.validate()?;
    let amount = out.common.amount(2, out.thickness)?;
    let view = out.common.view(2)?;
    let about = out.common.about::<2>()?.map(Point2::from);
    if out.segments < 3 || out.segments > 10_000_000 {
        bail!(
            "--segments must be between 3 and 10000000, got {}",
            out.segments
        );
    }
    // A regular n-gon written out has n vertices: 16 bytes each, and the JSON text.
    if let (Shape2d::Regular { sides, .. }, Some(_)) = (&shape, &out.polygon_out)
        && *sides > 10_000_000
    {
        bail!(
            "--polygon-out would write {sides} vertices (about {} of JSON): at most 10000000",
            inertia::details::human_bytes(*sides as f64 * 48.0)
        );
    }
    let e = shape.exact();
    let outline = Outline {
        vertices: e.vertices,
        holes: 0,
        winding: "ccw",
        perimeter: e.perimeter,
        max_deviation: None,
        bounding_box: Some(e.bounding_box),
    };
    let at = PolygonAt {
        method: CLOSED_FORM,
        amount,
        about,
        view,
    };
    let unit = PolygonIntegral::from_properties(e.properties);
    let report = at.report_named(name, outline, unit, None)?;
    if let Some(path) = &out.polygon_out {
        write_file(
            path,
            &inertia::io::json::write(&shape.tessellate(out.segments)),
        )?;
    }
    Ok(lone(&report, out.common.format()))
}

/// `inertia shape` of a solid: its report, and `--mesh-out`.
fn solid(name: &str, shape: Shape3d, out: Out3d) -> Result<Outcome> {
    shape.validate()?;
    let amount = out.common.amount(3, None)?;
    let view = out.common.view(3)?;
    let about = out.common.about::<3>()?.map(Point3::from);
    if out.segments < 3 || out.segments > 100_000 {
        bail!(
            "--segments must be between 3 and 100000, got {}",
            out.segments
        );
    }
    // Round shapes are tessellated as about segments² triangles (segments around, half as
    // many rings, two triangles a quad): refuse, with the estimate, what would not fit.
    let estimate = (out.segments as f64).powi(2);
    // Bytes a triangle: ASCII STL about 250, binary 50.
    let per = if out.ascii { 250.0 } else { 50.0 };
    if out.mesh_out.is_some() && estimate > MAX_WRITTEN_TRIANGLES {
        bail!(
            "--segments {} would write about {} triangles (about {} of STL): at most {} (--segments {})",
            out.segments,
            num(estimate),
            inertia::details::human_bytes(estimate * per),
            num(MAX_WRITTEN_TRIANGLES),
            MAX_WRITTEN_TRIANGLES.sqrt() as u64
        );
    }
    let e = shape.exact();
    let h = e.half_extent;
    let body = Body {
        triangles: 0,
        degenerate_triangles: 0,
        vertices: 0,
        shells: 1,
        cavities: 0,
        inside_out: false,
        surface_area: e.surface_area,
        bounding_box: BoundingBox {
            min: h.map(|v| -v),
            max: h,
        },
        contacts: None,
        left_out: None,
        junctions: None,
        union: None,
    };
    let unit = MeshIntegral {
        properties: e.properties,
        grid: None,
    };
    let at = MeshAt {
        amount,
        view,
        about,
        method: CLOSED_FORM,
        shell: false,
    };
    let report = at.report_named(name, body, unit)?;
    if let Some(path) = &out.mesh_out {
        // Streamed to the file: the bytes are never held whole.
        let mesh = shape.tessellate(out.segments);
        let obj = MeshFormat::from_path(path) == Some(MeshFormat::Obj);
        if out.ascii && obj {
            bail!(
                "--ascii writes STL; {} is written as OBJ, every digit",
                path.display()
            );
        }
        if !obj
            && !out.ascii
            && let Some(x) = mesh
                .vertices
                .iter()
                .flatten()
                .find(|x| (**x as f32).is_infinite())
        {
            bail!(
                "{}: a coordinate ({x:e}) is beyond binary STL's f32 range: give --ascii (every digit of f64) or write .obj",
                path.display()
            );
        }
        let cannot = || format!("{}: cannot write", path.display());
        let file = std::fs::File::create(path).with_context(cannot)?;
        let mut w = std::io::BufWriter::new(file);
        match (obj, out.ascii) {
            (true, _) => inertia::io::obj::write_to(&mut w, &mesh),
            (false, true) => inertia::io::stl::write_ascii_to(&mut w, &mesh, "inertia"),
            (false, false) => inertia::io::stl::write_binary_to(&mut w, &mesh),
        }
        .and_then(|_| std::io::Write::flush(&mut w))
        .with_context(cannot)?;
    }
    Ok(lone(&report, out.common.format()))
}
