//! Command-line arguments and the glue from them to the library.

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use inertia::io::{Bytes, MeshFormat, PolygonFormat, read_mesh, read_polygon};
use inertia::method::voxel::DEFAULT_RESOLUTION;
use inertia::report::table::num;
use inertia::report::{
    Body, BoundingBox, MeshReport, Outline, OutputFormat, PolygonReport, View, compare,
};
use inertia::shape::{Shape2d, Shape3d};
use inertia::units::{LengthUnit, Products, Units, material};
use inertia::{About, Amount, MeshIntegral, MeshMethod, PolygonIntegral, PolygonMethod, positive};
use nalgebra::{Point2, Point3};
use std::path::{Path, PathBuf};

/// Exact, validated mass properties of polygons and triangle meshes.
#[derive(Parser, Debug)]
#[command(name = "inertia", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Area, mass, centroid and moments of inertia of a 2D polygon (with holes).
    #[command(
        after_help = "Examples:\n  inertia polygon fixtures/polygon/l_shape.json --density 2\n  \
        inertia polygon profile.csv --mass 3 --method centroid --json\n  \
        inertia polygon fixtures/polygon/u_shape_cw.csv --method all\n  \
        echo '[[0,0],[1,0],[1,1],[0,1]]' | inertia polygon - --about origin"
    )]
    Polygon(PolygonArgs),
    /// Volume, mass, centre of mass and inertia tensor of a closed triangle mesh.
    #[command(
        after_help = "Examples:\n  inertia mesh fixtures/mesh/right_tetrahedron.stl --mass 5\n  \
        inertia mesh part.obj --density 7850 --json\n  \
        inertia mesh part.stl --method all --resolution 800\n  \
        inertia mesh - --input-format stl --about 0,0,0 < part.stl"
    )]
    Mesh(MeshArgs),
    /// Closed-form shapes (rectangle, regular, circle, box, sphere, cylinder, biconvex),
    /// and tessellations of them.
    #[command(
        after_help = "Examples:\n  inertia shape rectangle --width 2 --height 1 --mass 3\n  \
        inertia shape biconvex --width 2.2 --height 0.92 --mass 1\n  \
        inertia shape sphere --radius 1 --segments 128 --mesh-out sphere.stl"
    )]
    Shape {
        #[command(subcommand)]
        kind: ShapeKind,
    },
    /// The built-in materials for --material: density in kg/m³ and its source.
    Materials {
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
        format: OutputFormat,
        /// Short for `--format json`.
        #[arg(long, conflicts_with = "format")]
        json: bool,
    },
}

/// `--method` for polygons: one method, or all of them side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PolygonChoice {
    /// Fan of signed triangles from the first vertex.
    Fan,
    /// Right-triangle split of each fan triangle.
    RightTriangle,
    /// Signed triangles from the centroid to each edge.
    Centroid,
    /// Every method, side by side, with their spread.
    All,
}

/// `--method` for meshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MeshChoice {
    /// Signed tetrahedra (exact).
    Tetra,
    /// Numerical integration over a grid of columns (approximate, see --resolution).
    Voxel,
    /// Every method, side by side, with their spread.
    All,
}

#[derive(Args, Debug)]
struct PolygonArgs {
    /// Polygon file (JSON or CSV), or `-` for standard input.
    file: PathBuf,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum)]
    input_format: Option<PolygonFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = PolygonChoice::Fan)]
    method: PolygonChoice,
    /// With --method all: the largest relative spread allowed between exact methods.
    #[arg(long, default_value_t = 1e-9, allow_negative_numbers = true)]
    tolerance: f64,
    /// Plate thickness (input units): the density is then per volume (kg/m³ with --units).
    #[arg(long, allow_negative_numbers = true)]
    thickness: Option<f64>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct MeshArgs {
    /// Mesh file (STL binary or ASCII, OBJ), or `-` for standard input.
    file: PathBuf,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum)]
    input_format: Option<MeshFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = MeshChoice::Tetra)]
    method: MeshChoice,
    /// Voxel method: grid cells along the longest side of the bounding box.
    #[arg(long, default_value_t = DEFAULT_RESOLUTION)]
    resolution: usize,
    /// With --method all: the largest relative spread allowed between exact methods.
    #[arg(long, default_value_t = 1e-9, allow_negative_numbers = true)]
    tolerance: f64,
    #[command(flatten)]
    common: Common,
}

/// Options every command takes.
#[derive(Args, Debug)]
struct Common {
    /// Density: mass per unit area (polygons) or volume (meshes); with --units, in kg/m² or
    /// kg/m³ (kg/m³ for a polygon given a --thickness). Default 1.
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["mass", "material"])]
    density: Option<f64>,
    /// Total mass (kg with --units); the density becomes mass / area (or volume).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "material")]
    mass: Option<f64>,
    /// A material from `inertia materials` (its density in kg/m³; needs --units).
    #[arg(long)]
    material: Option<String>,
    /// The input's length unit: mm, cm, m, in, ft. Densities are then SI and results are in
    /// kg and metres (or --output-units).
    #[arg(long, value_enum)]
    units: Option<LengthUnit>,
    /// The length unit of the results (with --units): mm, cm, m, in, ft. Default m.
    #[arg(long, value_enum, requires = "units")]
    output_units: Option<LengthUnit>,
    /// Point the moments are about: centroid, origin, or X,Y (polygons) / X,Y,Z (meshes),
    /// in the input's units.
    #[arg(long, default_value = "centroid", allow_hyphen_values = true)]
    about: About,
    /// Also report the moment about the axis through the --about point along this direction:
    /// X,Y (in-plane, polygons) or X,Y,Z (meshes).
    #[arg(long, allow_hyphen_values = true)]
    axis: Option<String>,
    /// Sign of products of inertia: tensor (−∫xy dm) or cad (+∫xy dm). Default: cad for
    /// polygons, tensor for meshes.
    #[arg(long, value_enum)]
    products: Option<Products>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    format: OutputFormat,
    /// Short for `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
}

impl Common {
    /// The density or mass for a body of dimension `dim`; `thickness` (polygons) turns a
    /// volumetric density into an areal one.
    fn amount(&self, dim: usize, thickness: Option<f64>) -> Result<Amount> {
        let units = self.units();
        let volumetric = match (&self.material, self.density) {
            (Some(name), _) => {
                let m = material(name).with_context(|| {
                    format!(
                        "unknown material \"{}\" (see `inertia materials`)",
                        inertia::error::clip(name)
                    )
                })?;
                if units.input.is_none() {
                    bail!(
                        "--material gives a density in kg/m³: say the input's length unit with --units (mm, cm, m, in, ft)"
                    );
                }
                if dim == 2 && thickness.is_none() {
                    bail!(
                        "--material is a density per volume: give the plate's --thickness for a polygon"
                    );
                }
                Some(m.density)
            }
            (None, Some(d)) => Some(positive("--density", d)?),
            (None, None) => None,
        };
        if let Some(t) = thickness {
            positive("--thickness", t)?;
        }
        if let Some(m) = self.mass {
            return Ok(Amount::Mass(positive("--mass", m)?));
        }
        let rho = volumetric.unwrap_or(1.0);
        Ok(Amount::Density(match thickness {
            // kg/m³ × m = kg/m² (or density × input length when unitless).
            Some(t) => rho * t * units.input.map_or(1.0, |u| u.metres()),
            None => rho,
        }))
    }

    fn units(&self) -> Units {
        Units {
            input: self.units,
            output: self.output_units,
        }
    }

    fn format(&self) -> OutputFormat {
        if self.json {
            OutputFormat::Json
        } else {
            self.format
        }
    }

    /// The `--about` point, or `None` for the centroid.
    fn about<const N: usize>(&self) -> Result<Option<[f64; N]>> {
        match &self.about {
            About::Centroid => Ok(None),
            other => {
                let p = other.resolve(&[0.0; N]).map_err(anyhow::Error::msg)?;
                let mut out = [0.0; N];
                out.copy_from_slice(&p);
                Ok(Some(out))
            }
        }
    }

    /// Units, product sign and axis for a report of dimension `dim`.
    fn view(&self, dim: usize) -> Result<View> {
        let axis = match &self.axis {
            None => None,
            Some(text) => {
                let v = match text.parse::<About>() {
                    Ok(About::Point(v)) => v,
                    _ => bail!(
                        "--axis takes a direction X,Y (polygons) or X,Y,Z (meshes), got \"{}\"",
                        inertia::error::clip(text)
                    ),
                };
                if v.len() != dim {
                    bail!("--axis needs {dim} components here, got {}", v.len());
                }
                if v.iter().all(|c| *c == 0.0) {
                    bail!("--axis must not be the zero vector");
                }
                Some(v)
            }
        };
        Ok(View {
            units: self.units(),
            products: self.products,
            axis,
        })
    }
}

#[derive(Subcommand, Debug)]
enum ShapeKind {
    /// A rectangle centred on the origin (seed 002 eq. 3.4).
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
    /// A regular polygon centred on the origin, first vertex on +x (seed 002 eq. 3.6).
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
    /// A disc centred on the origin (seed 004).
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
        #[arg(long, value_delimiter = ',', num_args = 1, allow_hyphen_values = true)]
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
    /// Seed 003's go stone: a biconvex lens of two spherical caps, axis y.
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

#[derive(Args, Debug)]
struct Out2d {
    /// Plate thickness (input units): the density is then per volume.
    #[arg(long, allow_negative_numbers = true)]
    thickness: Option<f64>,
    /// Also write the outline as a JSON polygon (a circle as a --segments-gon).
    #[arg(long)]
    polygon_out: Option<PathBuf>,
    /// Segments of a tessellated circle.
    #[arg(long, default_value_t = 64)]
    segments: usize,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct Out3d {
    /// Also write a tessellation: ASCII STL with full f64 precision (.stl) or OBJ (.obj).
    #[arg(long)]
    mesh_out: Option<PathBuf>,
    /// Segments around each circle of the tessellation.
    #[arg(long, default_value_t = 64)]
    segments: usize,
    #[command(flatten)]
    common: Common,
}

/// What a run produced: the text for stdout, warnings for stderr, and the exit code.
pub struct Outcome {
    /// Printed on stdout.
    pub stdout: String,
    /// Printed on stderr, one line each, before stdout.
    pub warnings: Vec<String>,
    /// 0, or 1 when `--method all` found the exact methods disagreeing.
    pub code: u8,
}

impl Outcome {
    fn ok(stdout: String) -> Self {
        Outcome {
            stdout,
            warnings: vec![],
            code: 0,
        }
    }
}

/// Runs the command.
pub fn run(cli: Cli) -> Result<Outcome> {
    match cli.command {
        Command::Polygon(a) => polygon(a),
        Command::Mesh(a) => mesh(a),
        Command::Shape { kind } => shape(kind),
        Command::Materials { format, json } => Ok(Outcome::ok(materials(if json {
            OutputFormat::Json
        } else {
            format
        }))),
    }
}

/// The input's bytes, its name for the report (`-` for stdin) and its name for messages.
fn read_input(path: &Path) -> Result<(Bytes, String, String)> {
    let name = path.display().to_string();
    let label = if name == "-" {
        "<stdin>".to_string()
    } else {
        name.clone()
    };
    let bytes = Bytes::open(path).with_context(|| format!("{label}: cannot read"))?;
    Ok((bytes, name, label))
}

fn check_tolerance(t: f64) -> Result<f64> {
    if t.is_finite() && t >= 0.0 {
        Ok(t)
    } else {
        bail!("--tolerance must be a finite number >= 0, got {t}")
    }
}

/// The outcome of `--method all`: exit code 1 and a warning when exact methods disagree.
fn compared<R: serde::Serialize>(
    c: compare::Comparison<R>,
    format: OutputFormat,
    title: &str,
    label: &str,
) -> Outcome {
    let stdout = match format {
        OutputFormat::Json => c.json(),
        OutputFormat::Table => c.table(title),
    };
    let mut out = Outcome::ok(stdout);
    if !c.agree {
        out.code = 1;
        out.warnings.push(format!(
            "{label}: the exact methods disagree by {:.1e} (tolerance {:.0e})",
            c.max_exact_spread, c.tolerance
        ));
    }
    out
}

fn polygon(a: PolygonArgs) -> Result<Outcome> {
    let amount = a.common.amount(2, a.thickness)?;
    let view = a.common.view(2)?;
    let about = a.common.about::<2>()?.map(Point2::from);
    let tolerance = check_tolerance(a.tolerance)?;
    let (bytes, name, label) = read_input(&a.file)?;
    let format = a
        .input_format
        .or_else(|| PolygonFormat::from_path(&a.file))
        .unwrap_or_else(|| PolygonFormat::sniff(&bytes));
    let poly = read_polygon(&bytes, format).with_context(|| label.clone())?;
    let methods: Vec<PolygonMethod> = match a.method {
        PolygonChoice::Fan => vec![PolygonMethod::Fan],
        PolygonChoice::RightTriangle => vec![PolygonMethod::RightTriangle],
        PolygonChoice::Centroid => vec![PolygonMethod::Centroid],
        PolygonChoice::All => PolygonMethod::ALL.to_vec(),
    };
    let reports: Vec<PolygonReport> = methods
        .iter()
        .map(|m| PolygonReport::new_with(&name, &poly, *m, amount, about, &view))
        .collect();
    for r in &reports {
        if !r.mass.is_finite() || !r.inertia.is_finite() {
            bail!("{label}: the result overflows f64 (coordinates or density too large)");
        }
    }
    let output = a.common.format();
    if a.method == PolygonChoice::All {
        let c = compare::polygons(reports, tolerance);
        return Ok(compared(c, output, &format!("polygon {name}"), &label));
    }
    Ok(Outcome::ok(output.polygon(&reports[0])))
}

fn mesh(a: MeshArgs) -> Result<Outcome> {
    let amount = a.common.amount(3, None)?;
    let view = a.common.view(3)?;
    let about = a.common.about::<3>()?.map(Point3::from);
    let tolerance = check_tolerance(a.tolerance)?;
    if a.resolution == 0 || a.resolution > 100_000 {
        bail!(
            "--resolution must be between 1 and 100000, got {}",
            a.resolution
        );
    }
    let (bytes, name, label) = read_input(&a.file)?;
    let format = a
        .input_format
        .or_else(|| MeshFormat::from_path(&a.file))
        .unwrap_or_else(|| MeshFormat::sniff(&bytes));
    let mesh = read_mesh(&bytes, format).with_context(|| label.clone())?;
    let methods: Vec<MeshMethod> = match a.method {
        MeshChoice::Tetra => vec![MeshMethod::Tetra],
        MeshChoice::Voxel => vec![MeshMethod::Voxel],
        MeshChoice::All => MeshMethod::ALL.to_vec(),
    };
    let reports: Vec<MeshReport> = methods
        .iter()
        .map(|m| MeshReport::new_with(&name, &mesh, *m, a.resolution, amount, about, &view))
        .collect();
    for r in &reports {
        if !r.mass.is_finite() || !r.inertia_tensor.iter().flatten().all(|v| v.is_finite()) {
            bail!("{label}: the result overflows f64 (coordinates or density too large)");
        }
    }
    let mut warnings = Vec::new();
    if mesh.inside_out() {
        warnings.push(format!(
            "warning: {label}: the mesh is inside-out (its triangles face inward); computed as if turned right way out"
        ));
    }
    let output = a.common.format();
    let mut out = if a.method == MeshChoice::All {
        let exact = methods.iter().map(|m| m.is_exact()).collect();
        let c = compare::meshes(reports, exact, tolerance);
        compared(c, output, &format!("mesh {name}"), &label)
    } else {
        Outcome::ok(output.mesh(&reports[0]))
    };
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("{}: cannot write", path.display()))
}

fn shape(kind: ShapeKind) -> Result<Outcome> {
    let (s2, s3, name) = match kind {
        ShapeKind::Rectangle { width, height, out } => (
            Some((Shape2d::Rectangle { width, height }, out)),
            None,
            format!("rectangle {} × {}", num(width), num(height)),
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
                    positive("--circumradius", r)?;
                    2.0 * r * (std::f64::consts::PI / sides.max(1) as f64).sin()
                }
                (None, None) => bail!("regular needs --side or --circumradius"),
            };
            (
                Some((Shape2d::Regular { sides, side }, out)),
                None,
                format!("regular {sides}-gon of side {}", num(side)),
            )
        }
        ShapeKind::Circle { radius, out } => (
            Some((Shape2d::Circle { radius }, out)),
            None,
            format!("circle of radius {}", num(radius)),
        ),
        ShapeKind::Box { size, out } => {
            if size.len() != 3 {
                bail!("--size takes X,Y,Z (3 numbers), got {}", size.len());
            }
            let size = [size[0], size[1], size[2]];
            (
                None,
                Some((Shape3d::Box { size }, out)),
                format!("box {} × {} × {}", num(size[0]), num(size[1]), num(size[2])),
            )
        }
        ShapeKind::Sphere { radius, out } => (
            None,
            Some((Shape3d::Sphere { radius }, out)),
            format!("sphere of radius {}", num(radius)),
        ),
        ShapeKind::Cylinder {
            radius,
            height,
            out,
        } => (
            None,
            Some((Shape3d::Cylinder { radius, height }, out)),
            format!("cylinder of radius {}, height {}", num(radius), num(height)),
        ),
        ShapeKind::Biconvex { width, height, out } => (
            None,
            Some((Shape3d::Biconvex { width, height }, out)),
            format!("biconvex {} × {}", num(width), num(height)),
        ),
    };
    if let Some((shape, out)) = s2 {
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
        let e = shape.exact();
        let outline = Outline {
            vertices: e.vertices,
            holes: 0,
            winding: "ccw",
            perimeter: e.perimeter,
        };
        let unit = PolygonIntegral {
            properties: e.properties,
            polar: e.properties.moments.polar(),
        };
        let report =
            PolygonReport::from_integral(&name, "closed-form", outline, unit, amount, about, &view);
        if let Some(path) = &out.polygon_out {
            write_file(
                path,
                &inertia::io::json::write(&shape.tessellate(out.segments)),
            )?;
        }
        return Ok(Outcome::ok(out.common.format().polygon(&report)));
    }
    let (shape, out) = s3.expect("a shape is 2D or 3D");
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
    };
    let unit = MeshIntegral {
        properties: e.properties,
        grid: None,
    };
    let report = MeshReport::from_integral(&name, "closed-form", body, unit, amount, about, &view);
    if let Some(path) = &out.mesh_out {
        let mesh = shape.tessellate(out.segments);
        let text = match MeshFormat::from_path(path) {
            Some(MeshFormat::Obj) => inertia::io::obj::write(&mesh),
            _ => inertia::io::stl::write_ascii(&mesh, "inertia"),
        };
        write_file(path, &text)?;
    }
    Ok(Outcome::ok(out.common.format().mesh(&report)))
}

fn materials(format: OutputFormat) -> String {
    use inertia::units::MATERIALS;
    match format {
        OutputFormat::Json => {
            let mut s = serde_json::to_string_pretty(MATERIALS).expect("materials serialise");
            s.push('\n');
            s
        }
        OutputFormat::Table => {
            let mut s = String::from("material        density kg/m³  source\n");
            for m in MATERIALS {
                s += &format!("{:<15} {:>13}  {}\n", m.name, num(m.density), m.source);
            }
            s
        }
    }
}
