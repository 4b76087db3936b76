//! Coordinate reference systems as files name them (a GeoJSON `crs` member): whether a
//! name is one of a geographic system, whose coordinates are longitude and latitude in
//! degrees rather than lengths.

/// The coordinate reference system a GeoJSON document names in its `crs` members (the
/// 2008 GeoJSON format's; RFC 7946 dropped them, its coordinates being always WGS 84
/// longitude and latitude in degrees).
///
/// # Examples
/// ```
/// use inertia::io::geojson::{parse_document, Crs};
/// let doc = br#"{"type": "Polygon", "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}},
///   "coordinates": [[[0,0],[1,0],[0,1],[0,0]]]}"#;
/// assert_eq!(parse_document(doc)?.crs, Crs::Geographic("urn:ogc:def:crs:OGC:1.3:CRS84".into()));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Crs {
    /// No `crs` member names one.
    #[default]
    Unnamed,
    /// A geographic system, by the name the file gives it: OGC's `CRS84`, `CRS83` and
    /// `CRS27`, or one of the EPSG codes in [`GEOGRAPHIC_EPSG`] (`EPSG:4326`,
    /// `urn:ogc:def:crs:EPSG::4326`, `http://www.opengis.net/def/crs/EPSG/0/4326`, ...).
    Geographic(String),
    /// Another system (a projected one, or one not known here), by its name.
    Other(String),
}

/// EPSG codes of geographic coordinate reference systems (longitude and latitude in
/// degrees) that a `crs` member is recognised by: WGS 84 (4326, 4979), WGS 72 (4322),
/// NAD27 (4267), NAD83 (4269, 4152, 6318, 4617), ETRS89 (4258, 4937), ED50 (4230),
/// OSGB 1936 (4277), DHDN (4314), RGF93 (4171), SWEREF99 (4619), GDA94 (4283), GDA2020
/// (7844), NZGD2000 (4167), JGD2000 (4612), JGD2011 (6668), CGCS2000 (4490), SIRGAS 2000
/// (4674), Hartebeesthoek94 (4148).
pub const GEOGRAPHIC_EPSG: &[u32] = &[
    4326, 4979, 4322, 4267, 4269, 4152, 6318, 4617, 4258, 4937, 4230, 4277, 4314, 4171, 4619, 4283,
    7844, 4167, 4612, 6668, 4490, 4674, 4148,
];

impl Crs {
    /// The name the file gives it, if any.
    ///
    /// # Examples
    /// ```
    /// use inertia::crs::Crs;
    /// assert_eq!(Crs::Other("EPSG:32633".into()).name(), Some("EPSG:32633"));
    /// assert_eq!(Crs::Unnamed.name(), None);
    /// ```
    pub fn name(&self) -> Option<&str> {
        match self {
            Crs::Unnamed => None,
            Crs::Geographic(n) | Crs::Other(n) => Some(n),
        }
    }

    /// The system called `name` (a crs member's name, EPSG code or link): geographic
    /// when it is one of those [`Crs::Geographic`] lists, else another.
    ///
    /// # Examples
    /// ```
    /// use inertia::crs::Crs;
    /// assert_eq!(Crs::named("urn:ogc:def:crs:EPSG::4326"), Crs::Geographic("urn:ogc:def:crs:EPSG::4326".into()));
    /// assert_eq!(Crs::named("EPSG:32633"), Crs::Other("EPSG:32633".into()));
    /// ```
    pub fn named(name: &str) -> Crs {
        // Names are quoted in messages: at most 80 characters (OGC URLs run to 50).
        let shown = crate::text::clip_to(name, 80);
        if geographic(name) {
            Crs::Geographic(shown)
        } else {
            Crs::Other(shown)
        }
    }

    /// The system a document names: a geographic one if any of its members names one,
    /// else the first named.
    pub(crate) fn and(self, other: Crs) -> Crs {
        match (self, other) {
            (g @ Crs::Geographic(_), _) | (_, g @ Crs::Geographic(_)) => g,
            (Crs::Unnamed, o) => o,
            (o, _) => o,
        }
    }
}

/// Whether a crs name is one of a geographic system (see [`Crs::Geographic`]).
fn geographic(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    let n = [
        "urn:ogc:def:crs:",
        "http://www.opengis.net/def/crs/",
        "https://www.opengis.net/def/crs/",
    ]
    .iter()
    .find_map(|p| n.strip_prefix(p))
    .unwrap_or(&n);
    let tokens: Vec<&str> = n.split([':', '/']).filter(|t| !t.is_empty()).collect();
    let ogc = |code: &str| matches!(code, "crs84" | "crs83" | "crs27" | "crs84h");
    match tokens.as_slice() {
        [code] => ogc(code),
        [authority, .., code] if *authority == "epsg" => code
            .parse::<u32>()
            .is_ok_and(|c| GEOGRAPHIC_EPSG.contains(&c)),
        [authority, .., code] if *authority == "ogc" => ogc(code),
        _ => false,
    }
}
