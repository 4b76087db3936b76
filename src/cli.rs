//! Command-line arguments and the glue from them to the library.

use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use inertia::error::num;
use inertia::io::{Bytes, MeshFormat, PolygonFormat, read_polygons_with};
use inertia::method::voxel::DEFAULT_RESOLUTION;
use inertia::report::{
    Body, BoundingBox, MeshReport, Outline, OutputFormat, PolygonReport, View, compare,
};
use inertia::shape::{Shape2d, Shape3d};
use inertia::units::{LengthUnit, Products, Units, material};
use inertia::{About, Amount, MeshIntegral, MeshMethod, PolygonIntegral, PolygonMethod, positive};
use nalgebra::{Point2, Point3};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Exact, validated mass properties of polygons and triangle meshes.
#[derive(Parser, Debug)]
#[command(
    name = "inertia",
    version,
    about,
    long_about = "Exact, validated mass properties of polygons and closed triangle meshes: area or volume, mass, \
centroid, moments and products of inertia, principal moments and axes. Bad input is refused with one line \
naming the file and the place, and exit code 2.",
    after_help = "Examples:\n  inertia polygon fixtures/polygon/l_shape.json --density 2\n  \
        inertia mesh fixtures/mesh/right_tetrahedron.stl --units mm --material steel\n  \
        inertia shape biconvex --width 2.2 --height 0.92 --mass 1\n  \
        inertia mesh parts/*.stl --format csv"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Read at most this many bytes from standard input or another stream (files are
    /// mapped whatever their size).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = inertia::io::DEFAULT_MAX_STREAM_BYTES)]
    max_input_bytes: u64,
    /// Refuse a mesh file that holds or expands to more triangles than this (a 3MF whose
    /// objects place each other over and over is counted before it is expanded).
    #[arg(long, global = true, value_name = "N", default_value_t = inertia::io::threemf::DEFAULT_MAX_TRIANGLES)]
    max_triangles: u64,
}

/// The triangle limit of this run (`--max-triangles`), set once by [`run`].
static MAX_TRIANGLES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// The stream limit of this run (`--max-input-bytes`), set once by [`run`].
static MAX_INPUT_BYTES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

#[derive(Subcommand, Debug)]
enum Command {
    /// Area, mass, centroid and moments of inertia of a 2D polygon (with holes).
    #[command(
        after_help = "Examples:\n  inertia polygon fixtures/polygon/l_shape.json --density 2\n  \
        inertia polygon profile.csv --mass 3 --method centroid --json\n  \
        inertia polygon fixtures/polygon/u_shape_cw.csv --method all\n  \
        echo '[[0,0],[1,0],[1,1],[0,1]]' | inertia polygon - --about origin",
        mut_arg("density", |a| a.help("Density: mass per unit area; with --units in kg/m², or kg/m³ with a --thickness. Default 1")),
        mut_arg("mass", |a| a.help("Total mass (kg with --units); the density becomes mass / area")),
        mut_arg("about", |a| a.help("Point the moments are about: centroid, origin, or X,Y in the input's units")),
        mut_arg("axis", |a| a.help("Also report the moment about the in-plane axis through the --about point along X,Y")),
        mut_arg("products", |a| a.help("Sign of the product of inertia: cad (+∫xy dm, the default) or tensor (−∫xy dm)"))
    )]
    Polygon(PolygonArgs),
    /// Volume, mass, centre of mass and inertia tensor of a closed triangle mesh.
    #[command(
        after_help = "Examples:\n  inertia mesh fixtures/mesh/right_tetrahedron.stl --mass 5\n  \
        inertia mesh part.obj --density 7850 --json\n  \
        inertia mesh part.stl --method all --resolution 800\n  \
        inertia mesh - --input-format stl --about 0,0,0 < part.stl",
        mut_arg("density", |a| a.help("Density: mass per unit volume; with --units in kg/m³. Default 1")),
        mut_arg("mass", |a| a.help("Total mass (kg with --units); the density becomes mass / volume")),
        mut_arg("about", |a| a.help("Point the tensor is about: centroid, origin, or X,Y,Z in the input's units")),
        mut_arg("axis", |a| a.help("Also report the moment about the axis through the --about point along X,Y,Z")),
        mut_arg("products", |a| a.help("Sign of the off-diagonal products: tensor (−∫xy dm, the default) or cad (+∫xy dm)"))
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
    /// Sums parts from `--json` reports (polygon, mesh, shape), each optionally moved.
    #[command(
        after_help = "Examples:\n  inertia mesh body.stl --units mm --material aluminium --json > body.json\n  \
        inertia mesh wheel.stl --units mm --material steel --json > wheel.json\n  \
        inertia combine body.json wheel.json wheel.json --translate 2=0.1,0,0 --translate 3=-0.1,0,0 --rotate 3=z:180\n\n\
        N in --translate N=... and --rotate N=... is the position of the file (from 1). Each part is\n\
        rotated about the origin first, then translated. Plates turn about z only: --rotate N=DEGREES."
    )]
    Combine(CombineArgs),
    /// Prints a shell completion script: `inertia completions bash > /etc/bash_completion.d/inertia`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Prints a manual page (roff): `inertia manpage > inertia.1 && man ./inertia.1`;
    /// `inertia manpage polygon > inertia-polygon.1` for a command's page with all its options.
    Manpage {
        /// The command whose page to print (polygon, mesh, shape, combine, completions,
        /// materials); without one, the page of `inertia` itself.
        #[arg(value_name = "COMMAND", value_parser = ["polygon", "mesh", "shape", "combine", "completions", "manpage", "materials"])]
        command: Option<String>,
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
    /// Polygon files (JSON, CSV, GeoJSON, DXF), or `-` for standard input. With several (or
    /// a file of several polygons), each is reported and so is their total.
    files: Vec<PathBuf>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long)]
    files_from: Option<PathBuf>,
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
    /// Also draw the polygon, its centroid and principal axes into this SVG file.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// DXF: join the ends of lines, arcs and open polylines closer than this (input units).
    /// Default: 64 units in the last place of the drawing's largest coordinate.
    #[arg(long, value_name = "DISTANCE")]
    join_tolerance: Option<f64>,
    /// DXF: what to do with pieces that belong to no closed outline (a centre line, a
    /// construction line): refuse the drawing (the default), or ignore them with a warning.
    #[arg(long, value_enum, default_value_t = OpenChoice::Refuse)]
    open: OpenChoice,
    /// DXF: read only this layer (repeat for several). Default: every layer.
    #[arg(long, value_name = "NAME")]
    layer: Vec<String>,
    /// Report as for several inputs even when there is one body: JSON
    /// `{"schema_version", "parts", "errors", "total"}`, a total row in tables and CSV, so that
    /// a script over `dir/*` reads one file's result as it reads many.
    #[arg(long)]
    parts: bool,
    #[command(flatten)]
    common: Common,
}

/// What `polygon` does with DXF pieces outside any closed outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OpenChoice {
    /// Refuse the drawing, naming the piece.
    Refuse,
    /// Leave them out, naming them in a warning.
    Ignore,
}

#[derive(Args, Debug)]
struct MeshArgs {
    /// Mesh files (STL binary or ASCII, OBJ, PLY, 3MF), or `-` for standard input. With
    /// several (or a 3MF of several bodies), each is reported and so is their total.
    files: Vec<PathBuf>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long)]
    files_from: Option<PathBuf>,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum)]
    input_format: Option<MeshFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = MeshChoice::Tetra)]
    method: MeshChoice,
    /// Voxel method: grid cells along the longest side of the bounding box.
    #[arg(long, default_value_t = DEFAULT_RESOLUTION)]
    resolution: usize,
    /// A thin-walled part: the mass lies in a wall of this thickness (input units) on the
    /// surface, which may be open; --density is that of the wall material.
    #[arg(long, allow_negative_numbers = true)]
    shell: Option<f64>,
    /// Also draw three orthographic views with the centroid and principal axes into this
    /// SVG file.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// With --method all: the largest relative spread allowed between exact methods.
    #[arg(long, default_value_t = 1e-9, allow_negative_numbers = true)]
    tolerance: f64,
    /// Join corners closer than this (input units) when a mesh is open only by rounding
    /// noise. Default: a few units in the last place of the largest coordinate.
    #[arg(long, value_name = "DISTANCE")]
    weld_tolerance: Option<f64>,
    /// Triangles that cross or coincide (bodies that overlap, a surface through itself):
    /// refuse (the default), or sum the bodies as they are, counting shared space twice,
    /// with a warning.
    #[arg(long, value_enum, default_value_t = OverlapChoice::Refuse)]
    overlap: OverlapChoice,
    /// Report as for several inputs even when there is one body: JSON
    /// `{"schema_version", "parts", "errors", "total"}`, a total row in tables and CSV, so that
    /// a script over `dir/*` reads one file's result as it reads many.
    #[arg(long)]
    parts: bool,
    #[command(flatten)]
    common: Common,
}

/// What `mesh` does with triangles that cross or coincide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OverlapChoice {
    /// Refuse the file, naming two triangles that meet and where.
    Refuse,
    /// Add overlapping bodies as separate parts (shared space counts twice), with a warning.
    Sum,
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
    /// The input's length unit: um, mm, cm, m, in, ft. Densities are then SI and results
    /// are in kg and metres (or --output-units). A 3MF or DXF file that states its unit
    /// needs none (a different one is refused without --units-override).
    #[arg(long, value_enum)]
    units: Option<LengthUnit>,
    /// The length unit of the results (with --units or a unit the file states): um, mm,
    /// cm, m, in, ft. Default m.
    #[arg(long, value_enum)]
    output_units: Option<LengthUnit>,
    /// Read the input in --units even where the file states another unit (3MF `unit`,
    /// DXF `$INSUNITS`).
    #[arg(long, requires = "units")]
    units_override: bool,
    #[command(flatten)]
    present: Presentation,
}

impl Common {
    /// The density or mass for a body of dimension `dim`; `thickness` (polygons) turns a
    /// volumetric density into an areal one.
    fn amount(&self, dim: usize, thickness: Option<f64>) -> Result<Amount> {
        if self.output_units.is_some() && self.units.is_none() {
            bail!(
                "--output-units needs the input's length unit: give --units (or a 3MF or DXF file that states it)"
            );
        }
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
                        "--material gives a density in kg/m³: say the input's length unit with --units (um, mm, cm, m, in, ft)"
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

    /// Takes the unit the input files state (3MF `unit`, DXF `$INSUNITS`) when `--units`
    /// is not given; refuses files that disagree with each other or with `--units` (unless
    /// `--units-override`).
    fn adopt_file_units(&mut self, files: &[PathBuf], kind: FileKind) -> Result<()> {
        let mut stated: Option<(LengthUnit, String)> = None;
        for path in files {
            let Some(u) = stated_unit(path, kind)? else {
                continue;
            };
            let name = path.display().to_string();
            match &stated {
                Some((v, other)) if *v != u => bail!(
                    "{name} states its unit as {}, {other} as {}: run them separately, or give --units with --units-override",
                    u.symbol(),
                    v.symbol()
                ),
                Some(_) => {}
                None => stated = Some((u, name)),
            }
        }
        let Some((u, name)) = stated else {
            return Ok(());
        };
        match self.units {
            None => self.units = Some(u),
            Some(g) if g == u || self.units_override => {}
            Some(g) => bail!(
                "{name} states its unit as {}, but --units says {}: leave out --units, or give --units-override to read it in {}",
                u.symbol(),
                g.symbol(),
                g.symbol()
            ),
        }
        Ok(())
    }

    fn units(&self) -> Units {
        Units {
            input: self.units,
            output: self.output_units,
        }
    }

    fn format(&self) -> OutputFormat {
        self.present.format()
    }

    fn about<const N: usize>(&self) -> Result<Option<[f64; N]>> {
        self.present.about::<N>()
    }

    /// Units, product sign and axis for a report of dimension `dim`.
    fn view(&self, dim: usize) -> Result<View> {
        self.present.view(self.units(), dim)
    }
}

/// How results are presented: the point and axis of the moments, the sign of products, the
/// output format. Shared by every command that prints a report.
#[derive(Args, Debug)]
struct Presentation {
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

impl Presentation {
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
    fn view(&self, units: Units, dim: usize) -> Result<View> {
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
            units,
            products: self.products,
            axis,
        })
    }
}

#[derive(Args, Debug)]
struct CombineArgs {
    /// Reports printed by `inertia polygon|mesh|shape --json` (a single report, a multi-file
    /// `{"parts": ...}` report, or JSON Lines), or `-` for standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Move the parts of file N: N=X,Y,Z (or N=X,Y for plates), in the reports' length unit.
    #[arg(long, allow_hyphen_values = true)]
    translate: Vec<String>,
    /// Turn the parts of file N about the origin before moving them: N=x:DEG, N=y:DEG,
    /// N=z:DEG, N=X,Y,Z:DEG (any axis), or N=DEG (about z; the only turn for plates).
    #[arg(long, allow_hyphen_values = true)]
    rotate: Vec<String>,
    #[command(flatten)]
    present: Presentation,
}

#[derive(Subcommand, Debug)]
enum ShapeKind {
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
    MAX_INPUT_BYTES.get_or_init(|| cli.max_input_bytes);
    MAX_TRIANGLES.get_or_init(|| cli.max_triangles);
    match cli.command {
        Command::Polygon(a) => polygon(a),
        Command::Mesh(a) => mesh(a),
        Command::Shape { kind } => shape(kind),
        Command::Combine(a) => combine(a),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut cmd, "inertia", &mut buf);
            Ok(Outcome::ok(String::from_utf8_lossy(&buf).into_owned()))
        }
        Command::Manpage { command } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            cmd.build();
            let page = match command {
                None => cmd,
                Some(name) => {
                    let sub = cmd
                        .find_subcommand(&name)
                        .with_context(|| format!("no command {name}"))?
                        .clone();
                    // clap names are &'static str (without its "string" feature).
                    let full: &'static str = match name.as_str() {
                        "polygon" => "inertia-polygon",
                        "mesh" => "inertia-mesh",
                        "shape" => "inertia-shape",
                        "combine" => "inertia-combine",
                        "completions" => "inertia-completions",
                        "manpage" => "inertia-manpage",
                        _ => "inertia-materials",
                    };
                    sub.name(full).display_name(full).bin_name(full)
                }
            };
            let mut buf = Vec::new();
            clap_mangen::Man::new(page)
                .render(&mut buf)
                .context("cannot render the manual page")?;
            Ok(Outcome::ok(String::from_utf8_lossy(&buf).into_owned()))
        }
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
    let max = *MAX_INPUT_BYTES.get_or_init(|| inertia::io::DEFAULT_MAX_STREAM_BYTES);
    let bytes = Bytes::open_limited(path, max).with_context(|| format!("{label}: cannot read"))?;
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
        OutputFormat::Json | OutputFormat::Jsonl | OutputFormat::Csv => c.json(),
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

/// The inputs: FILE arguments, then the names listed in --files-from.
fn gather_files(files: &[PathBuf], files_from: Option<&Path>) -> Result<Vec<PathBuf>> {
    let mut all = files.to_vec();
    if let Some(list) = files_from {
        let (bytes, _, label) = read_input(list)?;
        let text = std::str::from_utf8(&bytes)
            .with_context(|| format!("{label}: not a text list of file names"))?;
        all.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(PathBuf::from),
        );
    }
    if all.is_empty() {
        bail!("no input: give a FILE, `-` for standard input, or --files-from LIST");
    }
    let stdin_uses = all.iter().filter(|p| p.as_os_str() == "-").count()
        + usize::from(files_from.is_some_and(|p| p.as_os_str() == "-"));
    if stdin_uses > 1 {
        bail!("standard input (`-`) can be read only once");
    }
    Ok(all)
}

/// Checks flags that make no sense for several inputs, or for the chosen output.
fn check_batch(
    n: usize,
    from_list: bool,
    method_all: bool,
    mass: Option<f64>,
    plot: bool,
    output: OutputFormat,
) -> Result<()> {
    // A list from --files-from is a batch however many files it names: its output keeps the
    // batch's shape, so what needs a lone file is refused rather than silently dropped.
    let (batch, what) = match (n, from_list) {
        (1, false) => (false, ""),
        (_, true) => (true, "a --files-from list"),
        _ => (true, "several files"),
    };
    if batch && method_all {
        bail!("--method all compares methods on one file named on the command line, not {what}");
    }
    if batch && mass.is_some() {
        bail!("--mass is ambiguous for {what}; give --density or --material");
    }
    if batch && plot {
        bail!("--plot draws one body from one file named on the command line, not {what}");
    }
    if method_all && matches!(output, OutputFormat::Csv | OutputFormat::Jsonl) {
        bail!("--method all prints a table or JSON");
    }
    Ok(())
}

/// The output of several inputs: each part, the total (table and JSON), errors.
fn batch_outcome<R: serde::Serialize>(
    format: OutputFormat,
    rows: Vec<Result<R, (String, String)>>,
    total: Option<R>,
    render_one: impl Fn(&R) -> String,
    csv_rows: impl Fn(&[Result<R, (String, String)>]) -> String,
) -> Outcome {
    // Each message already names its file.
    let errors: Vec<String> = rows
        .iter()
        .filter_map(|r| r.as_ref().err())
        .map(|(_, m)| m.clone())
        .collect();
    let stdout = match format {
        OutputFormat::Csv => csv_rows(&rows),
        OutputFormat::Jsonl => inertia::report::jsonl::lines(&rows),
        OutputFormat::Json => {
            let parts: Vec<serde_json::Value> = rows
                .iter()
                .filter_map(|r| r.as_ref().ok())
                .map(|r| serde_json::to_value(r).expect("reports serialise"))
                .collect();
            let errs: Vec<serde_json::Value> = rows
                .iter()
                .filter_map(|r| r.as_ref().err())
                .map(|(s, m)| serde_json::json!({ "source": s, "error": m }))
                .collect();
            let mut v = serde_json::json!({
                "schema_version": inertia::report::json::SCHEMA_VERSION,
                "parts": parts,
                "errors": errs
            });
            if let Some(t) = &total {
                v["total"] = serde_json::to_value(t).expect("reports serialise");
            }
            let mut s = serde_json::to_string_pretty(&v).expect("values serialise");
            s.push('\n');
            s
        }
        OutputFormat::Table => {
            let mut s = String::new();
            for r in rows.iter().filter_map(|r| r.as_ref().ok()) {
                s += &render_one(r);
                s.push('\n');
            }
            if let Some(t) = &total {
                s += &render_one(t);
            }
            s
        }
    };
    Outcome {
        stdout,
        code: if errors.is_empty() { 0 } else { 2 },
        warnings: errors,
    }
}

fn polygon(mut a: PolygonArgs) -> Result<Outcome> {
    let listed = gather_files(&a.files, a.files_from.as_deref())?;
    if a.input_format.is_none_or(|f| f == PolygonFormat::Dxf) {
        a.common.adopt_file_units(&listed, FileKind::Polygon)?;
    }
    let amount = a.common.amount(2, a.thickness)?;
    if let Some(t) = a.join_tolerance {
        positive("--join-tolerance", t)?;
    }
    let dxf_options = inertia::io::dxf::Options {
        join_tolerance: a.join_tolerance,
        ignore_open: a.open == OpenChoice::Ignore,
        layers: a.layer.clone(),
    };
    let view = a.common.view(2)?;
    let about = a.common.about::<2>()?.map(Point2::from);
    let tolerance = check_tolerance(a.tolerance)?;
    let files = listed;
    let output = a.common.format();
    check_batch(
        files.len(),
        a.files_from.is_some(),
        a.method == PolygonChoice::All,
        a.common.mass,
        a.plot.is_some(),
        output,
    )?;
    let methods: Vec<PolygonMethod> = match a.method {
        PolygonChoice::Fan => vec![PolygonMethod::Fan],
        PolygonChoice::RightTriangle => vec![PolygonMethod::RightTriangle],
        PolygonChoice::Centroid => vec![PolygonMethod::Centroid],
        PolygonChoice::All => PolygonMethod::ALL.to_vec(),
    };
    // Every polygon of a file: (name, outline, one integral per method). GeoJSON files may
    // hold several; the others hold one.
    type Integrated = (
        String,
        Outline,
        Vec<inertia::PolygonIntegral>,
        inertia::Polygon,
    );
    // A file's polygons, and what it held outside them.
    let read = |path: &PathBuf| -> Result<(Vec<Integrated>, Notes)> {
        let (bytes, name, label) = read_input(path)?;
        let format = a
            .input_format
            .or_else(|| PolygonFormat::from_path(path))
            .unwrap_or_else(|| PolygonFormat::sniff(&bytes));
        let (polys, left) =
            read_polygons_with(&bytes, format, &dxf_options).with_context(|| label.clone())?;
        let mut notes = Notes {
            ignored: left.annotations,
        };
        if !left.pieces.is_empty() {
            eprintln!(
                "inertia: warning: {label}: {} piece(s) in no closed outline left out (--open ignore): {}",
                left.pieces.len(),
                left.pieces.join(", ")
            );
            notes
                .ignored
                .insert("open pieces".into(), left.pieces.len());
        }
        let polys = polys
            .into_iter()
            .map(|(part, poly)| {
                let part_name = if part.is_empty() {
                    name.clone()
                } else {
                    format!("{name}: {part}")
                };
                let units = methods.iter().map(|m| m.integrate(&poly)).collect();
                (part_name, Outline::of(&poly), units, poly)
            })
            .collect();
        Ok((polys, notes))
    };
    let report = |name: &str,
                  method: PolygonMethod,
                  outline: Outline,
                  unit: inertia::PolygonIntegral|
     -> Result<PolygonReport> {
        let r =
            PolygonReport::from_integral(name, method.name(), outline, unit, amount, about, &view);
        checked(name, r)
    };
    // A lone file is read once here: one polygon is reported alone, several as parts below.
    let mut first = None;
    if files.len() == 1 && a.files_from.is_none() {
        let (mut parts, notes) = read(&files[0])?;
        if parts.len() == 1 && !a.parts {
            let (name, outline, units, poly) = parts.remove(0);
            let reports = methods
                .iter()
                .zip(units)
                .map(|(m, u)| {
                    report(&name, *m, outline, u).map(|mut r| {
                        notes.apply(&mut r);
                        r
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            if let Some(path) = &a.plot {
                write_file(path, &inertia::report::svg::polygon(&poly, &reports[0]))?;
            }
            if a.method == PolygonChoice::All {
                let label = if name == "-" { "<stdin>" } else { &name };
                let c = compare::polygons(reports, tolerance);
                return Ok(compared(c, output, &format!("polygon {name}"), label));
            }
            return Ok(Outcome::ok(output.polygon(&reports[0])));
        }
        if a.common.mass.is_some() && parts.len() > 1 {
            bail!(
                "--mass gives one body its mass, but this file holds {} parts: give --density (or --material) instead",
                parts.len()
            );
        }
        if a.method == PolygonChoice::All {
            if parts.len() == 1 {
                bail!("--method all prints a comparison of one polygon, not --parts");
            }
            bail!(
                "--method all compares methods on one polygon; this file holds {}",
                parts.len()
            );
        }
        if a.plot.is_some() {
            if parts.len() == 1 {
                bail!("--plot draws one polygon: leave out --parts");
            }
            bail!("--plot draws one polygon; this file holds {}", parts.len());
        }
        first = Some((parts, notes));
    }
    let method = methods[0];
    // (name, outline, integral, what its file held outside its polygons (carried by the
    // file's first part, to be summed in the total), whether to show them on the part:
    // only when it is its file's only polygon — a drawing's spline may be in any part)
    type Part = (String, Outline, inertia::PolygonIntegral, Notes, bool);
    let keep_first = |(parts, notes): (Vec<Integrated>, Notes)| -> Vec<Part> {
        let one = parts.len() == 1;
        let mut notes = Some(notes);
        parts
            .into_iter()
            .enumerate()
            .map(|(k, (n, o, mut u, _))| {
                let c = if one || k == 0 {
                    notes.take().unwrap_or_default()
                } else {
                    Notes::default()
                };
                (n, o, u.remove(0), c, one)
            })
            .collect()
    };
    let per_file: Vec<Result<Vec<Part>, (String, String)>> = match first {
        Some(parts) => vec![Ok(keep_first(parts))],
        None => {
            let progress = Progress::start(
                Some(files.len() as u64),
                "polygons".into(),
                output == OutputFormat::Table,
            );
            files
                .par_iter()
                .map(|p| {
                    let r = read(p)
                        .map(keep_first)
                        .map_err(|e| (p.display().to_string(), format!("{e:#}")));
                    progress.inc();
                    r
                })
                .collect()
        }
    };
    let results: Vec<Result<Part, (String, String)>> = per_file
        .into_iter()
        .flat_map(|r| match r {
            Ok(parts) => parts.into_iter().map(Ok).collect::<Vec<_>>(),
            Err(e) => vec![Err(e)],
        })
        .collect();
    let rows: Vec<Result<PolygonReport, (String, String)>> = results
        .iter()
        .map(|r| match r {
            Ok((name, outline, unit, notes, show)) => report(name, method, *outline, *unit)
                .map(|mut r| {
                    if *show {
                        notes.apply(&mut r);
                    }
                    r
                })
                .map_err(|e| (name.clone(), format!("{e:#}"))),
            Err(e) => Err(e.clone()),
        })
        .collect();
    let good: Vec<&Part> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    let total = (good.len() > 1 || (a.parts && !good.is_empty())).then(|| {
        let props: inertia::MassProperties2d = good.iter().map(|g| g.2.properties).sum();
        let outline = Outline::sum(good.iter().map(|g| g.1));
        let unit = inertia::PolygonIntegral::from_properties(props);
        let name = format!(
            "total of {} part{}",
            good.len(),
            if good.len() == 1 { "" } else { "s" }
        );
        let mut r =
            PolygonReport::from_integral(&name, method.name(), outline, unit, amount, about, &view);
        for g in &good {
            g.3.apply(&mut r);
        }
        checked(&name, r)
    });
    let total = total.transpose()?;
    Ok(batch_outcome(
        output,
        rows,
        total,
        output_table_polygon,
        inertia::report::csv::polygons,
    ))
}

/// What a polygon file held besides its polygons, for its report: annotations ignored.
#[derive(Clone, Debug, Default)]
struct Notes {
    ignored: std::collections::BTreeMap<String, usize>,
}

impl Notes {
    /// Adds these notes to a report (summing counts).
    fn apply(&self, r: &mut PolygonReport) {
        for (k, n) in &self.ignored {
            *r.ignored.entry(k.clone()).or_default() += n;
        }
    }
}

fn output_table_polygon(r: &PolygonReport) -> String {
    OutputFormat::Table.polygon(r)
}

fn mesh(mut a: MeshArgs) -> Result<Outcome> {
    let listed = gather_files(&a.files, a.files_from.as_deref())?;
    if a.input_format.is_none_or(|f| f == MeshFormat::ThreeMf) {
        a.common.adopt_file_units(&listed, FileKind::Mesh)?;
    }
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
    let files = listed;
    let output = a.common.format();
    check_batch(
        files.len(),
        a.files_from.is_some(),
        a.method == MeshChoice::All,
        a.common.mass,
        a.plot.is_some(),
        output,
    )?;
    let methods: Vec<MeshMethod> = match a.method {
        MeshChoice::Tetra => vec![MeshMethod::Tetra],
        MeshChoice::Voxel => vec![MeshMethod::Voxel],
        MeshChoice::All => MeshMethod::ALL.to_vec(),
    };
    if let Some(w) = a.weld_tolerance {
        positive("--weld-tolerance", w)?;
    }
    if let Some(t) = a.shell {
        positive("--shell", t)?;
        if a.method != MeshChoice::Tetra {
            bail!("--shell is a method of its own; leave out --method");
        }
    }
    // (name, label, body, one integral per method, the mesh if it is to be drawn, warnings)
    type Part = (
        String,
        String,
        Body,
        Vec<MeshIntegral>,
        Option<inertia::Mesh>,
        Vec<String>,
    );
    let solid_options = inertia::solid::Options {
        methods: methods.clone(),
        resolution: a.resolution,
        shell: a.shell,
        keep_mesh: a.plot.is_some(),
        weld_tolerance: a.weld_tolerance,
        overlap: match a.overlap {
            OverlapChoice::Refuse => inertia::solid::OverlapPolicy::Refuse,
            OverlapChoice::Sum => inertia::solid::OverlapPolicy::Sum,
        },
        max_triangles: *MAX_TRIANGLES.get_or_init(|| inertia::io::threemf::DEFAULT_MAX_TRIANGLES),
    };
    // Every body of a file (3MF files may hold several), each validated and integrated.
    let read = |path: &PathBuf| -> Result<Vec<Part>> {
        let (bytes, name, label) = read_input(path)?;
        if bytes.is_empty() {
            bail!("{label}: the input is empty");
        }
        let known = a.input_format.or_else(|| MeshFormat::from_path(path));
        if known.is_none()
            && let Some(what) = foreign_format(path)
        {
            bail!(
                "{label}: {what} is not a mesh format inertia reads: export the part as STL, OBJ, PLY or 3MF"
            );
        }
        let format = known.unwrap_or_else(|| MeshFormat::sniff(&bytes));
        // Content that only fell through to OBJ and holds no OBJ face is not a mesh at all.
        if known.is_none()
            && format == MeshFormat::Obj
            && !bytes
                .split(|b| *b == b'\n')
                .any(|l| l.trim_ascii_start().starts_with(b"f "))
        {
            bail!(
                "{label}: not a mesh file inertia reads (binary or ASCII STL, OBJ, PLY, 3MF): give --input-format if it is one"
            );
        }
        // The library's pipeline: the STL fast path, or each body parsed, validated (the
        // parallel path, else Mesh::new to explain a defect), checked for overlaps, welded
        // within a tolerance when open by noise, and integrated.
        let solids = inertia::solid::read_solids(&bytes, format, &solid_options)
            .with_context(|| label.clone())?;
        let parts = solids
            .into_iter()
            .map(|s| {
                let (name, label) = if s.name.is_empty() {
                    (name.clone(), label.clone())
                } else {
                    (
                        format!("{name}: {}", s.name),
                        format!("{label}: {}", s.name),
                    )
                };
                let warnings = s
                    .warnings
                    .iter()
                    .map(|w| format!("warning: {label}: {w}"))
                    .collect();
                (name, label, s.body, s.integrals, s.mesh, warnings)
            })
            .collect();
        Ok(parts)
    };
    let method_name = |m: MeshMethod| if a.shell.is_some() { "shell" } else { m.name() };
    let report = |name: &str,
                  method: MeshMethod,
                  body: Body,
                  unit: MeshIntegral|
     -> Result<MeshReport> {
        let r =
            MeshReport::from_integral(name, method_name(method), body, unit, amount, about, &view);
        checked(name, r)
    };
    let inside_out = |body: &Body, label: &str| {
        body.inside_out.then(|| {
            format!("warning: {label}: the mesh is inside-out (its triangles face inward); computed as if turned right way out")
        })
    };
    // A lone file is read once here: one body is reported alone, several as parts below.
    let mut first = None;
    let table = output == OutputFormat::Table;
    if files.len() == 1 && a.files_from.is_none() {
        let progress = Progress::start(None, files[0].display().to_string(), table);
        let mut parts = read(&files[0])?;
        drop(progress);
        if parts.len() == 1 && !a.parts {
            let (name, label, body, units, mesh, overlap) = parts.remove(0);
            let reports = methods
                .iter()
                .zip(units)
                .map(|(m, u)| report(&name, *m, body, u))
                .collect::<Result<Vec<_>>>()?;
            if let (Some(path), Some(mesh)) = (&a.plot, &mesh) {
                write_file(path, &inertia::report::svg::mesh(mesh, &reports[0]))?;
            }
            let mut out = if a.method == MeshChoice::All {
                let exact = methods.iter().map(|m| m.is_exact()).collect();
                let c = compare::meshes(reports, exact, tolerance);
                compared(c, output, &format!("mesh {name}"), &label)
            } else {
                Outcome::ok(output.mesh(&reports[0]))
            };
            out.warnings
                .splice(0..0, inside_out(&body, &label).into_iter().chain(overlap));
            return Ok(out);
        }
        if a.common.mass.is_some() && parts.len() > 1 {
            bail!(
                "--mass gives one body its mass, but this file holds {} bodies: give --density (or --material) instead",
                parts.len()
            );
        }
        if a.method == MeshChoice::All {
            if parts.len() == 1 {
                bail!("--method all prints a comparison of one body, not --parts");
            }
            bail!(
                "--method all compares methods on one body; this file holds {}",
                parts.len()
            );
        }
        if a.plot.is_some() {
            if parts.len() == 1 {
                bail!("--plot draws one body: leave out --parts");
            }
            bail!("--plot draws one body; this file holds {}", parts.len());
        }
        first = Some(parts);
    }
    let method = methods[0];
    let per_file: Vec<Result<Vec<Part>, (String, String)>> = match first {
        Some(parts) => vec![Ok(parts)],
        None => {
            let progress = Progress::start(Some(files.len() as u64), "meshes".into(), table);
            files
                .par_iter()
                .map(|p| {
                    let r = read(p).map_err(|e| (p.display().to_string(), format!("{e:#}")));
                    progress.inc();
                    r
                })
                .collect()
        }
    };
    let results: Vec<Result<Part, (String, String)>> = per_file
        .into_iter()
        .flat_map(|r| match r {
            Ok(parts) => parts.into_iter().map(Ok).collect::<Vec<_>>(),
            Err(e) => vec![Err(e)],
        })
        .collect();
    let mut warnings: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .flat_map(|(_, label, body, _, _, notes)| {
            inside_out(body, label)
                .into_iter()
                .chain(notes.iter().cloned())
        })
        .collect();
    let rows: Vec<Result<MeshReport, (String, String)>> = results
        .iter()
        .map(|r| match r {
            Ok((name, _, body, units, _, _)) => {
                report(name, method, *body, units[0]).map_err(|e| (name.clone(), format!("{e:#}")))
            }
            Err(e) => Err(e.clone()),
        })
        .collect();
    let good: Vec<&Part> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    let total = (good.len() > 1 || (a.parts && !good.is_empty())).then(|| {
        let props: inertia::MassProperties3d = good.iter().map(|g| g.3[0].properties).sum();
        let body = Body::sum(good.iter().map(|g| g.2));
        let unit = MeshIntegral {
            properties: props,
            grid: None,
        };
        let name = format!(
            "total of {} part{}",
            good.len(),
            if good.len() == 1 { "" } else { "s" }
        );
        let r =
            MeshReport::from_integral(&name, method_name(method), body, unit, amount, about, &view);
        checked(&name, r)
    });
    let total = total.transpose()?;
    let mut out = batch_outcome(
        output,
        rows,
        total,
        |r| OutputFormat::Table.mesh(r),
        inertia::report::csv::meshes,
    );
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}

/// Which command's formats a file is read as.
#[derive(Clone, Copy)]
enum FileKind {
    Polygon,
    Mesh,
}

/// The length unit a file states (3MF, DXF), or `None`: other formats carry none, and
/// standard input is read only once.
fn stated_unit(path: &Path, kind: FileKind) -> Result<Option<LengthUnit>> {
    if path.as_os_str() == "-" {
        return Ok(None);
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    let read = || Bytes::open(path).with_context(|| format!("{}: cannot read", path.display()));
    Ok(match (kind, ext.as_deref()) {
        (FileKind::Mesh, Some("3mf")) => {
            Some(inertia::io::threemf::unit(&read()?).with_context(|| path.display().to_string())?)
        }
        (FileKind::Polygon, Some("dxf")) => {
            inertia::io::dxf::unit(&read()?).with_context(|| path.display().to_string())?
        }
        _ => None,
    })
}

/// The name of a CAD or scene format that `path`'s extension says it is, when inertia does
/// not read it (so the message says so, instead of a parse error from a guessed format).
fn foreign_format(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "step" | "stp" => "STEP",
        "iges" | "igs" => "IGES",
        "glb" | "gltf" => "glTF",
        "fbx" => "FBX",
        "3ds" => "3DS",
        "blend" => "Blender",
        "dae" => "COLLADA",
        "sat" | "sab" => "ACIS",
        "x_t" | "x_b" => "Parasolid",
        "sldprt" | "sldasm" => "SolidWorks",
        "ipt" | "iam" => "Inventor",
        "f3d" => "Fusion 360",
        "dwg" => "DWG",
        "amf" => "AMF",
        "usd" | "usda" | "usdc" | "usdz" => "USD",
        _ => return None,
    })
}

/// The most triangles `shape --mesh-out` writes: 5·10⁷ (about 12 GB of ASCII STL).
const MAX_WRITTEN_TRIANGLES: f64 = 5e7;

/// `report` if every number in it is finite and nothing underflowed (see
/// [`inertia::report::check_numbers`]); else an error naming `name` and the field.
fn checked<R: serde::Serialize>(name: &str, report: R) -> Result<R> {
    match inertia::report::check_numbers(&report) {
        Ok(()) => Ok(report),
        Err(e) => bail!("{name}: {e}"),
    }
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
        // A regular n-gon written out has n vertices: 16 bytes each, and the JSON text.
        if let (Shape2d::Regular { sides, .. }, Some(_)) = (&shape, &out.polygon_out)
            && *sides > 10_000_000
        {
            bail!(
                "--polygon-out would write {sides} vertices (about {} of JSON): at most 10000000",
                inertia::error::human_bytes(*sides as f64 * 48.0)
            );
        }
        let e = shape.exact();
        let outline = Outline {
            vertices: e.vertices,
            holes: 0,
            winding: "ccw",
            perimeter: e.perimeter,
            max_deviation: None,
        };
        let unit = PolygonIntegral::from_properties(e.properties);
        let report = checked(
            &name,
            PolygonReport::from_integral(&name, "closed-form", outline, unit, amount, about, &view),
        )?;
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
    // Round shapes are tessellated as about segments² triangles (segments around, half as
    // many rings, two triangles a quad): refuse, with the estimate, what would not fit.
    let estimate = (out.segments as f64).powi(2);
    if out.mesh_out.is_some() && estimate > MAX_WRITTEN_TRIANGLES {
        bail!(
            "--segments {} would write about {} triangles (about {} of STL): at most {} (--segments {})",
            out.segments,
            num(estimate),
            inertia::error::human_bytes(estimate * 250.0),
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
    };
    let unit = MeshIntegral {
        properties: e.properties,
        grid: None,
    };
    let report = checked(
        &name,
        MeshReport::from_integral(&name, "closed-form", body, unit, amount, about, &view),
    )?;
    if let Some(path) = &out.mesh_out {
        // Streamed to the file: the text (some 250 bytes a triangle) is never held whole.
        let mesh = shape.tessellate(out.segments);
        let cannot = || format!("{}: cannot write", path.display());
        let file = std::fs::File::create(path).with_context(cannot)?;
        let mut w = std::io::BufWriter::new(file);
        match MeshFormat::from_path(path) {
            Some(MeshFormat::Obj) => inertia::io::obj::write_to(&mut w, &mesh),
            _ => inertia::io::stl::write_ascii_to(&mut w, &mesh, "inertia"),
        }
        .and_then(|_| std::io::Write::flush(&mut w))
        .with_context(cannot)?;
    }
    Ok(Outcome::ok(out.common.format().mesh(&report)))
}

fn materials(format: OutputFormat) -> String {
    use inertia::units::MATERIALS;
    match format {
        OutputFormat::Csv => {
            let mut w = ::csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(["material", "density_kg_m3", "source"]);
            for m in MATERIALS {
                let _ = w.write_record([m.name, &m.density.to_string(), m.source]);
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
        OutputFormat::Json => {
            let mut s = serde_json::to_string_pretty(MATERIALS).expect("materials serialise");
            s.push('\n');
            s
        }
        // One object per line, as every other --format jsonl.
        OutputFormat::Jsonl => MATERIALS
            .iter()
            .map(|m| serde_json::to_string(m).expect("materials serialise") + "\n")
            .collect(),
        OutputFormat::Table => {
            let mut s = String::from("material        density kg/m³  source\n");
            for m in MATERIALS {
                s += &format!("{:<15} {:>13}  {}\n", m.name, num(m.density), m.source);
            }
            s
        }
    }
}

/// Parses `N=VALUE` (N from 1 to `files`).
fn indexed(flag: &str, text: &str, files: usize) -> Result<(usize, String)> {
    let (n, value) = text.split_once('=').with_context(|| {
        format!(
            "{flag} takes N=VALUE (N the file's position from 1), got \"{}\"",
            inertia::error::clip(text)
        )
    })?;
    let n: usize = n
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=files).contains(n))
        .with_context(|| {
            format!(
                "{flag}: \"{}\" is not a file position from 1 to {files}",
                inertia::error::clip(n)
            )
        })?;
    Ok((n - 1, value.trim().to_string()))
}

fn numbers(flag: &str, text: &str) -> Result<Vec<f64>> {
    text.split(',')
        .map(|c| c.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<Vec<f64>>>()
        .with_context(|| {
            format!(
                "{flag}: \"{}\" is not a list of finite numbers",
                inertia::error::clip(text)
            )
        })
}

fn combine(a: CombineArgs) -> Result<Outcome> {
    use inertia::assembly::{Motion, Part, read_parts};
    use nalgebra::Vector3;
    let n = a.files.len();
    let mut motions = vec![Motion::default(); n];
    for t in &a.rotate {
        let (k, value) = indexed("--rotate", t, n)?;
        let (axis, deg) = match value.rsplit_once(':') {
            Some((axis, deg)) => {
                let axis = match axis.trim().to_ascii_lowercase().as_str() {
                    "x" => Vector3::x(),
                    "y" => Vector3::y(),
                    "z" => Vector3::z(),
                    other => {
                        let v = numbers("--rotate", other)?;
                        if v.len() != 3 || v.iter().all(|c| *c == 0.0) {
                            bail!("--rotate: the axis must be x, y, z or a non-zero X,Y,Z");
                        }
                        Vector3::new(v[0], v[1], v[2])
                    }
                };
                (axis, deg.to_string())
            }
            None => (Vector3::z(), value.clone()),
        };
        let deg: f64 = deg
            .trim()
            .parse()
            .ok()
            .filter(|d: &f64| d.is_finite())
            .with_context(|| {
                format!(
                    "--rotate: \"{}\" is not an angle in degrees",
                    inertia::error::clip(&deg)
                )
            })?;
        let r = Motion::rotate(axis, deg).rotation;
        motions[k].rotation = r * motions[k].rotation;
    }
    for t in &a.translate {
        let (k, value) = indexed("--translate", t, n)?;
        let v = numbers("--translate", &value)?;
        let d = match v.len() {
            2 => Vector3::new(v[0], v[1], 0.0),
            3 => Vector3::new(v[0], v[1], v[2]),
            m => bail!("--translate takes X,Y or X,Y,Z, got {m} numbers"),
        };
        motions[k].translation += d;
    }
    let mut parts = Vec::new();
    for (k, path) in a.files.iter().enumerate() {
        let (bytes, _, label) = read_input(path)?;
        let read = read_parts(&bytes).with_context(|| label.clone())?;
        for p in read {
            if matches!(p, Part::Planar { .. }) && motions[k].leaves_the_plane() {
                bail!("{label}: a plate turns only about z and moves only in x and y");
            }
            parts.push((label.clone(), p.moved(&motions[k])));
        }
    }
    let units_of = |p: &Part| match p {
        Part::Planar { units, .. } | Part::Solid { units, .. } => *units,
    };
    let (first_label, first) = &parts[0];
    for (label, p) in &parts[1..] {
        if std::mem::discriminant(p) != std::mem::discriminant(first) {
            bail!("{label}: cannot combine a plate with a solid ({first_label} is the other kind)");
        }
        if units_of(p) != units_of(first) {
            bail!(
                "{label}: its units differ from {first_label}'s; print both reports with the same --units and --output-units"
            );
        }
    }
    let units = units_of(first);
    let format = a.present.format();
    let dim = if matches!(first, Part::Planar { .. }) {
        2
    } else {
        3
    };
    let view = a.present.view(units, dim)?;
    let source = format!(
        "assembly of {} part{}",
        parts.len(),
        if parts.len() == 1 { "" } else { "s" }
    );
    if dim == 2 {
        let about = a.present.about::<2>()?.map(Point2::from);
        let mut props = Vec::new();
        let mut outlines = Vec::new();
        for (_, p) in &parts {
            if let Part::Planar {
                properties,
                outline,
                ..
            } = p
            {
                props.push(*properties);
                outlines.push(*outline);
            }
        }
        let outline = Outline::sum(outlines);
        let total: inertia::MassProperties2d = props.into_iter().sum();
        let density = units.density_to_si(total.mass / total.area, 2);
        let r = PolygonReport::from_properties(
            &source,
            "combine",
            outline,
            total,
            total.moments.polar(),
            density,
            about,
            &view,
        );
        let r = checked(&source, r)?;
        return Ok(Outcome::ok(format.polygon(&r)));
    }
    let about = a.present.about::<3>()?.map(Point3::from);
    let mut props = Vec::new();
    let mut bodies = Vec::new();
    for (_, p) in &parts {
        if let Part::Solid {
            properties, body, ..
        } = p
        {
            props.push(*properties);
            bodies.push(*body);
        }
    }
    let total: inertia::MassProperties3d = props.into_iter().sum();
    let body = Body::sum(bodies);
    let density = units.density_to_si(total.mass / total.volume, 3);
    let r =
        MeshReport::from_properties(&source, "combine", body, None, total, density, about, &view);
    let r = checked(&source, r)?;
    Ok(Outcome::ok(format.mesh(&r)))
}
