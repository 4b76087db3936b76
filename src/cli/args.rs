//! The command line: the commands and their method choices (clap derive). Each command's
//! own flags are in its file (`polygon.rs`, `mesh.rs`, `shape.rs`, `combine.rs`), the shared
//! ones in `options.rs`.

use super::*;

/// Exact, validated mass properties of polygons and triangle meshes.
#[derive(Parser, Debug)]
#[command(
    name = "inertia",
    version,
    about,
    long_about = "Exact, validated mass properties of polygons and closed triangle meshes: area or volume, mass, \
centroid, moments and products of inertia, principal moments and axes. Bad input is refused with one line \
naming the file and the place, and exit code 2; `--method all` exits with 1 when the methods disagree \
(see `inertia manpage`, EXIT STATUS).",
    after_help = "Examples:\n  echo '[[0,0],[2,0],[2,1],[0,1]]' | inertia polygon - --density 2\n  \
        inertia shape box --size 10,20,5 --mesh-out box.stl && inertia mesh box.stl --units mm --material steel\n  \
        inertia shape biconvex --width 2.2 --height 0.92 --mass 1\n  \
        inertia mesh parts/*.stl --format csv\n\n\
        parts/ stands for a folder of your own; the other examples work in any folder."
)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
    /// Read at most this many bytes from standard input or another stream, such as a pipe
    /// (regular files are read whatever their size).
    #[arg(long, global = true, value_name = "BYTES", help_heading = "Limits", default_value_t = inertia::io::DEFAULT_MAX_STREAM_BYTES)]
    pub(super) max_input_bytes: u64,
}

/// The stream limit of this run (`--max-input-bytes`), set once by [`run`].
pub(super) static MAX_INPUT_BYTES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Area, mass, centroid and moments of inertia of a 2D polygon (with holes).
    ///
    /// DXF drawings are read as a CAD program shows their model space: closed LWPOLYLINEs
    /// and 2D POLYLINEs (PEDIT-fitted ones through their fitted vertices), CIRCLEs,
    /// ELLIPSEs, and outlines of LINEs, ARCs, elliptical arcs, open polylines and SPLINEs
    /// joined end to end (within 1e-6 of the larger piece's extent, or --join-tolerance);
    /// INSERTs and MINSERT arrays expanded (counted first: --max-entities). Bulges, arcs,
    /// circles, ellipses and SPLINEs are integrated exactly (rational splines to 1e-13).
    /// Paper space and layouts (--space; a drawing with nothing but annotations in model
    /// space is read from its paper space, with a warning), invisible entities, layers
    /// that are off or frozen, annotations (MTEXT frames and HATCHes included), dots and
    /// zero-area loops are left out and counted in "ignored"; so are pieces in no closed
    /// outline (centre lines, leaders: one warning counts them; --open error refuses
    /// them), except an end that nearly meets another (a gap, refused with the
    /// --join-tolerance that closes it); external references and geometry not read
    /// (SOLID, REGION, MESH, ...) are refused. $INSUNITS gives the unit.
    #[command(
        after_help = "Examples:\n  echo '[[0,0],[2,0],[2,1],[0,1]]' | inertia polygon - --density 2\n  \
        printf 'x;y\\n0;0\\n30;0\\n0;40\\n' | inertia polygon - --units mm --material steel --thickness 2\n  \
        inertia polygon profile.csv --mass 3 --method centroid --json\n  \
        echo '[[0,0],[1,0],[1,1],[0,1]]' | inertia polygon - --about origin --method all\n\n\
        profile.csv stands for your own file; the other examples work in any folder.",
        mut_arg("density", |a| a.help("Density: mass per unit area; with --units in kg/m², or kg/m³ with a --thickness. Default 1")),
        mut_arg("mass", |a| a.help("Total mass (kg with --units); the density becomes mass / area")),
        mut_arg("about", |a| a.help("Point the moments are about: centroid, origin, or X,Y in the input's units")),
        mut_arg("material", |a| a.help("A material from `inertia materials`: its density in kg/m³, so it needs the length unit (--units, or a DXF that states it) and the plate's --thickness")),
        mut_arg("axis", |a| a.help("Also report the moment about the in-plane axis through the --about point along X,Y")),
        mut_arg("products", |a| a.help("Sign of the product of inertia: tensor (ixy = −∫xy dm, the default, as for meshes) or cad (+∫xy dm)"))
    )]
    Polygon(PolygonArgs),
    /// Volume, mass, centre of mass and inertia tensor of a closed triangle mesh.
    #[command(
        after_help = "Examples:\n  inertia shape sphere --radius 1 --segments 64 --mesh-out ball.stl && inertia mesh ball.stl --mass 5\n  \
        inertia mesh part.obj --density 7850 --json\n  \
        inertia mesh part.stl --method all --resolution 800\n  \
        inertia mesh - --input-format stl --about 0,0,0 < part.stl\n\n\
        part.obj and part.stl stand for your own files; the first example works in any folder.",
        mut_arg("density", |a| a.help("Density: mass per unit volume; with --units in kg/m³. Default 1")),
        mut_arg("mass", |a| a.help("Total mass (kg with --units); the density becomes mass / volume")),
        mut_arg("about", |a| a.help("Point the tensor is about: centroid, origin, or X,Y,Z in the input's units")),
        mut_arg("material", |a| a.help("A material from `inertia materials`: its density in kg/m³, so it needs the length unit (--units, or a 3MF or STEP file that states it)")),
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
    /// Sums parts from `--json` reports (polygon, mesh, shape, combine), each optionally moved.
    #[command(
        after_help = "Examples:\n  inertia mesh body.stl --units mm --material aluminium --json > body.json\n  \
        inertia mesh wheel.stl --units mm --material steel --json > wheel.json\n  \
        inertia combine body.json wheel.json wheel.json --translate 2=0.1,0,0 --translate 3=-0.1,0,0 --rotate 3=z:180\n\n\
        body.stl and wheel.stl stand for your own files.\n\n\
        N in --translate N=... and --rotate N=... is the position of the file (from 1). Each part is\n\
        rotated about the origin first, then translated. Plates turn about z only: --rotate N=DEGREES.\n\
        Every report must be in the same units, and all plates or all solids. The sum is reported\n\
        with method `combine` (and combines again). Parts are added as they are: space two parts\n\
        share counts twice (to unite overlapping bodies, put them in one mesh file and give\n\
        `inertia mesh --overlap union`).",
        mut_arg("about", |a| a.help("Point the moments are about: centroid, origin, or X,Y (plates) / X,Y,Z (solids), in the reports' length unit")),
        mut_arg("axis", |a| a.help("Also report the moment about the axis through the --about point along this direction: X,Y (in-plane, plates) or X,Y,Z (solids)"))
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
        /// manpage, materials); without one, the page of `inertia` itself. Every page ends
        /// with the exit codes (EXIT STATUS).
        #[arg(value_name = "COMMAND", value_parser = ["polygon", "mesh", "shape", "combine", "completions", "manpage", "materials"])]
        command: Option<String>,
        /// For `shape`: the shape whose page to print (`inertia manpage shape sphere` is
        /// `inertia-shape-sphere(1)`).
        #[arg(value_name = "SHAPE")]
        shape: Option<String>,
    },
    /// The built-in materials for --material: density in kg/m³ and its source.
    Materials {
        /// Output format: table, json (`{"schema_version", "materials": [{"name", "density",
        /// "source"}]}`), csv (a header and a row per material) or jsonl (a material per
        /// line).
        #[arg(long, value_enum, default_value_t = OutputFormat::Table, hide_possible_values = true)]
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
    /// Every method, side by side, with their spread: one polygon of one file, a table or
    /// JSON; exit code 1 when they disagree beyond --tolerance.
    All,
}

/// `--method` for meshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum MeshChoice {
    /// Signed tetrahedra (exact). A CAD file (STEP, IGES, BREP) is integrated exactly on
    /// its B-rep instead.
    Tetra,
    /// Numerical integration over a grid of columns (approximate, see --resolution); not for
    /// a CAD file.
    Voxel,
    /// Every method, side by side, with their spread: one body of one file, a table or
    /// JSON; exit code 1 when the exact ones disagree beyond --tolerance. A CAD file's B-rep
    /// is set against three tessellations (exit code 1 when one differs by more than its
    /// chords allow).
    All,
}
