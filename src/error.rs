//! The one error type of the library.
//!
//! Every message names the place in the input (line, vertex, edge, triangle) and what was
//! expected; the command-line tool prefixes it with the file name.

use std::fmt;

/// Which ring of a polygon an error or a result refers to.
///
/// # Examples
/// ```
/// assert_eq!(inertia::Ring::Hole(2).to_string(), "hole 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ring {
    /// The outer boundary.
    Outer,
    /// A hole, numbered from 1 in input order.
    Hole(usize),
}

impl fmt::Display for Ring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ring::Outer => write!(f, "outer ring"),
            Ring::Hole(k) => write!(f, "hole {k}"),
        }
    }
}

/// Everything that can go wrong between the input bytes and a result.
///
/// # Examples
/// ```
/// let e = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 1.0]], vec![]).unwrap_err();
/// assert!(matches!(e, inertia::Error::TooFewPoints { .. }));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),

    /// The input is not in the expected format (JSON syntax, a CSV cell, an STL record...).
    /// `place` names where ("line 3, column 7", "triangle 12", "byte 84").
    #[error("{place}: {message}")]
    Parse {
        /// Where in the input.
        place: String,
        /// What was found and what was expected.
        message: String,
    },

    /// The input holds nothing to compute with.
    #[error("{0}")]
    Empty(String),

    /// A coordinate is NaN or infinite.
    #[error("{ring}, vertex {vertex}: coordinate {value} is not a finite number")]
    NonFiniteCoordinate {
        /// The ring holding the vertex.
        ring: Ring,
        /// The vertex, numbered from 1 in input order.
        vertex: usize,
        /// The offending value.
        value: f64,
    },

    /// A ring has fewer than three distinct consecutive points.
    #[error("{ring} has {count} distinct point(s); a polygon needs at least 3")]
    TooFewPoints {
        /// The ring.
        ring: Ring,
        /// How many distinct points it has.
        count: usize,
    },

    /// A ring encloses no area (all its points on one line).
    #[error("{ring} has zero area (its points are collinear)")]
    ZeroArea {
        /// The ring.
        ring: Ring,
    },

    /// Two edges of the polygon cross or touch (edge k joins vertex k to vertex k+1).
    #[error(
        "{ring_a} edge {edge_a} and {ring_b} edge {edge_b} {kind} at ({x}, {y}); the polygon must not intersect itself"
    )]
    SelfIntersection {
        /// The ring of the first edge.
        ring_a: Ring,
        /// The first edge, numbered from 1 (edge k joins input vertices k and k+1).
        edge_a: usize,
        /// The ring of the second edge.
        ring_b: Ring,
        /// The second edge, numbered from 1.
        edge_b: usize,
        /// "cross", "touch" or "overlap".
        kind: &'static str,
        /// x of a point where they meet.
        x: f64,
        /// y of a point where they meet.
        y: f64,
    },

    /// A hole is not inside the outer ring, or lies inside another hole.
    #[error("hole {hole} {problem}")]
    BadHole {
        /// The hole, numbered from 1.
        hole: usize,
        /// What is wrong with it.
        problem: String,
    },

    /// A numeric parameter (density, mass, size) is out of range.
    #[error("{name} must be a positive finite number, got {value}")]
    InvalidParameter {
        /// The parameter's name as the user gave it ("--density").
        name: String,
        /// The value given.
        value: f64,
    },

    /// The input is valid but f64 cannot resolve it (coordinates spanning more than about
    /// 15 orders of magnitude).
    #[error("{0}")]
    Unresolvable(String),

    /// A mesh is not closed: some edges belong to one triangle only.
    #[error(
        "the mesh is not closed: {boundary_edges} boundary edge{}, e.g. {edge} of {triangle}{}",
        plural(*.boundary_edges),
        gap_hint(*.nearest_gap)
    )]
    OpenMesh {
        /// How many edges belong to one triangle only.
        boundary_edges: usize,
        /// The first such edge, by its end points: `(x, y, z)–(x, y, z)`.
        edge: String,
        /// The triangle holding it, as the input numbers it ("triangle 12", "facet at line 3").
        triangle: String,
        /// When the surface looks open only by noise (its nearest unmatched corners are
        /// close beside its edges): their distance, which a weld tolerance would bridge.
        nearest_gap: Option<f64>,
    },

    /// Every triangle is degenerate (repeats a vertex, or has zero area): the mesh encloses
    /// nothing.
    #[error(
        "all {triangles} triangle{} are degenerate (they repeat a vertex or have zero area): the mesh encloses nothing",
        plural(*.triangles)
    )]
    AllDegenerate {
        /// Triangles in the input.
        triangles: usize,
    },

    /// A closed surface of the mesh can be neither a body nor a cavity.
    #[error("shell {shell} (from {first}) {problem}")]
    BadShell {
        /// The shell, numbered from 1.
        shell: usize,
        /// Its first triangle, as the input numbers it.
        first: String,
        /// What is wrong with it.
        problem: ShellProblem,
    },

    /// The shells of a mesh intersect: its cavities enclose more than its bodies.
    #[error(
        "the shells intersect: cavities enclose more volume than the bodies ({})",
        num(*.total_volume)
    )]
    ShellsIntersect {
        /// The signed volume of all shells together (negative).
        total_volume: f64,
    },

    /// Triangles cross or coincide: two bodies overlap, or a surface passes through itself.
    #[error(
        "{place}: two bodies overlap or a surface passes through itself; union them first{}",
        if *.sum_allowed { ", or give --overlap sum to add them as they are" } else { "" }
    )]
    Overlapping {
        /// The two triangles and where they meet.
        place: String,
        /// Whether summing the bodies as they are (`--overlap sum`) is offered.
        sum_allowed: bool,
    },

    /// A closed mesh whose integrals are not those of a body: it intersects itself.
    #[error(
        "the mesh intersects itself: its moments of inertia are not physical (volume {}, principal moments {}, {}, {})",
        num(*.volume), num(.moments[0]), num(.moments[1]), num(.moments[2])
    )]
    Unphysical {
        /// The volume it integrates to.
        volume: f64,
        /// Its principal moments, ascending.
        moments: [f64; 3],
    },

    /// An open surface was asked for a solid's mass properties.
    #[error("an open surface encloses no volume: integrate it as a thin shell")]
    NotSolid,

    /// Two triangles use an edge in the same direction: the surface is not consistently
    /// wound (or more than two triangles meet at the edge).
    #[error("inconsistent winding: {first} and {second} use edge {edge} in the same direction")]
    InconsistentWinding {
        /// One triangle, as the input numbers it.
        first: String,
        /// The other.
        second: String,
        /// The edge, by its end points.
        edge: String,
    },

    /// Work or output beyond a stated limit (a voxel grid of 10¹⁰ columns); the message
    /// gives the estimate.
    #[error("{0}")]
    TooLarge(String),

    /// One part of a file (a 3MF build item, a GeoJSON feature, a DXF outline) is wrong;
    /// `error` says how. Its message holds `error`'s, so it is not also given as the
    /// error's `source()` (a chain printed with `{:#}` would say the reason twice).
    ///
    /// # Examples
    /// ```
    /// use inertia::io::{read_polygons, PolygonFormat};
    /// let geo = br#"{"type": "FeatureCollection", "features": [
    ///   {"type": "Feature", "properties": {"name": "plot 6"},
    ///    "geometry": {"type": "Polygon", "coordinates": [[[5, 0], [6, 0], [6, 1], [5, 0]]]}},
    ///   {"type": "Feature", "properties": {"name": "plot 7"},
    ///    "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 1], [1, 0], [0, 0]]]}}]}"#;
    /// let e = read_polygons(geo, PolygonFormat::Geojson).unwrap_err();
    /// let inertia::Error::InPart { part, error } = &e else { panic!("{e}") };
    /// assert_eq!(part, "plot 7");
    /// assert!(matches!(**error, inertia::Error::SelfIntersection { .. }));
    /// // The message says the reason once; no source repeats it.
    /// assert_eq!(e.to_string().matches("must not intersect itself").count(), 1);
    /// assert!(std::error::Error::source(&e).is_none());
    /// ```
    #[error("{part}: {error}")]
    InPart {
        /// The part's name within its file.
        part: String,
        /// What is wrong with it.
        error: Box<Error>,
    },

    /// Parts of one input overlap (members of a MultiPolygon, outlines of a drawing), so
    /// their sum would count the common area twice.
    #[error(
        "{first} and {second} {how}: parts of one file must not overlap (their common area would count twice)"
    )]
    Overlap {
        /// The first part's name.
        first: String,
        /// The second part's name.
        second: String,
        /// How they meet ("cross at (1, 2)", "lie one inside the other").
        how: String,
    },

    /// A CAD file (STEP, IGES, BREP) that OpenCASCADE could not read, or whose shapes are
    /// not valid solids; `message` names the entity where the file says which.
    #[error("{message}")]
    Cad {
        /// What kind of failure.
        failure: CadFailure,
        /// What OpenCASCADE or the checks found, in one line.
        message: String,
    },

    /// Two solids of one CAD file share a volume (OpenCASCADE's boolean common), so their
    /// sum would count it twice.
    #[error(
        "{first} and {second} share a volume of {volume} (OpenCASCADE's boolean common): solids of one file must not overlap (their common volume would count twice): give --overlap sum to add them as they are"
    )]
    SolidsOverlap {
        /// The first solid's name.
        first: String,
        /// The second solid's name.
        second: String,
        /// Their common volume, in the file's unit cubed.
        volume: f64,
    },
}

/// What went wrong with a CAD file ([`Error::Cad`]).
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::CadFailure::Open.to_string(), "open");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CadFailure {
    /// The file could not be read or parsed (missing, malformed, truncated).
    Unreadable,
    /// The file holds no solid.
    Empty,
    /// A solid fails OpenCASCADE's shape check (`BRepCheck_Analyzer`).
    Invalid,
    /// An open shell, or a face outside any solid: a surface, not a volume.
    Open,
    /// A solid of zero or negative volume.
    InsideOut,
    /// OpenCASCADE raised an exception or an algorithm did not finish.
    Failed,
}

impl fmt::Display for CadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CadFailure::Unreadable => "unreadable",
            CadFailure::Empty => "empty",
            CadFailure::Invalid => "invalid",
            CadFailure::Open => "open",
            CadFailure::InsideOut => "inside-out",
            CadFailure::Failed => "failed",
        })
    }
}

/// "s" for a count other than one.
/// What is wrong with one shell of a mesh ([`Error::BadShell`]).
///
/// # Examples
/// ```
/// assert!(inertia::error::ShellProblem::Flat.to_string().contains("no volume"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShellProblem {
    /// It encloses no volume (flat, or folded back onto itself).
    Flat,
    /// It touches another shell, so whether it is a cavity cannot be told.
    TouchesAnother,
    /// Wound inward (negative volume) but inside no other shell.
    InwardOutside,
    /// Wound outward but inside another shell.
    OutwardInside,
    /// A cavity that reaches outside the body around it.
    CavityOutside,
}

impl fmt::Display for ShellProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShellProblem::Flat => "encloses no volume (it is flat, or folds back onto itself)",
            ShellProblem::TouchesAnother => {
                "touches another shell: cannot tell whether it is a cavity"
            }
            ShellProblem::InwardOutside => {
                "is wound inward (negative volume) but is not inside another shell: fix the orientation of its triangles"
            }
            ShellProblem::OutwardInside => {
                "is wound outward but lies inside another shell: a body inside another (they overlap: union them, or give --overlap sum to add them), or a cavity wound the wrong way (fix the orientation of its triangles)"
            }
            ShellProblem::CavityOutside => {
                "is a cavity that reaches outside the body around it: shells intersect"
            }
        })
    }
}

/// The end of an open-mesh message when the gap looks like noise.
fn gap_hint(gap: Option<f64>) -> String {
    match gap {
        Some(d) => format!(
            "; its nearest unmatched corners are {} apart: --weld-tolerance {} would join them",
            num(d),
            num(d * 1.5)
        ),
        None => String::new(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A piece of input quoted in a message, cut to 40 characters (a megabyte-long "cell" must
/// not become a megabyte-long error line).
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::clip("abc"), "abc");
/// assert_eq!(inertia::error::clip("a\u{1b}[31m"), "a\\u{1b}[31m");
/// assert_eq!(inertia::error::clip(&"x".repeat(100)).chars().count(), 41);
/// ```
pub fn clip(s: &str) -> String {
    clip_to(s, 40)
}

/// [`clip`] to `n` characters: for a library's own message, which may be longer than a
/// quoted piece of input but must stay one line of reasonable length.
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::clip_to("line 1\nline 2", 100), "line 1\\nline 2");
/// ```
pub fn clip_to(s: &str, n: usize) -> String {
    // Control characters from the input are shown escaped: a message must not move the
    // cursor or recolour the user's terminal.
    let shown: String = s.chars().take(n).flat_map(char::escape_debug).collect();
    let shown = shown.replace("\\'", "'").replace("\\\"", "\"");
    if s.chars().count() > n {
        format!("{shown}…")
    } else {
        shown
    }
}

/// Shorthand for results of this crate.
///
/// # Examples
/// ```
/// fn area() -> inertia::Result<f64> {
///     Ok(inertia::PolygonMethod::Fan.integrate(&inertia::Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]], vec![])?).properties.area)
/// }
/// assert_eq!(area().unwrap(), 2.0);
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A parse error at `place` with `message`.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::Error::parse("line 3", "expected a number");
    /// assert_eq!(e.to_string(), "line 3: expected a number");
    /// ```
    pub fn parse(place: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Parse {
            place: place.into(),
            message: message.into(),
        }
    }

    /// `error`, in the part named `part` of a file.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::Error::in_part("object 2", inertia::Error::parse("triangle 4", "open"));
    /// assert_eq!(e.to_string(), "object 2: triangle 4: open");
    /// ```
    pub fn in_part(part: &str, error: Error) -> Self {
        Error::InPart {
            part: part.to_string(),
            error: Box::new(error),
        }
    }
}

/// A byte count for a message: "1.2 GB" (decimal units).
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::human_bytes(1.25e9), "1.2 GB");
/// assert_eq!(inertia::error::human_bytes(512.0), "0.5 kB");
/// ```
pub fn human_bytes(b: f64) -> String {
    let (v, unit) = if b >= 1e12 {
        (b / 1e12, "TB")
    } else if b >= 1e9 {
        (b / 1e9, "GB")
    } else if b >= 1e6 {
        (b / 1e6, "MB")
    } else {
        (b / 1e3, "kB")
    };
    format!("{v:.1} {unit}")
}

/// Rewrites the numbers of a message to at most 12 significant digits: `0.30000000000000004`
/// becomes `0.3`, and the 301 digits Rust prints for `1e300` become `1e300`. Whole numbers
/// of up to 15 digits (counts, byte sizes) are kept as they are, as is anything that is
/// part of a word or a path (`case48.dxf`, `v1.0000000000000002`).
///
/// # Examples
/// ```
/// use inertia::error::tidy_numbers;
/// assert_eq!(tidy_numbers("volume 0.30000000000000004, area -1.2345678901234567e-7"), "volume 0.3, area -1.23456789012e-7");
/// assert_eq!(tidy_numbers("4294967296 triangles in part_0.123456789012345.stl"), "4294967296 triangles in part_0.123456789012345.stl");
/// assert_eq!(tidy_numbers(&format!("x = {}", 1e300)), "x = 1e300");
/// ```
pub fn tidy_numbers(message: &str) -> String {
    let b = message.as_bytes();
    let mut out = String::with_capacity(message.len());
    let mut i = 0;
    let word =
        |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'/' || c >= 0x80;
    while i < b.len() {
        let starts =
            b[i].is_ascii_digit() || (b[i] == b'-' && i + 1 < b.len() && b[i + 1].is_ascii_digit());
        if !starts || (i > 0 && word(b[i - 1])) {
            let ch = message[i..].chars().next().expect("in bounds");
            out.push(ch);
            i += ch.len_utf8();
            continue;
        }
        let start = i;
        if b[i] == b'-' {
            i += 1;
        }
        let digits = |i: &mut usize| {
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
        };
        digits(&mut i);
        let mut fraction = false;
        if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            fraction = true;
            i += 1;
            digits(&mut i);
        }
        let mantissa_end = i;
        let mut exponent = false;
        if i + 1 < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                exponent = true;
                i = j;
                digits(&mut i);
            }
        }
        let token = &message[start..i];
        let glued = i < b.len()
            && (b[i].is_ascii_alphanumeric()
                || b[i] == b'_'
                || (b[i] == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_alphanumeric()));
        let significant = message[start..mantissa_end]
            .bytes()
            .filter(u8::is_ascii_digit)
            .skip_while(|&d| d == b'0')
            .count();
        let long = if fraction || exponent {
            significant > 12
        } else {
            significant > 15
        };
        match token.parse::<f64>() {
            Ok(x) if long && !glued => out.push_str(&crate::error::num(x)),
            _ => out.push_str(token),
        }
    }
    out
}

/// A number to 12 significant digits, trailing zeros trimmed, exponent form when very large
/// or very small.
///
/// # Examples
/// ```
/// use inertia::error::num;
/// assert_eq!(num(1.0 / 6.0), "0.166666666667");
/// assert_eq!(num(2.9999999999999996), "3");
/// assert_eq!(num(100000000.5), "100000000.5");
/// assert_eq!(num(1.5e-9), "1.5e-9");
/// assert_eq!(num(-0.0), "0");
/// ```
pub fn num(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return x.to_string();
    }
    let e = x.abs().log10().floor() as i32;
    if (-5..12).contains(&e) {
        let decimals = (11 - e).max(0) as usize;
        let s = format!("{x:.decimals$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        if s == "-0" { "0".into() } else { s }
    } else {
        let s = format!("{x:.11e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.trim_end_matches('0').trim_end_matches('.')
        } else {
            mantissa
        };
        format!("{mantissa}e{exp}")
    }
}
