//! What a file was read despite, as values: [`Warning`], each with the one-line message
//! the command line prints (`read_path` returns them).

use crate::body::{Contacts, Junctions, LeftOut};
use crate::error::{OverlapAt, num};
use crate::io::dxf;
use std::fmt;

/// What kind of 3MF build item was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// `support` or `solidsupport`: removed from the part after building.
    Support,
    /// `other`: not part of the body.
    Other,
    /// `surface`: an open surface, no volume (a thin shell integrates it).
    Surface,
}

/// Something a file was read despite, worth saying: each has a one-line message.
///
/// # Examples
/// ```
/// use inertia::read::Warning;
/// assert_eq!(
///     Warning::StrayBytes { count: 3 }.to_string(),
///     "3 stray byte(s) after the last triangle of the binary STL were ignored"
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Warning {
    /// A binary STL read past stray bytes after its last triangle.
    StrayBytes {
        /// How many bytes.
        count: u64,
    },
    /// ASCII STL facets whose normal is not three finite numbers (`nan`, `inf`, a word),
    /// read past: normals are not used, the order of a facet's corners says which way it
    /// faces.
    NormalsUnread {
        /// How many.
        count: usize,
        /// The first, as `triangle N` (counted from 1).
        first: u64,
    },
    /// An open mesh closed by joining corners within a tolerance.
    PointsJoined {
        /// Points joined.
        count: usize,
        /// The tolerance they were joined within.
        tolerance: f64,
    },
    /// An open mesh closed at T-junctions: corners lying on another triangle's edge,
    /// where that triangle was split.
    JunctionsSplit(Junctions),
    /// Triangles whose corners were listed the other way round from their neighbours',
    /// turned to agree with them.
    Reoriented {
        /// How many.
        count: usize,
    },
    /// Bodies crossing only within a repair's reach, taken for touching, with a bound on
    /// the volume counted twice.
    Touching(Contacts),
    /// Triangles that cross or coincide, summed as asked (`solid::OverlapPolicy::Sum`).
    OverlapSummed(OverlapAt),
    /// Overlapping bodies replaced by their union, as asked (`solid::OverlapPolicy::Union`).
    United(crate::body::Union),
    /// Bodies lying inside another, summed as asked.
    Nested {
        /// How many.
        count: usize,
    },
    /// 3MF build items left out.
    ItemsLeftOut {
        /// Their type.
        kind: ItemKind,
        /// How many.
        count: usize,
    },
    /// A warning about 3MF build items checked together (`build items 1 (a) and 2 (b)`).
    InItems {
        /// The items.
        items: String,
        /// The warning.
        warning: Box<Warning>,
    },
    /// A mesh whose triangles face inward, computed as if turned right way out.
    InsideOut,
    /// DXF: ends of pieces joined beyond rounding.
    Joined(dxf::Joins),
    /// DXF: pieces in no closed outline left out ([`dxf::OpenPolicy::Leave`]), counted
    /// by entity type and layer.
    OpenPiecesLeftOut(dxf::OpenPieces),
    /// DXF: model space holds no geometry, and the active layout's paper space was read
    /// ([`dxf::Space::Auto`]).
    PaperSpaceRead {
        /// The entities model space holds (annotations only; 0 when empty).
        model_entities: usize,
    },
    /// GeoJSON coordinates read as lengths in the unit the user declared, not as the
    /// degrees of longitude and latitude RFC 7946 says they are.
    GeojsonLengths {
        /// The coordinate reference system the file's `crs` members name (not a
        /// geographic one nor Web Mercator: those are refused).
        crs: crate::crs::Crs,
    },
    /// A density given as a bare number in a known length unit, so in kg/m³, below
    /// [`crate::read::LIGHTEST_SOLID`]: lighter than any foam, and what a density in g/cm³
    /// reads as (7.85 for steel). Said, not changed.
    LightDensity {
        /// The density given, in kg/m³.
        density: f64,
        /// The length unit the lengths are in, which makes the bare number kg/m³.
        unit: crate::units::LengthUnit,
        /// Whether that unit is the one the file states (none was given).
        stated: bool,
    },
    /// The CAD reader's warning (feature `step`).
    Cad(String),
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match self {
            Warning::Reoriented { count } => write!(
                f,
                "{count} triangle(s) listed the other way round from their neighbours were turned to agree with them"
            ),
            Warning::StrayBytes { count } => write!(
                f,
                "{count} stray byte(s) after the last triangle of the binary STL were ignored"
            ),
            Warning::NormalsUnread { count, first } => write!(
                f,
                "{count} facet normal(s) not three finite numbers (the first at triangle {first}) read past: normals are not used, each facet's corners say which way it faces"
            ),
            Warning::PointsJoined { count, tolerance } => write!(
                f,
                "{count} point(s) within {} of another were joined to close the mesh",
                num(*tolerance)
            ),
            Warning::JunctionsSplit(Junctions {
                points,
                triangles,
                largest_offset,
                volume_bound,
            }) => {
                write!(
                    f,
                    "{points} corner(s) lying on another triangle's edge (T-junctions) closed the mesh: {triangles} triangle(s) split there"
                )?;
                if *largest_offset > 0.0 {
                    write!(
                        f,
                        " (corners up to {} off the edge: the volume changes by at most {})",
                        num(*largest_offset),
                        num(*volume_bound)
                    )?;
                }
                Ok(())
            }
            Warning::Touching(c) => {
                if c.count > 0 {
                    write!(
                        f,
                        "{} contact(s) between bodies cross by at most {}: taken for touching (at most {} of volume counted twice)",
                        c.count,
                        num(c.max_depth),
                        num(c.volume_bound)
                    )?;
                }
                if c.folds > 0 {
                    if c.count > 0 {
                        write!(f, "; ")?;
                    }
                    write!(
                        f,
                        "{} face(s) fold over themselves in their own plane (triangles turned over flat onto their neighbours, no volume between the layers): each taken for the flat face its outline bounds",
                        c.folds
                    )?;
                }
                Ok(())
            }
            Warning::OverlapSummed(at) => write!(
                f,
                "{at}: overlapping space is counted twice (summed as asked)"
            ),
            Warning::United(u) => {
                if u.united > 0 {
                    write!(
                        f,
                        "{} of {} bodies overlap and were united",
                        u.united, u.bodies
                    )?;
                }
                if u.resolved > 0 {
                    let and = if u.united > 0 { "; " } else { "" };
                    write!(
                        f,
                        "{and}{} bod{} whose surface crosses itself taken as the solid it encloses",
                        u.resolved,
                        if u.resolved == 1 { "y" } else { "ies" }
                    )?;
                }
                write!(
                    f,
                    ": a volume of {} was shared (counted once)",
                    num(u.shared_volume)
                )?;
                if u.volume_bound > 0.0 {
                    write!(
                        f,
                        "; rounding the union's new points to f64 changes its volume by at most {}",
                        num(u.volume_bound)
                    )?;
                }
                Ok(())
            }
            Warning::Nested { count } => write!(
                f,
                "{count} bod{} inside another: the space they share is counted twice (summed as asked)",
                if *count == 1 { "y lies" } else { "ies lie" }
            ),
            Warning::ItemsLeftOut { kind, count } => {
                let n = *count;
                match kind {
                    ItemKind::Support => write!(
                        f,
                        "{n} build item{} of type support or solidsupport left out (supports are removed from the part)",
                        plural(n)
                    ),
                    ItemKind::Other => write!(
                        f,
                        "{n} build item{} of type other left out (not part of the body)",
                        plural(n)
                    ),
                    ItemKind::Surface => write!(
                        f,
                        "{n} build item{} of type surface left out: an open surface has no volume",
                        plural(n)
                    ),
                }
            }
            Warning::InItems { items, warning } => write!(f, "{items}: {warning}"),
            Warning::InsideOut => write!(
                f,
                "the mesh is inside-out (its triangles face inward); computed as if turned right way out"
            ),
            Warning::Joined(j) => write!(
                f,
                "ends of pieces up to {} apart were joined (join tolerance {}, in the drawing's units): the area may differ from the drawn one by up to {} (gap × perimeter)",
                num(j.largest_gap),
                num(j.tolerance),
                num(j.area_bound)
            ),
            Warning::OpenPiecesLeftOut(open) => {
                let counts = |m: &std::collections::BTreeMap<String, usize>| {
                    m.iter()
                        .map(|(k, n)| format!("{n} {}", crate::error::clip(k)))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                write!(
                    f,
                    "{} piece{} in no closed outline left out ({}; on layer{} {})",
                    open.count,
                    plural(open.count),
                    counts(&open.kinds),
                    plural(open.layers.len()),
                    open.layers
                        .iter()
                        .map(|(l, n)| format!("{} ({n})", crate::error::clip(l)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            Warning::PaperSpaceRead { model_entities } => {
                write!(f, "model space holds no outline or piece")?;
                if *model_entities > 0 {
                    write!(
                        f,
                        " (its {model_entities} {})",
                        if *model_entities == 1 {
                            "entity is an annotation"
                        } else {
                            "entities are annotations"
                        }
                    )?;
                }
                write!(
                    f,
                    ": the outlines of the active layout's paper space were read"
                )
            }
            Warning::GeojsonLengths { crs } => {
                write!(
                    f,
                    "GeoJSON coordinates read as lengths in the declared unit, not as the degrees of longitude and latitude RFC 7946 says"
                )?;
                match crs.name() {
                    Some(n) => write!(f, "; its crs names {n}"),
                    None => Ok(()),
                }
            }
            Warning::LightDensity {
                density,
                unit,
                stated,
            } => {
                write!(f, "the density {} is taken in kg/m³", num(*density))?;
                if *stated {
                    write!(f, " (the file states its lengths in {})", unit.symbol())?;
                }
                write!(
                    f,
                    ", lighter than any foam: {} g/cm³ would be {} kg/m³",
                    num(*density),
                    num(density * 1000.0)
                )
            }
            Warning::Cad(text) => f.write_str(text),
        }
    }
}

/// The warnings for what a 3MF build left out, in the order support, other, surface.
pub(crate) fn left_out_warnings(l: &LeftOut) -> Vec<Warning> {
    [
        (ItemKind::Support, l.support),
        (ItemKind::Other, l.other),
        (ItemKind::Surface, l.surface),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .map(|(kind, count)| Warning::ItemsLeftOut { kind, count })
    .collect()
}
