//! Length units, materials, and the conventions a report is printed in.

use serde::{Deserialize, Serialize};

/// A length unit for input coordinates (`--units`) or output (`--output-units`): every
/// length unit a DXF header's `$INSUNITS` can name, besides those of 3MF.
///
/// # Examples
/// ```
/// assert_eq!(inertia::units::LengthUnit::Ft.metres(), 0.3048);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum LengthUnit {
    /// Ångström (1e-10 m).
    #[cfg_attr(feature = "cli", value(name = "angstrom"))]
    #[serde(rename = "angstrom")]
    Angstrom,
    /// Nanometre.
    #[cfg_attr(feature = "cli", value(aliases = ["nanometer", "nanometre", "nanometers", "nanometres"]))]
    Nm,
    /// Micrometre (3MF's `micron`).
    #[cfg_attr(feature = "cli", value(aliases = ["micrometer", "micrometre", "micrometers", "micrometres", "micron", "microns", "µm"]))]
    Um,
    /// Millimetre.
    #[cfg_attr(feature = "cli", value(aliases = ["millimeter", "millimetre", "millimeters", "millimetres"]))]
    Mm,
    /// Centimetre.
    #[cfg_attr(feature = "cli", value(aliases = ["centimeter", "centimetre", "centimeters", "centimetres"]))]
    Cm,
    /// Decimetre.
    #[cfg_attr(feature = "cli", value(aliases = ["decimeter", "decimetre", "decimeters", "decimetres"]))]
    Dm,
    /// Metre.
    #[cfg_attr(feature = "cli", value(aliases = ["meter", "metre", "meters", "metres"]))]
    M,
    /// Decametre.
    Dam,
    /// Hectometre.
    Hm,
    /// Kilometre.
    #[cfg_attr(feature = "cli", value(aliases = ["kilometer", "kilometre", "kilometers", "kilometres"]))]
    Km,
    /// Gigametre.
    Gm,
    /// Microinch (1e-6 inch).
    Uin,
    /// Mil (a thousandth of an inch).
    #[cfg_attr(feature = "cli", value(aliases = ["mils", "thou"]))]
    Mil,
    /// Inch (25.4 mm exactly).
    #[cfg_attr(feature = "cli", value(aliases = ["inch", "inches"]))]
    In,
    /// Foot (0.3048 m exactly).
    #[cfg_attr(feature = "cli", value(aliases = ["foot", "feet"]))]
    Ft,
    /// Yard (0.9144 m exactly).
    #[cfg_attr(feature = "cli", value(aliases = ["yard", "yards"]))]
    Yd,
    /// Mile (1609.344 m exactly).
    #[cfg_attr(feature = "cli", value(aliases = ["mile", "miles"]))]
    Mi,
    /// US survey inch (100/3937 m).
    #[cfg_attr(feature = "cli", value(name = "us-in"))]
    #[serde(rename = "us-in")]
    UsIn,
    /// US survey foot (1200/3937 m).
    #[cfg_attr(feature = "cli", value(name = "us-ft"))]
    #[serde(rename = "us-ft")]
    UsFt,
    /// US survey yard (3600/3937 m).
    #[cfg_attr(feature = "cli", value(name = "us-yd"))]
    #[serde(rename = "us-yd")]
    UsYd,
    /// US survey mile (6336000/3937 m).
    #[cfg_attr(feature = "cli", value(name = "us-mi"))]
    #[serde(rename = "us-mi")]
    UsMi,
    /// Astronomical unit (149,597,870,700 m, IAU 2012).
    Au,
    /// Light year (9,460,730,472,580,800 m, IAU).
    Ly,
    /// Parsec (648000/π astronomical units).
    Pc,
}

impl LengthUnit {
    /// Every unit, smallest first within each system.
    pub const ALL: [LengthUnit; 24] = [
        LengthUnit::Angstrom,
        LengthUnit::Nm,
        LengthUnit::Um,
        LengthUnit::Mm,
        LengthUnit::Cm,
        LengthUnit::Dm,
        LengthUnit::M,
        LengthUnit::Dam,
        LengthUnit::Hm,
        LengthUnit::Km,
        LengthUnit::Gm,
        LengthUnit::Uin,
        LengthUnit::Mil,
        LengthUnit::In,
        LengthUnit::Ft,
        LengthUnit::Yd,
        LengthUnit::Mi,
        LengthUnit::UsIn,
        LengthUnit::UsFt,
        LengthUnit::UsYd,
        LengthUnit::UsMi,
        LengthUnit::Au,
        LengthUnit::Ly,
        LengthUnit::Pc,
    ];

    /// Metres in one of this unit.
    ///
    /// # Examples
    /// ```
    /// use inertia::units::LengthUnit;
    /// assert_eq!(LengthUnit::In.metres(), 0.0254);
    /// assert_eq!(LengthUnit::Yd.metres(), 0.9144);
    /// ```
    pub fn metres(self) -> f64 {
        match self {
            LengthUnit::Angstrom => 1e-10,
            LengthUnit::Nm => 1e-9,
            LengthUnit::Um => 1e-6,
            LengthUnit::Mm => 1e-3,
            LengthUnit::Cm => 1e-2,
            LengthUnit::Dm => 0.1,
            LengthUnit::M => 1.0,
            LengthUnit::Dam => 10.0,
            LengthUnit::Hm => 100.0,
            LengthUnit::Km => 1000.0,
            LengthUnit::Gm => 1e9,
            LengthUnit::Uin => 2.54e-8,
            LengthUnit::Mil => 2.54e-5,
            LengthUnit::In => 0.0254,
            LengthUnit::Ft => 0.3048,
            LengthUnit::Yd => 0.9144,
            LengthUnit::Mi => 1609.344,
            LengthUnit::UsIn => 100.0 / 3937.0,
            LengthUnit::UsFt => 1200.0 / 3937.0,
            LengthUnit::UsYd => 3600.0 / 3937.0,
            LengthUnit::UsMi => 6_336_000.0 / 3937.0,
            LengthUnit::Au => 149_597_870_700.0,
            LengthUnit::Ly => 9_460_730_472_580_800.0,
            LengthUnit::Pc => 149_597_870_700.0 * 648_000.0 / std::f64::consts::PI,
        }
    }

    /// The unit a 3MF model's `unit` attribute names (`micron`, `millimeter`,
    /// `centimeter`, `inch`, `foot`, `meter`).
    ///
    /// # Examples
    /// ```
    /// use inertia::units::LengthUnit;
    /// assert_eq!(LengthUnit::from_3mf("inch"), Some(LengthUnit::In));
    /// assert_eq!(LengthUnit::from_3mf("furlong"), None);
    /// ```
    pub fn from_3mf(name: &str) -> Option<Self> {
        Some(match name {
            "micron" => LengthUnit::Um,
            "millimeter" => LengthUnit::Mm,
            "centimeter" => LengthUnit::Cm,
            "inch" => LengthUnit::In,
            "foot" => LengthUnit::Ft,
            "meter" => LengthUnit::M,
            _ => return None,
        })
    }

    /// The unit a DXF header's `$INSUNITS` code names (the AutoCAD DXF reference's codes
    /// 1 to 24: 1 inch, 2 foot, 3 mile, 4 mm, 5 cm, 6 m, 7 km, 8 microinch, 9 mil,
    /// 10 yard, 11 ångström, 12 nm, 13 micron, 14 dm, 15 dam, 16 hm, 17 Gm,
    /// 18 astronomical unit, 19 light year, 20 parsec, 21–24 US survey foot, inch, yard
    /// and mile); `None` for 0 (unitless) and codes the reference does not define.
    ///
    /// # Examples
    /// ```
    /// use inertia::units::LengthUnit;
    /// assert_eq!(LengthUnit::from_insunits(4), Some(LengthUnit::Mm));
    /// assert_eq!(LengthUnit::from_insunits(10), Some(LengthUnit::Yd));
    /// assert_eq!(LengthUnit::from_insunits(0), None);
    /// ```
    pub fn from_insunits(code: i32) -> Option<Self> {
        Some(match code {
            1 => LengthUnit::In,
            2 => LengthUnit::Ft,
            3 => LengthUnit::Mi,
            4 => LengthUnit::Mm,
            5 => LengthUnit::Cm,
            6 => LengthUnit::M,
            7 => LengthUnit::Km,
            8 => LengthUnit::Uin,
            9 => LengthUnit::Mil,
            10 => LengthUnit::Yd,
            11 => LengthUnit::Angstrom,
            12 => LengthUnit::Nm,
            13 => LengthUnit::Um,
            14 => LengthUnit::Dm,
            15 => LengthUnit::Dam,
            16 => LengthUnit::Hm,
            17 => LengthUnit::Gm,
            18 => LengthUnit::Au,
            19 => LengthUnit::Ly,
            20 => LengthUnit::Pc,
            21 => LengthUnit::UsFt,
            22 => LengthUnit::UsIn,
            23 => LengthUnit::UsYd,
            24 => LengthUnit::UsMi,
            _ => return None,
        })
    }

    /// The unit's symbol (as `--units` takes it, and as reports print it).
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::units::LengthUnit::Mm.symbol(), "mm");
    /// assert_eq!(inertia::units::LengthUnit::UsFt.symbol(), "us-ft");
    /// ```
    pub fn symbol(self) -> &'static str {
        match self {
            LengthUnit::Angstrom => "angstrom",
            LengthUnit::Nm => "nm",
            LengthUnit::Um => "um",
            LengthUnit::Mm => "mm",
            LengthUnit::Cm => "cm",
            LengthUnit::Dm => "dm",
            LengthUnit::M => "m",
            LengthUnit::Dam => "dam",
            LengthUnit::Hm => "hm",
            LengthUnit::Km => "km",
            LengthUnit::Gm => "gm",
            LengthUnit::Uin => "uin",
            LengthUnit::Mil => "mil",
            LengthUnit::In => "in",
            LengthUnit::Ft => "ft",
            LengthUnit::Yd => "yd",
            LengthUnit::Mi => "mi",
            LengthUnit::UsIn => "us-in",
            LengthUnit::UsFt => "us-ft",
            LengthUnit::UsYd => "us-yd",
            LengthUnit::UsMi => "us-mi",
            LengthUnit::Au => "au",
            LengthUnit::Ly => "ly",
            LengthUnit::Pc => "pc",
        }
    }

    /// The unit of a symbol [`LengthUnit::symbol`] prints.
    ///
    /// # Examples
    /// ```
    /// use inertia::units::LengthUnit;
    /// assert_eq!(LengthUnit::from_symbol("yd"), Some(LengthUnit::Yd));
    /// assert_eq!(LengthUnit::from_symbol("furlong"), None);
    /// ```
    pub fn from_symbol(symbol: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|u| u.symbol() == symbol)
    }
}

/// The units of a run: unitless (lengths as in the input, mass = density × measure), or a
/// declared input unit with SI densities (kg/m³, kg/m² for polygons) and results in
/// kilograms and an output length unit (metres unless `--output-units`).
///
/// # Examples
/// ```
/// assert_eq!(inertia::units::Units::default().length_factor(), 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Units {
    /// The input's length unit, if declared.
    pub input: Option<LengthUnit>,
    /// The output's length unit (used only with a declared input unit); metres if `None`.
    pub output: Option<LengthUnit>,
}

/// The units a report states.
///
/// # Examples
/// ```
/// let l = inertia::units::Units { input: Some(inertia::units::LengthUnit::Cm), output: None }.labels(2);
/// assert_eq!(l.density, "kg/m^2");
/// assert_eq!(l.area_moment.as_deref(), Some("m^4"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitLabels {
    /// The length unit the input's coordinates were read in (`--units`, or the unit the
    /// file states: a 3MF `unit`, a DXF `$INSUNITS`); absent when unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// Length unit of coordinates, sizes and the `about` point.
    pub length: String,
    /// Mass unit.
    pub mass: String,
    /// Density unit.
    pub density: String,
    /// Unit of moments of inertia.
    pub inertia: String,
    /// Unit of second moments of area (`∫y² dA`), in a plate's report only: `m^4`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_moment: Option<String>,
}

impl Units {
    /// Factor from input lengths to output lengths (1 when unitless).
    ///
    /// # Examples
    /// ```
    /// use inertia::units::{LengthUnit, Units};
    /// let u = Units { input: Some(LengthUnit::Mm), output: None };
    /// assert_eq!(u.length_factor(), 1e-3);
    /// let u = Units { input: Some(LengthUnit::In), output: Some(LengthUnit::Mm) };
    /// assert!((u.length_factor() - 25.4).abs() < 1e-12);
    /// ```
    pub fn length_factor(&self) -> f64 {
        match self.input {
            None => 1.0,
            Some(i) => i.metres() / self.output.unwrap_or(LengthUnit::M).metres(),
        }
    }

    /// Converts a density given in SI (kg/m^`dim`) to kg per output unit^`dim`; unchanged
    /// when unitless.
    ///
    /// # Examples
    /// ```
    /// use inertia::units::{LengthUnit, Units};
    /// let u = Units { input: Some(LengthUnit::Mm), output: Some(LengthUnit::Mm) };
    /// assert!((u.density_to_output(7850.0, 3) - 7.85e-6).abs() < 1e-18); // kg/mm³
    /// ```
    pub fn density_to_output(&self, density: f64, dim: i32) -> f64 {
        match self.input {
            None => density,
            Some(_) => density * self.output.unwrap_or(LengthUnit::M).metres().powi(dim),
        }
    }

    /// Converts a density in kg per output unit^`dim` back to SI; unchanged when unitless.
    ///
    /// # Examples
    /// ```
    /// use inertia::units::{LengthUnit, Units};
    /// let u = Units { input: Some(LengthUnit::Mm), output: Some(LengthUnit::Mm) };
    /// assert!((u.density_to_si(7.85e-6, 3) - 7850.0).abs() < 1e-9);
    /// ```
    pub fn density_to_si(&self, density: f64, dim: i32) -> f64 {
        match self.input {
            None => density,
            Some(_) => density / self.output.unwrap_or(LengthUnit::M).metres().powi(dim),
        }
    }

    /// The unit names for a report of dimension `dim` (2 or 3).
    ///
    /// # Examples
    /// ```
    /// use inertia::units::{LengthUnit, Units};
    /// let u = Units { input: Some(LengthUnit::In), output: None };
    /// assert_eq!(u.labels(3).inertia, "kg*m^2");
    /// assert_eq!(Units::default().labels(2).length, "input");
    /// ```
    pub fn labels(&self, dim: i32) -> UnitLabels {
        match self.input {
            None => UnitLabels {
                input: None,
                length: "input".into(),
                mass: "density × input length^".to_string() + &dim.to_string(),
                density: "as given".into(),
                inertia: "mass × input length^2".into(),
                area_moment: (dim == 2).then(|| "input length^4".into()),
            },
            Some(input) => {
                let l = self.output.unwrap_or(LengthUnit::M).symbol();
                UnitLabels {
                    input: Some(input.symbol().into()),
                    length: l.into(),
                    mass: "kg".into(),
                    density: format!("kg/m^{dim}"),
                    inertia: format!("kg*{l}^2"),
                    area_moment: (dim == 2).then(|| format!("{l}^4")),
                }
            }
        }
    }
}

/// A material from the built-in table.
///
/// # Examples
/// ```
/// let m = inertia::units::material("pla").unwrap();
/// assert_eq!(m.density, 1240.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Material {
    /// Name used with `--material`.
    pub name: &'static str,
    /// Density in kg/m³.
    pub density: f64,
    /// What the figure is and where it comes from.
    pub source: &'static str,
}

/// The built-in materials: typical room-temperature densities in kg/m³. Real parts vary
/// (alloy, infill, porosity); give `--density` when you know better.
///
/// # Examples
/// ```
/// assert!(inertia::units::MATERIALS.iter().any(|m| m.name == "titanium"));
/// ```
pub const MATERIALS: &[Material] = &[
    Material {
        name: "steel",
        density: 7850.0,
        source: "structural carbon steel; EN 1993-1-1 (Eurocode 3) design value",
    },
    Material {
        name: "stainless",
        density: 8000.0,
        source: "austenitic stainless 304/316; typical handbook value (7900–8000)",
    },
    Material {
        name: "cast-iron",
        density: 7200.0,
        source: "grey cast iron; typical handbook value (6950–7350)",
    },
    Material {
        name: "aluminium",
        density: 2700.0,
        source: "aluminium and 6061/6082 alloys; EN 1999-1-1 (Eurocode 9) design value",
    },
    Material {
        name: "titanium",
        density: 4430.0,
        source: "Ti-6Al-4V (grade 5); typical datasheet value",
    },
    Material {
        name: "copper",
        density: 8960.0,
        source: "pure copper at 20 °C; handbook value",
    },
    Material {
        name: "brass",
        density: 8500.0,
        source: "free-cutting brass; typical handbook value (8400–8500)",
    },
    Material {
        name: "magnesium",
        density: 1770.0,
        source: "AZ31B magnesium alloy; typical datasheet value",
    },
    Material {
        name: "lead",
        density: 11340.0,
        source: "pure lead at 20 °C; handbook value",
    },
    Material {
        name: "abs",
        density: 1040.0,
        source: "ABS, solid (moulded or 100% infill); typical datasheet value (1020–1080)",
    },
    Material {
        name: "pla",
        density: 1240.0,
        source: "PLA, solid; typical resin datasheet value (1.24 g/cm³)",
    },
    Material {
        name: "petg",
        density: 1270.0,
        source: "PETG, solid; typical datasheet value",
    },
    Material {
        name: "nylon",
        density: 1140.0,
        source: "PA6/PA66, solid; typical datasheet value (1130–1150)",
    },
    Material {
        name: "polycarbonate",
        density: 1200.0,
        source: "PC, solid; typical datasheet value",
    },
    Material {
        name: "acrylic",
        density: 1190.0,
        source: "PMMA; typical datasheet value",
    },
    Material {
        name: "water",
        density: 1000.0,
        source: "water near 4 °C (999.97)",
    },
    Material {
        name: "concrete",
        density: 2400.0,
        source: "normal-weight concrete, unreinforced; EN 1991-1-1 Annex A (24 kN/m³)",
    },
    Material {
        name: "glass",
        density: 2500.0,
        source: "soda-lime glass; typical handbook value",
    },
    Material {
        name: "oak",
        density: 700.0,
        source: "oak, seasoned; typical value (600–900 by species and moisture)",
    },
];

/// Looks a material up by name (case-insensitive; "aluminum" is accepted).
///
/// # Examples
/// ```
/// assert_eq!(inertia::units::material("Steel").unwrap().density, 7850.0);
/// assert_eq!(inertia::units::material("aluminum").unwrap().name, "aluminium");
/// assert!(inertia::units::material("unobtainium").is_none());
/// ```
pub fn material(name: &str) -> Option<&'static Material> {
    let n = name.trim().to_ascii_lowercase();
    let n = match n.as_str() {
        "aluminum" => "aluminium".to_string(),
        "stainless-steel" | "stainless_steel" => "stainless".to_string(),
        "cast_iron" | "castiron" => "cast-iron".to_string(),
        other => other.to_string(),
    };
    MATERIALS.iter().find(|m| m.name == n)
}

/// A unit a density may be written in (`7.85g/cm3`): its name, whether it is per volume
/// (else per area), and how many kg/m³ (or kg/m²) one of it is.
///
/// # Examples
/// ```
/// let u = inertia::units::DensityUnit::parse("g/cm³").unwrap();
/// assert_eq!((u.name, u.per_volume, u.kg), ("g/cm3", true, 1000.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DensityUnit {
    /// Its name, as [`DensityUnit::parse`] reads it (`g/cm3`).
    pub name: &'static str,
    /// Per volume (like kg/m³), else per area (like kg/m²).
    pub per_volume: bool,
    /// kg/m³ (per volume) or kg/m² (per area) in one of it.
    pub kg: f64,
}

/// The units a density may be written in.
pub const DENSITY_UNITS: [DensityUnit; 11] = {
    const fn u3(name: &'static str, kg: f64) -> DensityUnit {
        DensityUnit {
            name,
            per_volume: true,
            kg,
        }
    }
    const fn u2(name: &'static str, kg: f64) -> DensityUnit {
        DensityUnit {
            name,
            per_volume: false,
            kg,
        }
    }
    [
        u3("kg/m3", 1.0),
        u3("g/cm3", 1000.0),
        u3("g/ml", 1000.0),
        u3("kg/l", 1000.0),
        u3("kg/dm3", 1000.0),
        u3("g/mm3", 1e6),
        u3("lb/in3", 0.45359237 / (0.0254 * 0.0254 * 0.0254)),
        u3("lb/ft3", 0.45359237 / (0.3048 * 0.3048 * 0.3048)),
        u2("kg/m2", 1.0),
        u2("g/cm2", 10.0),
        u2("g/m2", 1e-3),
    ]
};

impl DensityUnit {
    /// The unit named `name` (any case; `³`, `²`, `^` and spaces allowed: `g/cm^3`,
    /// `KG/M³`), if it is one of [`DENSITY_UNITS`].
    ///
    /// # Examples
    /// ```
    /// use inertia::units::DensityUnit;
    /// assert_eq!(DensityUnit::parse("LB/IN^3").map(|u| u.name), Some("lb/in3"));
    /// assert!(DensityUnit::parse("stone/acre").is_none());
    /// ```
    pub fn parse(name: &str) -> Option<DensityUnit> {
        let key: String = name
            .trim()
            .to_lowercase()
            .replace('³', "3")
            .replace('²', "2")
            .replace(['^', ' '], "");
        DENSITY_UNITS.iter().copied().find(|u| u.name == key)
    }
}

/// Which sign products of inertia are printed with: the tensor convention by default, for
/// polygons and meshes alike.
///
/// # Examples
/// ```
/// use inertia::units::Products;
/// assert_eq!(Products::Cad.sign(), 1.0);
/// assert_eq!(Products::default(), Products::Tensor);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Products {
    /// The tensor convention: off-diagonals are `−∫xy dm` (so that L = I ω); the default.
    #[default]
    Tensor,
    /// The CAD convention: products of inertia `+∫xy dm`.
    Cad,
}

impl Products {
    /// The sign applied to `+∫xy dm` to print it in this convention.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::units::Products::Tensor.sign(), -1.0);
    /// ```
    pub fn sign(self) -> f64 {
        match self {
            Products::Tensor => -1.0,
            Products::Cad => 1.0,
        }
    }
}
