//! Command-line arguments and the glue from them to the library.

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use inertia::io::{PolygonFormat, read_polygon};
use inertia::report::{OutputFormat, PolygonReport};
use inertia::{About, Amount, PolygonMethod, positive};
use nalgebra::Point2;
use std::io::Read;
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
    }
}

/// The input's bytes and its display name.
fn read_input(path: &Path) -> Result<(Vec<u8>, String)> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("<stdin>: cannot read")?;
        Ok((buf, "-".into()))
    } else {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).with_context(|| format!("{name}: cannot read"))?;
        Ok((bytes, name))
    }
}

fn polygon(a: PolygonArgs) -> Result<String> {
    let amount = a.amount.amount()?;
    let (bytes, name) = read_input(&a.file)?;
    let label = if name == "-" {
        "<stdin>".to_string()
    } else {
        name.clone()
    };
    let format = a
        .input_format
        .or_else(|| PolygonFormat::from_path(&a.file))
        .unwrap_or_else(|| PolygonFormat::sniff(&bytes));
    let poly = read_polygon(&bytes, format).with_context(|| label.clone())?;
    // Resolve --about against the centroid (only needed when it is a point or the origin).
    let about = match &a.about {
        About::Centroid => None,
        other => {
            let p = other.resolve(&[0.0, 0.0]).map_err(anyhow::Error::msg)?;
            Some(Point2::new(p[0], p[1]))
        }
    };
    let report = PolygonReport::new(&name, &poly, a.method, amount, about);
    if !report.mass.is_finite() || !report.inertia.is_finite() {
        bail!("{label}: the result overflows f64 (coordinates or density too large)");
    }
    Ok(a.output.format().polygon(&report))
}
