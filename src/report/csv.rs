//! `--format csv`: one row per input, with a header; for batches.
//!
//! Every row states its units (length and mass) and product convention; a file that could
//! not be processed gets a row with its `error` and empty numbers, so no good row is lost.
//! A batch ends with its total, a row like the others whose `source` is `total of N parts`;
//! the first column, `kind`, says which rows are parts and which is the total, so that a
//! sum over the column of masses does not count every part twice.
//!
//! Numbers are written as JSON writes them: the shortest digits that read back to the same
//! f64 (`1.0908994288112011e-19`), whole numbers without `.0`, never `-0`.

use super::{FileError, MeshReport, PolygonReport};
use crate::text::shortest;

/// Column names of polygon rows.
///
/// # Examples
/// ```
/// assert_eq!(inertia::report::csv::POLYGON_HEADER[..2], ["kind", "source"]);
/// ```
pub const POLYGON_HEADER: [&str; 27] = [
    "kind",
    "source",
    "method",
    "area",
    "mass",
    "density",
    "centroid_x",
    "centroid_y",
    "about_x",
    "about_y",
    "inertia",
    "ixx",
    "iyy",
    "ixy",
    "i1",
    "i2",
    "angle_deg",
    "perimeter",
    "vertices",
    "box_min_x",
    "box_min_y",
    "box_max_x",
    "box_max_y",
    "length_unit",
    "mass_unit",
    "products",
    "error",
];

/// Column names of mesh rows.
///
/// # Examples
/// ```
/// assert_eq!(*inertia::report::csv::MESH_HEADER.last().unwrap(), "error");
/// ```
pub const MESH_HEADER: [&str; 43] = [
    "kind",
    "source",
    "method",
    "volume",
    "mass",
    "density",
    "centroid_x",
    "centroid_y",
    "centroid_z",
    "about_x",
    "about_y",
    "about_z",
    "ixx",
    "iyy",
    "izz",
    "ixy",
    "ixz",
    "iyz",
    "i1",
    "i2",
    "i3",
    "axis1_x",
    "axis1_y",
    "axis1_z",
    "axis2_x",
    "axis2_y",
    "axis2_z",
    "axis3_x",
    "axis3_y",
    "axis3_z",
    "box_min_x",
    "box_min_y",
    "box_min_z",
    "box_max_x",
    "box_max_y",
    "box_max_z",
    "surface_area",
    "triangles",
    "shells",
    "length_unit",
    "mass_unit",
    "products",
    "error",
];

/// One row per result (`Ok`) or failure (`Err((source, message))`), then the `total` if
/// any, with a header.
///
/// # Examples
/// ```
/// use inertia::{Amount, Polygon, PolygonMethod, report::{csv, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = PolygonReport::new("sq", &p, PolygonMethod::Fan, Amount::Density(1.0), None);
/// let text = csv::polygons(&[Ok(r), Err(inertia::report::FileError::message("bad.json", "line 1: EOF"))], None);
/// let lines: Vec<&str> = text.lines().collect();
/// assert!(lines[0].starts_with("kind,source,method,area"));
/// assert!(lines[1].starts_with("part,sq,fan,1,1,1,0.5,0.5"));
/// assert!(lines[2].starts_with("part,bad.json,,,") && lines[2].ends_with("line 1: EOF"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn polygons(
    rows: &[Result<PolygonReport, FileError>],
    total: Option<&PolygonReport>,
) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(POLYGON_HEADER);
    let all = rows
        .iter()
        .map(|r| ("part", r.as_ref()))
        .chain(total.map(|t| ("total", Ok(t))));
    for (kind, row) in all {
        let record: Vec<String> = match row {
            Ok(r) => {
                let n = shortest;
                let b = r
                    .bounding_box
                    .map(|b| [b.min[0], b.min[1], b.max[0], b.max[1]]);
                let mut v = vec![
                    kind.to_string(),
                    r.source.clone(),
                    r.method.to_string(),
                    n(r.area),
                    n(r.mass),
                    n(r.density),
                    n(r.centroid[0]),
                    n(r.centroid[1]),
                    n(r.about[0]),
                    n(r.about[1]),
                    n(r.inertia),
                    n(r.mass_moments.ixx),
                    n(r.mass_moments.iyy),
                    n(r.mass_moments.ixy),
                    n(r.principal.moments[0]),
                    n(r.principal.moments[1]),
                    n(r.principal.angle_deg),
                    n(r.perimeter),
                    r.vertices.to_string(),
                ];
                v.extend((0..4).map(|k| b.map(|b| n(b[k])).unwrap_or_default()));
                v.extend([
                    r.units.length.clone(),
                    r.units.mass.clone(),
                    format!("{:?}", r.products).to_lowercase(),
                    String::new(),
                ]);
                v
            }
            Err(e) => failed(kind, &e.source, &e.message, POLYGON_HEADER.len()),
        };
        let _ = w.write_record(&record);
    }
    finish(w)
}

/// One row per mesh result or failure, then the `total` if any, with a header.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// let text = inertia::report::csv::meshes(&[Ok(r.clone())], Some(&r));
/// assert!(text.lines().nth(1).unwrap().starts_with("part,cube,tetra,1,1,1"));
/// assert!(text.lines().nth(2).unwrap().starts_with("total,cube,tetra,1,1,1"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn meshes(rows: &[Result<MeshReport, FileError>], total: Option<&MeshReport>) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(MESH_HEADER);
    let all = rows
        .iter()
        .map(|r| ("part", r.as_ref()))
        .chain(total.map(|t| ("total", Ok(t))));
    for (kind, row) in all {
        let record: Vec<String> = match row {
            Ok(r) => {
                let n = shortest;
                let t = &r.inertia_tensor;
                let mut v = vec![
                    kind.to_string(),
                    r.source.clone(),
                    r.method.to_string(),
                    n(r.volume),
                    n(r.mass),
                    n(r.density),
                ];
                v.extend(r.centroid.map(n));
                v.extend(r.about.map(n));
                v.extend([t[0][0], t[1][1], t[2][2], t[0][1], t[0][2], t[1][2]].map(n));
                v.extend(r.principal.moments.map(n));
                v.extend(r.principal.axes.iter().flat_map(|a| a.map(n)));
                v.extend(r.bounding_box.min.map(n));
                v.extend(r.bounding_box.max.map(n));
                v.extend([
                    n(r.surface_area),
                    r.triangles.map(|t| t.to_string()).unwrap_or_default(),
                    r.shells.to_string(),
                    r.units.length.clone(),
                    r.units.mass.clone(),
                    format!("{:?}", r.products).to_lowercase(),
                    String::new(),
                ]);
                v
            }
            Err(e) => failed(kind, &e.source, &e.message, MESH_HEADER.len()),
        };
        let _ = w.write_record(&record);
    }
    finish(w)
}

fn failed(kind: &str, source: &str, message: &str, width: usize) -> Vec<String> {
    let mut v = vec![String::new(); width];
    v[0] = kind.to_string();
    v[1] = source.to_string();
    v[width - 1] = message.to_string();
    v
}

fn finish(w: ::csv::Writer<Vec<u8>>) -> String {
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}
