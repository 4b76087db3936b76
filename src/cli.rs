//! Command-line arguments and the glue from them to the library.

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use inertia::io::{Bytes, MeshFormat, PolygonFormat, read_mesh, read_polygon};
use inertia::report::{MeshReport, OutputFormat, PolygonReport};
use inertia::{About, Amount, MeshMethod, PolygonMethod, positive};
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
        echo '[[0,0],[1,0],[1,1],[0,1]]' | inertia polygon - --about origin"
    )]
    Polygon(PolygonArgs),
    /// Volume, mass, centre of mass and inertia tensor of a closed triangle mesh.
    #[command(
        after_help = "Examples:\n  inertia mesh fixtures/mesh/right_tetrahedron.stl --mass 5\n  \
        inertia mesh part.obj --density 7850 --json\n  \
        inertia mesh - --input-format stl --about 0,0,0 < part.stl"
    )]
    Mesh(MeshArgs),
}

#[derive(Args, Debug)]
struct MeshArgs {
    /// Mesh file (STL binary or ASCII, OBJ), or `-` for standard input.
    file: PathBuf,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum)]
    input_format: Option<MeshFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = MeshMethod::Tetra)]
    method: MeshMethod,
    #[command(flatten)]
    amount: AmountArgs,
    /// Point the tensor is about: centroid, origin or X,Y,Z.
    #[arg(long, default_value = "centroid", allow_hyphen_values = true)]
    about: About,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args, Debug)]
struct PolygonArgs {
    /// Polygon file (JSON or CSV), or `-` for standard input.
    file: PathBuf,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum)]
    input_format: Option<PolygonFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = PolygonMethod::Fan)]
    method: PolygonMethod,
    #[command(flatten)]
    amount: AmountArgs,
    /// Point the moments are about: centroid, origin or X,Y.
    #[arg(long, default_value = "centroid", allow_hyphen_values = true)]
    about: About,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args, Debug)]
struct AmountArgs {
    /// Density: mass per unit area (polygons) or volume (meshes). Default 1.
    #[arg(long, allow_negative_numbers = true, conflicts_with = "mass")]
    density: Option<f64>,
    /// Total mass; the density becomes mass / area (or volume).
    #[arg(long, allow_negative_numbers = true)]
    mass: Option<f64>,
}

impl AmountArgs {
    fn amount(&self) -> Result<Amount> {
        Ok(match (self.density, self.mass) {
            (_, Some(m)) => Amount::Mass(positive("--mass", m)?),
            (Some(d), None) => Amount::Density(positive("--density", d)?),
            (None, None) => Amount::Density(1.0),
        })
    }
}

#[derive(Args, Debug)]
struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    format: OutputFormat,
    /// Short for `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
}

impl OutputArgs {
    fn format(&self) -> OutputFormat {
        if self.json {
            OutputFormat::Json
        } else {
            self.format
        }
    }
}

/// Runs the command and returns what to print on stdout.
pub fn run(cli: Cli) -> Result<String> {
    match cli.command {
        Command::Polygon(a) => polygon(a),
        Command::Mesh(a) => mesh(a),
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

/// The `--about` point, or `None` for the centroid.
fn about_point<const N: usize>(about: &About) -> Result<Option<[f64; N]>> {
    match about {
        About::Centroid => Ok(None),
        other => {
            let p = other.resolve(&[0.0; N]).map_err(anyhow::Error::msg)?;
            let mut out = [0.0; N];
            out.copy_from_slice(&p);
            Ok(Some(out))
        }
    }
}

fn mesh(a: MeshArgs) -> Result<String> {
    let amount = a.amount.amount()?;
    let about = about_point::<3>(&a.about)?.map(Point3::from);
    let (bytes, name, label) = read_input(&a.file)?;
    let format = a
        .input_format
        .or_else(|| MeshFormat::from_path(&a.file))
        .unwrap_or_else(|| MeshFormat::sniff(&bytes));
    let mesh = read_mesh(&bytes, format).with_context(|| label.clone())?;
    let report = MeshReport::new(&name, &mesh, a.method, amount, about);
    let finite = report.mass.is_finite()
        && report
            .inertia_tensor
            .iter()
            .flatten()
            .all(|v| v.is_finite());
    if !finite {
        bail!("{label}: the result overflows f64 (coordinates or density too large)");
    }
    if mesh.inside_out() {
        eprintln!(
            "inertia: warning: {label}: the mesh is inside-out (its triangles face inward); computed as if turned right way out"
        );
    }
    Ok(a.output.format().mesh(&report))
}

fn polygon(a: PolygonArgs) -> Result<String> {
    let amount = a.amount.amount()?;
    let about = about_point::<2>(&a.about)?.map(Point2::from);
    let (bytes, name, label) = read_input(&a.file)?;
    let format = a
        .input_format
        .or_else(|| PolygonFormat::from_path(&a.file))
        .unwrap_or_else(|| PolygonFormat::sniff(&bytes));
    let poly = read_polygon(&bytes, format).with_context(|| label.clone())?;
    let report = PolygonReport::new(&name, &poly, a.method, amount, about);
    if !report.mass.is_finite() || !report.inertia.is_finite() {
        bail!("{label}: the result overflows f64 (coordinates or density too large)");
    }
    Ok(a.output.format().polygon(&report))
}
