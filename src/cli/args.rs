//! The command line: every command's flags (clap derive), and their checks.

use super::*;

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
    pub(super) command: Command,
    /// Read at most this many bytes from standard input or another stream (files are
    /// mapped whatever their size).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = inertia::io::DEFAULT_MAX_STREAM_BYTES)]
    pub(super) max_input_bytes: u64,
    /// Refuse a mesh file that holds or expands to more triangles than this (a 3MF whose
    /// objects place each other over and over is counted before it is expanded).
    #[arg(long, global = true, value_name = "N", default_value_t = inertia::io::threemf::DEFAULT_MAX_TRIANGLES)]
    pub(super) max_triangles: u64,
}

/// The triangle limit of this run (`--max-triangles`), set once by [`run`].
pub(super) static MAX_TRIANGLES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// The stream limit of this run (`--max-input-bytes`), set once by [`run`].
pub(super) static MAX_INPUT_BYTES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

#[derive(Subcommand, Debug)]
pub(super) enum Command {
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
        mut_arg("products", |a| a.help("Sign of the product of inertia: tensor (ixy = −∫xy dm, the default, as for meshes) or cad (+∫xy dm)"))
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
        mut_arg("products", |a| a.help("Sign of the off-diagonal products: tensor (−∫xy dm, the default, as for polygons) or cad (+∫xy dm)"))
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
        /// For `shape`: the shape whose page to print (`inertia manpage shape sphere` is
        /// `inertia-shape-sphere(1)`).
        #[arg(value_name = "SHAPE")]
        shape: Option<String>,
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
pub(super) enum PolygonChoice {
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
pub(super) enum MeshChoice {
    /// Signed tetrahedra (exact).
    Tetra,
    /// Numerical integration over a grid of columns (approximate, see --resolution).
    Voxel,
    /// Every method, side by side, with their spread.
    All,
}

#[derive(Args, Debug)]
pub(super) struct PolygonArgs {
    /// Polygon files (JSON, CSV, GeoJSON, DXF), or `-` for standard input. With several (or
    /// a file of several polygons), each is reported and so is their total.
    pub(super) files: Vec<PathBuf>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long)]
    pub(super) files_from: Option<PathBuf>,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum)]
    pub(super) input_format: Option<PolygonFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = PolygonChoice::Fan)]
    pub(super) method: PolygonChoice,
    /// With --method all: the largest relative spread allowed between exact methods.
    #[arg(long, default_value_t = 1e-9, allow_negative_numbers = true)]
    pub(super) tolerance: f64,
    /// Plate thickness (input units): the density is then per volume (kg/m³ with --units).
    #[arg(long, allow_negative_numbers = true)]
    pub(super) thickness: Option<f64>,
    /// Also draw the polygon, its centroid and principal axes into this SVG file.
    #[arg(long)]
    pub(super) plot: Option<PathBuf>,
    /// DXF: join the ends of lines, arcs and open polylines closer than this (input units).
    /// Default: 64 units in the last place of the drawing's largest coordinate.
    #[arg(long, value_name = "DISTANCE")]
    pub(super) join_tolerance: Option<f64>,
    /// DXF: what to do with pieces that belong to no closed outline (a centre line, a
    /// construction line): refuse the drawing (the default), or ignore them with a warning.
    #[arg(long, value_enum, default_value_t = OpenChoice::Refuse)]
    pub(super) open: OpenChoice,
    /// DXF: read only this layer (repeat for several). Default: every layer.
    #[arg(long, value_name = "NAME")]
    pub(super) layer: Vec<String>,
    /// Report as for several inputs even when there is one body: JSON
    /// `{"schema_version", "parts", "errors", "total"}`, a total row in tables and CSV, so that
    /// a script over `dir/*` reads one file's result as it reads many.
    #[arg(long)]
    pub(super) parts: bool,
    #[command(flatten)]
    pub(super) common: Common,
}

/// What `polygon` does with DXF pieces outside any closed outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum OpenChoice {
    /// Refuse the drawing, naming the piece.
    Refuse,
    /// Leave them out, naming them in a warning.
    Ignore,
}

#[derive(Args, Debug)]
pub(super) struct MeshArgs {
    /// Mesh files (STL binary or ASCII, OBJ, PLY, 3MF), or `-` for standard input. With
    /// several (or a 3MF of several bodies), each is reported and so is their total.
    pub(super) files: Vec<PathBuf>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long)]
    pub(super) files_from: Option<PathBuf>,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum)]
    pub(super) input_format: Option<MeshFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = MeshChoice::Tetra)]
    pub(super) method: MeshChoice,
    /// Voxel method: grid cells along the longest side of the bounding box.
    #[arg(long, default_value_t = DEFAULT_RESOLUTION)]
    pub(super) resolution: usize,
    /// A thin-walled part: the mass lies in a wall of this thickness (input units) on the
    /// surface, which may be open; --density is that of the wall material.
    #[arg(long, allow_negative_numbers = true)]
    pub(super) shell: Option<f64>,
    /// Also draw three orthographic views with the centroid and principal axes into this
    /// SVG file.
    #[arg(long)]
    pub(super) plot: Option<PathBuf>,
    /// With --method all: the largest relative spread allowed between exact methods.
    #[arg(long, default_value_t = 1e-9, allow_negative_numbers = true)]
    pub(super) tolerance: f64,
    /// Join corners closer than this (input units) when a mesh is open only by rounding
    /// noise. Default: a few units in the last place of the largest coordinate.
    #[arg(long, value_name = "DISTANCE")]
    pub(super) weld_tolerance: Option<f64>,
    /// Triangles that cross or coincide (bodies that overlap, a surface through itself):
    /// refuse (the default), or sum the bodies as they are, counting shared space twice,
    /// with a warning.
    #[arg(long, value_enum, default_value_t = OverlapChoice::Refuse)]
    pub(super) overlap: OverlapChoice,
    /// Report as for several inputs even when there is one body: JSON
    /// `{"schema_version", "parts", "errors", "total"}`, a total row in tables and CSV, so that
    /// a script over `dir/*` reads one file's result as it reads many.
    #[arg(long)]
    pub(super) parts: bool,
    #[command(flatten)]
    pub(super) common: Common,
}

/// What `mesh` does with triangles that cross or coincide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum OverlapChoice {
    /// Refuse the file, naming two triangles that meet and where.
    Refuse,
    /// Add overlapping bodies as separate parts (shared space counts twice), with a warning.
    Sum,
}

/// Options every command takes.
#[derive(Args, Debug)]
pub(super) struct Common {
    /// Density: mass per unit area (polygons) or volume (meshes); with --units, in kg/m² or
    /// kg/m³ (kg/m³ for a polygon given a --thickness). Default 1.
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["mass", "material"])]
    pub(super) density: Option<f64>,
    /// Total mass (kg with --units); the density becomes mass / area (or volume).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "material")]
    pub(super) mass: Option<f64>,
    /// A material from `inertia materials` (its density in kg/m³; needs --units).
    #[arg(long)]
    pub(super) material: Option<String>,
    /// The input's length unit: um, mm, cm, m, in, ft. Densities are then SI and results
    /// are in kg and metres (or --output-units). A 3MF or DXF file that states its unit
    /// needs none (a different one is refused without --units-override).
    #[arg(long, value_enum)]
    pub(super) units: Option<LengthUnit>,
    /// The length unit of the results (with --units or a unit the file states): um, mm,
    /// cm, m, in, ft. Default m.
    #[arg(long, value_enum)]
    pub(super) output_units: Option<LengthUnit>,
    /// Read the input in --units even where the file states another unit (3MF `unit`,
    /// DXF `$INSUNITS`).
    #[arg(long, requires = "units")]
    pub(super) units_override: bool,
    #[command(flatten)]
    pub(super) present: Presentation,
}

impl Common {
    /// The density or mass for a body of dimension `dim`; `thickness` (polygons) turns a
    /// volumetric density into an areal one.
    pub(super) fn amount(&self, dim: usize, thickness: Option<f64>) -> Result<Amount> {
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
    pub(super) fn adopt_file_units(&mut self, files: &[PathBuf], kind: FileKind) -> Result<()> {
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

    pub(super) fn units(&self) -> Units {
        Units {
            input: self.units,
            output: self.output_units,
        }
    }

    pub(super) fn format(&self) -> OutputFormat {
        self.present.format()
    }

    pub(super) fn about<const N: usize>(&self) -> Result<Option<[f64; N]>> {
        self.present.about::<N>()
    }

    /// Units, product sign and axis for a report of dimension `dim`.
    pub(super) fn view(&self, dim: usize) -> Result<View> {
        self.present.view(self.units(), dim)
    }
}

/// How results are presented: the point and axis of the moments, the sign of products, the
/// output format. Shared by every command that prints a report.
#[derive(Args, Debug)]
pub(super) struct Presentation {
    /// Point the moments are about: centroid, origin, or X,Y (polygons) / X,Y,Z (meshes),
    /// in the input's units.
    #[arg(long, default_value = "centroid", allow_hyphen_values = true)]
    pub(super) about: About,
    /// Also report the moment about the axis through the --about point along this direction:
    /// X,Y (in-plane, polygons) or X,Y,Z (meshes).
    #[arg(long, allow_hyphen_values = true)]
    pub(super) axis: Option<String>,
    /// Sign of products of inertia: tensor (−∫xy dm, the default for every command) or cad
    /// (+∫xy dm).
    #[arg(long, value_enum)]
    pub(super) products: Option<Products>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub(super) format: OutputFormat,
    /// Short for `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub(super) json: bool,
}

impl Presentation {
    pub(super) fn format(&self) -> OutputFormat {
        if self.json {
            OutputFormat::Json
        } else {
            self.format
        }
    }

    /// The `--about` point, or `None` for the centroid.
    pub(super) fn about<const N: usize>(&self) -> Result<Option<[f64; N]>> {
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
    pub(super) fn view(&self, units: Units, dim: usize) -> Result<View> {
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
            products: self.products.unwrap_or_default(),
            axis,
        })
    }
}

#[derive(Args, Debug)]
pub(super) struct CombineArgs {
    /// Reports printed by `inertia polygon|mesh|shape --json` (a single report, a multi-file
    /// `{"parts": ...}` report, or JSON Lines), or `-` for standard input.
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
    /// Move the parts of file N: N=X,Y,Z (or N=X,Y for plates), in the reports' length unit.
    #[arg(long, allow_hyphen_values = true)]
    pub(super) translate: Vec<String>,
    /// Turn the parts of file N about the origin before moving them: N=x:DEG, N=y:DEG,
    /// N=z:DEG, N=X,Y,Z:DEG (any axis), or N=DEG (about z; the only turn for plates).
    #[arg(long, allow_hyphen_values = true)]
    pub(super) rotate: Vec<String>,
    #[command(flatten)]
    pub(super) present: Presentation,
}

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
pub(super) struct Out2d {
    /// Plate thickness (input units): the density is then per volume.
    #[arg(long, allow_negative_numbers = true)]
    pub(super) thickness: Option<f64>,
    /// Also write the outline as a JSON polygon (a circle as a --segments-gon).
    #[arg(long)]
    pub(super) polygon_out: Option<PathBuf>,
    /// Segments of a tessellated circle.
    #[arg(long, default_value_t = 64)]
    pub(super) segments: usize,
    #[command(flatten)]
    pub(super) common: Common,
}

#[derive(Args, Debug)]
pub(super) struct Out3d {
    /// Also write a tessellation: ASCII STL with full f64 precision (.stl) or OBJ (.obj).
    #[arg(long)]
    pub(super) mesh_out: Option<PathBuf>,
    /// Segments around each circle of the tessellation.
    #[arg(long, default_value_t = 64)]
    pub(super) segments: usize,
    #[command(flatten)]
    pub(super) common: Common,
}
