//! What a validated mesh is besides its integrals: counts, surface area, bounding box.

use serde::{Deserialize, Serialize};

/// Axis-aligned bounding box.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.bounding_box.max, [0.5; 3]);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct BoundingBox {
    /// Smallest x, y, z.
    pub min: [f64; 3],
    /// Largest x, y, z.
    pub max: [f64; 3],
}

impl BoundingBox {
    /// The box of nothing: low corner +∞, high corner −∞ (any [`include`](Self::include)
    /// or [`union`](Self::union) makes it that box).
    pub(crate) const fn empty() -> Self {
        BoundingBox {
            min: [f64::INFINITY; 3],
            max: [f64::NEG_INFINITY; 3],
        }
    }

    /// The box of `points` (empty for none).
    pub(crate) fn of_points<'a>(points: impl IntoIterator<Item = &'a [f64; 3]>) -> Self {
        let mut b = Self::empty();
        for p in points {
            b.include(p);
        }
        b
    }

    /// Grown to hold `p`.
    #[inline]
    pub(crate) fn include(&mut self, p: &[f64; 3]) {
        for ((lo, hi), &x) in self.min.iter_mut().zip(&mut self.max).zip(p) {
            *lo = lo.min(x);
            *hi = hi.max(x);
        }
    }

    /// The smallest box holding both.
    #[inline]
    #[must_use]
    pub(crate) fn union(&self, other: &BoundingBox) -> BoundingBox {
        BoundingBox {
            min: [0, 1, 2].map(|k| self.min[k].min(other.min[k])),
            max: [0, 1, 2].map(|k| self.max[k].max(other.max[k])),
        }
    }

    /// Whether the two boxes have a point in common (touching counts; an empty box meets
    /// nothing).
    #[inline]
    pub(crate) fn meets(&self, other: &BoundingBox) -> bool {
        (0..3).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    /// Whether `p` lies in the box (on its boundary counts).
    #[inline]
    pub(crate) fn contains(&self, p: &[f64; 3]) -> bool {
        (0..3).all(|k| self.min[k] <= p[k] && p[k] <= self.max[k])
    }

    /// Whether `other` lies in the box (compared corner by corner: an empty `other`, low
    /// +∞ and high −∞, lies in every box).
    #[inline]
    pub(crate) fn holds(&self, other: &BoundingBox) -> bool {
        (0..3).all(|k| self.min[k] <= other.min[k] && other.max[k] <= self.max[k])
    }

    /// Whether the box holds no point (a low corner above its high one on some axis).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        !(0..3).all(|k| self.min[k] <= self.max[k])
    }
}

/// Axis-aligned bounding box of a plane figure (exact for curved edges).
///
/// # Examples
/// ```
/// let p = inertia::Polygon::new(vec![[1.0, 2.0], [4.0, 2.0], [1.0, 6.0]], vec![])?;
/// let b = p.bounding_box();
/// assert_eq!((b.min, b.max), ([1.0, 2.0], [4.0, 6.0]));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct BoundingBox2d {
    /// Smallest x, y.
    pub min: [f64; 2],
    /// Largest x, y.
    pub max: [f64; 2],
}

impl BoundingBox2d {
    /// The smallest box holding both.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::BoundingBox2d;
    /// let a = BoundingBox2d { min: [0.0, 0.0], max: [1.0, 1.0] };
    /// let b = BoundingBox2d { min: [2.0, -1.0], max: [3.0, 0.5] };
    /// assert_eq!(a.union(&b), BoundingBox2d { min: [0.0, -1.0], max: [3.0, 1.0] });
    /// ```
    #[must_use]
    pub fn union(&self, other: &BoundingBox2d) -> BoundingBox2d {
        BoundingBox2d {
            min: [self.min[0].min(other.min[0]), self.min[1].min(other.min[1])],
            max: [self.max[0].max(other.max[0]), self.max[1].max(other.max[1])],
        }
    }

    /// The box of the four corners after `f` (a bound of the moved figure; exact for
    /// a translation).
    #[must_use]
    pub fn mapped(&self, f: impl Fn([f64; 2]) -> [f64; 2]) -> BoundingBox2d {
        let (a, b) = (self.min, self.max);
        let corners = [a, [b[0], a[1]], b, [a[0], b[1]]].map(f);
        let first = BoundingBox2d {
            min: corners[0],
            max: corners[0],
        };
        corners[1..].iter().fold(first, |acc, &c| {
            acc.union(&BoundingBox2d { min: c, max: c })
        })
    }
}

/// What a report says of a mesh besides its integrals.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// assert_eq!(inertia::report::Body::of(&cube).triangles, 12);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Body {
    /// Triangles in the input.
    pub triangles: usize,
    /// Degenerate triangles, skipped.
    pub degenerate_triangles: usize,
    /// Vertices after welding.
    pub vertices: usize,
    /// Closed surfaces.
    pub shells: usize,
    /// Inward shells subtracted.
    pub cavities: usize,
    /// Whether the input was turned right way out.
    pub inside_out: bool,
    /// Total surface area.
    pub surface_area: f64,
    /// Axis-aligned bounding box.
    pub bounding_box: BoundingBox,
    /// Contacts between bodies taken for touching: crossings within the coordinates'
    /// precision (see [`crate::overlap::check`]); `None` when nothing crosses.
    pub contacts: Option<Contacts>,
    /// Build items of a 3MF left out of the body by their object's type; `None` when none
    /// were.
    pub left_out: Option<LeftOut>,
    /// T-junctions at which the mesh was split to close it; `None` when there were none.
    pub junctions: Option<Junctions>,
    /// The bodies united (`OverlapPolicy::Union`); `None` when nothing was united.
    pub union: Option<Union>,
}

/// What `--overlap union` did (`OverlapPolicy::Union`, feature `union`): the bodies that
/// overlapped were replaced by their union, computed exactly.
///
/// # Examples
/// ```
/// let u = inertia::report::Union { bodies: 2, united: 2, resolved: 0, shared_volume: 0.5, volume_bound: 0.0, sum: None };
/// assert_eq!(u.united, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Union {
    /// Bodies (shells wound outward) in the mesh.
    pub bodies: usize,
    /// Of them, those whose boxes met another's and were united with it.
    pub united: usize,
    /// Bodies whose own surface crossed itself, resolved into the solid it encloses (by
    /// CGAL's autorefinement, which drops the pieces of surface inside the solid).
    #[serde(default)]
    pub resolved: usize,
    /// The volume the bodies share: their sum less their union.
    pub shared_volume: f64,
    /// At most this much volume separates the union integrated (its new points rounded to
    /// `f64`) from the exact union (0 when no point was rounded).
    pub volume_bound: f64,
    /// The bodies added as they are, by `tetra`, unit density (what `--overlap sum` gives;
    /// `--method all` shows it beside the union); not in the JSON.
    #[serde(skip)]
    pub sum: Option<crate::mass3d::MassProperties3d>,
}

impl Union {
    /// The same with every length multiplied by `k`.
    #[must_use]
    pub(crate) fn scaled_lengths(self, k: f64) -> Self {
        let k3 = k * k * k;
        Union {
            shared_volume: self.shared_volume * k3,
            volume_bound: self.volume_bound * k3,
            sum: self.sum.map(|p| p.scaled_lengths(k)),
            ..self
        }
    }
}

/// T-junctions closed: corners lying on another triangle's open edge, where that triangle
/// was split (the mesh was closed as a set of points, not edge to edge).
///
/// # Examples
/// ```
/// let j = inertia::report::Junctions { points: 4, triangles: 4, largest_offset: 0.0, volume_bound: 0.0 };
/// assert_eq!(j.points, 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Junctions {
    /// Corners found on another triangle's edge.
    pub points: usize,
    /// Triangles split at them (the report's triangle count is the split mesh's).
    pub triangles: usize,
    /// The farthest such corner lay from its edge's line (0 when every one lay on it
    /// exactly).
    pub largest_offset: f64,
    /// At most this much volume separates the split mesh from one whose corners lie on
    /// their edges exactly (see [`crate::tolerance`]).
    #[serde(default)]
    pub volume_bound: f64,
}

/// What validation changed or accepted on the way from a file's triangles to a closed
/// solid, each repair with what bounds it (see [`crate::tolerance`]); all `None` for a
/// mesh closed and clean as written.
///
/// # Examples
/// ```
/// use inertia::{Mesh, RawMesh};
/// let mut raw = inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
/// raw.triangles[0].swap(1, 2); // one triangle listed the other way round
/// let mesh = Mesh::new(&raw)?;
/// assert_eq!(mesh.repairs().reoriented, Some(1));
/// assert_eq!(mesh.repairs().joined, None);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Repairs {
    /// Open corners joined to others within a tolerance.
    pub joined: Option<Joined>,
    /// Corners on other triangles' open edges, split there.
    pub junctions: Option<Junctions>,
    /// Triangles turned to agree with their neighbours (no point moves).
    pub reoriented: Option<usize>,
    /// Crossings and folds within reach taken for touching.
    pub contacts: Option<Contacts>,
}

/// Open corners joined: how many distinct points were joined to another, and the
/// tolerance asked for or, by their own rounding, the farthest distance joined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joined {
    /// Distinct points joined to another.
    pub points: usize,
    /// The tolerance (given, or the farthest distance joined).
    pub tolerance: f64,
}

/// Build items of a 3MF left out by their object's type, counted.
///
/// # Examples
/// ```
/// let a = inertia::report::LeftOut { support: 2, ..Default::default() };
/// assert_eq!(a.support + a.other + a.surface, 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOut {
    /// Items placing `support` objects (removed after building).
    pub support: usize,
    /// Items placing `other` objects (not part of the body).
    pub other: usize,
    /// Items placing open `surface` objects (no volume; `--shell` integrates them).
    pub surface: usize,
}

impl Body {
    /// The same body with every length multiplied by `k` (a unit change): its box, surface
    /// area, and the sizes and volume bounds of its contacts and junctions.
    ///
    /// # Examples
    /// ```
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let b = inertia::report::Body::of(&cube).scaled_lengths(1e-3);
    /// assert_eq!((b.bounding_box.max[0], b.surface_area, b.triangles), (5e-4, 6e-6, 12));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn scaled_lengths(&self, k: f64) -> Body {
        let scale_box = |v: [f64; 3]| v.map(|x| x * k);
        Body {
            surface_area: self.surface_area * k * k,
            bounding_box: BoundingBox {
                min: scale_box(self.bounding_box.min),
                max: scale_box(self.bounding_box.max),
            },
            contacts: self.contacts.map(|c| Contacts {
                count: c.count,
                max_depth: c.max_depth * k,
                volume_bound: c.volume_bound * k * k * k,
                ..c
            }),
            junctions: self.junctions.map(|j| Junctions {
                largest_offset: j.largest_offset * k,
                volume_bound: j.volume_bound * k * k * k,
                ..j
            }),
            union: self.union.map(|u| u.scaled_lengths(k)),
            ..*self
        }
    }

    /// Several bodies taken together: counts and areas add, boxes merge. Triangle and
    /// vertex counts are kept only when every body has them (a body of no triangles was
    /// not a mesh: a closed-form shape, a B-rep solid), since a count of some parts' only
    /// would pass for the whole's.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{Body, BoundingBox};
    /// let a = Body { triangles: 12, bounding_box: BoundingBox { min: [0.0; 3], max: [1.0; 3] }, ..Default::default() };
    /// let b = Body { triangles: 4, bounding_box: BoundingBox { min: [5.0; 3], max: [6.0; 3] }, ..Default::default() };
    /// let t = Body::sum([a, b]);
    /// assert_eq!((t.triangles, t.bounding_box.max), (16, [6.0; 3]));
    /// // With a body that is not a mesh, no count.
    /// let shape = Body { shells: 1, ..Default::default() };
    /// assert_eq!(Body::sum([a, shape]).triangles, 0);
    /// ```
    pub fn sum(parts: impl IntoIterator<Item = Body>) -> Body {
        let parts: Vec<Body> = parts.into_iter().collect();
        let meshes = parts.iter().all(|b| b.triangles > 0);
        let mut total = Self::added(parts);
        if !meshes {
            (total.triangles, total.degenerate_triangles, total.vertices) = (0, 0, 0);
        }
        total
    }

    /// Every count added, every box merged.
    fn added(parts: Vec<Body>) -> Body {
        let empty = Body {
            bounding_box: BoundingBox::empty(),
            ..Default::default()
        };
        parts.into_iter().fold(empty, |a, b| Body {
            triangles: a.triangles + b.triangles,
            degenerate_triangles: a.degenerate_triangles + b.degenerate_triangles,
            vertices: a.vertices + b.vertices,
            shells: a.shells + b.shells,
            cavities: a.cavities + b.cavities,
            inside_out: false,
            surface_area: a.surface_area + b.surface_area,
            bounding_box: a.bounding_box.union(&b.bounding_box),
            contacts: match (a.contacts, b.contacts) {
                (Some(x), Some(y)) => Some(Contacts {
                    count: x.count + y.count,
                    max_depth: x.max_depth.max(y.max_depth),
                    volume_bound: x.volume_bound + y.volume_bound,
                    folds: x.folds + y.folds,
                    fold_area: x.fold_area + y.fold_area,
                    place: x.place.or(y.place),
                }),
                (x, y) => x.or(y),
            },
            left_out: match (a.left_out, b.left_out) {
                (Some(x), Some(y)) => Some(LeftOut {
                    support: x.support + y.support,
                    other: x.other + y.other,
                    surface: x.surface + y.surface,
                }),
                (x, y) => x.or(y),
            },
            junctions: match (a.junctions, b.junctions) {
                (Some(x), Some(y)) => Some(Junctions {
                    points: x.points + y.points,
                    triangles: x.triangles + y.triangles,
                    largest_offset: x.largest_offset.max(y.largest_offset),
                    volume_bound: x.volume_bound + y.volume_bound,
                }),
                (x, y) => x.or(y),
            },
            union: match (a.union, b.union) {
                (Some(x), Some(y)) => Some(Union {
                    bodies: x.bodies + y.bodies,
                    united: x.united + y.united,
                    resolved: x.resolved + y.resolved,
                    shared_volume: x.shared_volume + y.shared_volume,
                    volume_bound: x.volume_bound + y.volume_bound,
                    sum: x.sum.zip(y.sum).map(|(p, q)| p + q),
                }),
                (x, y) => x.or(y),
            },
        })
    }
}

/// Crossings and folds within a repair's reach, accepted as touching (see
/// [`crate::tolerance`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Contacts {
    /// Pairs of triangles that cross, or enclose a wedge twice, within reach.
    pub count: usize,
    /// The deepest of them: how far a corner lies inside the other body (or a face's
    /// corner past the other's plane).
    pub max_depth: f64,
    /// At most this much volume is counted twice: `max_depth` times the area of the
    /// faces in contact (the triangles of the pairs and those around every corner found
    /// inside another body). The space two bodies share lies between those faces and the
    /// faces of the other body within `max_depth` of them.
    pub volume_bound: f64,
    /// Faces folded over themselves in their own plane (a triangle turned over flat onto
    /// its neighbours: no volume between the layers), taken for the flat faces their
    /// outlines bound. Not in `count`; left out of the JSON when there are none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub folds: usize,
    /// The area the turned-over layers of the folds add to their triangles' (taken off
    /// the body's surface area); not in the JSON.
    #[serde(skip)]
    pub fold_area: f64,
    /// The first pair's triangles (numbered from 1), for a message; not in the JSON.
    #[serde(skip)]
    pub place: Option<[u32; 2]>,
}

/// Whether a count is zero (for `skip_serializing_if`).
fn is_zero(n: &usize) -> bool {
    *n == 0
}
