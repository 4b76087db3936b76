//! Polygon files read and validated: the readers of [`crate::io`] parse a file into
//! rings, and the checks here (each polygon by [`Polygon::from_rings`], the parts of one
//! drawing or MultiPolygon against each other by [`crate::polygon::check_disjoint`]) turn
//! them into validated polygons.

use crate::Polygon;
use crate::error::{Error, Result};
use crate::io::geojson::{Coordinates, Crs, Document};
use crate::io::{
    Parsed, ParsedPolygons, PolygonFormat, PolygonRings, dxf, parse_one, parse_polygons,
};
use crate::warning::Warning;

/// Parses `bytes` in `format` and validates every polygon in it: one for JSON and CSV, one
/// per polygon for GeoJSON (a `.json` file holding GeoJSON is read as GeoJSON) and one per
/// outer profile for DXF (a piece of a drawing in no closed outline is refused, as with
/// [`dxf::OpenPolicy::Refuse`]: [`read_polygons_with`] leaves them out and says so). Each
/// comes with a name (empty for a lone polygon); an error names the part it is in.
///
/// # Errors
/// As [`read_polygons_with`].
///
/// # Examples
/// ```
/// use inertia::io::PolygonFormat;
/// use inertia::read::read_polygons;
/// let doc = br#"{"type": "MultiPolygon", "coordinates": [[[[0,0],[1,0],[1,1],[0,0]]], [[[5,0],[6,0],[6,1],[5,0]]]]}"#;
/// let parts = read_polygons(doc, PolygonFormat::Json)?;
/// assert_eq!(parts.len(), 2);
/// assert_eq!(parts[1].0, "polygon 2");
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_polygons(bytes: &[u8], format: PolygonFormat) -> Result<Vec<(String, Polygon)>> {
    // What a drawing leaves out is not returned here: its open pieces are refused.
    let strict = dxf::Options {
        open: dxf::OpenPolicy::Refuse,
        ..dxf::Options::default()
    };
    Ok(read_polygons_with(bytes, format, &strict)?.0)
}

/// A polygon and its name within its file (empty for a file of one polygon).
pub type Named = (String, Polygon);

/// [`read_polygons`] with the options of the DXF reader (the tolerance within which the
/// ends of lines and arcs are joined; whether pieces outside any closed outline are left
/// out), also saying what a drawing held that is not in any polygon (the pieces left out,
/// the annotations ignored); empty for the other formats.
///
/// # Errors
/// The format's parse errors, and those of [`Polygon::new`] and [`Polygon::from_rings`] for
/// each polygon (wrapped in [`Error::InPart`] when the file holds
/// several), and [`Error::Overlap`] when the parts of one file
/// overlap.
///
/// # Examples
/// ```
/// use inertia::io::{PolygonFormat, dxf::Options};
/// use inertia::read::read_polygons_with;
/// let (parts, left) = read_polygons_with(b"0 0\n1 0\n0 1\n", PolygonFormat::Csv, &Options::default())?;
/// assert_eq!((parts.len(), left.open.count), (1, 0));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_polygons_with(
    bytes: &[u8],
    format: PolygonFormat,
    options: &dxf::Options,
) -> Result<(Vec<Named>, dxf::LeftOut)> {
    validate_polygons(parse_polygons(bytes, format, options)?)
}

/// The members of one MultiPolygon (consecutive parts of one group) must not overlap
/// (RFC 7946); separate features may (parcels sharing a boundary, layers of one map) and
/// are summed as given.
fn disjoint_groups(parts: &[Named], groups: &[usize]) -> Result<()> {
    let mut start = 0;
    while start < parts.len() {
        let end = (start..parts.len())
            .find(|&k| groups[k] != groups[start])
            .unwrap_or(parts.len());
        crate::polygon::check_disjoint(&parts[start..end])?;
        start = end;
    }
    Ok(())
}

/// The second half of [`read_polygons_with`]: validates every polygon of a file parsed by
/// [`parse_polygons`](crate::io::parse_polygons).
///
/// # Errors
/// As [`read_polygons_with`], less the parse errors.
pub fn validate_polygons(parsed: ParsedPolygons) -> Result<(Vec<Named>, dxf::LeftOut)> {
    match parsed.0 {
        Parsed::Dxf(read) => {
            let left = dxf::LeftOut {
                open: read.open,
                paper_instead: read.paper_instead,
                annotations: read.annotations,
                joins: read.joins,
            };
            // One sweep for the whole drawing: each outline checked for all but edges
            // that meet, then the sweep over every outline together, which sees those
            // too. A refusal anywhere repeats the checks as below (each outline swept
            // alone, then all together), for the message they have always given.
            if read.parts.len() > 1
                && let Ok(parts) = read
                    .parts
                    .iter()
                    .map(|(name, rings)| {
                        Ok((
                            name.clone(),
                            Polygon::from_rings_swept(rings.clone(), false)?,
                        ))
                    })
                    .collect::<Result<Vec<_>>>()
                && crate::polygon::check_disjoint(&parts).is_ok()
            {
                return Ok((parts, left));
            }
            let parts = read
                .parts
                .into_iter()
                .map(|(name, rings)| {
                    let poly = Polygon::from_rings(rings).map_err(|e| Error::in_part(&name, e))?;
                    Ok((name, poly))
                })
                .collect::<Result<Vec<_>>>()?;
            // The outlines of one drawing are parts of one whole: a curve drawn twice, or
            // two outlines crossing, would be summed.
            crate::polygon::check_disjoint(&parts)?;
            Ok((parts, left))
        }
        Parsed::One(rings) => Ok((
            vec![(String::new(), validate_one(rings)?)],
            Default::default(),
        )),
        Parsed::Geo(doc) => {
            let geo = doc.parts;
            let groups: Vec<usize> = geo.iter().map(|p| p.group).collect();
            // One sweep for each MultiPolygon (as for a drawing above): its members
            // checked for all but edges that meet, then swept together; a refusal
            // anywhere repeats the checks as below for the message.
            let shared: Vec<bool> = (0..groups.len())
                .map(|k| {
                    (k > 0 && groups[k - 1] == groups[k])
                        || (k + 1 < groups.len() && groups[k + 1] == groups[k])
                })
                .collect();
            if shared.contains(&true)
                && let Ok(parts) = geo
                    .iter()
                    .enumerate()
                    .map(|(k, p)| {
                        let poly = Polygon::new_swept(
                            p.rings.outer.clone(),
                            p.rings.holes.clone(),
                            !shared[k],
                        )?;
                        Ok((p.name.clone(), poly))
                    })
                    .collect::<Result<Vec<_>>>()
                && disjoint_groups(&parts, &groups).is_ok()
            {
                return Ok((parts, Default::default()));
            }
            let parts = geo
                .into_iter()
                .map(|p| {
                    let poly = Polygon::new(p.rings.outer, p.rings.holes).map_err(|e| {
                        if p.name.is_empty() {
                            e
                        } else {
                            Error::in_part(&p.name, e)
                        }
                    })?;
                    Ok((p.name, poly))
                })
                .collect::<Result<Vec<_>>>()?;
            disjoint_groups(&parts, &groups)?;
            Ok((parts, Default::default()))
        }
    }
}

/// Parses `bytes` in `format` and validates the polygon.
///
/// # Errors
/// As [`read_polygons`], and [`Error::Parse`] when the file holds more
/// than one polygon.
///
/// # Examples
/// ```
/// use inertia::io::PolygonFormat;
/// use inertia::read::read_polygon;
/// let p = read_polygon(b"0 0\n2 0\n2 1\n0 1\n", PolygonFormat::Csv)?;
/// assert_eq!(p.vertex_count(), 4);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_polygon(bytes: &[u8], format: PolygonFormat) -> Result<Polygon> {
    validate_one(parse_one(bytes, format)?)
}

/// What a GeoJSON file's coordinates are taken for, as `reading` says (see
/// [`Coordinates`]): the warning that says so, or the refusal. Degrees are never taken
/// for lengths: without a declared unit they are refused, since a plane figure's
/// moments need them projected first. Web Mercator's metres are refused either way: its
/// areas are too large by a factor that grows away from the equator.
///
/// # Errors
/// [`Error::GeojsonWebMercator`] for a file whose `crs` names Web Mercator;
/// [`Error::GeojsonDegrees`] for [`Coordinates::Degrees`]; [`Error::GeojsonGeographic`]
/// for [`Coordinates::Lengths`] in a file whose `crs` names a geographic system.
pub(crate) fn geojson_reading(doc: &Document, reading: Coordinates) -> Result<Warning> {
    let mut beyond = None;
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    let rings = doc
        .parts
        .iter()
        .flat_map(|p| std::iter::once(&p.rings.outer).chain(&p.rings.holes));
    for q in rings.flatten() {
        if beyond.is_none() && (q[0].abs() > 180.0 || q[1].abs() > 90.0) {
            beyond = Some(*q);
        }
        for k in 0..2 {
            lo[k] = lo[k].min(q[k]);
            hi[k] = hi[k].max(q[k]);
        }
    }
    match (reading, &doc.crs) {
        (_, Crs::WebMercator(name)) => Err(web_mercator(name, lo, hi)),
        (Coordinates::Lengths, Crs::Geographic(name)) => {
            Err(Error::GeojsonGeographic { crs: name.clone() })
        }
        (Coordinates::Lengths, crs) => Ok(Warning::GeojsonLengths { crs: crs.clone() }),
        (Coordinates::Degrees, crs) => {
            let (lon, lat) = (0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]));
            Err(Error::GeojsonDegrees {
                crs: crs.clone(),
                beyond,
                utm: beyond
                    .is_none()
                    .then(|| crate::crs::utm_zone(lon, lat))
                    .flatten(),
            })
        }
    }
}

/// [`Error::GeojsonWebMercator`] for polygons spanning `lo` to `hi` in Web Mercator (x
/// and y in metres): the latitudes of their least and greatest northing, the area factor
/// at the latitude nearest the equator and farthest from it (it grows with |φ|).
fn web_mercator(crs: &str, lo: [f64; 2], hi: [f64; 2]) -> Error {
    use crate::crs::{WEB_MERCATOR_RADIUS, web_mercator_area_factor, web_mercator_latitude};
    let latitude = [web_mercator_latitude(lo[1]), web_mercator_latitude(hi[1])];
    let nearest = if latitude[0] <= 0.0 && latitude[1] >= 0.0 {
        0.0
    } else {
        latitude[0].abs().min(latitude[1].abs())
    };
    let farthest = latitude[0].abs().max(latitude[1].abs());
    let longitude = (0.5 * (lo[0] + hi[0]) / WEB_MERCATOR_RADIUS).to_degrees();
    Error::GeojsonWebMercator {
        crs: crs.to_string(),
        latitude,
        area_factor: [nearest, farthest].map(web_mercator_area_factor),
        utm: crate::crs::utm_zone(longitude, 0.5 * (latitude[0] + latitude[1])),
    }
}

fn validate_one(rings: PolygonRings) -> Result<Polygon> {
    if rings.outer.is_empty() {
        return Err(Error::Empty {
            missing: crate::error::Missing::Points,
        });
    }
    Polygon::from_rings(rings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::PolygonFormat;

    fn multi(members: &[&str]) -> Vec<u8> {
        format!(
            r#"{{"type": "MultiPolygon", "coordinates": [{}]}}"#,
            members.join(", ")
        )
        .into_bytes()
    }

    #[test]
    fn parts_swept_together_once_as_when_swept_alone() {
        let square = "[[[0,0],[2,0],[2,2],[0,2],[0,0]]]";
        let apart = "[[[3,0],[5,0],[5,2],[3,2],[3,0]]]";
        let holed =
            "[[[10,0],[20,0],[20,10],[10,10],[10,0]], [[12,2],[14,2],[14,4],[12,4],[12,2]]]";
        // Valid: each part as Polygon::new gives it alone.
        let parts = read_polygons(&multi(&[square, apart, holed]), PolygonFormat::Geojson).unwrap();
        let alone = format!(r#"{{"type": "Polygon", "coordinates": {holed}}}"#);
        let alone = read_polygons(alone.as_bytes(), PolygonFormat::Geojson);
        assert_eq!(parts.len(), 3);
        assert_eq!(
            format!("{:?}", parts[2].1),
            format!("{:?}", alone.unwrap()[0].1)
        );
        // A member crossing itself and overlapping another: its own crossing is reported,
        // as when each member was swept alone first.
        let crossing = "[[[1,0],[5,2],[5,0],[1,3],[1,0]]]";
        let e = read_polygons(&multi(&[square, crossing]), PolygonFormat::Geojson)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("polygon 2: outer ring edge"), "{e}");
        assert!(e.contains("cross"), "{e}");
        // Members that only overlap.
        let e = read_polygons(
            &multi(&[square, "[[[1,1],[3,1],[3,3],[1,3],[1,1]]]"]),
            PolygonFormat::Geojson,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("polygon 1 and polygon 2"), "{e}");
    }
}
