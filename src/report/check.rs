//! [`check_numbers`]: every number of a report finite, and nothing underflowed, read from
//! the report's own serialisation (so a field added to the schema is checked without
//! being listed here), without building a tree of JSON values.

use serde::Serialize;
use serde::ser::{self, Impossible};
use std::fmt;

/// Checks a report before it is printed: every number finite, and its measure, mass and
/// greatest moment not underflowed to zero. Returns the first offence, naming the field.
///
/// A NaN or infinity (a size or density beyond f64, a direction whose squares overflow)
/// or a result that rounded to nothing (a body 1e-200 across) is refused here, whatever
/// command produced it, rather than printed as `null`, `inf` or `0`.
///
/// # Errors
/// [`Error::NotRepresentable`](crate::Error::NotRepresentable) naming the first field that
/// is NaN or infinite, or a volume, area, mass or
/// tensor that underflows to 0.
///
/// # Examples
/// ```
/// use inertia::report::{check_numbers, MeshReport};
/// use inertia::{Amount, Mesh, MeshMethod, shape::Shape3d};
/// let cube = Mesh::new(&Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = MeshReport::new("cube", &cube, MeshMethod::Tetra, 0, Amount::Density(1.0), None);
/// assert!(check_numbers(&r).is_ok());
/// let tiny = Mesh::new(&Shape3d::Box { size: [1e-100; 3] }.tessellate(0))?;
/// let r = MeshReport::new("tiny", &tiny, MeshMethod::Tetra, 0, Amount::Density(1.0), None);
/// let e = check_numbers(&r).unwrap_err();
/// assert!(matches!(
///     &e,
///     inertia::Error::NotRepresentable { field, problem: inertia::error::NumberProblem::Underflow }
///         if field == "inertia_tensor"
/// ));
/// assert_eq!(
///     e.to_string(),
///     "the inertia_tensor underflows f64 (it rounds to 0): the sizes or the density are too small"
/// );
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn check_numbers<R: Serialize>(report: &R) -> crate::Result<()> {
    use crate::error::NumberProblem;
    let refuse = |field: &str, problem| {
        Err(crate::Error::NotRepresentable {
            field: field.to_string(),
            problem,
        })
    };
    let mut walk = Walk::default();
    // A report that cannot be serialised holds something JSON cannot write.
    if report.serialize(&mut walk).is_err() {
        return refuse("a value", NumberProblem::NotFinite);
    }
    for (key, value) in &walk.measures {
        if *value <= 0.0 {
            return refuse(key, NumberProblem::Underflow);
        }
    }
    if let Some(path) = walk.first_bad {
        let path = if path.is_empty() {
            "a value".to_string()
        } else {
            path
        };
        return refuse(&path, NumberProblem::NotFinite);
    }
    // The greatest principal moment: a body with mass has one, and it must not round to 0.
    if let Some(moments) = walk.moments {
        let greatest = moments.iter().copied().fold(0.0_f64, f64::max);
        if greatest <= 0.0 {
            let what = if walk.tensor {
                "inertia_tensor"
            } else {
                "mass_moments"
            };
            return refuse(what, NumberProblem::Underflow);
        }
    }
    Ok(())
}

/// What [`check_numbers`] gathers from a report's serialisation.
#[derive(Default)]
struct Walk {
    /// Where the walk is: object keys and `[index]` steps.
    path: Vec<Step>,
    /// The path of the first number JSON would write as `null` (NaN, infinite, `None`).
    first_bad: Option<String>,
    /// The report's own `area`, `volume` and `mass`, in their order, when finite.
    measures: Vec<(&'static str, f64)>,
    /// The numbers of `principal.moments`, when the report has them.
    moments: Option<Vec<f64>>,
    /// Whether the report has an `inertia_tensor` (a solid's) rather than `mass_moments`.
    tensor: bool,
}

enum Step {
    Key(String),
    Index(usize),
}

impl Walk {
    /// The path as printed: `principal.moments[0]`.
    fn path(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) if out.is_empty() => out.push_str(k),
                Step::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    fn is(&self, keys: &[&str]) -> bool {
        self.path.len() == keys.len()
            && self
                .path
                .iter()
                .zip(keys)
                .all(|(s, k)| matches!(s, Step::Key(x) if x == k))
    }

    /// A value JSON writes as `null`.
    fn null(&mut self) {
        if self.first_bad.is_none() {
            self.first_bad = Some(self.path());
        }
    }

    fn number(&mut self, x: f64) {
        if !x.is_finite() {
            return self.null();
        }
        for key in ["area", "volume", "mass"] {
            if self.is(&[key]) {
                self.measures.push((key, x));
            }
        }
        if let [Step::Key(p), Step::Key(m), Step::Index(_)] = &self.path[..]
            && p == "principal"
            && m == "moments"
        {
            self.moments.get_or_insert_with(Vec::new).push(x);
        }
    }

    fn key<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), Unwritable> {
        if self.path.is_empty() && key == "inertia_tensor" {
            self.tensor = true;
        }
        self.path.push(Step::Key(key.to_string()));
        let r = value.serialize(&mut *self);
        self.path.pop();
        r
    }
}

/// A value JSON cannot write (a map whose keys are not strings).
#[derive(Debug)]
struct Unwritable;

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value JSON cannot write")
    }
}

impl std::error::Error for Unwritable {}

impl ser::Error for Unwritable {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unwritable
    }
}

/// A sequence, tuple or map being walked: the next index, or the key just seen.
struct Compound<'a> {
    walk: &'a mut Walk,
    index: usize,
    key: Option<String>,
    /// A variant's name to pop at the end (`{"Variant": ...}`).
    variant: bool,
}

impl<'a> Compound<'a> {
    fn new(walk: &'a mut Walk, variant: Option<&str>) -> Self {
        if let Some(v) = variant {
            walk.path.push(Step::Key(v.to_string()));
        }
        Compound {
            walk,
            index: 0,
            key: None,
            variant: variant.is_some(),
        }
    }

    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.walk.path.push(Step::Index(self.index));
        self.index += 1;
        let r = value.serialize(&mut *self.walk);
        self.walk.path.pop();
        r
    }

    fn end(self) -> Result<(), Unwritable> {
        if self.variant {
            self.walk.path.pop();
        }
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut Walk {
    type Ok = ();
    type Error = Unwritable;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, _: bool) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Unwritable> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unwritable> {
        self.number(v);
        Ok(())
    }
    fn serialize_char(self, _: char) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Unwritable> {
        self.null();
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unwritable> {
        self.null();
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unwritable> {
        self.null();
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), Unwritable> {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unwritable> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unwritable> {
        self.path.push(Step::Key(variant.to_string()));
        let r = value.serialize(&mut *self);
        self.path.pop();
        r
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unwritable> {
        Ok(Compound::new(self, None))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(Compound::new(self, None))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(Compound::new(self, None))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unwritable> {
        Ok(Compound::new(self, Some(variant)))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unwritable> {
        Ok(Compound::new(self, None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(Compound::new(self, None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unwritable> {
        Ok(Compound::new(self, Some(variant)))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unwritable> {
        Compound::end(self)
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unwritable> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unwritable> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unwritable> {
        Compound::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Unwritable> {
        self.key = Some(key.serialize(KeyText)?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwritable> {
        let key = self.key.take().ok_or(Unwritable)?;
        self.walk.key(&key, value)
    }
    fn end(self) -> Result<(), Unwritable> {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unwritable> {
        self.walk.key(key, value)
    }
    fn end(self) -> Result<(), Unwritable> {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unwritable> {
        self.walk.key(key, value)
    }
    fn end(self) -> Result<(), Unwritable> {
        Compound::end(self)
    }
}

/// A map key as JSON writes it: a string (or a number or boolean, as its text); anything
/// else is [`Unwritable`], as it is for serde_json.
struct KeyText;

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Unwritable;
    type SerializeSeq = Impossible<String, Unwritable>;
    type SerializeTuple = Impossible<String, Unwritable>;
    type SerializeTupleStruct = Impossible<String, Unwritable>;
    type SerializeTupleVariant = Impossible<String, Unwritable>;
    type SerializeMap = Impossible<String, Unwritable>;
    type SerializeStruct = Impossible<String, Unwritable>;
    type SerializeStructVariant = Impossible<String, Unwritable>;

    fn serialize_bool(self, v: bool) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _: f32) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_f64(self, _: f64) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_char(self, v: char) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, Unwritable> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_none(self) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_unit(self) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, Unwritable> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Unwritable> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Unwritable> {
        Err(Unwritable)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unwritable> {
        Err(Unwritable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::NumberProblem;
    use crate::report::{MeshReport, PolygonReport};
    use crate::{Amount, Mesh, MeshMethod, Polygon, PolygonMethod, shape::Shape3d};

    fn refusal<R: Serialize>(r: &R) -> (String, NumberProblem) {
        match check_numbers(r).unwrap_err() {
            crate::Error::NotRepresentable { field, problem } => (field, problem),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn the_first_offence_is_named_by_its_path() {
        let cube = Mesh::new(&Shape3d::Box { size: [1.0; 3] }.tessellate(0)).unwrap();
        let good = MeshReport::new("c", &cube, MeshMethod::Tetra, 0, Amount::Density(1.0), None);
        assert!(check_numbers(&good).is_ok());
        let mut r = good.clone();
        r.inertia_tensor[1][2] = f64::NAN;
        r.principal.moments[0] = f64::INFINITY;
        assert_eq!(
            refusal(&r),
            ("inertia_tensor[1][2]".to_string(), NumberProblem::NotFinite)
        );
        let mut r = good.clone();
        r.bounding_box.max[2] = f64::NEG_INFINITY;
        assert_eq!(
            refusal(&r),
            ("bounding_box.max[2]".to_string(), NumberProblem::NotFinite)
        );
        // A measure that rounded to 0 comes before a non-finite number.
        let mut r = good.clone();
        r.mass = 0.0;
        r.centroid[0] = f64::NAN;
        assert_eq!(refusal(&r), ("mass".to_string(), NumberProblem::Underflow));
        let mut r = good.clone();
        r.principal.moments = [0.0; 3];
        assert_eq!(
            refusal(&r),
            ("inertia_tensor".to_string(), NumberProblem::Underflow)
        );
        let sq =
            Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![]).unwrap();
        let good = PolygonReport::new("s", &sq, PolygonMethod::Fan, Amount::Density(1.0), None);
        assert!(check_numbers(&good).is_ok());
        let mut r = good.clone();
        r.principal.moments = [0.0; 2];
        assert_eq!(
            refusal(&r),
            ("mass_moments".to_string(), NumberProblem::Underflow)
        );
        let mut r = good;
        r.area = -0.0;
        assert_eq!(refusal(&r), ("area".to_string(), NumberProblem::Underflow));
        // A map's keys are steps of the path too; a key JSON cannot write is refused.
        let mut m = std::collections::BTreeMap::new();
        m.insert("k", vec![1.0, f64::NAN]);
        assert_eq!(refusal(&m), ("k[1]".to_string(), NumberProblem::NotFinite));
        let mut bad = std::collections::BTreeMap::new();
        bad.insert(vec![1], 1.0);
        assert_eq!(
            refusal(&bad),
            ("a value".to_string(), NumberProblem::NotFinite)
        );
    }
}
