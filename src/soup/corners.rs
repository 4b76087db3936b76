//! How a reader hands its triangles to the checks: the [`Soup`] trait, and the points it
//! gives, compared and hashed by their exact bits. Readers (`crate::io`) implement it and
//! import nothing else of [`crate::soup`], which validates.

use crate::mesh::key as bits;

/// A triangle soup: triangles given by the coordinates of their corners.
///
/// # Examples
/// ```
/// use inertia::details::{Soup, VertexSoup};
/// let tet = [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]];
/// assert_eq!(VertexSoup(&tet).len(), 1);
/// ```
pub trait Soup: Sync {
    /// A corner's exact coordinates, with `-0.0` folded into `0.0` (two corners weld when
    /// their points are equal).
    type Point: Point;
    /// Number of triangles.
    fn len(&self) -> usize;
    /// Whether there are no triangles.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The corners of triangle `t` (`t < len()`).
    fn triangle(&self, t: usize) -> [Self::Point; 3];
    /// Triangle `t` as the input numbers it, for a message.
    fn place(&self, t: usize) -> crate::error::InputTriangle {
        crate::error::InputTriangle {
            number: t + 1,
            line: None,
        }
    }
    /// Whether its triangles are read in place from a mapped file, whose pages
    /// [`Soup::release`] can let go. `false` unless the soup says so.
    fn mapped(&self) -> bool {
        false
    }
    /// Lets the memory its triangles are read from go, if that is a mapped file's pages
    /// (a later read maps them again from the file); otherwise nothing. The checks call it
    /// once they read the corners from a compact copy of their own.
    fn release(&self) {}
}

/// A corner point as stored in a file: compared and hashed by its exact bits.
pub trait Point: Copy + Eq + Send + Sync {
    /// Its coordinates.
    fn coords(&self) -> [f64; 3];
    /// Whether every coordinate is finite.
    fn is_finite(&self) -> bool;
    /// A 64-bit hash of the bits.
    fn hash(&self) -> u64;
}

/// Folded 64×64→128-bit multiply: the mixing step of wyhash and friends.
#[inline]
pub(super) fn mix(a: u64, b: u64) -> u64 {
    let p = a as u128 * b as u128;
    (p as u64) ^ ((p >> 64) as u64)
}

pub(super) const K: [u64; 6] = [
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
    0x8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3,
    0x1d8e_4e27_c47d_124f,
    0x9e37_79b9_7f4a_7c15,
];

/// Single-precision points (binary STL): the bits of x, y, z.
impl Point for [u32; 3] {
    #[inline]
    fn coords(&self) -> [f64; 3] {
        [
            f32::from_bits(self[0]) as f64,
            f32::from_bits(self[1]) as f64,
            f32::from_bits(self[2]) as f64,
        ]
    }
    #[inline]
    fn is_finite(&self) -> bool {
        self.iter().all(|b| b & 0x7f80_0000 != 0x7f80_0000)
    }
    #[inline]
    fn hash(&self) -> u64 {
        let lo = self[0] as u64 | (self[1] as u64) << 32;
        let h = mix(lo ^ K[0], self[2] as u64 ^ K[1]);
        mix(h ^ K[2], lo.rotate_left(23) ^ K[3])
    }
}

/// Double-precision points (ASCII STL): the bits of x, y, z.
impl Point for [u64; 3] {
    #[inline]
    fn coords(&self) -> [f64; 3] {
        [
            f64::from_bits(self[0]),
            f64::from_bits(self[1]),
            f64::from_bits(self[2]),
        ]
    }
    #[inline]
    fn is_finite(&self) -> bool {
        self.iter().all(|&b| f64::from_bits(b).is_finite())
    }
    #[inline]
    fn hash(&self) -> u64 {
        let h = mix(self[0] ^ K[0], self[1] ^ K[1]);
        let h = mix(h ^ K[2], self[2] ^ K[3]);
        mix(h ^ K[4], self[0].rotate_left(29) ^ K[5])
    }
}

/// A soup held as three points per triangle, in order (an ASCII STL once parsed).
///
/// # Examples
/// ```
/// use inertia::details::{Soup, VertexSoup};
/// let pts = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, -0.0, 1.0]];
/// let t = VertexSoup(&pts).triangle(0);
/// assert_eq!(t[2], [0, 0, 1.0f64.to_bits()]); // -0.0 welds with 0.0
/// ```
pub struct VertexSoup<'a>(pub &'a [[f64; 3]]);

impl Soup for VertexSoup<'_> {
    type Point = [u64; 3];
    fn len(&self) -> usize {
        self.0.len() / 3
    }
    #[inline]
    fn triangle(&self, t: usize) -> [[u64; 3]; 3] {
        let p = &self.0[3 * t..3 * t + 3];
        [bits(p[0]), bits(p[1]), bits(p[2])]
    }
}

/// Each point number's coordinates, as the parallel pass keeps them: in `f32` when every
/// one is exactly an `f32` (a binary STL's), 12 bytes a point, else in `f64`.
pub(crate) enum KeptPoints {
    /// Every coordinate an `f32`.
    Single(Vec<[f32; 3]>),
    /// Some coordinate not.
    Double(Vec<[f64; 3]>),
}

/// A welded soup read through its point numbers: each corner's number (three a triangle)
/// and each number's coordinates. The checks after the parallel pass read a mapped file's
/// corners from here once they have let its pages go (see [`Soup::release`]): 24 bytes a
/// triangle and 12 a point in place of the file's 50 a triangle.
pub(crate) struct PointSoup<'a> {
    /// Each corner's point number.
    pub(crate) ids: &'a [u32],
    /// Each point number's coordinates (numbers no corner has hold anything).
    pub(crate) points: &'a KeptPoints,
}

impl Soup for PointSoup<'_> {
    type Point = [u64; 3];
    fn len(&self) -> usize {
        self.ids.len() / 3
    }
    #[inline]
    fn triangle(&self, t: usize) -> [[u64; 3]; 3] {
        let c = &self.ids[3 * t..3 * t + 3];
        match self.points {
            KeptPoints::Single(v) => {
                let at = |i: u32| bits(v[i as usize].map(f64::from));
                [at(c[0]), at(c[1]), at(c[2])]
            }
            KeptPoints::Double(v) => [
                bits(v[c[0] as usize]),
                bits(v[c[1] as usize]),
                bits(v[c[2] as usize]),
            ],
        }
    }
}

/// An indexed mesh (OBJ, PLY, 3MF) seen as a soup: each triangle's corners looked up.
///
/// # Examples
/// ```
/// use inertia::details::{solid, IndexedSoup};
/// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
/// let s = solid(&IndexedSoup(&cube)).unwrap();
/// assert_eq!((s.body.vertices, s.properties.volume), (8, 1.0));
/// ```
pub struct IndexedSoup<'a>(pub &'a crate::mesh::RawMesh);

impl Soup for IndexedSoup<'_> {
    type Point = [u64; 3];
    fn len(&self) -> usize {
        self.0.triangles.len()
    }
    #[inline]
    fn triangle(&self, t: usize) -> [[u64; 3]; 3] {
        let [a, b, c] = self.0.triangles[t];
        let v = &self.0.vertices;
        [
            bits(v[a as usize]),
            bits(v[b as usize]),
            bits(v[c as usize]),
        ]
    }
}
