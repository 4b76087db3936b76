//! Coordinate reference systems as files name them (a GeoJSON `crs` member): whether a
//! name is one of a geographic system, whose coordinates are longitude and latitude in
//! degrees rather than lengths, or Web Mercator's, whose lengths are not those of the
//! ground (see [`web_mercator_area_factor`]).

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
    /// Web Mercator (`EPSG:3857`, by the names in [`WEB_MERCATOR_EPSG`] or as `WGS 84 /
    /// Pseudo-Mercator`), by the name the file gives it: metres, but of a projection whose
    /// areas grow as 1/cos²φ away from the equator ([`web_mercator_area_factor`]).
    WebMercator(String),
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
            Crs::Geographic(n) | Crs::WebMercator(n) | Crs::Other(n) => Some(n),
        }
    }

    /// The system called `name` (a crs member's name, EPSG code or link): geographic
    /// when it is one of those [`Crs::Geographic`] lists, Web Mercator when one of
    /// [`Crs::WebMercator`]'s names, else another.
    ///
    /// # Examples
    /// ```
    /// use inertia::crs::Crs;
    /// assert_eq!(Crs::named("urn:ogc:def:crs:EPSG::4326"), Crs::Geographic("urn:ogc:def:crs:EPSG::4326".into()));
    /// assert_eq!(Crs::named("EPSG:900913"), Crs::WebMercator("EPSG:900913".into()));
    /// assert_eq!(Crs::named("EPSG:32633"), Crs::Other("EPSG:32633".into()));
    /// ```
    pub fn named(name: &str) -> Crs {
        // Names are quoted in messages: at most 80 characters (OGC URLs run to 50).
        let shown = crate::text::clip_to(name, 80);
        match code(name) {
            Some(Code::Geographic) => Crs::Geographic(shown),
            Some(Code::WebMercator) => Crs::WebMercator(shown),
            None => Crs::Other(shown),
        }
    }

    /// The system a document names: a geographic one if any of its members names one,
    /// else Web Mercator if any names it, else the first named.
    pub(crate) fn and(self, other: Crs) -> Crs {
        match (self, other) {
            (g @ Crs::Geographic(_), _) | (_, g @ Crs::Geographic(_)) => g,
            (m @ Crs::WebMercator(_), _) | (_, m @ Crs::WebMercator(_)) => m,
            (Crs::Unnamed, o) => o,
            (o, _) => o,
        }
    }
}

/// EPSG codes of Web Mercator: 3857, and the codes it had or has elsewhere (900913,
/// 3785; ESRI's 102100 and 102113, also written `EPSG:102100`).
pub const WEB_MERCATOR_EPSG: &[u32] = &[3857, 900913, 3785, 102100, 102113];

/// The radius of Web Mercator's sphere, in metres (WGS 84's semi-major axis).
pub const WEB_MERCATOR_RADIUS: f64 = 6_378_137.0;

/// The square of WGS 84's eccentricity, e² = f(2 − f) with f = 1/298.257223563.
const WGS84_E2: f64 = (2.0 - 1.0 / 298.257223563) / 298.257223563;

/// The latitude, in degrees, of the northing `y` (metres) of Web Mercator: the inverse of
/// y = R ln tan(π/4 + φ/2), φ = atan(sinh(y/R)).
///
/// # Examples
/// ```
/// use inertia::crs::{web_mercator_latitude, WEB_MERCATOR_RADIUS};
/// let y = WEB_MERCATOR_RADIUS * (std::f64::consts::FRAC_PI_4 + 25f64.to_radians()).tan().ln();
/// assert!((web_mercator_latitude(y) - 50.0).abs() < 1e-12);
/// assert_eq!(web_mercator_latitude(0.0), 0.0);
/// ```
pub fn web_mercator_latitude(y: f64) -> f64 {
    (y / WEB_MERCATOR_RADIUS).sinh().atan().to_degrees()
}

/// How many times too large an area measured in Web Mercator is at `latitude` (degrees),
/// against the area of the WGS 84 ellipsoid there: Web Mercator maps WGS 84's geodetic
/// latitude φ by the formulas of a sphere of radius a, so a patch dλ dφ is a² secφ dλ dφ
/// in the plane and M N cosφ dλ dφ on the ellipsoid (M, N its radii of curvature), a
/// ratio of (1 − e² sin²φ)² / ((1 − e²) cos²φ): 1/cos²φ as on a sphere, times 1.0067 at
/// the equator to 0.9933 at the poles. It grows with |φ|.
///
/// # Examples
/// ```
/// use inertia::crs::web_mercator_area_factor;
/// // 2.4203 on a sphere (1/cos² 50°), 0.1 % less on the ellipsoid.
/// let f = web_mercator_area_factor(50.0);
/// assert!((f - 2.417482).abs() < 1e-6, "{f}");
/// ```
pub fn web_mercator_area_factor(latitude: f64) -> f64 {
    let (s, c) = latitude.to_radians().sin_cos();
    let w = 1.0 - WGS84_E2 * s * s;
    w * w / ((1.0 - WGS84_E2) * c * c)
}

/// The EPSG code of the UTM zone about (`longitude`, `latitude`), in degrees: zones 6°
/// wide from 180° W, northern 326zz, southern 327zz; `None` beyond latitude ±84° (UTM's
/// reach) or outside longitude ±180°.
///
/// # Examples
/// ```
/// assert_eq!(inertia::crs::utm_zone(8.55, 47.37), Some(32632));
/// assert_eq!(inertia::crs::utm_zone(-77.03, -12.04), Some(32718));
/// ```
pub fn utm_zone(longitude: f64, latitude: f64) -> Option<u32> {
    (longitude.abs() <= 180.0 && latitude.abs() <= 84.0).then(|| {
        let zone = (((longitude + 180.0) / 6.0).floor() as u32 + 1).clamp(1, 60);
        (if latitude >= 0.0 { 32600 } else { 32700 }) + zone
    })
}

/// What a crs name is known here as.
enum Code {
    Geographic,
    WebMercator,
}

/// What a crs name is known here as (see [`Crs::Geographic`] and [`Crs::WebMercator`]).
fn code(name: &str) -> Option<Code> {
    let n = name.trim().to_ascii_lowercase();
    // EPSG's name for 3857, with or without the spaces.
    if n.replace(' ', "") == "wgs84/pseudo-mercator" {
        return Some(Code::WebMercator);
    }
    let n = [
        "urn:ogc:def:crs:",
        "http://www.opengis.net/def/crs/",
        "https://www.opengis.net/def/crs/",
    ]
    .iter()
    .find_map(|p| n.strip_prefix(p))
    .unwrap_or(&n);
    let tokens: Vec<&str> = n.split([':', '/']).filter(|t| !t.is_empty()).collect();
    let ogc = |code: &str| {
        matches!(code, "crs84" | "crs83" | "crs27" | "crs84h").then_some(Code::Geographic)
    };
    let epsg = |code: &str| match code.parse::<u32>() {
        Ok(c) if GEOGRAPHIC_EPSG.contains(&c) => Some(Code::Geographic),
        Ok(c) if WEB_MERCATOR_EPSG.contains(&c) => Some(Code::WebMercator),
        _ => None,
    };
    match tokens.as_slice() {
        [code] => ogc(code),
        [authority, .., code] if *authority == "epsg" => epsg(code),
        [authority, .., code] if *authority == "esri" => {
            matches!(*code, "102100" | "102113").then_some(Code::WebMercator)
        }
        [authority, .., code] if *authority == "ogc" => ogc(code),
        _ => None,
    }
}
