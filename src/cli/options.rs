//! The options every command shares (input limits, units, output) and how results are
//! presented (the point and axis of the moments, the sign of products), checked into a
//! [`View`].

use super::*;
use inertia::read::Matter;
use inertia::units::{DENSITY_UNITS, DensityUnit};

/// Options every command takes.
#[derive(Args, Debug)]
pub(super) struct Common {
    /// Density: mass per unit area (plates: polygons, 2D shapes) or volume (solids); with
    /// --units, in kg/m² or kg/m³ (kg/m³ for a plate given a --thickness), or in the unit
    /// written after the number: 7.85g/cm3, 0.284lb/in3, 7850kg/m3, 1.2kg/m2. Default 1.
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["mass", "material"], help_heading = "Mass", value_name = "DENSITY")]
    pub(super) density: Option<Density>,
    /// Total mass (kg with --units); the density becomes mass / area (or volume).
    #[arg(
        long,
        allow_negative_numbers = true,
        conflicts_with = "material",
        help_heading = "Mass",
        value_name = "MASS"
    )]
    pub(super) mass: Option<f64>,
    /// A material from `inertia materials`: its density in kg/m³, so it needs the length unit
    /// (--units, or a file that states it) and, for a plate, its --thickness.
    #[arg(long, help_heading = "Mass", value_name = "NAME", hide_possible_values = true,
          value_parser = MaterialName)]
    pub(super) material: Option<String>,
    /// The input's length unit: mm, cm, m, in, ft, yd, ... (every unit a DXF `$INSUNITS`
    /// names, US survey feet `us-ft` among them). Densities are then SI and results
    /// are in kg and metres (or --output-units). A file that states its unit (3MF, DXF
    /// `$INSUNITS`, STEP) needs none (a different one is refused without --units-override);
    /// given with files that state none, it is what those are in. Names may be spelled
    /// out (millimeter, millimetre, inches, feet) and in any case (MM). For GeoJSON it
    /// declares the coordinates lengths: RFC 7946's are degrees, refused without it (a
    /// `crs` naming Web Mercator is refused either way: its areas are 1/cos²(latitude) too
    /// large).
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        help_heading = "Units",
        value_name = "UNIT"
    )]
    pub(super) units: Option<LengthUnit>,
    /// The length unit of the results (with --units or a unit the file states): mm, cm,
    /// m, in, ft, ... as for --units. Default m.
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        help_heading = "Units",
        value_name = "UNIT"
    )]
    pub(super) output_units: Option<LengthUnit>,
    /// Read the input in --units even where a file states another unit (3MF `unit`, DXF
    /// `$INSUNITS`, STEP).
    #[arg(long, requires = "units", help_heading = "Units")]
    pub(super) units_override: bool,
    #[command(flatten)]
    pub(super) present: Presentation,
}

impl Common {
    /// `--density`, `--mass` or `--material` as the library takes them (`None`: density 1).
    pub(super) fn matter(&self) -> Result<Option<Matter>> {
        if let Some(name) = &self.material {
            let m = material(name).with_context(|| {
                // The closest name, as clap suggests flags ("did you mean").
                let guess = inertia::units::MATERIALS
                    .iter()
                    .map(|m| (strsim::jaro_winkler(&name.to_lowercase(), m.name), m.name))
                    .filter(|(score, _)| *score > 0.8)
                    .max_by(|a, b| a.0.total_cmp(&b.0));
                format!(
                    "unknown material \"{}\"{} (see `inertia materials`)",
                    inertia::details::clip(name),
                    guess.map_or(String::new(), |(_, n)| format!(": did you mean \"{n}\"?"))
                )
            })?;
            return Ok(Some(Matter::Material(*m)));
        }
        Ok(match (self.density, self.mass) {
            (Some(Density { value, unit: None }), _) => Some(Matter::Density(value)),
            (
                Some(Density {
                    value,
                    unit: Some(u),
                }),
                _,
            ) => Some(Matter::DensityIn(value, u)),
            (None, Some(m)) => Some(Matter::Mass(m)),
            (None, None) => None,
        })
    }

    /// The flags' units, matter and `thickness` as read options (the rest default).
    pub(super) fn read_options(&self, thickness: Option<f64>) -> Result<ReadOptions> {
        Ok(ReadOptions {
            units: self.units,
            units_override: self.units_override,
            output_units: self.output_units,
            matter: self.matter()?,
            thickness,
            ..ReadOptions::default()
        })
    }

    /// The density or mass for a body of dimension `dim`; `thickness` (polygons) turns a
    /// volumetric density into an areal one (the library's checks: `ReadOptions::amount`).
    pub(super) fn amount(&self, dim: usize, thickness: Option<f64>) -> Result<Amount> {
        Ok(self.read_options(thickness)?.amount(dim, self.units)?)
    }

    /// The checks of [`Common::amount`] that need no length unit, made before the files
    /// are read (the unit may come from them).
    pub(super) fn check_amount(&mut self, dim: usize, thickness: Option<f64>) -> Result<()> {
        let given = self.units;
        if given.is_none() {
            // A stand-in: the checks that need the unit are made once it is known.
            self.units = Some(LengthUnit::M);
        }
        let checked = self.amount(dim, thickness).map(|_| ());
        self.units = given;
        // A bare number with --units is kg/m³: a value a density in g/cm³ would have (7.85
        // for steel) is lighter than any foam. Said once here, not changed; the library's
        // warning of each file is not printed again ([`light_density`]). Without --units,
        // each file that states its unit says it (`warning_line`).
        if let Ok(o) = self.read_options(thickness)
            && let Some(Warning::LightDensity { density, .. }) = o.density_warning(dim, None)
        {
            eprintln!(
                "inertia: warning: --density {} is taken in kg/m³ (with --units), lighter than foam; for g/cm³ write --density {}g/cm3",
                num(density),
                num(density)
            );
        }
        checked
    }

    /// Takes the unit the input files state (3MF `unit`, DXF `$INSUNITS`, STEP; `stated`:
    /// each file read, by name, with the unit it states) when `--units` is not given;
    /// refuses files that disagree with each other or with `--units` (unless
    /// `--units-override`).
    pub(super) fn adopt_units(&mut self, stated: &[StatedUnit]) -> Result<()> {
        // --units-override: every file is read in --units, whatever it states.
        if self.units_fixed_by_flags() {
            return Ok(());
        }
        let mut first: Option<(LengthUnit, &str)> = None;
        let mut unitless: Option<&str> = None;
        for StatedUnit { name, unit } in stated {
            let Some(u) = *unit else {
                unitless.get_or_insert(name);
                continue;
            };
            match &first {
                Some((v, other)) if *v != u => bail!(
                    "{name} states its unit as {}, {other} as {}: run them separately, or give --units with --units-override",
                    u.symbol(),
                    v.symbol()
                ),
                Some(_) => {}
                None => first = Some((u, name)),
            }
        }
        let Some((u, name)) = first else {
            return Ok(());
        };
        // A file that states no unit is not in the unit another one states: say which.
        if let (Some(other), None) = (unitless, self.units) {
            let none = if other == "-" {
                "standard input is read without one".to_string()
            } else {
                format!("{other} states none")
            };
            bail!(
                "{name} states its unit as {}, {none}: give --units to say what the files that state none are in",
                u.symbol()
            );
        }
        match self.units {
            None => self.units = Some(u),
            Some(g) if g == u || self.units_override => {}
            Some(g) => bail!(
                "{name} states its unit as {}, but --units says {}: leave out --units, or give --units-override to read it in {}",
                u.symbol(),
                g.symbol(),
                g.symbol()
            ),
        }
        Ok(())
    }

    /// `--units` with `--units-override`: no file's unit counts.
    fn units_fixed_by_flags(&self) -> bool {
        self.units.is_some() && self.units_override
    }

    /// True when the files cannot change the length unit: the flags fix it, or
    /// `states_none` (every input's format, by `--input-format` or by its name, is one
    /// that states no unit). Then the results can be printed before every file is read.
    pub(super) fn unit_fixed(&self, states_none: impl FnOnce() -> bool) -> bool {
        self.units_fixed_by_flags() || states_none()
    }

    pub(super) fn units(&self) -> Units {
        Units {
            input: self.units,
            output: self.output_units,
        }
    }

    pub(super) fn format(&self) -> OutputFormat {
        self.present.format()
    }

    pub(super) fn about<const N: usize>(&self) -> Result<Option<[f64; N]>> {
        self.present.about::<N>()
    }

    /// Units, product sign and axis for a report of dimension `dim`.
    pub(super) fn view(&self, dim: usize) -> Result<View> {
        self.present.view(self.units(), dim)
    }
}

/// How results are presented: the point and axis of the moments, the sign of products, the
/// output format. Shared by every command that prints a report.
#[derive(Args, Debug)]
pub(super) struct Presentation {
    /// Point the moments are about: centroid, origin, or X,Y (plates) / X,Y,Z (solids), in
    /// the input's units.
    #[arg(
        long,
        default_value = "centroid",
        allow_hyphen_values = true,
        help_heading = "Moments",
        value_name = "POINT"
    )]
    pub(super) about: About,
    /// Also report the moment about the axis through the --about point along this direction:
    /// X,Y (in-plane, plates) or X,Y,Z (solids).
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Moments",
        value_name = "DIRECTION"
    )]
    pub(super) axis: Option<String>,
    /// Sign of products of inertia: tensor (−∫xy dm, the default for every command) or cad
    /// (+∫xy dm).
    #[arg(long, value_enum, help_heading = "Moments")]
    pub(super) products: Option<Products>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table, help_heading = "Output")]
    pub(super) format: OutputFormat,
    /// Short for `--format json`.
    #[arg(long, conflicts_with = "format", help_heading = "Output")]
    pub(super) json: bool,
}

impl Presentation {
    pub(super) fn format(&self) -> OutputFormat {
        if self.json {
            OutputFormat::Json
        } else {
            self.format
        }
    }

    /// The `--about` point, or `None` for the centroid.
    pub(super) fn about<const N: usize>(&self) -> Result<Option<[f64; N]>> {
        match &self.about {
            About::Centroid => Ok(None),
            other => {
                let p = other.resolve(&[0.0; N])?;
                let mut out = [0.0; N];
                out.copy_from_slice(&p);
                Ok(Some(out))
            }
        }
    }

    /// Units, product sign and axis for a report of dimension `dim`.
    pub(super) fn view(&self, units: Units, dim: usize) -> Result<View> {
        let axis = match &self.axis {
            None => None,
            Some(text) => {
                let v = match text.parse::<About>() {
                    Ok(About::Point(v)) => v,
                    _ => bail!(
                        "--axis takes a direction X,Y (polygons) or X,Y,Z (meshes), got \"{}\"",
                        inertia::details::clip(text)
                    ),
                };
                if v.len() != dim {
                    bail!("--axis needs {dim} components here, got {}", v.len());
                }
                if v.iter().all(|c| *c == 0.0) {
                    bail!("--axis must not be the zero vector");
                }
                Some(v)
            }
        };
        Ok(View {
            units,
            products: self.products.unwrap_or_default(),
            axis,
        })
    }
}

/// Whether `w` is the library's warning of a light density in the unit `--units` gave,
/// which the command prints once for all its files, before reading them
/// ([`Common::check_amount`]); one in the unit a file states is the file's.
pub(super) fn light_density(w: &Warning) -> bool {
    matches!(w, Warning::LightDensity { stated: false, .. })
}

/// A `--density` value: the number, and the unit written after it, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Density {
    value: f64,
    unit: Option<DensityUnit>,
}

impl std::str::FromStr for Density {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let s = s.trim();
        // The unit starts at the first letter that is not an exponent's `e` (one followed
        // by a digit or a sign).
        let exponent = |i: usize, c: char| {
            (c == 'e' || c == 'E')
                && s[i + 1..].starts_with(|d: char| d.is_ascii_digit() || d == '+' || d == '-')
        };
        let split = s
            .char_indices()
            .find(|&(i, c)| c.is_alphabetic() && !exponent(i, c))
            .map_or(s.len(), |(i, _)| i);
        let (number, unit) = s.split_at(split);
        let value: f64 = number
            .trim()
            .parse()
            .map_err(|_| format!("not a number, or a number and a unit: {s:?}"))?;
        let unit = unit.trim();
        if unit.is_empty() {
            return Ok(Density { value, unit: None });
        }
        let found = DensityUnit::parse(unit).ok_or_else(|| {
            let names: Vec<&str> = DENSITY_UNITS.iter().map(|u| u.name).collect();
            format!(
                "unknown density unit {unit:?} (one of {})",
                names.join(", ")
            )
        })?;
        Ok(Density {
            value,
            unit: Some(found),
        })
    }
}

/// A material's name: any text (checked, with its own suggestions, when the density is
/// looked up), offering the built-in materials' names to shell completion rather than files.
#[derive(Clone)]
struct MaterialName;

impl clap::builder::TypedValueParser for MaterialName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            inertia::units::MATERIALS
                .iter()
                .map(|m| clap::builder::PossibleValue::new(m.name)),
        ))
    }
}
