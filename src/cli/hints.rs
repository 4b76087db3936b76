//! The command line's words for the library's errors: the library states the facts
//! (typed fields, messages without flags); this module names the flags that would help
//! ("give --overlap sum to add them") and calls parameters by their flags.

use inertia::Error;
use inertia::details::num;
use inertia::error::{
    Excess, FormatProblem, Need, OptionsProblem, Parameter, ShellProblem, Unresolved,
};

/// The tolerance to suggest for a repair of this relative size: the next 1, 2 or 5 times a
/// power of ten above it.
fn next_tolerance(relative: f64) -> f64 {
    let e = relative.log10().floor();
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * 10f64.powf(e))
        .find(|&t| t >= relative)
        .unwrap_or(relative)
}

/// `e`'s message as the command line prints it: the library's, with the flag that would
/// help where one would.
pub fn message(e: &Error) -> String {
    match e {
        Error::InPart { part, error } => format!("{part}: {}", message(error)),
        // The command that reads the file, or the flag that says what it is.
        Error::Format {
            problem: FormatProblem::PolygonByName,
        } => "a polygon file by its name: `inertia polygon` reads it (or give --input-format if it is a mesh)".to_string(),
        Error::Format {
            problem: FormatProblem::MeshByName,
        } => "a triangle mesh by its name: `inertia mesh` reads it (or give --input-format if it is a polygon)".to_string(),
        Error::Format {
            problem: FormatProblem::PolygonByContent,
        } => "a polygon file by its content: `inertia polygon` reads it (or give --input-format if it is a mesh)".to_string(),
        Error::Format {
            problem: FormatProblem::MeshByContent,
        } => "a triangle mesh by its content: `inertia mesh` reads it (or give --input-format if it is a polygon)".to_string(),
        Error::Format {
            problem: FormatProblem::NotAMesh,
        } => format!("{e}: give --input-format if it is one"),
        Error::Options { problem } => options(*problem).unwrap_or_else(|| e.to_string()),
        // Parameters are named by their flags.
        Error::InvalidParameter { name, value, need } => {
            let flag = flag(*name);
            match need {
                Need::Between { min, max } => {
                    format!("{flag} must be between {} and {}, got {value}", num(*min), num(*max))
                }
                Need::NonNegative => {
                    format!("{flag} must be a finite number of at least 0, got {value}")
                }
                Need::AtLeast(min) => format!("{flag} must be at least {}, got {value}", num(*min)),
                Need::AtMost { other, value: max } => {
                    let other = self::flag(*other);
                    let why = if *name == Parameter::Height {
                        ": a biconvex lens (two caps of at most a hemisphere) is at most as tall as it is wide"
                    } else {
                        ""
                    };
                    format!("{flag} {value} is more than {other} {max}{why}")
                }
                _ => format!("{flag} must be a positive finite number, got {value}"),
            }
        }
        Error::Overlapping {
            at,
            sum_allowed: true,
        } => format!(
            "{at}: two bodies overlap or a surface passes through itself; {UNITE}, or give --overlap sum to add them as they are"
        ),
        Error::RepairTooLarge { relative, .. } => format!(
            "{e}: give --repair-tolerance {} to accept it",
            num(next_tolerance(*relative))
        ),
        Error::BadShell {
            shell,
            first,
            problem: ShellProblem::OutwardInside,
        } => format!(
            "shell {shell} (from {first}) is wound outward but lies inside another shell: a body inside another (they overlap: {UNITE}, or give --overlap sum to add them), or a cavity wound the wrong way (fix the orientation of its triangles)"
        ),
        Error::PointDimension { needed, got } => {
            format!("--about needs {needed} coordinates here, got {got}")
        }
        Error::GeojsonDegrees { crs, beyond, utm } => geojson_degrees(crs, beyond.is_some(), *utm),
        Error::GeojsonGeographic { .. } => format!(
            "{e} (--units): project it to a plane coordinate system first (`ogr2ogr -t_srs EPSG:...`), then give that system's unit with --units"
        ),
        _ => match hint(e) {
            Some(h) => format!("{e}{h}"),
            None => e.to_string(),
        },
    }
}

/// [`Error::GeojsonDegrees`] as the command line says it: what to run, and that `--units`
/// declares the coordinates lengths.
fn geojson_degrees(crs: &inertia::io::geojson::Crs, beyond: bool, utm: Option<u32>) -> String {
    use inertia::io::geojson::Crs;
    if let Crs::Other(name) = crs {
        return format!(
            "its crs names {name}, whose unit is not known here, and GeoJSON coordinates are degrees of longitude and latitude unless --units declares them lengths: give the unit of its coordinates with --units"
        );
    }
    if beyond {
        return "coordinates beyond longitude ±180° or latitude ±90° are not the degrees RFC 7946 says but lengths in a unit the file does not state: give it with --units".into();
    }
    let named = crs
        .name()
        .map_or_else(String::new, |n| format!(", and its crs names {n}"));
    let code = utm.map_or_else(|| "...".to_string(), |c| c.to_string());
    let zone = if utm.is_some() { ", its UTM zone" } else { "" };
    format!(
        "GeoJSON coordinates are longitude and latitude in degrees (RFC 7946{named}), not lengths: project the file first (`ogr2ogr -t_srs EPSG:{code} out.geojson in.geojson`{zone}) and give --units m; if its coordinates are lengths already, give their unit with --units"
    )
}

/// [`Error::Options`] as the command line says it, naming the flags.
fn options(problem: OptionsProblem) -> Option<String> {
    const UNITS: &str = "say the input's length unit with --units (mm, cm, m, in, ft, ...)";
    Some(match problem {
        OptionsProblem::OutputUnitWithoutUnit => "--output-units needs the input's length unit: give --units (or a 3MF or DXF file that states it)".into(),
        OptionsProblem::MaterialWithoutUnit => format!("--material gives a density in kg/m³: {UNITS}"),
        OptionsProblem::MaterialWithoutThickness => "--material is a density per volume: give the plate's --thickness for a polygon".into(),
        OptionsProblem::DensityUnitWithoutUnit { value, unit } => {
            format!("--density {} is in {unit}: {UNITS}", num(value))
        }
        OptionsProblem::DensityPerVolumeWithoutThickness { value, unit } => format!(
            "--density {} {unit} is per volume: give the plate's --thickness for a polygon",
            num(value)
        ),
        OptionsProblem::DensityPerArea { value, unit } => format!(
            "--density {} {unit} is per area: a solid (or a plate given a --thickness) needs a density per volume",
            num(value)
        ),
        OptionsProblem::ShellWithMethods => "--shell is a method of its own; leave out --method".into(),
        _ => return None,
    })
}

/// The flag that sets `p`.
fn flag(p: Parameter) -> &'static str {
    match p {
        Parameter::Density => "--density",
        Parameter::Mass => "--mass",
        Parameter::Thickness => "--thickness",
        Parameter::ShellThickness => "--shell",
        Parameter::WeldTolerance => "--weld-tolerance",
        Parameter::JoinTolerance => "--join-tolerance",
        Parameter::Size => "--size",
        Parameter::Radius => "--radius",
        Parameter::Circumradius => "--circumradius",
        Parameter::Height => "--height",
        Parameter::Width => "--width",
        Parameter::Side => "--side",
        Parameter::Sides => "--sides",
        Parameter::Resolution => "--resolution",
        Parameter::RepairTolerance => "--repair-tolerance",
        _ => "a parameter",
    }
}

/// How to unite overlapping bodies: `--overlap union` when it is built.
#[cfg(feature = "union")]
const UNITE: &str = "give --overlap union to integrate their union";
#[cfg(not(feature = "union"))]
const UNITE: &str = "union them first";

/// What to add to the library's message of `e`: the flag that helps, or nothing.
fn hint(e: &Error) -> Option<String> {
    Some(match e {
        Error::OpenMesh {
            nearest_gap: Some(d),
            ..
        } => format!(": --weld-tolerance {} would join them", num(d * 1.5)),
        Error::SolidsOverlap { .. } => ": give --overlap sum to add them as they are".into(),
        Error::OpenPiece {
            nearest: Some(d),
            joinable: true,
            ..
        } => format!(": --join-tolerance {} would join them", num(d * 1.5)),
        Error::NearMiss { gap, .. } => {
            format!(": --join-tolerance {} closes the gap", num(gap * 1.5))
        }
        Error::Empty {
            missing: inertia::error::Missing::Layout { layouts, .. },
        } if layouts.is_empty() => ": --space paper reads its paper space".into(),
        Error::Unresolvable {
            what: Unresolved::VoxelGrid { .. },
        } => "; give a larger --resolution, or --method tetra".into(),
        Error::TooLarge { excess } => match excess {
            Excess::VoxelColumns { .. } => ": give a smaller --resolution".into(),
            Excess::Triangles { .. }
            | Excess::BuildTriangles { .. }
            | Excess::BuildVertices { .. } => " (the limit: --max-triangles)".into(),
            Excess::Entities { .. } => " (the limit: --max-entities)".into(),
            Excess::Stream { .. } => " (the limit: --max-input-bytes)".into(),
            _ => return None,
        },
        Error::Empty {
            missing: inertia::error::Missing::BuildItems { surface, .. },
        } if *surface > 0 => "; --shell integrates a surface as a wall".into(),
        Error::Empty {
            missing:
                inertia::error::Missing::Outline {
                    space: inertia::error::DxfSpace::Model,
                    elsewhere,
                    ..
                },
        } if *elsewhere > 0 => ": --space paper or --space layout:NAME reads them".into(),
        _ => return None,
    })
}

/// The library error inside `cause`, when it is one (or an I/O error wrapping one).
pub fn library_error<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a Error> {
    cause.downcast_ref::<Error>().or_else(|| {
        cause
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<Error>())
    })
}

/// The tip for a `--units` or `--output-units` value that names no unit: the closest name
/// or spelling of one (by Jaro–Winkler similarity, as clap suggests values), always with
/// the unit's size, so that a near name of another size (`mil` for `milimeter`, 39 times
/// smaller) is never taken on trust. `None` when no name is close.
pub fn length_unit_tip(value: &str) -> Option<String> {
    use clap::ValueEnum;
    use inertia::units::LengthUnit;
    let value = value.to_lowercase();
    let (score, name, unit) = LengthUnit::value_variants()
        .iter()
        .filter_map(|u| Some((u, u.to_possible_value()?)))
        .flat_map(|(u, pv)| {
            pv.get_name_and_aliases()
                .map(|n| {
                    (
                        strsim::jaro_winkler(&value, &n.to_lowercase()),
                        n.to_string(),
                        *u,
                    )
                })
                .collect::<Vec<_>>()
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    (score > 0.8).then(|| {
        let size = if name == unit.symbol() {
            format!("{} m", num(unit.metres()))
        } else {
            format!("{}, {} m", unit.symbol(), num(unit.metres()))
        };
        format!("did you mean '{name}' ({size})?")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use inertia::error::{OverlapAt, OverlapKind};

    #[test]
    fn hints_name_the_flags() {
        let at = OverlapAt {
            triangles: [1, 2],
            kind: OverlapKind::Cross([0.0; 3]),
            depth: None,
            tolerance: 0.0,
        };
        let e = Error::Overlapping {
            at,
            sum_allowed: true,
        };
        assert!(message(&e).ends_with(&format!(
            "{UNITE}, or give --overlap sum to add them as they are"
        )));
        let e = Error::InvalidParameter {
            name: Parameter::Density,
            value: 0.0,
            need: Need::Positive,
        };
        assert_eq!(
            message(&e),
            "--density must be a positive finite number, got 0"
        );
        let e = Error::in_part(
            "part 2",
            Error::TooLarge {
                excess: Excess::Stream { max: 10 },
            },
        );
        assert_eq!(
            message(&e),
            "part 2: the stream goes on past 10 bytes (the limit: --max-input-bytes)"
        );
    }
}
