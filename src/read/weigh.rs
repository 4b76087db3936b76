//! What a file's parts are weighed with and the units their results are given in
//! ([`Matter`] and the fields of [`ReadOptions`] that say so), and the checks of the
//! options: [`ReadOptions::check`] for what needs no input, [`ReadOptions::amount`] once
//! the input's length unit is known.

use super::ReadOptions;
use crate::error::{Error, Need, OptionsProblem, Parameter, Result};
use crate::method::MeshMethod;
use crate::units::{DensityUnit, LengthUnit, Material, Units};
use crate::warning::Warning;
use crate::{Amount, PolygonMethod, positive};

/// How much matter the parts hold; without one (`ReadOptions::matter` `None`), density 1.
///
/// # Examples
/// ```
/// use inertia::read::{Matter, ReadOptions};
/// use inertia::units::{material, LengthUnit};
/// let steel = Matter::Material(*material("steel").unwrap());
/// let o = ReadOptions { units: Some(LengthUnit::Mm), matter: Some(steel), ..ReadOptions::default() };
/// assert_eq!(o.amount(3, Some(LengthUnit::Mm))?, inertia::Amount::Density(7850.0));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Matter {
    /// A density: kg/m³ for a solid (and a plate given a thickness) or kg/m² for a plate
    /// when the input's length unit is known; else per the input's unit of volume (area).
    Density(f64),
    /// A density in a unit of its own (`7.85 g/cm³`); it needs the input's length unit.
    DensityIn(f64, DensityUnit),
    /// A total mass (kg when the input's length unit is known), spread uniformly.
    Mass(f64),
    /// A material's density (kg/m³); it needs the input's length unit, and a plate its
    /// thickness.
    Material(Material),
}

/// The fields of [`ReadOptions`] that [`crate::Parts::total`] weighs the parts with, kept
/// with the parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Weighing {
    pub(crate) units: Option<LengthUnit>,
    pub(crate) units_override: bool,
    pub(crate) output_units: Option<LengthUnit>,
    pub(crate) matter: Option<Matter>,
    pub(crate) thickness: Option<f64>,
    pub(crate) polygon_method: PolygonMethod,
    pub(crate) mesh_method: Option<MeshMethod>,
}

impl Weighing {
    /// The weighing fields of `options`.
    pub(crate) fn of(options: &ReadOptions) -> Weighing {
        Weighing {
            units: options.units,
            units_override: options.units_override,
            output_units: options.output_units,
            matter: options.matter,
            thickness: options.thickness,
            polygon_method: options.polygon_method,
            mesh_method: options.mesh.methods.first().copied(),
        }
    }

    /// The units of the results of a file that states `stated`: the options' unit where
    /// the file states none (or they override it), else the file's.
    pub(crate) fn units(&self, stated: Option<LengthUnit>) -> Result<Units> {
        let input = match (self.units, stated) {
            (Some(given), _) if self.units_override => Some(given),
            (Some(given), Some(stated)) if given != stated => {
                return Err(Error::Options {
                    problem: OptionsProblem::UnitsDisagree { stated, given },
                });
            }
            (given, stated) => stated.or(given),
        };
        Ok(Units {
            input,
            output: self.output_units,
        })
    }

    /// [`ReadOptions::amount`].
    pub(crate) fn amount(&self, dim: usize, unit: Option<LengthUnit>) -> Result<Amount> {
        let problem = |problem| Err(Error::Options { problem });
        if self.output_units.is_some() && unit.is_none() {
            return problem(OptionsProblem::OutputUnitWithoutUnit);
        }
        let plate = dim == 2;
        let volumetric = match self.matter {
            Some(Matter::Material(m)) => {
                if unit.is_none() {
                    return problem(OptionsProblem::MaterialWithoutUnit);
                }
                if plate && self.thickness.is_none() {
                    return problem(OptionsProblem::MaterialWithoutThickness);
                }
                Some(positive(Parameter::Density, m.density)?)
            }
            Some(Matter::Density(d)) => Some(positive(Parameter::Density, d)?),
            Some(Matter::DensityIn(value, u)) => {
                positive(Parameter::Density, value)?;
                let unit_name = u.name;
                if unit.is_none() {
                    return problem(OptionsProblem::DensityUnitWithoutUnit {
                        value,
                        unit: unit_name,
                    });
                }
                if u.per_volume && plate && self.thickness.is_none() {
                    return problem(OptionsProblem::DensityPerVolumeWithoutThickness {
                        value,
                        unit: unit_name,
                    });
                }
                if !u.per_volume && (!plate || self.thickness.is_some()) {
                    return problem(OptionsProblem::DensityPerArea {
                        value,
                        unit: unit_name,
                    });
                }
                Some(value * u.kg)
            }
            Some(Matter::Mass(_)) | None => None,
        };
        if let Some(t) = self.thickness {
            positive(Parameter::Thickness, t)?;
        }
        if let Some(Matter::Mass(m)) = self.matter {
            return Ok(Amount::Mass(positive(Parameter::Mass, m)?));
        }
        let rho = volumetric.unwrap_or(1.0);
        Ok(Amount::Density(match self.thickness {
            // kg/m³ × m = kg/m² (or density × input length when unitless).
            Some(t) => rho * t * unit.map_or(1.0, |u| u.metres()),
            None => rho,
        }))
    }
}

impl ReadOptions {
    /// Checks the options that need no input: a positive density, mass or thickness, a
    /// positive shell thickness asked alone, a positive weld and join tolerance, a repair
    /// tolerance of at least 0, a voxel resolution from 1 to 100,000. [`crate::read_path`]
    /// and [`super::read_bytes`] check them first; the rest waits for the input's unit
    /// ([`ReadOptions::amount`]).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the value out of range;
    /// [`Error::Options`] for a shell asked with other methods.
    ///
    /// # Examples
    /// ```
    /// use inertia::read::ReadOptions;
    /// let mut o = ReadOptions::default();
    /// o.mesh.shell = Some(-1.0);
    /// assert_eq!(o.check().unwrap_err().to_string(), "the shell thickness must be a positive finite number, got -1");
    /// assert!(ReadOptions::default().check().is_ok());
    /// ```
    pub fn check(&self) -> Result<()> {
        match self.matter {
            Some(Matter::Density(d) | Matter::DensityIn(d, _)) => {
                positive(Parameter::Density, d)?;
            }
            Some(Matter::Mass(m)) => {
                positive(Parameter::Mass, m)?;
            }
            Some(Matter::Material(m)) => {
                positive(Parameter::Density, m.density)?;
            }
            None => {}
        }
        if let Some(t) = self.thickness {
            positive(Parameter::Thickness, t)?;
        }
        let mesh = &self.mesh;
        let r = mesh.resolution;
        if r == 0 || r > MAX_RESOLUTION {
            return Err(Error::InvalidParameter {
                name: Parameter::Resolution,
                value: r as f64,
                need: Need::Between {
                    min: 1.0,
                    max: MAX_RESOLUTION as f64,
                },
            });
        }
        if let Some(w) = mesh.weld_tolerance {
            positive(Parameter::WeldTolerance, w)?;
        }
        let repair = mesh.repair_tolerance;
        if !(repair >= 0.0 && repair.is_finite()) {
            return Err(Error::InvalidParameter {
                name: Parameter::RepairTolerance,
                value: repair,
                need: Need::NonNegative,
            });
        }
        if let Some(t) = mesh.shell {
            positive(Parameter::ShellThickness, t)?;
            if mesh.methods.iter().any(|m| *m != MeshMethod::Tetra) {
                return Err(Error::Options {
                    problem: OptionsProblem::ShellWithMethods,
                });
            }
        }
        if let Some(t) = self.dxf.join_tolerance {
            positive(Parameter::JoinTolerance, t)?;
        }
        Ok(())
    }

    /// How a body of dimension `dim` (2: a plate, 3: a solid) is weighed, when the input's
    /// length unit is `unit` (`None`: not known): [`ReadOptions::matter`] as a density
    /// (kg/m³, or kg/m² for a plate, × [`ReadOptions::thickness`] for a plate given one)
    /// or a mass; density 1 without one.
    ///
    /// # Errors
    /// [`Error::Options`] for a material or a density in a unit of its own without the
    /// unit, a density per volume for a plate of no thickness (or per area for a solid),
    /// output units without the input's; [`Error::InvalidParameter`] for a value that is
    /// not positive.
    ///
    /// # Examples
    /// ```
    /// use inertia::read::{Matter, ReadOptions};
    /// use inertia::units::{DensityUnit, LengthUnit};
    /// let g_cm3 = DensityUnit::parse("g/cm3").unwrap();
    /// // A 2 mm plate of 7.85 g/cm³: 15.7 kg/m².
    /// let o = ReadOptions { matter: Some(Matter::DensityIn(7.85, g_cm3)), thickness: Some(2.0), ..ReadOptions::default() };
    /// let inertia::Amount::Density(d) = o.amount(2, Some(LengthUnit::Mm))? else { panic!() };
    /// assert!((d - 15.7).abs() < 1e-12);
    /// assert!(o.amount(2, None).is_err()); // g/cm³ of a drawing in no known unit
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn amount(&self, dim: usize, unit: Option<LengthUnit>) -> Result<Amount> {
        Weighing::of(self).amount(dim, unit)
    }
}

/// Below this many kg/m³ a density given as a bare number in a known length unit is
/// warned of ([`Warning::LightDensity`]): it is lighter than the rigid foams parts are made
/// of, and it is the range a density in g/cm³ falls in (osmium, the densest element, is
/// 22.59 g/cm³), so 7.85 for steel in g/cm³ is the likely slip.
pub const LIGHTEST_SOLID: f64 = 30.0;

impl ReadOptions {
    /// The warning for a density that looks given in g/cm³ ([`Warning::LightDensity`]):
    /// a bare [`Matter::Density`] below [`LIGHTEST_SOLID`] kg/m³ for a body of dimension
    /// `dim` weighed per volume (a solid, or a plate given a thickness) in a file that
    /// states the length unit `stated`, when the unit its lengths are in is known: the
    /// options' [`ReadOptions::units`], else the one it states (none when the two
    /// disagree: then [`crate::Parts::total`] refuses).
    ///
    /// # Examples
    /// ```
    /// use inertia::read::{Matter, ReadOptions, Warning};
    /// use inertia::units::LengthUnit;
    /// let o = ReadOptions { matter: Some(Matter::Density(7.85)), ..ReadOptions::default() };
    /// let stated = Warning::LightDensity { density: 7.85, unit: LengthUnit::Mm, stated: true };
    /// assert_eq!(o.density_warning(3, Some(LengthUnit::Mm)), Some(stated)); // a 3MF in mm
    /// assert_eq!(o.density_warning(3, None), None); // no unit: the density is as given
    /// assert_eq!(o.density_warning(2, Some(LengthUnit::Mm)), None); // kg/m² of a plate
    /// let given = ReadOptions { units: Some(LengthUnit::Mm), ..o };
    /// let warning = Warning::LightDensity { density: 7.85, unit: LengthUnit::Mm, stated: false };
    /// assert_eq!(given.density_warning(3, None), Some(warning));
    /// ```
    pub fn density_warning(&self, dim: usize, stated: Option<LengthUnit>) -> Option<Warning> {
        let Some(Matter::Density(density)) = self.matter else {
            return None;
        };
        let unit = Weighing::of(self).units(stated).ok()?.input?;
        let per_volume = dim == 3 || self.thickness.is_some();
        (per_volume && density > 0.0 && density < LIGHTEST_SOLID).then_some(Warning::LightDensity {
            density,
            unit,
            stated: self.units.is_none(),
        })
    }
}

/// The most voxel cells along a body's longest side [`ReadOptions::check`] accepts.
pub const MAX_RESOLUTION: usize = 100_000;
