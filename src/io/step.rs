//! STEP, IGES and OpenCASCADE BREP files: exact B-rep solids, integrated by OpenCASCADE
//! (feature `step`).
//!
//! The C++ side (`src/io/step.cpp`, compiled by `build.rs`) reads the file with
//! OpenCASCADE 7.6 (`STEPCAFControl_Reader` for STEP, so an assembly's components are
//! placed and named; `IGESControl_Reader`; `BRepTools::Read`), checks every solid with
//! `BRepCheck_Analyzer`, and integrates it by surface integration of the B-rep
//! (`BRepGProp::VolumeProperties`) to an explicit relative tolerance. Open shells and faces
//! outside any solid are refused, naming the STEP entity; solids of one file that share a
//! volume are refused (`BRepAlgoAPI_Common`) unless [`Options::overlap`] says to add them.
//! Every C++ exception is caught in the shim; failures come back as an [`Error::Cad`] of
//! one line.
//!
//! Numbers are in the file's own length unit ([`Cad::unit`]): the shim asks
//! OpenCASCADE for the file's unit and keeps its results in it (OpenCASCADE would otherwise
//! convert to millimetres). IGES results are in millimetres; BREP files state no unit.
//!
//! # Examples
//! ```no_run
//! use inertia::io::step::{read, CadFormat, Options};
//! let cad = read("part.step".as_ref(), CadFormat::Step, &Options::default())?;
//! for s in &cad.solids {
//!     println!("{}: volume {}", s.name, s.properties.volume);
//! }
//! # Ok::<(), inertia::Error>(())
//! ```

use crate::body::BoundingBox;
use crate::error::{CadFailure, Error, Result};
use crate::mass3d::MassProperties3d;
use crate::mesh::RawMesh;
use crate::units::LengthUnit;
use nalgebra::{Matrix3, Point3};
use std::ffi::{CString, c_char, c_int, c_void};
use std::path::Path;

/// The relative tolerance `BRepGProp::VolumeProperties` is asked for: 1e-12 (a torus is
/// then within 3e-11 of its closed form; boxes, cylinders and spheres within 1e-15–1e-12).
pub const DEFAULT_TOLERANCE: f64 = 1e-12;

/// Common volumes below this fraction of the smaller solid are taken for touching (the
/// boolean's rounding), not overlap.
pub const OVERLAP_NOISE: f64 = 1e-9;

/// A CAD file format OpenCASCADE reads.
///
/// # Examples
/// ```
/// use inertia::io::step::CadFormat;
/// assert_eq!(CadFormat::from_path("part.STP".as_ref()), Some(CadFormat::Step));
/// assert_eq!(CadFormat::from_path("part.stl".as_ref()), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CadFormat {
    /// STEP (ISO 10303-21), `.step` or `.stp`.
    Step,
    /// IGES, `.iges` or `.igs`.
    Iges,
    /// OpenCASCADE's own BREP, `.brep`.
    Brep,
}

impl CadFormat {
    /// The format a file name implies, if any.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::step::CadFormat;
    /// assert_eq!(CadFormat::from_path("a.igs".as_ref()), Some(CadFormat::Iges));
    /// ```
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "step" | "stp" => Some(CadFormat::Step),
            "iges" | "igs" => Some(CadFormat::Iges),
            "brep" => Some(CadFormat::Brep),
            _ => None,
        }
    }

    /// "STEP", "IGES" or "BREP".
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::io::step::CadFormat::Brep.name(), "BREP");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            CadFormat::Step => "STEP",
            CadFormat::Iges => "IGES",
            CadFormat::Brep => "BREP",
        }
    }
}

/// What to do with solids of one file that share a volume.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CadOverlap {
    /// Refuse the file, naming the two solids and their common volume.
    #[default]
    Refuse,
    /// Add them as they are (the common volume counts twice), with a warning.
    Sum,
}

/// How [`read`] reads and integrates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The relative tolerance asked of `BRepGProp::VolumeProperties`.
    pub tolerance: f64,
    /// Solids sharing a volume: refused or summed.
    pub overlap: CadOverlap,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerance: DEFAULT_TOLERANCE,
            overlap: CadOverlap::Refuse,
        }
    }
}

/// One solid of a CAD file, integrated for unit density.
#[derive(Clone, Debug, PartialEq)]
pub struct CadSolid {
    /// Its name: the assembly path of its component (`pair/left`), the part's product
    /// name, or `solid k` when one shape holds several; may be empty.
    pub name: String,
    /// Volume, centroid and inertia tensor about the centroid (tensor convention), mass =
    /// volume.
    pub properties: MassProperties3d,
    /// The relative tolerance BRepGProp was asked for.
    pub tolerance: f64,
    /// BRepGProp's own estimate of the relative error it reached.
    pub error_estimate: f64,
    /// Surface area of the B-rep (by BRepGProp to a relative 1e-6, or the tolerance if
    /// looser).
    pub surface_area: f64,
    /// Axis-aligned bounding box.
    pub bounding_box: BoundingBox,
    /// Faces of the B-rep.
    pub faces: usize,
    /// Shells (one, plus one per cavity).
    pub shells: usize,
    /// Its colour as the file gives it (STEP, through XCAF: the component's, else the
    /// part's surface or generic colour): red, green, blue in 0..1 (sRGB).
    pub color: Option<[f64; 3]>,
    /// Its material, where the file names one (STEP, through XCAF).
    pub material: Option<CadMaterial>,
}

/// A material a STEP file gives a part.
#[derive(Clone, Debug, PartialEq)]
pub struct CadMaterial {
    /// Its name as the file writes it.
    pub name: String,
    /// Its density in kg/m³, where the file carries one. OpenCASCADE keeps it in g/cm³
    /// (converted from a millimetre- or gram-based unit of the file; an SI unit is taken
    /// as it stands).
    pub density: Option<f64>,
}

impl CadSolid {
    fn with_appearance(self, (color, material): (Option<[f64; 3]>, Option<CadMaterial>)) -> Self {
        CadSolid {
            color,
            material,
            ..self
        }
    }
}

/// A CAD file read: its solids, their length unit, and the file kept open for
/// [`Cad::tessellate`].
pub struct Cad {
    /// Every solid, in the file's order (assembly components placed).
    pub solids: Vec<CadSolid>,
    /// Warnings, one line each (overlapping solids summed).
    pub warnings: Vec<String>,
    file: CadFile,
}

impl std::fmt::Debug for Cad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cad")
            .field("solids", &self.solids)
            .field("unit", &self.unit())
            .finish()
    }
}

impl Cad {
    /// The length unit of every number in [`Cad::solids`], as the file states it; `None`
    /// for a BREP file (which states none).
    pub fn unit(&self) -> Option<LengthUnit> {
        self.file.unit()
    }

    /// Solid `k` tessellated by `BRepMesh_IncrementalMesh` at the absolute chordal
    /// `deflection` (angular deflection 0.5 rad), its nodes shared between faces.
    ///
    /// # Errors
    /// [`Error::Cad`] when OpenCASCADE's mesher fails.
    pub fn tessellate(&mut self, k: usize, deflection: f64) -> Result<RawMesh> {
        self.file.tessellate(k, deflection, 0.5)
    }
}

/// Reads every solid of a CAD file, checks and integrates each, and checks that no two
/// share a volume.
///
/// # Errors
/// [`Error::Cad`] for a file OpenCASCADE cannot read, an open shell or face, an invalid or
/// inside-out solid (wrapped in [`Error::InPart`] naming the solid when the file holds
/// several); [`Error::SolidsOverlap`] for two solids sharing a volume, unless
/// [`Options::overlap`] is [`CadOverlap::Sum`].
pub fn read(path: &Path, format: CadFormat, options: &Options) -> Result<Cad> {
    if format == CadFormat::Step {
        check_exchange_structure(&std::fs::read(path)?)?;
    }
    let file = CadFile::open(path, format)?;
    let n = file.len();
    let mut solids = Vec::with_capacity(n);
    for k in 0..n {
        let name = file.name(k);
        let solid = file.properties(k, options.tolerance).map_err(|e| {
            if n > 1 || !name.is_empty() {
                Error::in_part(&label(&name, k), e)
            } else {
                e
            }
        })?;
        solids.push(solid);
    }
    let mut warnings = vec![];
    for a in 0..n {
        for b in a + 1..n {
            let common = file.common_volume(a, b)?;
            let smaller = solids[a].properties.volume.min(solids[b].properties.volume);
            if common > OVERLAP_NOISE * smaller {
                let (first, second) = (label(&solids[a].name, a), label(&solids[b].name, b));
                match options.overlap {
                    CadOverlap::Refuse => {
                        return Err(Error::SolidsOverlap {
                            first,
                            second,
                            volume: common,
                        });
                    }
                    CadOverlap::Sum => warnings.push(format!(
                        "{first} and {second} share a volume of {common}, counted twice"
                    )),
                }
            }
        }
    }
    Ok(Cad {
        solids,
        warnings,
        file,
    })
}

/// The length unit a CAD file states (STEP: its `SI_UNIT` or `CONVERSION_BASED_UNIT`, read
/// by OpenCASCADE without transferring any shape; IGES: millimetres, what OpenCASCADE
/// returns; BREP: none), as the results of [`read`] are in.
///
/// # Errors
/// [`Error::Cad`] for a STEP file OpenCASCADE cannot parse.
pub fn unit(path: &Path, format: CadFormat) -> Result<Option<LengthUnit>> {
    match format {
        CadFormat::Step => {
            check_exchange_structure(&std::fs::read(path)?)?;
            Ok(CadFile::open_as(path, 256)?.unit())
        }
        CadFormat::Iges => Ok(Some(LengthUnit::Mm)),
        CadFormat::Brep => Ok(None),
    }
}

/// Checks what OpenCASCADE's STEP parser does not: the file begins with `ISO-10303-21;`
/// and ends with `END-ISO-10303-21;` (a file cut short can otherwise be read as fewer
/// entities, silently), no entity instance name (`#241 = ...`) is defined twice (on which
/// OpenCASCADE 7.6's parser was seen to loop without end), and no instance refers to itself
/// (on which it recursed until the stack overflowed).
///
/// # Errors
/// [`Error::Cad`] ([`CadFailure::Unreadable`]) naming what is missing, or the instance and
/// the two lines that define it.
///
/// # Examples
/// ```
/// use inertia::io::step::check_exchange_structure;
/// let ok = b"ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n#1=A('x;#2=');\n#2=B(#1);\nENDSEC;\nEND-ISO-10303-21;\n";
/// assert!(check_exchange_structure(ok).is_ok());
/// let twice = b"ISO-10303-21;\nDATA;\n#1=A();\n#1=B();\nENDSEC;\nEND-ISO-10303-21;\n";
/// assert!(check_exchange_structure(twice).unwrap_err().to_string().contains("#1 is defined twice"));
/// assert!(check_exchange_structure(&ok[..40]).is_err());
/// let itself = b"ISO-10303-21;\nDATA;\n#7=ORIENTED_EDGE('',*,*,#7,.T.);\nENDSEC;\nEND-ISO-10303-21;\n";
/// assert!(check_exchange_structure(itself).unwrap_err().to_string().contains("#7 refers to itself"));
/// ```
pub fn check_exchange_structure(bytes: &[u8]) -> Result<()> {
    let unreadable = |message: String| Error::Cad {
        failure: CadFailure::Unreadable,
        message,
    };
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if !body.trim_ascii_start().starts_with(b"ISO-10303-21;") {
        return Err(unreadable(
            "not a STEP file (it does not begin with ISO-10303-21;)".into(),
        ));
    }
    // Statements end at `;` outside strings ('...', '' inside) and comments (/* */).
    let mut first_line: std::collections::HashMap<u64, usize> = Default::default();
    let (mut line, mut k) = (1usize, 0usize);
    let mut statement_start = true;
    // The instance the statement being read defines.
    let mut current: Option<u64> = None;
    let mut last_statement: &[u8] = b"";
    let mut start = 0usize;
    while k < body.len() {
        match body[k] {
            b'\n' => line += 1,
            b'\'' => {
                k += 1;
                while k < body.len() {
                    if body[k] == b'\n' {
                        line += 1;
                    } else if body[k] == b'\'' {
                        if body.get(k + 1) == Some(&b'\'') {
                            k += 1;
                        } else {
                            break;
                        }
                    }
                    k += 1;
                }
            }
            b'/' if body.get(k + 1) == Some(&b'*') => {
                k += 2;
                while k + 1 < body.len() && !(body[k] == b'*' && body[k + 1] == b'/') {
                    if body[k] == b'\n' {
                        line += 1;
                    }
                    k += 1;
                }
                k += 1;
            }
            b';' => {
                last_statement = body[start..=k.min(body.len() - 1)].trim_ascii();
                start = k + 1;
                statement_start = true;
                current = None;
            }
            b'#' => {
                let digits = body[k + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let id: Option<u64> = std::str::from_utf8(&body[k + 1..k + 1 + digits])
                    .ok()
                    .and_then(|t| t.parse().ok());
                let after = body[k + 1 + digits..].trim_ascii_start();
                if statement_start && digits > 0 && after.first() == Some(&b'=') {
                    let id = id.unwrap_or(u64::MAX);
                    if let Some(before) = first_line.insert(id, line) {
                        return Err(unreadable(format!(
                            "#{id} is defined twice (lines {before} and {line})"
                        )));
                    }
                    current = Some(id);
                } else if id.is_some() && id == current {
                    // OpenCASCADE's parser recurses without end on an entity that refers
                    // to itself (an ORIENTED_EDGE of itself).
                    return Err(unreadable(format!(
                        "#{} refers to itself (line {line})",
                        id.unwrap_or_default()
                    )));
                }
                statement_start = false;
                k += digits;
            }
            b if b.is_ascii_whitespace() => {}
            _ => statement_start = false,
        }
        k += 1;
    }
    if last_statement != b"END-ISO-10303-21;" {
        return Err(unreadable(
            "truncated: the file does not end with END-ISO-10303-21;".into(),
        ));
    }
    Ok(())
}

/// A solid's name for messages: its own, or `solid k`.
fn label(name: &str, k: usize) -> String {
    if name.is_empty() {
        format!("solid {}", k + 1)
    } else {
        name.to_string()
    }
}

/// The results of one tessellation of a solid, beside its B-rep value.
#[derive(Clone, Debug, PartialEq)]
pub struct Tessellation {
    /// The chordal deflection asked of `BRepMesh_IncrementalMesh` (absolute, file unit).
    pub deflection: f64,
    /// Triangles of the tessellation.
    pub triangles: usize,
    /// Its mass properties by `tetra` (unit density).
    pub properties: MassProperties3d,
    /// The largest relative difference from the B-rep value over volume (relative to the
    /// volume), centroid (relative to the bounding box's diagonal) and the tensor's entries
    /// (relative to its largest principal moment).
    pub difference: f64,
    /// What that difference may be from the chords alone, an estimate: the volume
    /// between a surface and triangles within `deflection` of it, at most
    /// `deflection × area`, relative to the volume, times 4 for the first and second
    /// moments (whose arms are at most the diagonal). The factor 4 is a heuristic, not
    /// proven, and the deflection is what the mesher aims for.
    pub bound: f64,
}

/// Tessellates solid `k` at each deflection (absolute, decreasing) and integrates each
/// tessellation with `tetra`, against the solid's B-rep value.
///
/// # Errors
/// [`Error::Cad`] when the mesher fails; the mesh's own validation errors when a
/// tessellation is not a closed mesh.
pub fn tessellations(cad: &mut Cad, k: usize, deflections: &[f64]) -> Result<Vec<Tessellation>> {
    let solid = cad.solids.get(k).cloned().ok_or_else(|| Error::Empty {
        missing: crate::error::Missing::Solid(k + 1),
    })?;
    let b = solid.properties;
    let diagonal = {
        let (lo, hi) = (solid.bounding_box.min, solid.bounding_box.max);
        ((hi[0] - lo[0]).powi(2) + (hi[1] - lo[1]).powi(2) + (hi[2] - lo[2]).powi(2)).sqrt()
    };
    let largest = crate::mass3d::principal(&b.inertia)
        .moments
        .iter()
        .fold(0.0f64, |a, m| a.max(m.abs()));
    let mut out = vec![];
    for &d in deflections {
        let raw = cad.tessellate(k, d)?;
        // Faces share the nodes of their common edges; where a file's faces do not quite
        // meet (within the B-rep's own tolerance), the open corners are joined within it.
        // The mesher's own triangles are checked closed and wound, not for overlap: a
        // coarse tessellation of a concave face may cross its neighbour's by up to its
        // deflection (CTC-01 at 1 mm, 0.014 mm deep), which the comparison's bound covers.
        let closed = |raw: &crate::RawMesh| crate::soup::general::build(raw, false).0;
        let mesh = match closed(&raw) {
            Ok(m) => m,
            Err(first) => {
                let tol = cad.file.max_tolerance(k);
                if tol.is_nan() || tol <= 0.0 {
                    return Err(first);
                }
                closed(&raw.welded_within(tol).0).map_err(|_| first)?
            }
        };
        let t = crate::MeshMethod::Tetra.integrate(&mesh, 0).properties;
        let volume = ((t.volume - b.volume) / b.volume).abs();
        let centroid = (t.centroid - b.centroid).norm() / diagonal;
        let moments = (t.inertia - b.inertia).abs().max() / largest;
        out.push(Tessellation {
            deflection: d,
            triangles: raw.triangles.len(),
            properties: t,
            difference: volume.max(centroid).max(moments),
            bound: 4.0 * d * solid.surface_area / b.volume,
        });
    }
    Ok(out)
}

// The shim's C ABI (src/io/step.cpp).

/// `InertiaCadProps` of the shim.
#[repr(C)]
#[derive(Default)]
struct Props {
    volume: f64,
    centroid: [f64; 3],
    inertia: [f64; 9],
    surface_area: f64,
    bbox_min: [f64; 3],
    bbox_max: [f64; 3],
    faces: u64,
    shells: u64,
}

unsafe extern "C" {
    fn inertia_cad_read(
        path: *const c_char,
        format: c_int,
        out: *mut *mut c_void,
        msg: *mut c_char,
        len: usize,
    ) -> c_int;
    fn inertia_cad_free(cad: *mut c_void);
    fn inertia_cad_count(cad: *const c_void) -> usize;
    fn inertia_cad_unit(
        cad: *const c_void,
        name: *mut c_char,
        len: usize,
        metres: *mut f64,
    ) -> c_int;
    fn inertia_cad_name(cad: *const c_void, k: usize, name: *mut c_char, len: usize) -> c_int;
    fn inertia_cad_properties(
        cad: *const c_void,
        k: usize,
        eps: f64,
        out: *mut Props,
        achieved: *mut f64,
        msg: *mut c_char,
        len: usize,
    ) -> c_int;
    fn inertia_cad_common_volume(
        cad: *const c_void,
        a: usize,
        b: usize,
        volume: *mut f64,
        msg: *mut c_char,
        len: usize,
    ) -> c_int;
    fn inertia_cad_mesh(
        cad: *mut c_void,
        k: usize,
        deflection: f64,
        angle: f64,
        nodes: *mut usize,
        triangles: *mut usize,
        msg: *mut c_char,
        len: usize,
    ) -> c_int;
    fn inertia_cad_appearance(
        cad: *const c_void,
        k: usize,
        has_color: *mut c_int,
        rgb: *mut f64,
        material: *mut c_char,
        len: usize,
        density: *mut f64,
    ) -> c_int;
    fn inertia_cad_max_tolerance(cad: *const c_void, k: usize) -> f64;
    fn inertia_cad_mesh_copy(cad: *const c_void, nodes: *mut f64, triangles: *mut u32) -> c_int;
    fn inertia_cad_reference_properties(
        cad: *const c_void,
        k: usize,
        eps: f64,
        area_eps: f64,
        out: *mut f64,
        msg: *mut c_char,
        len: usize,
    ) -> c_int;
    fn inertia_cad_test_listed_knots(out: *mut f64, msg: *mut c_char, len: usize) -> c_int;
    fn inertia_cad_green_directions(
        cad: *const c_void,
        k: usize,
        eps: f64,
        worst: *mut f64,
        faces: *mut usize,
        msg: *mut c_char,
        len: usize,
    ) -> c_int;
    fn inertia_cad_write_test(
        kind: c_int,
        path: *const c_char,
        msg: *mut c_char,
        len: usize,
    ) -> c_int;
}

/// Room for a message from the shim.
const MESSAGE: usize = 1024;

/// A shim status and its message as an error (`None` for success).
fn status(code: c_int, msg: &[u8]) -> Result<()> {
    let failure = match code {
        0 => return Ok(()),
        1 => CadFailure::Unreadable,
        2 => CadFailure::Empty,
        3 => CadFailure::Invalid,
        4 => CadFailure::Open,
        7 => CadFailure::InsideOut,
        _ => CadFailure::Failed,
    };
    Err(Error::Cad {
        failure,
        message: text(msg),
    })
}

/// A NUL-terminated buffer as text (lossy, one line).
fn text(buf: &[u8]) -> String {
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).replace(['\n', '\r'], " ")
}

/// A path for the shim, or an error when it holds a NUL byte.
fn c_path(path: &Path) -> Result<CString> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(path.as_os_str().as_bytes()).map_err(|_| Error::Cad {
        failure: CadFailure::Unreadable,
        message: "the file name holds a NUL byte".into(),
    })
}

/// An open CAD file: the shim's handle, freed on drop.
struct CadFile {
    handle: *mut c_void,
}

impl Drop for CadFile {
    fn drop(&mut self) {
        // SAFETY: the handle came from inertia_cad_read and is freed once.
        unsafe { inertia_cad_free(self.handle) }
    }
}

impl CadFile {
    fn open(path: &Path, format: CadFormat) -> Result<CadFile> {
        let fmt = match format {
            CadFormat::Step => 0,
            CadFormat::Iges => 1,
            CadFormat::Brep => 2,
        };
        Self::open_as(path, fmt)
    }

    /// [`CadFile::open`] by the shim's format number.
    fn open_as(path: &Path, fmt: c_int) -> Result<CadFile> {
        // OpenCASCADE's parser reads what it is given without a size check: a file that
        // is not there, or a directory, is said so here.
        let meta = std::fs::metadata(path)?;
        if !meta.is_file() {
            return Err(Error::Cad {
                failure: CadFailure::Unreadable,
                message: "not a regular file".into(),
            });
        }
        let c = c_path(path)?;
        let mut handle = std::ptr::null_mut();
        let mut msg = [0u8; MESSAGE];
        // SAFETY: valid NUL-terminated path, out-pointer and message buffer of its length.
        let code = unsafe {
            inertia_cad_read(
                c.as_ptr(),
                fmt,
                &mut handle,
                msg.as_mut_ptr().cast(),
                msg.len(),
            )
        };
        status(code, &msg)?;
        if handle.is_null() {
            return Err(Error::Cad {
                failure: CadFailure::Failed,
                message: "OpenCASCADE returned no shape".into(),
            });
        }
        Ok(CadFile { handle })
    }

    fn len(&self) -> usize {
        // SAFETY: a live handle.
        unsafe { inertia_cad_count(self.handle) }
    }

    fn unit(&self) -> Option<LengthUnit> {
        let mut name = [0u8; 64];
        let mut metres = 0.0;
        // SAFETY: a live handle, a buffer of its length.
        unsafe {
            inertia_cad_unit(
                self.handle,
                name.as_mut_ptr().cast(),
                name.len(),
                &mut metres,
            )
        };
        match text(&name).as_str() {
            "METRE" => Some(LengthUnit::M),
            "MILLIMETRE" => Some(LengthUnit::Mm),
            "CENTIMETRE" => Some(LengthUnit::Cm),
            "KILOMETRE" => Some(LengthUnit::Km),
            "MICROMETRE" => Some(LengthUnit::Um),
            "INCH" => Some(LengthUnit::In),
            "FOOT" => Some(LengthUnit::Ft),
            "MILE" => Some(LengthUnit::Mi),
            "MIL" => Some(LengthUnit::Mil),
            "MICROINCH" => Some(LengthUnit::Uin),
            _ => None,
        }
    }

    fn name(&self, k: usize) -> String {
        let mut name = [0u8; 512];
        // SAFETY: a live handle, a buffer of its length.
        unsafe { inertia_cad_name(self.handle, k, name.as_mut_ptr().cast(), name.len()) };
        text(&name)
    }

    fn properties(&self, k: usize, tolerance: f64) -> Result<CadSolid> {
        let mut p = Props::default();
        let mut achieved = 0.0;
        let mut msg = [0u8; MESSAGE];
        // SAFETY: a live handle, out-pointers, a buffer of its length.
        let code = unsafe {
            inertia_cad_properties(
                self.handle,
                k,
                tolerance,
                &mut p,
                &mut achieved,
                msg.as_mut_ptr().cast(),
                msg.len(),
            )
        };
        status(code, &msg)?;
        let finite =
            p.volume.is_finite() && p.centroid.iter().chain(&p.inertia).all(|x| x.is_finite());
        if !finite {
            return Err(Error::Cad {
                failure: CadFailure::Failed,
                message: "OpenCASCADE's integral is not a finite number".into(),
            });
        }
        Ok(CadSolid {
            name: self.name(k),
            properties: MassProperties3d {
                volume: p.volume,
                mass: p.volume,
                centroid: Point3::from(p.centroid),
                inertia: Matrix3::from_row_slice(&p.inertia),
            },
            tolerance,
            error_estimate: achieved,
            surface_area: p.surface_area,
            bounding_box: BoundingBox {
                min: p.bbox_min,
                max: p.bbox_max,
            },
            faces: p.faces as usize,
            shells: p.shells as usize,
            color: None,
            material: None,
        }
        .with_appearance(self.appearance(k)))
    }

    /// Solid `k`'s colour and material as the shim read them.
    fn appearance(&self, k: usize) -> (Option<[f64; 3]>, Option<CadMaterial>) {
        let (mut has_color, mut rgb, mut density) = (0 as c_int, [0.0f64; 3], 0.0f64);
        let mut name = [0u8; 512];
        // SAFETY: a live handle, out-pointers, a buffer of its length.
        let code = unsafe {
            inertia_cad_appearance(
                self.handle,
                k,
                &mut has_color,
                rgb.as_mut_ptr(),
                name.as_mut_ptr().cast(),
                name.len(),
                &mut density,
            )
        };
        if code != 0 {
            return (None, None);
        }
        let color = (has_color != 0 && rgb.iter().all(|c| c.is_finite())).then_some(rgb);
        let name = text(&name);
        // g/cm³ to kg/m³; none, or one that is not a positive number, is no density.
        let density = (density.is_finite() && density > 0.0).then_some(density * 1000.0);
        let material =
            (!name.is_empty() || density.is_some()).then_some(CadMaterial { name, density });
        (color, material)
    }

    fn max_tolerance(&self, k: usize) -> f64 {
        // SAFETY: a live handle.
        unsafe { inertia_cad_max_tolerance(self.handle, k) }
    }

    fn common_volume(&self, a: usize, b: usize) -> Result<f64> {
        let mut v = 0.0;
        let mut msg = [0u8; MESSAGE];
        // SAFETY: a live handle, an out-pointer, a buffer of its length.
        let code = unsafe {
            inertia_cad_common_volume(
                self.handle,
                a,
                b,
                &mut v,
                msg.as_mut_ptr().cast(),
                msg.len(),
            )
        };
        status(code, &msg)?;
        Ok(v)
    }

    fn tessellate(&mut self, k: usize, deflection: f64, angle: f64) -> Result<RawMesh> {
        let (mut nodes, mut triangles) = (0usize, 0usize);
        let mut msg = [0u8; MESSAGE];
        // SAFETY: a live handle, out-pointers, a buffer of its length.
        let code = unsafe {
            inertia_cad_mesh(
                self.handle,
                k,
                deflection,
                angle,
                &mut nodes,
                &mut triangles,
                msg.as_mut_ptr().cast(),
                msg.len(),
            )
        };
        status(code, &msg)?;
        let mut xyz = vec![0.0f64; 3 * nodes];
        let mut tri = vec![0u32; 3 * triangles];
        // SAFETY: buffers of the sizes the shim just reported.
        unsafe { inertia_cad_mesh_copy(self.handle, xyz.as_mut_ptr(), tri.as_mut_ptr()) };
        Ok(RawMesh {
            vertices: xyz.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            triangles: tri.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            lines: vec![],
        })
    }
}

/// Test solids written by OpenCASCADE, for checking against closed forms. Not part of the
/// stable interface.
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// A test solid the shim can write (see `inertia_cad_write_test` in `step.cpp`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum TestSolid {
        /// Box 10×20×30 with its corner at (1, 2, 3).
        Box = 0,
        /// Cylinder r 5, h 20, axis z from the origin.
        Cylinder = 1,
        /// Sphere r 7 at the origin.
        Sphere = 2,
        /// Torus R 10, r 2 about z.
        Torus = 3,
        /// Cone frustum r 6 → 2, h 9, axis z.
        Cone = 4,
        /// Box 40×30×10 with a through hole r 5 at (20, 15).
        BoxWithHole = 5,
        /// Assembly "pair" of two boxes 10×20×30: "left" at the origin, "right" turned
        /// 90° about z and moved by (100, 0, 0).
        Assembly = 6,
        /// Box 1×2×3 in, written in inches.
        Inches = 7,
        /// A box 10×20×30 missing one face: an open shell.
        OpenShell = 8,
        /// Two boxes 10×20×30, the second moved by 5 along x: they share 5×20×30.
        Overlapping = 9,
        /// The two boxes of `Assembly` as one BREP compound.
        BrepPair = 10,
        /// Box 10×20×30 at the origin turned 30° about z.
        Tilted = 11,
        /// A box with one face turned inside out (BREP): fails the shape check.
        Invalid = 12,
        /// The box of `Box` as IGES.
        Iges = 13,
        /// A box 10×20×30 "bracket" coloured (0.8, 0.2, 0.1), of material "aluminium
        /// 6061" of 2.7 g/cm³ (XCAF).
        Coloured = 14,
        /// Two parts: the box of `Coloured` ("bracket", aluminium 2.7 g/cm³) and one moved
        /// by 100 along x ("block", "steel" 7.85 g/cm³).
        TwoMaterials = 15,
        /// The torus of `Torus` as rational B-splines, moved by (10⁶, −2·10⁶, 5·10⁵), as
        /// BREP (every digit kept).
        SplineTorus = 16,
        /// The box with a hole of `BoxWithHole` as B-splines: faces trimmed by circles.
        SplineBoxWithHole = 17,
        /// The sphere of `Sphere` as rational B-splines (its poles degenerate edges).
        SplineSphere = 18,
    }

    /// Solid `k` of `cad` integrated by BRepGProp's own `VolumeProperties` (to `eps`) and
    /// `SurfaceProperties` (to `area_eps`) on one thread: volume, centroid (3), the tensor
    /// (9, rows), area. [`read`] integrates the faces on several threads; the tests check
    /// that it gives the same numbers.
    ///
    /// # Errors
    /// [`Error::Cad`] when OpenCASCADE fails.
    pub fn reference(cad: &Cad, k: usize, eps: f64, area_eps: f64) -> Result<[f64; 14]> {
        let mut out = [0.0; 14];
        let mut msg = [0u8; MESSAGE];
        // SAFETY: a live handle, an out-array of 14, a buffer of its length.
        let code = unsafe {
            inertia_cad_reference_properties(
                cad.file.handle,
                k,
                eps,
                area_eps,
                out.as_mut_ptr(),
                msg.as_mut_ptr().cast(),
                msg.len(),
            )
        };
        status(code, &msg)?;
        Ok(out)
    }

    /// A cylinder r 5, h 20 on B-spline surfaces, its side's periodic surface with 12 knot
    /// spans listed from a third of a turn, integrated face by face as BRepGProp integrates
    /// it (`[0]`) and with each face's knots listed over its own range, as [`read`] does
    /// (`[1]`): two volumes to compare with 500π.
    ///
    /// # Errors
    /// [`Error::Cad`] when OpenCASCADE fails.
    pub fn listed_knots() -> Result<[f64; 2]> {
        let mut out = [0.0; 2];
        let mut msg = [0u8; MESSAGE];
        // SAFETY: an out-array of 2, a buffer of its length.
        let code = unsafe {
            inertia_cad_test_listed_knots(out.as_mut_ptr(), msg.as_mut_ptr().cast(), msg.len())
        };
        status(code, &msg)?;
        Ok(out)
    }

    /// Every face of solid `k` integrated by the B-spline faces' integrator
    /// (`src/io/green.cpp`) twice, its inner integrals along u and along v, to `eps`: the
    /// largest difference of a term between the two (divided by the solid's size to the
    /// term's degree), relative to the sum of the faces' volume (or area) terms' absolute
    /// values, and how many faces were compared.
    ///
    /// # Errors
    /// [`Error::Cad`] when OpenCASCADE fails or a B-spline face is not integrated so.
    pub fn green_directions(cad: &Cad, k: usize, eps: f64) -> Result<(f64, usize)> {
        let (mut worst, mut faces) = (0.0, 0usize);
        let mut msg = [0u8; MESSAGE];
        // SAFETY: a live handle, two out-values, a buffer of its length.
        let code = unsafe {
            inertia_cad_green_directions(
                cad.file.handle,
                k,
                eps,
                &mut worst,
                &mut faces,
                msg.as_mut_ptr().cast(),
                msg.len(),
            )
        };
        status(code, &msg)?;
        Ok((worst, faces))
    }

    /// Writes `solid` to `path` (STEP; BREP for [`TestSolid::BrepPair`],
    /// [`TestSolid::Invalid`] and [`TestSolid::SplineTorus`], IGES for [`TestSolid::Iges`]).
    ///
    /// # Errors
    /// [`Error::Cad`] when OpenCASCADE cannot write it.
    pub fn write(solid: TestSolid, path: &Path) -> Result<()> {
        let c = c_path(path)?;
        let mut msg = [0u8; MESSAGE];
        // SAFETY: a valid path, a buffer of its length.
        let code = unsafe {
            inertia_cad_write_test(
                solid as c_int,
                c.as_ptr(),
                msg.as_mut_ptr().cast(),
                msg.len(),
            )
        };
        status(code, &msg)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{TestSolid, write};
    use super::*;
    use std::f64::consts::PI;

    /// A fresh path in the temporary directory for `what`, one of its own on every call:
    /// tests run in parallel, and one writing a solid's file while another reads it gave
    /// the reader half a file.
    fn temp(what: &str, ext: &str) -> std::path::PathBuf {
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("inertia-step-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(format!("{what}-{call}.{ext}"))
    }

    fn written(solid: TestSolid) -> std::path::PathBuf {
        let ext = match solid {
            TestSolid::BrepPair | TestSolid::Invalid | TestSolid::SplineTorus => "brep",
            TestSolid::Iges => "igs",
            _ => "step",
        };
        let path = temp(&format!("{solid:?}"), ext);
        write(solid, &path).unwrap();
        path
    }

    fn read_test(solid: TestSolid) -> Cad {
        let path = written(solid);
        let format = CadFormat::from_path(&path).unwrap();
        read(&path, format, &Options::default()).unwrap()
    }

    /// Checks a solid against a closed form to 1e-9: volume relative to itself, centroid
    /// relative to `size`, the tensor relative to its largest entry.
    fn check(s: &CadSolid, volume: f64, centroid: [f64; 3], inertia: Matrix3<f64>, size: f64) {
        let p = &s.properties;
        assert!(
            ((p.volume - volume) / volume).abs() < 1e-9,
            "{}: volume {} against {volume}",
            s.name,
            p.volume
        );
        for k in 0..3 {
            assert!(
                ((p.centroid[k] - centroid[k]) / size).abs() < 1e-9,
                "{}: centroid {:?} against {centroid:?}",
                s.name,
                p.centroid
            );
        }
        let scale = inertia.abs().max();
        assert!(
            (p.inertia - inertia).abs().max() / scale < 1e-9,
            "{}: inertia {} against {inertia}",
            s.name,
            p.inertia
        );
        assert_eq!(s.tolerance, DEFAULT_TOLERANCE);
    }

    fn diag(x: f64, y: f64, z: f64) -> Matrix3<f64> {
        Matrix3::from_diagonal(&nalgebra::Vector3::new(x, y, z))
    }

    /// Box a×b×c of unit density about its centroid.
    fn cuboid(a: f64, b: f64, c: f64) -> Matrix3<f64> {
        let v = a * b * c;
        diag(
            v * (b * b + c * c) / 12.0,
            v * (a * a + c * c) / 12.0,
            v * (a * a + b * b) / 12.0,
        )
    }

    #[test]
    fn box_cylinder_sphere_torus_against_closed_forms() {
        let cad = read_test(TestSolid::Box);
        assert_eq!(cad.unit(), Some(LengthUnit::Mm));
        assert_eq!(cad.solids.len(), 1);
        check(
            &cad.solids[0],
            6000.0,
            [6.0, 12.0, 18.0],
            cuboid(10.0, 20.0, 30.0),
            30.0,
        );
        assert!((cad.solids[0].surface_area - 2200.0).abs() < 1e-9);
        assert_eq!((cad.solids[0].faces, cad.solids[0].shells), (6, 1));

        let (r, h) = (5.0, 20.0);
        let v = PI * r * r * h;
        let cad = read_test(TestSolid::Cylinder);
        check_area(&cad.solids[0], 2.0 * PI * r * (r + h));
        let side = v * (3.0 * r * r + h * h) / 12.0;
        check(
            &cad.solids[0],
            v,
            [0.0, 0.0, 10.0],
            diag(side, side, v * r * r / 2.0),
            h,
        );

        check_sphere(&read_test(TestSolid::Sphere).solids[0]);
        check_torus(&read_test(TestSolid::Torus).solids[0], [0.0; 3]);
    }

    /// The sphere r 7 at the origin, area included.
    fn check_sphere(s: &CadSolid) {
        let r = 7.0;
        let v = 4.0 / 3.0 * PI * r * r * r;
        let i = 0.4 * v * r * r;
        check(s, v, [0.0; 3], diag(i, i, i), r);
        check_area(s, 4.0 * PI * r * r);
    }

    /// The torus R 10, r 2 about z centred at `centre`, area included.
    fn check_torus(s: &CadSolid, centre: [f64; 3]) {
        let (big, small) = (10.0, 2.0);
        let v = 2.0 * PI * PI * big * small * small;
        let axial = v * (big * big + 0.75 * small * small);
        let side = v * (big * big / 2.0 + 5.0 / 8.0 * small * small);
        check(s, v, centre, diag(side, side, axial), big);
        check_area(s, 4.0 * PI * PI * big * small);
    }

    /// The box 40×30×10 less a cylinder r 5 through it at its centre.
    fn check_box_with_hole(s: &CadSolid) {
        let (r, t) = (5.0, 10.0);
        let hole = PI * r * r * t;
        let side = hole * (3.0 * r * r + t * t) / 12.0;
        let inertia = cuboid(40.0, 30.0, 10.0) - diag(side, side, hole * r * r / 2.0);
        check(s, 12000.0 - hole, [20.0, 15.0, 5.0], inertia, 40.0);
    }

    /// A solid's surface area against `exact`, to 1e-9 of itself.
    fn check_area(s: &CadSolid, exact: f64) {
        let e = ((s.surface_area - exact) / exact).abs();
        assert!(e < 1e-9, "area {} against {exact}", s.surface_area);
    }

    #[test]
    fn spline_solids_integrated_by_their_boundaries_against_closed_forms() {
        // Every face on a B-spline surface: integrated by Green's theorem along the faces'
        // boundaries (src/io/green.cpp), not by BRepGProp.
        let torus = read_test(TestSolid::SplineTorus);
        let s = &torus.solids[0];
        check_torus(s, [1e6, -2e6, 5e5]);
        let v = 2.0 * PI * PI * 10.0 * 4.0;
        assert!(
            ((s.properties.volume - v) / v).abs() < 1e-11,
            "{}",
            s.properties.volume
        );
        check_sphere(&read_test(TestSolid::SplineSphere).solids[0]);
        check_box_with_hole(&read_test(TestSolid::SplineBoxWithHole).solids[0]);
    }

    #[test]
    fn green_integrates_every_face_alike_along_u_and_along_v() {
        // Inner integrals along u or along v: other points, other pieces, other sums, the
        // same integrals. Planes, cylinders, cones, tori and the NIST part's B-spline
        // faces alike (trimmed by curves of ~300 knots, periodic, past their first knot).
        let nist = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/cad/nist_ctc_02_asme1_ap242.stp");
        let nist = read(&nist, CadFormat::Step, &Options::default()).unwrap();
        let (worst, faces) = testing::green_directions(&nist, 0, 1e-12).unwrap();
        eprintln!("NIST part: {faces} faces, worst {worst:e}");
        assert_eq!(faces, nist.solids[0].faces);
        assert!(worst < 1e-12, "{worst:e}");
        for solid in [
            TestSolid::SplineTorus,
            TestSolid::SplineSphere,
            TestSolid::SplineBoxWithHole,
            TestSolid::BoxWithHole,
            TestSolid::Torus,
            TestSolid::Cone,
        ] {
            let cad = read_test(solid);
            let (worst, faces) = testing::green_directions(&cad, 0, 1e-12).unwrap();
            assert!(faces > 0, "{solid:?}");
            // The far torus's points are rounded at 2·10⁶, 10⁵ times its size: 2e-11 of
            // it, and its terms agree to that (5e-12 when written).
            let limit = if solid == TestSolid::SplineTorus {
                1e-10
            } else {
                1e-12
            };
            assert!(worst < limit, "{solid:?}: {worst:e}");
        }
    }

    #[test]
    fn cone_and_box_with_hole_against_closed_forms() {
        // Frustum r 6 at z 0 to r 2 at z 9: the integrands are polynomials in z of degree
        // at most 4, which 5-point Gauss-Legendre integrates exactly.
        let (r1, r2, h) = (6.0, 2.0, 9.0);
        let radius = |z: f64| r1 + (r2 - r1) * z / h;
        let nodes = [
            (0.0, 128.0 / 225.0),
            (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
            (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
            (-0.906_179_845_938_664, 0.236_926_885_056_189_1),
            (0.906_179_845_938_664, 0.236_926_885_056_189_1),
        ];
        let integral = |f: &dyn Fn(f64) -> f64| {
            nodes
                .iter()
                .map(|(x, w)| w * f(h / 2.0 * (x + 1.0)))
                .sum::<f64>()
                * h
                / 2.0
        };
        let v = integral(&|z| PI * radius(z).powi(2));
        let zc = integral(&|z| PI * radius(z).powi(2) * z) / v;
        let izz = integral(&|z| PI * radius(z).powi(4) / 2.0);
        let ixx =
            integral(&|z| PI * radius(z).powi(2) * (radius(z).powi(2) / 4.0 + (z - zc).powi(2)));
        assert!((v - PI * h / 3.0 * (r1 * r1 + r1 * r2 + r2 * r2)).abs() < 1e-9);
        check(
            &read_test(TestSolid::Cone).solids[0],
            v,
            [0.0, 0.0, zc],
            diag(ixx, ixx, izz),
            h,
        );

        let cad = read_test(TestSolid::BoxWithHole);
        check_box_with_hole(&cad.solids[0]);
        assert_eq!(cad.solids[0].faces, 7);
    }

    #[test]
    fn tilted_box_has_the_rotated_tensor_with_its_products() {
        let turn = nalgebra::Rotation3::from_axis_angle(&nalgebra::Vector3::z_axis(), PI / 6.0);
        let inertia = turn.matrix() * cuboid(10.0, 20.0, 30.0) * turn.matrix().transpose();
        let centroid = turn * Point3::new(5.0, 10.0, 15.0);
        let cad = read_test(TestSolid::Tilted);
        // Products in the tensor convention: −∫xy dV. The long side (y) turned towards −x
        // puts the mass where xy < 0: the entry is positive.
        assert!(inertia[(0, 1)] > 0.0);
        check(&cad.solids[0], 6000.0, centroid.into(), inertia, 30.0);
    }

    #[test]
    fn assembly_components_are_placed_and_named() {
        let cad = read_test(TestSolid::Assembly);
        let names: Vec<&str> = cad.solids.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["left", "right"]);
        check(
            &cad.solids[0],
            6000.0,
            [5.0, 10.0, 15.0],
            cuboid(10.0, 20.0, 30.0),
            100.0,
        );
        // Turned 90° about z (x → y, y → −x), then moved by 100 along x.
        check(
            &cad.solids[1],
            6000.0,
            [90.0, 5.0, 15.0],
            cuboid(20.0, 10.0, 30.0),
            100.0,
        );
        let total: MassProperties3d = cad.solids.iter().map(|s| s.properties).sum();
        assert!((total.centroid.x - 47.5).abs() < 1e-9);
        assert!(cad.warnings.is_empty());
    }

    #[test]
    fn a_part_in_inches_is_read_in_inches() {
        let path = written(TestSolid::Inches);
        assert_eq!(unit(&path, CadFormat::Step).unwrap(), Some(LengthUnit::In));
        let cad = read(&path, CadFormat::Step, &Options::default()).unwrap();
        assert_eq!(cad.unit(), Some(LengthUnit::In));
        check(
            &cad.solids[0],
            6.0,
            [0.5, 1.0, 1.5],
            cuboid(1.0, 2.0, 3.0),
            3.0,
        );
    }

    #[test]
    fn brep_files_state_no_unit() {
        let cad = read_test(TestSolid::BrepPair);
        assert_eq!(cad.unit(), None);
        assert_eq!(cad.solids.len(), 2);
        assert_eq!(cad.solids[1].name, "solid 2");
        check(
            &cad.solids[1],
            6000.0,
            [90.0, 5.0, 15.0],
            cuboid(20.0, 10.0, 30.0),
            100.0,
        );
    }

    #[test]
    fn iges_is_read_in_millimetres_after_a_step_file_in_inches() {
        // A STEP file in inches leaves OpenCASCADE's unit at inches; IGES is still mm.
        let _ = read_test(TestSolid::Inches);
        let cad = read_test(TestSolid::Iges);
        assert_eq!(cad.unit(), Some(LengthUnit::Mm));
        check(
            &cad.solids[0],
            6000.0,
            [6.0, 12.0, 18.0],
            cuboid(10.0, 20.0, 30.0),
            30.0,
        );
    }

    #[test]
    fn invalid_shapes_are_refused_naming_the_face() {
        let path = written(TestSolid::Invalid);
        let e = read(&path, CadFormat::Brep, &Options::default()).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Cad {
                    failure: CadFailure::Invalid,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("shape check fails at"), "{e}");
    }

    #[test]
    fn every_truncation_of_a_file_is_refused_never_a_crash() {
        let good = std::fs::read(written(TestSolid::BoxWithHole)).unwrap();
        let path = temp("cut", "step");
        for k in 1..40 {
            let cut = good.len() * k / 40;
            std::fs::write(&path, &good[..cut]).unwrap();
            // Refused: a cut file lacks its END-ISO-10303-21; line.
            let e = read(&path, CadFormat::Step, &Options::default()).unwrap_err();
            assert!(matches!(e, Error::Cad { .. }), "cut at {cut}: {e}");
        }
    }

    #[test]
    fn mutated_files_are_refused_or_read_never_a_crash() {
        // Bytes changed, cut out, repeated, digits changed. Before the checks, 34 of 200
        // such files (mutated by a script, run through the release binary) crashed it (33
        // SIGSEGV in OpenCASCADE's translator, one stack overflow) and one hung its
        // parser; after them, 400 gave exit 0 or 2. A crash here ends the test binary.
        // The coloured part's presentation and material entities are read too (XCAF).
        let sources = [
            std::fs::read(written(TestSolid::BoxWithHole)).unwrap(),
            std::fs::read(written(TestSolid::Assembly)).unwrap(),
            std::fs::read(written(TestSolid::Coloured)).unwrap(),
        ];
        let path = temp("mutant", "step");
        let mut rng = crate::test_rng::Lcg(0x2602);
        let mut next = |n: usize| rng.below(n.max(1) as u64) as usize;
        for round in 0..60 {
            let mut b = sources[round % 3].clone();
            for _ in 0..1 + next(4) {
                let k = next(b.len());
                match next(4) {
                    0 => b[k] = next(256) as u8,
                    1 => {
                        let end = (k + 1 + next(200)).min(b.len());
                        b.drain(k..end);
                    }
                    2 => {
                        let piece = b[k.saturating_sub(300)..k].to_vec();
                        b.splice(k..k, piece);
                    }
                    _ => {
                        if let Some(d) = (k..b.len()).find(|&j| b[j].is_ascii_digit()) {
                            b[d] = b'0' + next(10) as u8;
                        }
                    }
                }
            }
            std::fs::write(&path, &b).unwrap();
            if let Ok(cad) = read(&path, CadFormat::Step, &Options::default()) {
                assert!(cad.solids.iter().all(|s| s.properties.volume > 0.0));
            }
        }
    }

    #[test]
    fn open_shells_are_refused_naming_the_entity() {
        let path = written(TestSolid::OpenShell);
        let e = read(&path, CadFormat::Step, &Options::default()).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Cad {
                    failure: CadFailure::Open,
                    ..
                }
            ),
            "{e}"
        );
        let text = e.to_string();
        assert!(
            text.contains("OPEN_SHELL") && text.contains("open shell"),
            "{text}"
        );
    }

    #[test]
    fn overlapping_solids_are_refused_or_summed() {
        let path = written(TestSolid::Overlapping);
        let e = read(&path, CadFormat::Step, &Options::default()).unwrap_err();
        let Error::SolidsOverlap { volume, .. } = e else {
            panic!("{e}");
        };
        assert!((volume - 3000.0).abs() < 1e-6, "{volume}");
        let sum = Options {
            overlap: CadOverlap::Sum,
            ..Options::default()
        };
        let cad = read(&path, CadFormat::Step, &sum).unwrap();
        assert_eq!(cad.solids.len(), 2);
        assert_eq!(cad.warnings.len(), 1, "{:?}", cad.warnings);
    }

    #[test]
    fn malformed_and_truncated_files_are_refused() {
        let good = std::fs::read(written(TestSolid::BoxWithHole)).unwrap();
        for (what, bytes) in [
            ("truncated", &good[..good.len() / 2]),
            ("garbage", &b"hello, not STEP\n"[..]),
            ("empty", &b""[..]),
            (
                "header-only",
                &good[..good.iter().position(|&b| b == b'#').unwrap()],
            ),
        ] {
            let path = temp(what, "step");
            std::fs::write(&path, bytes).unwrap();
            let e = read(&path, CadFormat::Step, &Options::default()).unwrap_err();
            assert!(matches!(e, Error::Cad { .. }), "{what}: {e}");
            assert!(!e.to_string().contains('\n'));
        }
        let missing = temp("missing", "step");
        assert!(read(&missing, CadFormat::Step, &Options::default()).is_err());
        let e = read(
            &temp("garbage", "step").with_extension("igs"),
            CadFormat::Iges,
            &Options::default(),
        );
        assert!(e.is_err());
    }

    #[test]
    fn colour_name_and_material_are_read_back() {
        let path = written(TestSolid::Coloured);
        // The file carries them as STEP writes them.
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("COLOUR_RGB"), "no colour in the file");
        assert!(text.contains("aluminium 6061"), "no material in the file");
        let cad = read(&path, CadFormat::Step, &Options::default()).unwrap();
        let s = &cad.solids[0];
        assert_eq!(s.name, "bracket");
        let rgb = s.color.expect("a colour");
        for (got, want) in rgb.iter().zip([0.8, 0.2, 0.1]) {
            assert!((got - want).abs() < 1e-6, "{rgb:?}");
        }
        let m = s.material.as_ref().expect("a material");
        assert_eq!(m.name, "aluminium 6061");
        let d = m.density.expect("a density");
        assert!((d - 2700.0).abs() < 1e-9, "{d}");
        check(s, 6000.0, [5.0, 10.0, 15.0], cuboid(10.0, 20.0, 30.0), 30.0);
        // A part without them has none.
        let plain = read_test(TestSolid::Box);
        assert_eq!(
            (plain.solids[0].color, &plain.solids[0].material),
            (None, &None)
        );
    }

    #[test]
    fn faces_integrated_in_parallel_give_brepgprops_own_numbers() {
        // An assembly's placed solids and a box with a hole (planes and a cylinder): the
        // faces integrated on several threads by BRepGProp's own face integrals, summed
        // about the solid's rough centre rather than the origin, agree with
        // BRepGProp::VolumeProperties to rounding.
        let options = Options {
            tolerance: 1e-7,
            ..Options::default()
        };
        for path in [
            written(TestSolid::Assembly),
            written(TestSolid::BoxWithHole),
        ] {
            let cad = read(&path, CadFormat::Step, &options).unwrap();
            for (k, s) in cad.solids.iter().enumerate() {
                let r = testing::reference(&cad, k, 1e-7, 1e-6).unwrap();
                let own = MassProperties3d {
                    volume: r[0],
                    mass: r[0],
                    centroid: Point3::new(r[1], r[2], r[3]),
                    inertia: Matrix3::from_row_slice(&r[4..13]),
                };
                let (lo, hi) = (s.bounding_box.min, s.bounding_box.max);
                let size = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
                let apart = apart(&s.properties, &own, size);
                assert!(apart < 1e-13, "{}: solid {k}: {apart:e}", path.display());
                let area = (s.surface_area - r[13]).abs() / r[13];
                assert!(area < 1e-13, "{}: solid {k}: area {area:e}", path.display());
            }
        }
    }

    #[test]
    fn a_spline_cylinder_listing_its_knots_from_a_third_of_a_turn_has_its_closed_form() {
        let [plain, listed] = testing::listed_knots().unwrap();
        let exact = 500.0 * PI;
        eprintln!(
            "BRepGProp alone {:e}, knots listed {:e}",
            plain / exact - 1.0,
            listed / exact - 1.0
        );
        assert!((listed / exact - 1.0).abs() < 1e-13, "{listed}");
        // BRepGProp alone integrates across the knots it does not list.
        assert!((plain / exact - 1.0).abs() > 1e-11, "{plain}");
    }

    /// Solid 0 of `cad` as BRepGProp integrates it on its own (one thread, summed about
    /// the origin, to the default tolerance).
    fn brepgprop_own(cad: &Cad) -> MassProperties3d {
        let r = testing::reference(cad, 0, DEFAULT_TOLERANCE, 1e-6).unwrap();
        MassProperties3d {
            volume: r[0],
            mass: r[0],
            centroid: Point3::new(r[1], r[2], r[3]),
            inertia: Matrix3::from_row_slice(&r[4..13]),
        }
    }

    /// The largest difference of `a` from `b`, relative: the volume to itself, the
    /// centroid to `size`, the tensor to its largest entry.
    fn apart(a: &MassProperties3d, b: &MassProperties3d, size: f64) -> f64 {
        let volume = ((a.volume - b.volume) / b.volume).abs();
        let centroid = (a.centroid - b.centroid).abs().max() / size;
        let tensor = (a.inertia - b.inertia).abs().max() / b.inertia.abs().max();
        volume.max(centroid).max(tensor)
    }

    #[test]
    fn the_nist_part_converges_with_its_spline_knots_listed_over_its_faces() {
        // Its two swept faces lie on periodic B-spline surfaces whose knots are listed from
        // 3 % of a period before the faces start. With the knots listed over each face's
        // range, the part asked to 1e-12 is within 1e-11 of itself asked to 1e-13 (3e-13
        // when written), and BRepGProp's own result (1e-12, one thread) more than 1e-9
        // from it (1.25e-8 of the volume when written).
        let nist = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/cad/nist_ctc_02_asme1_ap242.stp");
        let cad = read(&nist, CadFormat::Step, &Options::default()).unwrap();
        let fine = Options {
            tolerance: 1e-13,
            ..Options::default()
        };
        let finer = read(&nist, CadFormat::Step, &fine).unwrap();
        let (s, f) = (&cad.solids[0], &finer.solids[0]);
        let (lo, hi) = (s.bounding_box.min, s.bounding_box.max);
        let size = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
        let moved = apart(&s.properties, &f.properties, size);
        let own = brepgprop_own(&cad);
        let brepgprop = apart(&own, &f.properties, size);
        eprintln!("1e-12 to 1e-13: {moved:e}; BRepGProp's own: {brepgprop:e}");
        assert!(moved < 1e-11, "{moved:e}");
        assert!(brepgprop > 1e-9, "{brepgprop:e}");
    }

    #[test]
    fn the_ctc_01_part_agrees_with_brepgprop_and_its_fine_tessellations() {
        // NIST's CTC-01 (fixtures/README.md): planes, cylinders and cones only, so every
        // face goes to BRepGProp; integrated face by face on several threads about the
        // solid's centre, it must give what BRepGProp::VolumeProperties gives on one
        // thread about the origin, to the tolerance asked.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/cad/nist_ctc_01_asme1_ap242.stp");
        let mut cad = read(&path, CadFormat::Step, &Options::default()).unwrap();
        assert_eq!(cad.solids.len(), 1);
        let s = cad.solids[0].clone();
        assert_eq!(s.faces, 117);
        let (lo, hi) = (s.bounding_box.min, s.bounding_box.max);
        let size = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
        let own = brepgprop_own(&cad);
        let brepgprop = apart(&own, &s.properties, size);
        assert!(brepgprop < 1e-12, "{brepgprop:e}");
        // 14,644,823.285 mm³ (0.0146448 m³: a plate 800 × 450 mm with pockets and holes).
        let v = s.properties.volume;
        assert!((v - 14_644_823.285_159_48).abs() < 1e-10 * v, "{v}");
        // Its tessellations close in on that value as their chords shorten, at first order
        // (written: 8.0e-4, 9.1e-5, 9.5e-6, 2.9e-6 of it at 1, 0.1, 0.01 and 0.003 mm): the
        // difference over the deflection stays within a factor of two, so the B-rep value
        // is where they go, not a value beside it.
        let t = tessellations(&mut cad, 0, &[1.0, 0.1, 0.01, 0.003]).unwrap();
        for w in t.windows(2) {
            assert!(w[1].difference < w[0].difference, "{t:?}");
        }
        let rates: Vec<f64> = t[1..].iter().map(|x| x.difference / x.deflection).collect();
        let (min, max) = rates
            .iter()
            .fold((f64::MAX, 0.0f64), |(a, b), r| (a.min(*r), b.max(*r)));
        assert!(max < 2.0 * min, "{t:?}");
        assert!(t[3].difference < 4e-6, "{t:?}");
        for x in &t {
            assert!(x.difference <= x.bound, "{x:?}");
        }
    }

    #[test]
    fn tessellations_converge_to_the_brep_within_their_bound() {
        let mut cad = read_test(TestSolid::BoxWithHole);
        let t = tessellations(&mut cad, 0, &[0.5, 0.05, 0.005]).unwrap();
        assert_eq!(t.len(), 3);
        for w in t.windows(2) {
            assert!(w[1].difference < w[0].difference, "{t:?}");
            assert!(w[1].triangles > w[0].triangles);
        }
        for x in &t {
            assert!(x.difference <= x.bound, "{x:?}");
        }
        // A box's flat faces are exact at any deflection.
        let mut cad = read_test(TestSolid::Box);
        let t = tessellations(&mut cad, 0, &[1.0]).unwrap();
        assert!(t[0].difference < 1e-12, "{t:?}");
    }
}
