//! `inertia mesh part.step`: exact CAD solids (STEP, IGES, BREP) through OpenCASCADE, with
//! the feature `step`; without it, the command that builds it.

use super::*;

/// The CAD format a file name says (`.step`, `.stp`, `.iges`, `.igs`, `.brep`), if any.
pub(super) fn cad_name(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "step" | "stp" => "STEP",
        "iges" | "igs" => "IGES",
        "brep" => "BREP",
        _ => return None,
    })
}

/// Refuses a CAD file in a build without the feature `step`, naming the command that
/// builds it.
#[cfg(not(feature = "step"))]
pub(super) fn refuse_cad(files: &[PathBuf]) -> Result<()> {
    if let Some((path, what)) = files.iter().find_map(|p| cad_name(p).map(|w| (p, w))) {
        bail!(
            "{}: {what} files are read through OpenCASCADE, which this inertia was built without: \
             install OpenCASCADE (Debian: apt-get install libocct-foundation-dev \
             libocct-modeling-data-dev libocct-modeling-algorithms-dev \
             libocct-data-exchange-dev libocct-ocaf-dev) and build with \
             `cargo install --locked --features step --path .` (or `cargo build --release --features step`)",
            path.display()
        );
    }
    Ok(())
}

/// With the feature `step`, CAD files are read.
#[cfg(feature = "step")]
pub(super) fn refuse_cad(_files: &[PathBuf]) -> Result<()> {
    Ok(())
}

/// Refuses `--input-format step` (`iges`, `brep`) as [`refuse_cad`] refuses a file named so.
#[cfg(not(feature = "step"))]
pub(super) fn refuse_cad_format(ext: &str) -> Result<()> {
    let file = PathBuf::from(format!("input.{ext}"));
    refuse_cad(std::slice::from_ref(&file)).map_err(|e| {
        anyhow::anyhow!(
            "--input-format {ext}{}",
            e.to_string()
                .trim_start_matches("input.")
                .trim_start_matches(ext)
        )
    })
}

/// With the feature `step`, every CAD format is read.
#[cfg(feature = "step")]
pub(super) fn refuse_cad_format(_ext: &str) -> Result<()> {
    Ok(())
}

#[cfg(feature = "step")]
pub(super) use with_step::*;

#[cfg(feature = "step")]
mod with_step {
    use super::*;
    use inertia::io::step::{self, Cad, CadFormat, CadOverlap};

    /// How CAD files are read with `--overlap`.
    pub(in crate::cli) fn cad_options(overlap: OverlapChoice) -> step::Options {
        step::Options {
            overlap: match overlap {
                OverlapChoice::Refuse => CadOverlap::Refuse,
                OverlapChoice::Sum => CadOverlap::Sum,
                // B-rep solids are not united (yet): overlapping ones are refused.
                #[cfg(feature = "union")]
                OverlapChoice::Union => CadOverlap::Refuse,
            },
            ..step::Options::default()
        }
    }

    /// Reads a CAD file as the format its name says, or `forced` (an extension: `step`,
    /// `iges`, `brep`, from `--input-format`): OpenCASCADE's shapes (to be tessellated) and
    /// the file's parts, as [`inertia::read_path`] gives them.
    pub(in crate::cli) fn read_cad(
        path: &Path,
        forced: Option<&str>,
        overlap: OverlapChoice,
    ) -> Result<(Cad, Parts)> {
        let named = forced.map(|e| PathBuf::from(format!("input.{e}")));
        let format = CadFormat::from_path(named.as_deref().unwrap_or(path))
            .context("not a CAD file name")?;
        let cad = step::read(path, format, &cad_options(overlap))?;
        let parts = Parts::of_cad(&cad, format);
        Ok((cad, parts))
    }

    /// A CAD solid as what a mesh report says besides its integrals (no triangles).
    pub(in crate::cli) fn body_of(s: &step::CadSolid) -> Body {
        inertia::read::cad_body(s)
    }

    // One tessellation's row of the convergence, as printed (the schema's).
    use inertia::report::schema::{Tessellation as Row, TessellationComparison};

    /// The chordal deflections of `--method all`: 1e-2, 1e-3 and 1e-4 of the solid's
    /// bounding-box diagonal.
    const DEFLECTIONS: [f64; 3] = [1e-2, 1e-3, 1e-4];

    /// `--method all` on a CAD file of one solid (`file`, read from `cad`, named `label` in
    /// messages): the B-rep
    /// report, then the solid tessellated at decreasing deflections and integrated by
    /// `tetra`, converging to it, each weighed as the B-rep is (`at`). Exit 1 when a
    /// tessellation differs from the B-rep by more than its chords allow.
    pub(in crate::cli) fn compare_tessellations(
        label: &str,
        file: &MeshFile,
        mut cad: Cad,
        at: &MeshAt,
        output: OutputFormat,
    ) -> Result<Outcome> {
        let [part] = &file.parts[..] else {
            bail!(
                "--method all compares methods on one body; {label} holds {} solids",
                file.parts.len()
            );
        };
        let solid = cad.solids[0].clone();
        let diagonal = {
            let (lo, hi) = (solid.bounding_box.min, solid.bounding_box.max);
            (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt()
        };
        let deflections: Vec<f64> = DEFLECTIONS.iter().map(|f| f * diagonal).collect();
        let tess = step::tessellations(&mut cad, 0, &deflections)
            .with_context(|| format!("{label}: tessellation"))?;
        let brep = at.report_by(part, "brep", part.integrals[0])?;
        let rows = tess
            .iter()
            .map(|t| {
                let unit = MeshIntegral {
                    properties: t.properties,
                    grid: None,
                };
                let r = at.report_by(part, MeshMethod::Tetra.name(), unit)?;
                Ok(Row {
                    deflection: t.deflection * at.view.units.length_factor(),
                    triangles: t.triangles,
                    volume: r.volume,
                    centroid: r.centroid,
                    inertia_tensor: r.inertia_tensor,
                    difference: t.difference,
                    bound: t.bound,
                    within: t.difference <= t.bound,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let agree = rows.iter().all(|r| r.within);
        let stdout = match output {
            OutputFormat::Table => {
                let mut s = output.mesh(&brep);
                s += &format!(
                    "\ntessellations (tetra) against the B-rep: difference = largest relative \
                     difference of volume, centroid (to the diagonal) and tensor (to the largest \
                     moment); bound = 4 × deflection × area / volume, an estimate\n  {:>12}  {:>10}  {:>22}  {:>10}  {:>10}\n",
                    "deflection", "triangles", "volume", "difference", "bound"
                );
                for r in &rows {
                    s += &format!(
                        "  {:>12.3e}  {:>10}  {:>22}  {:>10.2e}  {:>10.2e}{}\n",
                        r.deflection,
                        r.triangles,
                        inertia::details::num(r.volume),
                        r.difference,
                        r.bound,
                        if r.within { "" } else { "  OUTSIDE" }
                    );
                }
                s += &format!(
                    "{}\n",
                    if agree {
                        "the tessellations converge to the B-rep within their bounds"
                    } else {
                        "a tessellation DISAGREES with the B-rep beyond its bound"
                    }
                );
                s
            }
            _ => inertia::report::json::pretty(&TessellationComparison {
                brep: &brep,
                tessellations: &rows,
                agree,
            }),
        };
        let why = (!agree).then(|| {
            format!("{label}: a tessellation differs from the B-rep by more than its chords allow")
        });
        let mut out = judged(stdout, why);
        out.warnings.splice(0..0, part.warning_lines(false));
        Ok(out)
    }
}
