//! 3MF files (the 3D Manufacturing Format): a zip holding an XML model.
//!
//! Each `<item>` of the model's `<build>` is a body (its object's mesh and components, with
//! their transforms); without a build, each mesh object is a body. Bodies are named by the
//! object's `name` attribute, or `object ID`. Coordinates are in the model's `unit`
//! (millimetre by default), which [`unit()`] reads.

use crate::error::{Error, Result, clip};
use crate::mesh::RawMesh;
use std::collections::HashMap;
use std::io::Read;

/// The largest model part read from the archive (a zip bomb stops here).
const MAX_MODEL_BYTES: u64 = 4 << 30;

/// Row-vector affine transform as 3MF writes it: `m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Transform([f64; 12]);

impl Transform {
    const IDENTITY: Transform =
        Transform([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);

    fn parse(s: Option<&str>, place: &str) -> Result<Transform> {
        let Some(s) = s else {
            return Ok(Transform::IDENTITY);
        };
        let v: Vec<f64> = s
            .split_whitespace()
            .map(|t| t.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                Error::parse(
                    place,
                    format!("transform \"{}\" is not 12 finite numbers", clip(s)),
                )
            })?;
        let m: [f64; 12] = v.try_into().map_err(|_| {
            Error::parse(
                place,
                format!("transform \"{}\" is not 12 numbers", clip(s)),
            )
        })?;
        Ok(Transform(m))
    }

    fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let m = &self.0;
        [
            p[0] * m[0] + p[1] * m[3] + p[2] * m[6] + m[9],
            p[0] * m[1] + p[1] * m[4] + p[2] * m[7] + m[10],
            p[0] * m[2] + p[1] * m[5] + p[2] * m[8] + m[11],
        ]
    }

    /// `self` then `outer`.
    fn then(&self, outer: &Transform) -> Transform {
        let a = &self.0;
        let mut m = [0.0; 12];
        for r in 0..3 {
            let row = [a[3 * r], a[3 * r + 1], a[3 * r + 2]];
            let o = outer.apply(row);
            let t = outer.apply([0.0; 3]);
            for c in 0..3 {
                m[3 * r + c] = o[c] - t[c];
            }
        }
        let t = outer.apply([a[9], a[10], a[11]]);
        m[9..12].copy_from_slice(&t);
        Transform(m)
    }

    /// True if it turns the body inside out (negative determinant).
    fn mirrors(&self) -> bool {
        let m = &self.0;
        let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6]);
        det < 0.0
    }
}

struct Object {
    name: Option<String>,
    vertices: Vec<[f64; 3]>,
    triangles: Vec<[u32; 3]>,
    components: Vec<(String, Transform)>,
}

fn attr_f64(n: roxmltree::Node, name: &str, place: &str) -> Result<f64> {
    let s = n
        .attribute(name)
        .ok_or_else(|| Error::parse(place, format!("missing attribute {name}")))?;
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            Error::parse(
                place,
                format!("{name} = \"{}\" is not a finite number", clip(s)),
            )
        })
}

fn model_path(zip: &mut zip::ZipArchive<std::io::Cursor<&[u8]>>) -> String {
    // The package's relationships name the model part; the usual place otherwise.
    let mut rels = String::new();
    if let Ok(mut f) = zip.by_name("_rels/.rels")
        && f.read_to_string(&mut rels).is_ok()
        && let Ok(doc) = roxmltree::Document::parse(&rels)
    {
        for n in doc.descendants().filter(|n| n.has_tag_name("Relationship")) {
            if n.attribute("Type").is_some_and(|t| t.ends_with("/3dmodel"))
                && let Some(t) = n.attribute("Target")
            {
                return t.trim_start_matches('/').to_string();
            }
        }
    }
    "3D/3dmodel.model".to_string()
}

/// The length unit a 3MF model states (its root's `unit` attribute; millimetre when
/// absent, as the specification says). Reads only the start of the model part.
///
/// # Errors
/// When the file is not a zip with a model part, or the unit is not one of the six 3MF
/// names.
///
/// # Examples
/// ```
/// let bytes = std::fs::read("fixtures/mesh/two_parts.3mf").unwrap();
/// assert_eq!(inertia::io::threemf::unit(&bytes)?, inertia::units::LengthUnit::Mm);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn unit(bytes: &[u8]) -> Result<crate::units::LengthUnit> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| Error::parse("3MF", format!("not a 3MF (zip) file: {e}")))?;
    let path = model_path(&mut zip);
    let f = zip.by_name(&path).map_err(|_| {
        Error::parse(
            "3MF",
            format!("no model part \"{}\" in the archive", clip(&path)),
        )
    })?;
    // The root element comes first; 64 KiB holds any reasonable XML declaration, comments
    // and the <model ...> tag with its namespaces.
    let mut head = Vec::new();
    f.take(1 << 16).read_to_end(&mut head).map_err(|e| {
        Error::parse(
            format!("3MF {}", clip(&path)),
            format!("cannot read the model: {e}"),
        )
    })?;
    let text = String::from_utf8_lossy(&head);
    let tag = text
        .match_indices("<model")
        .map(|(i, _)| &text[i..])
        .find(|t| t[6..].starts_with(|c: char| c.is_whitespace() || c == '>'))
        .and_then(|t| t.find('>').map(|end| &t[..end]));
    let Some(tag) = tag else {
        return Err(Error::parse(
            format!("3MF {}", clip(&path)),
            "no <model> element at the start of the model part",
        ));
    };
    // unit="..." (or '...') as an attribute of its own, not part of another name.
    let value = tag
        .match_indices("unit")
        .filter(|(i, _)| tag[..*i].ends_with(char::is_whitespace))
        .find_map(|(i, _)| {
            let rest = tag[i + 4..].trim_start().strip_prefix('=')?.trim_start();
            let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let rest = &rest[1..];
            rest.find(q).map(|end| &rest[..end])
        });
    match value {
        None => Ok(crate::units::LengthUnit::Mm),
        Some(v) => crate::units::LengthUnit::from_3mf(v).ok_or_else(|| {
            Error::parse(
                format!("3MF {}", clip(&path)),
                format!(
                    "unit \"{}\" is not one of micron, millimeter, centimeter, inch, foot, meter",
                    clip(v)
                ),
            )
        }),
    }
}

/// Parses a 3MF file into its bodies, each with a name.
///
/// # Errors
/// As [`parse_limited`].
///
/// # Examples
/// ```no_run
/// let bytes = std::fs::read("part.3mf")?;
/// for (name, mesh) in inertia::io::threemf::parse(&bytes)? {
///     println!("{name}: {} triangles", mesh.triangles.len());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<Vec<(String, RawMesh)>> {
    parse_limited(bytes, DEFAULT_MAX_TRIANGLES)
}

/// Models whose build expands to more triangles than this are refused by [`parse`]: a
/// 5 KB file whose objects each place the previous one twice would expand to 2²⁴ copies.
pub const DEFAULT_MAX_TRIANGLES: u64 = 1_000_000_000;

/// The model part may inflate to this many times the archive's size (and at least
/// `MIN_MODEL_BYTES`, at most `MAX_MODEL_BYTES`): mesh XML compresses some 5–20 times; a
/// zip bomb, a thousand.
const MAX_INFLATION: u64 = 256;
const MIN_MODEL_BYTES: u64 = 64 << 20;

/// [`parse`], refusing a build that expands to more than `max_triangles` triangles
/// (counted through components before anything is expanded).
///
/// # Errors
/// [`Error::Parse`] for a file that is not a 3MF package or whose
/// model is malformed (naming the object or item);
/// [`Error::TooLarge`] when the build holds or expands to more than
/// `max_triangles` triangles.
///
/// # Examples
/// ```
/// let bytes = std::fs::read("fixtures/mesh/two_parts.3mf")?;
/// let e = inertia::io::threemf::parse_limited(&bytes, 10).unwrap_err().to_string();
/// assert!(e.contains("more than 10"), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_limited(bytes: &[u8], max_triangles: u64) -> Result<Vec<(String, RawMesh)>> {
    let build = Build::parse(bytes, max_triangles)?;
    (0..build.len())
        .map(|k| build.item(k).map(|(name, _, mesh)| (name, mesh)))
        .collect()
}

/// A model's objects and build items, read and counted but not expanded: each item is
/// expanded when asked for, so that a build of thousands of copies need not be held at
/// once, and an object placed many times can be checked once.
pub(crate) struct Build {
    objects: HashMap<String, Object>,
    /// The object each item places, and where.
    items: Vec<(String, Transform)>,
}

impl Build {
    /// Reads the model, refusing a build that expands to more than `max_triangles`.
    pub(crate) fn parse(bytes: &[u8], max_triangles: u64) -> Result<Build> {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .map_err(|e| Error::parse("3MF", format!("not a 3MF (zip) file: {e}")))?;
        let path = model_path(&mut zip);
        let mut text = String::new();
        {
            let f = zip.by_name(&path).map_err(|_| {
                Error::parse(
                    "3MF",
                    format!("no model part \"{}\" in the archive", clip(&path)),
                )
            })?;
            let cap = (bytes.len() as u64)
                .saturating_mul(MAX_INFLATION)
                .clamp(MIN_MODEL_BYTES, MAX_MODEL_BYTES);
            f.take(cap + 1).read_to_string(&mut text).map_err(|e| {
                Error::parse(
                    format!("3MF {}", clip(&path)),
                    format!("cannot read the model: {e}"),
                )
            })?;
            if text.len() as u64 > cap {
                return Err(Error::parse(
                    format!("3MF {}", clip(&path)),
                    format!(
                        "the model inflates to more than {} ({MAX_INFLATION} times the {} archive, or {} at most): refused rather than read",
                        crate::error::human_bytes(cap as f64),
                        crate::error::human_bytes(bytes.len() as f64),
                        crate::error::human_bytes(MAX_MODEL_BYTES as f64)
                    ),
                ));
            }
        }
        let doc = roxmltree::Document::parse(&text)
            .map_err(|e| Error::parse(format!("3MF {}", clip(&path)), format!("XML: {e}")))?;
        let mut objects: HashMap<String, Object> = HashMap::new();
        let mut order = Vec::new();
        for o in doc.descendants().filter(|n| n.has_tag_name("object")) {
            let id = o.attribute("id").unwrap_or("").to_string();
            let place = format!("object {}", clip(&id));
            let mut obj = Object {
                name: o.attribute("name").map(clip),
                vertices: vec![],
                triangles: vec![],
                components: vec![],
            };
            for n in o.descendants() {
                if n.has_tag_name("vertex") {
                    let p = [
                        attr_f64(n, "x", &place)?,
                        attr_f64(n, "y", &place)?,
                        attr_f64(n, "z", &place)?,
                    ];
                    obj.vertices.push(p);
                } else if n.has_tag_name("triangle") {
                    let mut t = [0u32; 3];
                    for (k, a) in ["v1", "v2", "v3"].iter().enumerate() {
                        let v = attr_f64(n, a, &place)?;
                        if v < 0.0 || v.fract() != 0.0 || v >= u32::MAX as f64 {
                            return Err(Error::parse(
                                &place,
                                format!("{a} = {v} is not a vertex index"),
                            ));
                        }
                        t[k] = v as u32;
                    }
                    obj.triangles.push(t);
                } else if n.has_tag_name("component") {
                    let target = n.attribute("objectid").unwrap_or("").to_string();
                    obj.components
                        .push((target, Transform::parse(n.attribute("transform"), &place)?));
                }
            }
            let n = obj.vertices.len() as u32;
            if let Some(t) = obj.triangles.iter().find(|t| t.iter().any(|&v| v >= n)) {
                return Err(Error::parse(
                    &place,
                    format!("triangle {t:?} refers past its {n} vertices"),
                ));
            }
            order.push(id.clone());
            objects.insert(id, obj);
        }
        // Bodies: the build items, or else every object with a mesh.
        let mut items: Vec<(String, Transform)> = Vec::new();
        for it in doc.descendants().filter(|n| n.has_tag_name("item")) {
            let id = it.attribute("objectid").unwrap_or("").to_string();
            items.push((
                id.clone(),
                Transform::parse(
                    it.attribute("transform"),
                    &format!("build item {}", clip(&id)),
                )?,
            ));
        }
        if items.is_empty() {
            items = order
                .iter()
                .filter(|id| !objects[*id].triangles.is_empty())
                .map(|id| (id.clone(), Transform::IDENTITY))
                .collect();
        }
        // Count what the build expands to before expanding it: objects placing others twice
        // over, level after level, multiply.
        let mut counts: HashMap<String, u128> = HashMap::new();
        let mut total: u128 = 0;
        for (id, _) in &items {
            total = total.saturating_add(triangle_count(&objects, id, &mut counts, 0)?);
        }
        if total > max_triangles as u128 {
            return Err(Error::parse(
                "3MF build",
                format!(
                    "expands to {total} triangles through its components, more than {max_triangles} (--max-triangles): refused rather than expanded"
                ),
            ));
        }
        if items.is_empty() {
            return Err(Error::Empty("no meshes in the 3MF model".into()));
        }
        Ok(Build { objects, items })
    }

    /// The number of bodies (build items).
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// Body `k`: its name, the object it places, and its mesh in place.
    pub(crate) fn item(&self, k: usize) -> Result<(String, &str, RawMesh)> {
        let (id, t) = &self.items[k];
        let obj = self.objects.get(id).ok_or_else(|| {
            Error::parse(
                "build",
                format!("item refers to a missing object \"{}\"", clip(id)),
            )
        })?;
        let name = obj
            .name
            .clone()
            .unwrap_or_else(|| format!("object {}", clip(id)));
        let mut mesh = RawMesh::default();
        collect(&self.objects, id, t, &mut mesh, 0)?;
        Ok((name, id, mesh))
    }

    /// Object `id` with its components, in its own coordinates.
    pub(crate) fn object(&self, id: &str) -> Result<RawMesh> {
        let mut mesh = RawMesh::default();
        collect(&self.objects, id, &Transform::IDENTITY, &mut mesh, 0)?;
        Ok(mesh)
    }

    /// How many items place each object.
    pub(crate) fn placements(&self) -> HashMap<&str, usize> {
        let mut n = HashMap::new();
        for (id, _) in &self.items {
            *n.entry(id.as_str()).or_insert(0) += 1;
        }
        n
    }
}

/// Object `id`, reached through `depth` levels of components (a cycle or a missing object
/// refused).
fn object<'a>(objects: &'a HashMap<String, Object>, id: &str, depth: usize) -> Result<&'a Object> {
    if depth > 32 {
        return Err(Error::parse(
            format!("object {}", clip(id)),
            "components nest more than 32 deep (a cycle?)",
        ));
    }
    objects.get(id).ok_or_else(|| {
        Error::parse(
            "3MF",
            format!("a component refers to a missing object \"{}\"", clip(id)),
        )
    })
}

/// How many triangles object `id` expands to, with its components (memoised: a DAG of
/// shared objects is counted in linear time).
fn triangle_count(
    objects: &HashMap<String, Object>,
    id: &str,
    memo: &mut HashMap<String, u128>,
    depth: usize,
) -> Result<u128> {
    if let Some(&n) = memo.get(id) {
        return Ok(n);
    }
    let obj = object(objects, id, depth)?;
    let mut n = obj.triangles.len() as u128;
    for (child, _) in &obj.components {
        n = n.saturating_add(triangle_count(objects, child, memo, depth + 1)?);
    }
    memo.insert(id.to_string(), n);
    Ok(n)
}

/// Adds object `id`'s mesh and components, transformed, to `out`.
fn collect(
    objects: &HashMap<String, Object>,
    id: &str,
    t: &Transform,
    out: &mut RawMesh,
    depth: usize,
) -> Result<()> {
    let obj = object(objects, id, depth)?;
    if out.vertices.len() + obj.vertices.len() > u32::MAX as usize {
        return Err(Error::parse(
            format!("object {}", clip(id)),
            "the build expands to more than 2³² vertices",
        ));
    }
    let base = out.vertices.len() as u32;
    out.vertices
        .extend(obj.vertices.iter().map(|p| t.apply(*p)));
    let flip = t.mirrors();
    out.triangles.extend(obj.triangles.iter().map(|tr| {
        let [a, b, c] = tr.map(|v| v + base);
        if flip { [a, c, b] } else { [a, b, c] }
    }));
    for (child, ct) in &obj.components {
        collect(objects, child, &ct.then(t), out, depth + 1)?;
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    /// A 3MF archive holding `model` (stored, uncompressed).
    pub fn archive(model: &str) -> Vec<u8> {
        let mut buf = std::io::Cursor::new(Vec::new());
        {
            let mut z = zip::ZipWriter::new(&mut buf);
            let opt = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored);
            z.start_file("3D/3dmodel.model", opt).unwrap();
            z.write_all(model.as_bytes()).unwrap();
            z.finish().unwrap();
        }
        buf.into_inner()
    }

    pub const TET: &str = r#"<vertices><vertex x="0" y="0" z="0"/><vertex x="5" y="0" z="0"/><vertex x="0" y="4" z="0"/><vertex x="0" y="0" z="3"/></vertices>
<triangles><triangle v1="0" v2="2" v3="1"/><triangle v1="0" v2="1" v3="3"/><triangle v1="0" v2="3" v3="2"/><triangle v1="1" v2="2" v3="3"/></triangles>"#;

    #[test]
    fn items_components_and_transforms() {
        let model = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">
<resources>
<object id="1" name="tet" type="model"><mesh>{TET}</mesh></object>
<object id="2" type="model"><components><component objectid="1" transform="1 0 0 0 1 0 0 0 1 100 0 0"/></components></object>
</resources>
<build><item objectid="1"/><item objectid="2" transform="-1 0 0 0 1 0 0 0 1 0 0 0"/></build>
</model>"#
        );
        let bodies = parse(&archive(&model)).unwrap();
        assert_eq!(bodies.len(), 2);
        assert_eq!(bodies[0].0, "tet");
        assert_eq!(bodies[1].0, "object 2");
        // The second is moved by +100 in x, then mirrored: x in [-105, -100], still outward.
        let m = crate::Mesh::new(&bodies[1].1).unwrap();
        let p = crate::method::tetra::integrate(&m);
        assert!((p.volume - 10.0).abs() < 1e-12 && !m.inside_out());
        assert!((p.centroid.x + 101.25).abs() < 1e-12);
    }

    #[test]
    fn bad_archives() {
        let e = |b: &[u8]| parse(b).unwrap_err().to_string();
        assert!(e(b"not a zip").contains("not a 3MF (zip) file"));
        assert!(e(&archive("<model><resources>")).contains("XML"));
        assert!(e(&archive(r#"<model><resources><object id="1"><mesh><vertices><vertex x="0" y="nan" z="0"/></vertices></mesh></object></resources></model>"#)).contains("y = \"nan\""));
        assert!(e(&archive(r#"<model><resources></resources></model>"#)).contains("no meshes"));
        assert!(e(&archive(r#"<model><resources><object id="1"><mesh><vertices><vertex x="0" y="0" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/></triangles></mesh></object></resources></model>"#)).contains("refers past"));
        assert!(e(&archive(r#"<model><resources><object id="1"><components><component objectid="1"/></components></object></resources><build><item objectid="1"/></build></model>"#)).contains("nest"));
    }
}
