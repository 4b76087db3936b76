//! The point that moments are reported about (`--about`).

use std::str::FromStr;

/// Where second moments are taken: the centroid, the origin, or a given point.
///
/// # Examples
/// ```
/// use inertia::About;
/// assert_eq!("centroid".parse::<About>(), Ok(About::Centroid));
/// assert_eq!("-1.5, 2".parse::<About>(), Ok(About::Point(vec![-1.5, 2.0])));
/// assert!("1,nan".parse::<About>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum About {
    /// The centre of mass (the default).
    Centroid,
    /// The origin of the input's coordinates.
    Origin,
    /// A point given by its coordinates (2 for polygons, 3 for meshes).
    Point(Vec<f64>),
}

impl FromStr for About {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "centroid" | "com" | "center" | "centre" => return Ok(About::Centroid),
            "origin" => return Ok(About::Origin),
            _ => {}
        }
        let coords = s
            .split(',')
            .map(|c| match c.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(format!(
                    "expected centroid, origin or comma-separated finite coordinates, got \"{}\"",
                    crate::error::clip(s)
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(About::Point(coords))
    }
}

impl About {
    /// The point's coordinates for a body with centroid `centroid`, checking the dimension.
    ///
    /// # Errors
    /// [`Error::PointDimension`](crate::Error::PointDimension) when the point has the
    /// wrong number of coordinates for `centroid`.
    ///
    /// # Examples
    /// ```
    /// use inertia::About;
    /// assert_eq!(About::Origin.resolve(&[5.0, 6.0]).unwrap(), vec![0.0, 0.0]);
    /// assert!(About::Point(vec![1.0, 2.0, 3.0]).resolve(&[0.0, 0.0]).is_err());
    /// ```
    pub fn resolve(&self, centroid: &[f64]) -> crate::Result<Vec<f64>> {
        match self {
            About::Centroid => Ok(centroid.to_vec()),
            About::Origin => Ok(vec![0.0; centroid.len()]),
            About::Point(p) if p.len() == centroid.len() => Ok(p.clone()),
            About::Point(p) => Err(crate::Error::PointDimension {
                needed: centroid.len(),
                got: p.len(),
            }),
        }
    }
}
