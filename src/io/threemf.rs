//! 3MF files (the 3D Manufacturing Format): a zip package of XML model parts.
//!
//! What is read, as the core specification (1.4) and the production extension (1.1) define
//! it:
//!
//! - The root model part is the one the package relationships (`_rels/.rels`) name as the
//!   3D model; a package without `_rels/.rels` is read from `/3D/3dmodel.model`.
//! - Elements and attributes count by namespace, not by prefix: core elements only in the
//!   core namespace (whatever prefix it is bound to), everything in other namespaces is
//!   ignored, except the geometry of extensions that carry mass (below).
//! - Each `<item>` of the root's `<build>` is a body: its object's mesh or components, with
//!   their transforms. A component or item with a production `p:path` places an object of
//!   that model part (Bambu Studio, OrcaSlicer and PrusaSlicer projects keep their meshes in
//!   `/3D/Objects/*.model`), in that part's own unit.
//! - Objects of type `model` are bodies; items placing `support`, `solidsupport` (both
//!   removed from the part after building) or `other` objects are left out and counted, `surface` objects are left out with a
//!   warning unless they are integrated as walls (`shell`).
//! - `requiredextensions` naming an extension this reader does not implement (anything but
//!   materials, production and triangle sets) is refused by name; a beam lattice or a
//!   displacement mesh reached by the build is refused, never dropped.
//! - Faults that change what is built are refused: duplicate object ids, an object with
//!   both a mesh and components, no `<build>`, a reference to a missing object or part,
//!   two 3D model relationships or one to a missing part, components in a cycle.
//!
//! Bodies are named by the object's `name` attribute, or `object ID`. Coordinates are in
//! the root model's `unit` (millimetre by default), which [`unit()`] reads.

use crate::error::{Error, Result, clip};
use crate::mesh::RawMesh;
use crate::units::LengthUnit;
use std::collections::HashMap;
use std::io::Read;

/// The core namespace.
const CORE: &str = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02";

/// The 0.93 draft's namespace, which early exporters wrote and lib3mf still reads: the
/// same model, resources, objects, meshes and build.
const DRAFT: &str = "http://schemas.microsoft.com/3dmanufacturing/2013/01";

/// Whether `ns` is the core namespace (or the 0.93 draft's).
fn is_core(ns: Option<&str>) -> bool {
    ns == Some(CORE) || ns == Some(DRAFT)
}
/// The production extension (`p:path`, `p:UUID`).
const PRODUCTION: &str = "http://schemas.microsoft.com/3dmanufacturing/production/2015/06";
/// The beam lattice extension: struts that carry mass.
const BEAM_LATTICE: &str = "http://schemas.microsoft.com/3dmanufacturing/beamlattice/2017/02";
/// The package relationships namespace (Open Packaging Conventions).
const RELATIONSHIPS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";

/// Extensions whose content cannot change a mass property here (colours, materials'
/// appearance, part numbers, triangle groupings), or that this reader implements.
const READ_EXTENSIONS: [&str; 3] = [
    "http://schemas.microsoft.com/3dmanufacturing/material/2015/02",
    PRODUCTION,
    "http://schemas.microsoft.com/3dmanufacturing/trianglesets/2021/07",
];

/// Extensions a file may require that this reader refuses, with what they add: by the
/// part of the namespace that names them (`…/3dmanufacturing/displacement/2022/07`; the
/// drafts moved between dates and hosts), the more particular first.
const KNOWN_EXTENSIONS: [(&str, &str); 8] = [
    (
        "/beamlattice/balls/",
        "the beam lattice balls extension (spheres that carry mass)",
    ),
    (
        "/beamlattice/",
        "the beam lattice extension (struts that carry mass)",
    ),
    (
        "/slice/",
        "the slice extension (geometry as stacked contours)",
    ),
    (
        "/securecontent/",
        "the secure content extension (encrypted parts)",
    ),
    (
        "/displacement/",
        "the displacement extension (surfaces moved by a texture)",
    ),
    (
        "/booleanoperations/",
        "the boolean operations extension (bodies cut from others)",
    ),
    ("/volumetric/", "the volumetric extension"),
    ("/implicit/", "the implicit extension (bodies as functions)"),
];

/// The relationship type naming the root 3D model part.
const MODEL_RELATIONSHIP: &str = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel";

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

/// What an object is for (`type`): only `model` is part of the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ObjectType {
    /// A part (the default).
    Model,
    /// A support the part needs, built of the part's material.
    SolidSupport,
    /// A support to be removed: not part of the body.
    Support,
    /// An open surface: no volume of its own.
    Surface,
    /// Anything else (a fixture, a label): not part of the body.
    Other,
}

impl ObjectType {
    fn parse(s: Option<&str>, place: &str) -> Result<ObjectType> {
        Ok(match s.map(str::trim) {
            None | Some("model") => ObjectType::Model,
            Some("solidsupport") => ObjectType::SolidSupport,
            Some("support") => ObjectType::Support,
            Some("surface") => ObjectType::Surface,
            Some("other") => ObjectType::Other,
            Some(t) => {
                return Err(Error::parse(
                    place,
                    format!(
                        "type \"{}\" is not one of model, solidsupport, support, surface, other",
                        clip(t)
                    ),
                ));
            }
        })
    }
}

struct Object {
    /// "object 3", or "object 3 in /3D/Objects/object_1.model" outside the root part.
    place: String,
    name: Option<String>,
    kind: ObjectType,
    vertices: Vec<[f64; 3]>,
    triangles: Vec<[u32; 3]>,
    components: Vec<(usize, Transform)>,
    /// Why it cannot be answered, said only when the build reaches it.
    unread: Option<String>,
}

/// A reference to an object by id, in the part `path` names (a production `p:path`) or
/// in the part it is written in.
struct Reference {
    path: Option<String>,
    id: String,
    transform: Transform,
}

/// One model part, read.
struct PartData {
    unit: LengthUnit,
    /// (id, object, its components not yet resolved).
    objects: Vec<(String, Object, Vec<Reference>)>,
    /// The build's items (the root part only).
    items: Vec<Reference>,
}

/// An attribute in no namespace (the core's attributes are unqualified): `v:transform` is
/// not `transform`.
fn attr<'a>(n: &roxmltree::Node<'a, '_>, name: &str) -> Option<&'a str> {
    n.attributes()
        .find(|a| a.namespace().is_none() && a.name() == name)
        .map(|a| a.value())
}

fn attr_f64(n: roxmltree::Node, name: &str, place: &str) -> Result<f64> {
    let s =
        attr(&n, name).ok_or_else(|| Error::parse(place, format!("missing attribute {name}")))?;
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

/// True for an element `local` of the core namespace.
fn core(n: &roxmltree::Node, local: &str) -> bool {
    n.is_element() && n.tag_name().name() == local && is_core(n.tag_name().namespace())
}

/// The core children `local` of `n`.
fn core_children<'a, 'i>(
    n: roxmltree::Node<'a, 'i>,
    local: &'static str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    n.children().filter(move |c| core(c, local))
}

/// An element's name as written, with its namespace: `d:displacementmesh` (`http://…`).
fn written_name(n: &roxmltree::Node) -> String {
    let t = n.tag_name();
    match t.namespace() {
        Some(ns) => format!(
            "<{}{}> (namespace {})",
            n.lookup_prefix(ns)
                .map_or(String::new(), |p| format!("{p}:")),
            t.name(),
            clip(ns)
        ),
        None => format!("<{}>", t.name()),
    }
}

/// `%XX` escapes of a part name decoded.
fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A part name as compared: without its leading `/`, unescaped, in lower case (part names
/// are case-insensitive in a package).
fn part_key(path: &str) -> String {
    percent_decoded(path.trim().trim_start_matches('/')).to_lowercase()
}

/// The zip archive, its part names, and how much more XML may still be inflated.
struct Package<'a> {
    zip: zip::ZipArchive<std::io::Cursor<&'a [u8]>>,
    /// Part key → the name in the archive.
    names: HashMap<String, String>,
    budget: u64,
    cap: u64,
    archive: u64,
}

impl<'a> Package<'a> {
    fn open(bytes: &'a [u8]) -> Result<Package<'a>> {
        let zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .map_err(|e| Error::parse("3MF", format!("not a 3MF (zip) file: {e}")))?;
        let names = zip
            .file_names()
            .filter_map(|n| n.ok())
            .map(|n| (part_key(&n), n.into_owned()))
            .collect();
        let cap = (bytes.len() as u64)
            .saturating_mul(MAX_INFLATION)
            .clamp(MIN_MODEL_BYTES, MAX_MODEL_BYTES);
        Ok(Package {
            zip,
            names,
            budget: cap,
            cap,
            archive: bytes.len() as u64,
        })
    }

    /// The part `path` names, as the archive spells it.
    fn find(&self, path: &str) -> Option<&str> {
        self.names.get(&part_key(path)).map(String::as_str)
    }

    /// Reads part `name` (as the archive spells it) as text, at most `limit` bytes.
    fn text(&mut self, name: &str, limit: u64) -> Result<String> {
        let place = || format!("3MF /{}", clip(name));
        let f = self
            .zip
            .by_name(name)
            .map_err(|e| Error::parse(place(), format!("cannot open the part: {e}")))?;
        let mut text = String::new();
        f.take(limit.saturating_add(1))
            .read_to_string(&mut text)
            .map_err(|e| Error::parse(place(), format!("cannot read the part: {e}")))?;
        Ok(text)
    }

    /// Reads a model part, counting it against the inflation budget of the archive.
    fn model_text(&mut self, name: &str) -> Result<String> {
        let text = self.text(name, self.budget)?;
        if text.len() as u64 > self.budget {
            return Err(Error::parse(
                format!("3MF /{}", clip(name)),
                format!(
                    "the model inflates to more than {} ({MAX_INFLATION} times the {} archive, or {} at most): refused rather than read",
                    crate::error::human_bytes(self.cap as f64),
                    crate::error::human_bytes(self.archive as f64),
                    crate::error::human_bytes(MAX_MODEL_BYTES as f64)
                ),
            ));
        }
        self.budget -= text.len() as u64;
        Ok(text)
    }

    /// The root model part: the one target of the package's 3D model relationship.
    fn root(&mut self) -> Result<String> {
        let Some(rels_name) = self.find("_rels/.rels").map(str::to_string) else {
            return self
                .find("3D/3dmodel.model")
                .map(str::to_string)
                .ok_or_else(|| {
                    Error::parse(
                        "3MF",
                        "no _rels/.rels and no /3D/3dmodel.model: not a 3MF package",
                    )
                });
        };
        let rels = self.text(&rels_name, 1 << 20)?;
        let place = "3MF /_rels/.rels";
        let doc = roxmltree::Document::parse(&rels)
            .map_err(|e| Error::parse(place, format!("XML: {e}")))?;
        let targets: Vec<&str> = doc
            .root_element()
            .children()
            .filter(|n| {
                n.is_element()
                    && n.tag_name().name() == "Relationship"
                    && n.tag_name().namespace() == Some(RELATIONSHIPS)
                    && attr(n, "Type").map(str::trim) == Some(MODEL_RELATIONSHIP)
            })
            .map(|n| attr(&n, "Target").unwrap_or(""))
            .collect();
        let target = match targets[..] {
            [t] => t,
            [] => {
                return Err(Error::parse(
                    place,
                    "no relationship names a 3D model part: not a 3MF package",
                ));
            }
            [a, b, ..] => {
                return Err(Error::parse(
                    place,
                    format!(
                        "{} relationships name a 3D model part (\"{}\", \"{}\"): a package has one root model",
                        targets.len(),
                        clip(a),
                        clip(b)
                    ),
                ));
            }
        };
        self.find(target).map(str::to_string).ok_or_else(|| {
            Error::parse(
                place,
                format!(
                    "the 3D model relationship names \"{}\", which is not in the archive",
                    clip(target)
                ),
            )
        })
    }
}

/// The unit a model element states (millimetre when absent).
fn model_unit(model: &roxmltree::Node, place: &str) -> Result<LengthUnit> {
    match attr(model, "unit") {
        None => Ok(LengthUnit::Mm),
        Some(v) => LengthUnit::from_3mf(v.trim()).ok_or_else(|| {
            Error::parse(
                place,
                format!(
                    "unit \"{}\" is not one of micron, millimeter, centimeter, inch, foot, meter",
                    clip(v)
                ),
            )
        }),
    }
}

/// The root element, checked to be a core `<model>` whose required extensions are all
/// read here.
fn check_model(model: &roxmltree::Node, place: &str) -> Result<()> {
    if !core(model, "model") {
        return Err(Error::parse(
            place,
            format!(
                "the root element is {}, not a 3MF core <model>",
                written_name(model)
            ),
        ));
    }
    let Some(required) = attr(model, "requiredextensions") else {
        return Ok(());
    };
    for prefix in required.split_whitespace() {
        let Some(ns) = model.lookup_namespace_uri(Some(prefix)) else {
            return Err(Error::parse(
                place,
                format!(
                    "requiredextensions names \"{}\", a prefix no namespace is declared for",
                    clip(prefix)
                ),
            ));
        };
        if is_core(Some(ns)) || READ_EXTENSIONS.contains(&ns) {
            continue;
        }
        let what = KNOWN_EXTENSIONS
            .iter()
            .find(|(name, _)| ns.contains("/3dmanufacturing/") && ns.contains(name))
            .map_or_else(
                || format!("the extension {}", clip(ns)),
                |(_, what)| what.to_string(),
            );
        return Err(Error::parse(
            place,
            format!(
                "the model requires {what} (\"{}\"), which inertia does not read: its mass properties would be wrong without it",
                clip(prefix)
            ),
        ));
    }
    Ok(())
}

/// The root start tag of an XML text (after its declaration, comments and processing
/// instructions), with what comes before it, closed so that it parses alone.
fn root_start(text: &str) -> Option<String> {
    let mut i = 0;
    loop {
        let rest = &text[i..];
        let lt = rest.find('<')?;
        let at = &rest[lt..];
        let skip = if at.starts_with("<?") {
            at.find("?>")? + 2
        } else if at.starts_with("<!--") {
            at.find("-->")? + 3
        } else if at.starts_with("<!") {
            at.find('>')? + 1
        } else {
            // The start tag: to the first '>' outside quotes.
            let mut quote = None;
            for (k, c) in at.char_indices() {
                match (quote, c) {
                    (None, '"' | '\'') => quote = Some(c),
                    (Some(q), c) if c == q => quote = None,
                    (None, '>') => {
                        let end = i + lt + k + 1;
                        let tag = &text[i + lt..end];
                        let mut doc = text[..end].to_string();
                        if !tag.ends_with("/>") {
                            let name: String = tag[1..]
                                .chars()
                                .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
                                .collect();
                            doc += &format!("</{name}>");
                        }
                        return Some(doc);
                    }
                    _ => {}
                }
            }
            return None;
        };
        i += lt + skip;
    }
}

/// The length unit a 3MF model states: the `unit` attribute of its root model part's
/// `<model>` element, parsed as XML (millimetre when absent, as the specification says).
/// Reads only the start of the model part.
///
/// # Errors
/// When the file is not a zip with a model part, the root element is not a core
/// `<model>`, or the unit is not one of the six 3MF names.
///
/// # Examples
/// ```
/// let bytes = std::fs::read("fixtures/mesh/two_parts.3mf").unwrap();
/// assert_eq!(inertia::io::threemf::unit(&bytes)?, inertia::units::LengthUnit::Mm);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn unit(bytes: &[u8]) -> Result<LengthUnit> {
    let mut package = Package::open(bytes)?;
    let root = package.root()?;
    let place = format!("3MF /{}", clip(&root));
    // 64 KiB holds any reasonable XML declaration, comments and the <model ...> tag with
    // its namespaces.
    let head = {
        let f = package
            .zip
            .by_name(&root)
            .map_err(|e| Error::parse(&place, format!("cannot open the part: {e}")))?;
        let mut head = Vec::new();
        f.take(1 << 16)
            .read_to_end(&mut head)
            .map_err(|e| Error::parse(&place, format!("cannot read the model: {e}")))?;
        head
    };
    let text = String::from_utf8_lossy(&head);
    let doc = root_start(&text).ok_or_else(|| {
        Error::parse(
            &place,
            "no <model> start tag in the first 64 KiB of the model part",
        )
    })?;
    let doc =
        roxmltree::Document::parse(&doc).map_err(|e| Error::parse(&place, format!("XML: {e}")))?;
    let model = doc.root_element();
    if !core(&model, "model") {
        return Err(Error::parse(
            &place,
            format!(
                "the root element is {}, not a 3MF core <model>",
                written_name(&model)
            ),
        ));
    }
    model_unit(&model, &place)
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

/// Models whose build expands to more triangles (or vertices) than this are refused by
/// [`parse`]: a 5 KB file whose objects each place the previous one twice would expand to
/// 2²⁴ copies.
pub const DEFAULT_MAX_TRIANGLES: u64 = 1_000_000_000;

/// The model parts may inflate to this many times the archive's size (and at least
/// `MIN_MODEL_BYTES`, at most `MAX_MODEL_BYTES`): mesh XML compresses some 5–20 times; a
/// zip bomb, a thousand.
const MAX_INFLATION: u64 = 256;
const MIN_MODEL_BYTES: u64 = 64 << 20;

/// [`parse`], refusing a build that expands to more than `max_triangles` triangles or
/// vertices (counted through components before anything is expanded). Items placing
/// objects of type `support`, `other` or `surface` are left out.
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
    let build = Build::parse(bytes, max_triangles, false)?;
    (0..build.len())
        .map(|k| build.item(k).map(|(name, _, mesh)| (name, mesh)))
        .collect()
}

/// Reads one model part: its unit, objects (with unused vertices dropped) and, for the
/// root, its build.
fn read_part(text: &str, part: &str, root: bool) -> Result<PartData> {
    let where_ = format!("3MF {part}");
    let doc =
        roxmltree::Document::parse(text).map_err(|e| Error::parse(&where_, format!("XML: {e}")))?;
    let model = doc.root_element();
    check_model(&model, &where_)?;
    let unit = model_unit(&model, &where_)?;
    let in_part = if root {
        String::new()
    } else {
        format!(" in {part}")
    };
    let path_of = |n: &roxmltree::Node| n.attribute((PRODUCTION, "path")).map(str::to_string);
    let mut objects = Vec::new();
    let mut seen: HashMap<&str, ()> = HashMap::new();
    for resources in core_children(model, "resources") {
        for o in core_children(resources, "object") {
            let id = attr(&o, "id").map(str::trim).unwrap_or("");
            let place = format!("object {}{in_part}", clip(id));
            if id.is_empty() {
                return Err(Error::parse(&where_, "an <object> without an id"));
            }
            if seen.insert(id, ()).is_some() {
                return Err(Error::parse(
                    &place,
                    "two objects have this id: which one the build means is not said",
                ));
            }
            let mut obj = Object {
                place: place.clone(),
                name: attr(&o, "name").map(clip),
                kind: ObjectType::parse(attr(&o, "type"), &place)?,
                vertices: vec![],
                triangles: vec![],
                components: vec![],
                unread: None,
            };
            let meshes: Vec<_> = core_children(o, "mesh").collect();
            let components: Vec<_> = core_children(o, "components").collect();
            if !meshes.is_empty() && !components.is_empty() {
                return Err(Error::parse(
                    &place,
                    "holds both a mesh and components: an object is one or the other",
                ));
            }
            if meshes.len() > 1 || components.len() > 1 {
                return Err(Error::parse(
                    &place,
                    "holds more than one <mesh> or <components>",
                ));
            }
            let mut refs = Vec::new();
            if let Some(mesh) = meshes.first() {
                read_mesh(*mesh, &place, &mut obj)?;
            } else if let Some(c) = components.first() {
                for n in core_children(*c, "component") {
                    refs.push(Reference {
                        path: path_of(&n),
                        id: attr(&n, "objectid").unwrap_or("").trim().to_string(),
                        transform: Transform::parse(attr(&n, "transform"), &place)?,
                    });
                }
            } else {
                obj.unread = Some(
                    match o
                        .children()
                        .find(|c| c.is_element() && !is_core(c.tag_name().namespace()))
                    {
                        Some(foreign) => format!(
                            "is given as {}, which inertia does not read",
                            written_name(&foreign)
                        ),
                        None => "has neither a mesh nor components".to_string(),
                    },
                );
            }
            objects.push((id.to_string(), obj, refs));
        }
    }
    let mut items = Vec::new();
    if root {
        let builds: Vec<_> = core_children(model, "build").collect();
        let [build] = builds[..] else {
            return Err(Error::parse(
                &where_,
                if builds.is_empty() {
                    "the model has no <build>: nothing says which objects are the part"
                } else {
                    "the model has more than one <build>"
                },
            ));
        };
        for it in core_children(build, "item") {
            let id = attr(&it, "objectid").unwrap_or("").trim().to_string();
            items.push(Reference {
                path: path_of(&it),
                transform: Transform::parse(
                    attr(&it, "transform"),
                    &format!("build item {}", clip(&id)),
                )?,
                id,
            });
        }
    }
    Ok(PartData {
        unit,
        objects,
        items,
    })
}

/// An object's `<mesh>`: its vertices (those no triangle uses dropped) and triangles; a
/// beam lattice in it is noted as unread.
fn read_mesh(mesh: roxmltree::Node, place: &str, obj: &mut Object) -> Result<()> {
    for vs in core_children(mesh, "vertices") {
        for n in core_children(vs, "vertex") {
            obj.vertices.push([
                attr_f64(n, "x", place)?,
                attr_f64(n, "y", place)?,
                attr_f64(n, "z", place)?,
            ]);
        }
    }
    for ts in core_children(mesh, "triangles") {
        for n in core_children(ts, "triangle") {
            let mut t = [0u32; 3];
            for (k, a) in ["v1", "v2", "v3"].iter().enumerate() {
                let v = attr_f64(n, a, place)?;
                if v < 0.0 || v.fract() != 0.0 || v >= u32::MAX as f64 {
                    return Err(Error::parse(
                        place,
                        format!("{a} = {v} is not a vertex index"),
                    ));
                }
                t[k] = v as u32;
            }
            obj.triangles.push(t);
        }
    }
    let n = obj.vertices.len() as u32;
    if let Some(t) = obj.triangles.iter().find(|t| t.iter().any(|&v| v >= n)) {
        return Err(Error::parse(
            place,
            format!("triangle {t:?} refers past its {n} vertices"),
        ));
    }
    if let Some(lattice) = mesh.children().find(|c| {
        c.is_element()
            && c.tag_name().namespace() == Some(BEAM_LATTICE)
            && c.tag_name().name() == "beamlattice"
    }) {
        let beams = lattice
            .descendants()
            .filter(|b| {
                b.tag_name().namespace() == Some(BEAM_LATTICE) && b.tag_name().name() == "beam"
            })
            .count();
        if beams > 0 {
            obj.unread = Some(format!(
                "carries a beam lattice of {beams} beam(s) (the beam lattice extension), whose mass inertia does not integrate"
            ));
        }
    }
    // Vertices no triangle uses are dropped here, so that an object placed many times
    // costs only what its triangles use.
    let mut used = vec![u32::MAX; obj.vertices.len()];
    for t in &obj.triangles {
        for &v in t {
            used[v as usize] = 0;
        }
    }
    if used.contains(&u32::MAX) {
        let mut kept = Vec::new();
        for (k, u) in used.iter_mut().enumerate() {
            if *u == 0 {
                *u = kept.len() as u32;
                kept.push(obj.vertices[k]);
            }
        }
        for t in &mut obj.triangles {
            for v in t.iter_mut() {
                *v = used[*v as usize];
            }
        }
        obj.vertices = kept;
    }
    Ok(())
}

/// A model's objects (of every part the build reaches) and build items, read and counted
/// but not expanded: each item is expanded when asked for, so that a build of thousands of
/// copies need not be held at once, and an object placed many times can be checked once.
pub(crate) struct Build {
    objects: Vec<Object>,
    /// The object each body item places, and where.
    items: Vec<(usize, Transform)>,
    /// Triangles and vertices each object expands to (for the objects the build reaches).
    counts: Vec<Option<(u128, u128)>>,
    /// Items left out by their object's type.
    pub(crate) left_out: crate::body::LeftOut,
}

impl Build {
    /// Reads the package, refusing a build that expands to more than `max_triangles`
    /// triangles or vertices; items placing `surface` objects are kept when `surfaces`.
    pub(crate) fn parse(bytes: &[u8], max_triangles: u64, surfaces: bool) -> Result<Build> {
        let mut package = Package::open(bytes)?;
        let root = package.root()?;
        // Parts by key, read in turn: the root, then each part a p:path names.
        let mut keys: HashMap<String, usize> = HashMap::new();
        let mut names: Vec<String> = vec![root.clone()];
        keys.insert(part_key(&root), 0);
        let mut parts: Vec<PartData> = Vec::new();
        while parts.len() < names.len() {
            let k = parts.len();
            let text = package.model_text(&names[k].clone())?;
            let data = read_part(&text, &format!("/{}", names[k]), k == 0)?;
            drop(text);
            let paths = data
                .objects
                .iter()
                .flat_map(|(_, _, refs)| refs.iter())
                .chain(&data.items)
                .filter_map(|r| r.path.as_deref());
            for path in paths {
                let key = part_key(path);
                if keys.contains_key(&key) {
                    continue;
                }
                let Some(name) = package.find(path) else {
                    return Err(Error::parse(
                        format!("3MF /{}", names[k]),
                        format!(
                            "p:path \"{}\" names a part that is not in the archive",
                            clip(path)
                        ),
                    ));
                };
                keys.insert(key, names.len());
                names.push(name.to_string());
            }
            parts.push(data);
        }
        // Every object numbered; references resolved in their part.
        let root_unit = parts[0].unit;
        let mut index: HashMap<(usize, String), usize> = HashMap::new();
        let mut objects = Vec::new();
        let mut pending = Vec::new();
        let scales: Vec<f64> = parts
            .iter()
            .map(|d| d.unit.metres() / root_unit.metres())
            .collect();
        for (p, data) in parts.iter_mut().enumerate() {
            let scale = scales[p];
            for (id, mut obj, refs) in data.objects.drain(..) {
                if scale != 1.0 {
                    for v in &mut obj.vertices {
                        *v = v.map(|x| x * scale);
                    }
                }
                index.insert((p, id), objects.len());
                objects.push(obj);
                pending.push((p, refs));
            }
        }
        let resolve = |p: usize, r: &Reference, from: &str| -> Result<(usize, Transform)> {
            let part = match &r.path {
                Some(path) => keys[&part_key(path)],
                None => p,
            };
            // The translation is in the unit of the part that writes it (the vertices
            // were scaled to the root's unit above).
            let mut t = r.transform;
            for x in &mut t.0[9..12] {
                *x *= scales[p];
            }
            index
                .get(&(part, r.id.clone()))
                .map(|&o| (o, t))
                .ok_or_else(|| {
                    Error::parse(
                        from,
                        format!(
                            "refers to a missing object \"{}\"{}",
                            clip(&r.id),
                            if part == 0 {
                                String::new()
                            } else {
                                format!(" in /{}", names[part])
                            }
                        ),
                    )
                })
        };
        for (k, (p, refs)) in pending.iter().enumerate() {
            let from = format!("{}: a component", objects[k].place);
            let resolved = refs
                .iter()
                .map(|r| resolve(*p, r, &from))
                .collect::<Result<Vec<_>>>()?;
            objects[k].components = resolved;
        }
        let (mut items, mut support, mut other, mut surface) = (Vec::new(), 0, 0, 0);
        for r in &parts[0].items {
            let (o, t) = resolve(0, r, "build item")?;
            match objects[o].kind {
                ObjectType::Model => items.push((o, t)),
                ObjectType::Surface if surfaces => items.push((o, t)),
                ObjectType::Support | ObjectType::SolidSupport => support += 1,
                ObjectType::Other => other += 1,
                ObjectType::Surface => surface += 1,
            }
        }
        // Count what the build expands to before expanding it: objects placing others twice
        // over, level after level, multiply.
        let mut counts = vec![None; objects.len()];
        let (mut triangles, mut vertices): (u128, u128) = (0, 0);
        for &(o, _) in &items {
            let (t, v) = expanded_count(&objects, o, &mut counts, 0)?;
            triangles = triangles.saturating_add(t);
            vertices = vertices.saturating_add(v);
        }
        if triangles > max_triangles as u128 {
            return Err(Error::TooLarge {
                excess: crate::error::Excess::BuildTriangles {
                    count: triangles,
                    max: max_triangles,
                },
            });
        }
        if vertices > max_triangles as u128 {
            return Err(Error::TooLarge {
                excess: crate::error::Excess::BuildVertices {
                    count: vertices,
                    max: max_triangles,
                },
            });
        }
        if items.is_empty() {
            return Err(Error::Empty {
                missing: crate::error::Missing::BuildItems {
                    support,
                    other,
                    surface,
                },
            });
        }
        Ok(Build {
            objects,
            items,
            counts,
            left_out: crate::body::LeftOut {
                support,
                other,
                surface,
            },
        })
    }

    /// The number of bodies (build items).
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// The object body `k` places (without expanding it).
    pub(crate) fn object_of(&self, k: usize) -> usize {
        self.items[k].0
    }

    /// Body `k`: its name, the object it places, and its mesh in place.
    pub(crate) fn item(&self, k: usize) -> Result<(String, usize, RawMesh)> {
        let (o, t) = &self.items[k];
        let obj = &self.objects[*o];
        let name = obj.name.clone().unwrap_or_else(|| obj.place.clone());
        Ok((name, *o, self.expanded(*o, t)?))
    }

    /// Object `o` with its components, in its own coordinates.
    pub(crate) fn object(&self, o: usize) -> Result<RawMesh> {
        self.expanded(o, &Transform::IDENTITY)
    }

    /// Object `o` expanded through `t`, its memory reserved first (a failure is an error,
    /// not an abort).
    fn expanded(&self, o: usize, t: &Transform) -> Result<RawMesh> {
        let (tris, verts) = self.counts[o].unwrap_or((0, 0));
        if verts > u32::MAX as u128 {
            return Err(Error::parse(
                &self.objects[o].place,
                "expands to more than 2³² vertices",
            ));
        }
        let mut mesh = RawMesh::default();
        let no_memory = |count: u128, triangles: bool| {
            Error::in_part(
                &self.objects[o].place,
                Error::TooLarge {
                    excess: crate::error::Excess::Memory { count, triangles },
                },
            )
        };
        mesh.vertices
            .try_reserve_exact(verts as usize)
            .map_err(|_| no_memory(verts, false))?;
        mesh.triangles
            .try_reserve_exact(tris as usize)
            .map_err(|_| no_memory(tris, true))?;
        collect(&self.objects, o, t, &mut mesh);
        Ok(mesh)
    }

    /// How many items place each object.
    pub(crate) fn placements(&self) -> HashMap<usize, usize> {
        let mut n = HashMap::new();
        for (o, _) in &self.items {
            *n.entry(*o).or_insert(0) += 1;
        }
        n
    }
}

/// How many triangles and vertices object `o` expands to, with its components (memoised:
/// a DAG of shared objects is counted in linear time); a cycle, or an object that cannot
/// be read, refused.
fn expanded_count(
    objects: &[Object],
    o: usize,
    memo: &mut Vec<Option<(u128, u128)>>,
    depth: usize,
) -> Result<(u128, u128)> {
    if let Some(n) = memo[o] {
        return Ok(n);
    }
    let obj = &objects[o];
    if depth > 32 {
        return Err(Error::parse(
            &obj.place,
            "components nest more than 32 deep (a cycle?)",
        ));
    }
    if let Some(why) = &obj.unread {
        return Err(Error::parse(&obj.place, why.clone()));
    }
    let (mut t, mut v) = (obj.triangles.len() as u128, obj.vertices.len() as u128);
    for &(child, _) in &obj.components {
        let (ct, cv) = expanded_count(objects, child, memo, depth + 1)?;
        t = t.saturating_add(ct);
        v = v.saturating_add(cv);
    }
    memo[o] = Some((t, v));
    Ok((t, v))
}

/// Adds object `o`'s mesh and components, transformed, to `out` (counted and reserved
/// before).
fn collect(objects: &[Object], o: usize, t: &Transform, out: &mut RawMesh) {
    let obj = &objects[o];
    let base = out.vertices.len() as u32;
    out.vertices
        .extend(obj.vertices.iter().map(|p| t.apply(*p)));
    let flip = t.mirrors();
    out.triangles.extend(obj.triangles.iter().map(|tr| {
        let [a, b, c] = tr.map(|v| v + base);
        if flip { [a, c, b] } else { [a, b, c] }
    }));
    for (child, ct) in &obj.components {
        collect(objects, *child, &ct.then(t), out);
    }
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

    /// A core model of `inner` (resources and build).
    fn core_model(inner: &str) -> String {
        format!(r#"<model xmlns="{CORE}">{inner}</model>"#)
    }

    #[test]
    fn bad_archives() {
        let e = |b: &[u8]| parse(b).unwrap_err().to_string();
        assert!(e(b"not a zip").contains("not a 3MF (zip) file"));
        assert!(e(&archive(&core_model("<resources>"))).contains("XML"));
        assert!(e(&archive(&core_model(r#"<resources><object id="1"><mesh><vertices><vertex x="0" y="nan" z="0"/></vertices></mesh></object></resources><build/>"#))).contains("y = \"nan\""));
        assert!(e(&archive(&core_model(r#"<resources></resources>"#))).contains("no <build>"));
        assert!(
            e(&archive(&core_model(r#"<resources></resources><build/>"#)))
                .contains("places no body")
        );
        assert!(e(&archive(&core_model(r#"<resources><object id="1"><mesh><vertices><vertex x="0" y="0" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/></triangles></mesh></object></resources><build/>"#))).contains("refers past"));
        assert!(e(&archive(&core_model(r#"<resources><object id="1"><components><component objectid="1"/></components></object></resources><build><item objectid="1"/></build>"#))).contains("nest"));
        // Without a namespace, <model> is not the core's.
        assert!(
            e(&archive(r#"<model><resources/><build/></model>"#))
                .contains("not a 3MF core <model>")
        );
    }

    #[test]
    fn the_unit_is_read_from_the_model_element() {
        let unit = |m: &str| unit(&archive(m));
        let body = r#"<resources/><build/></model>"#;
        // A comment and a processing instruction naming another unit come first.
        let m = format!(
            r#"<?xml version="1.0"?><!-- <model unit="inch"> --><?x <model unit="foot">?><model xmlns="{CORE}" unit="centimeter">{body}"#
        );
        assert_eq!(unit(&m).unwrap(), LengthUnit::Cm);
        // A prefixed core namespace; a unit attribute of another namespace is not the unit.
        let m = format!(
            r#"<c:model xmlns:c="{CORE}" xmlns:v="urn:v" v:unit="inch"><c:resources/><c:build/></c:model>"#
        );
        assert_eq!(unit(&m).unwrap(), LengthUnit::Mm);
        // '>' inside an attribute value does not end the tag.
        let m = format!(r#"<model xmlns="{CORE}" title="a > b" unit="meter">{body}"#);
        assert_eq!(unit(&m).unwrap(), LengthUnit::M);
        assert!(
            unit(r#"<model unit="inch"></model>"#)
                .unwrap_err()
                .to_string()
                .contains("not a 3MF core <model>")
        );
    }

    #[test]
    fn unused_vertices_are_dropped_before_expansion() {
        let unused: String = (0..1000)
            .map(|k| format!(r#"<vertex x="{k}" y="-1" z="7"/>"#))
            .collect();
        let tet = TET.replace("<vertices>", &format!("<vertices>{unused}"));
        let tet = tet
            .replace(r#"v1="0""#, r#"v1="1000""#)
            .replace(r#"v1="1""#, r#"v1="1001""#)
            .replace(r#"v2="1""#, r#"v2="1001""#)
            .replace(r#"v2="2""#, r#"v2="1002""#)
            .replace(r#"v2="3""#, r#"v2="1003""#)
            .replace(r#"v3="1""#, r#"v3="1001""#)
            .replace(r#"v3="2""#, r#"v3="1002""#)
            .replace(r#"v3="3""#, r#"v3="1003""#);
        let m = core_model(&format!(
            r#"<resources><object id="1"><mesh>{tet}</mesh></object></resources><build><item objectid="1"/><item objectid="1" transform="1 0 0 0 1 0 0 0 1 9 0 0"/></build>"#
        ));
        let bodies = parse(&archive(&m)).unwrap();
        assert_eq!(bodies[1].1.vertices.len(), 4);
        let p = crate::method::tetra::integrate(&crate::Mesh::new(&bodies[1].1).unwrap());
        assert!((p.volume - 10.0).abs() < 1e-12);
        assert!((p.centroid.x - 10.25).abs() < 1e-12);
    }
}
