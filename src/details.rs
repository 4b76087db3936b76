//! Machinery that the `inertia` binary, the benches, the fuzz targets and the integration
//! tests reach inside the crate. Not part of the public API: hidden from the docs, and it
//! may change in any release. Internals are `pub(crate)` (or `pub` inside a private module);
//! this module is the one place they are re-exported from. What only a fuzz target runs is
//! compiled here only with the cargo feature `fuzzing`.

pub use crate::io::guard::fault_message;
pub use crate::overlap::{Overlap, check as check_overlap, doubled_faces, first_overlap};
pub use crate::soup::general::nearest_open_corners;
pub use crate::soup::{
    Certified, IndexedSoup, Point, Soup, VertexSoup, mesh, solid, stl_mesh, stl_solid,
};
pub use crate::sums::BLOCK;
pub use crate::text::{
    Notation, TENSOR_NOISE, clip, clip_to, human_bytes, notation, num, num_in, num_to, shortest,
    tensor_cells, tidy_numbers,
};

/// The mesh built from the triangles as written: the one path's checks but for its repairs
/// and the overlap check ([`Mesh::new`](crate::Mesh::new) runs both), for the tests that
/// hold the parallel shortcut's own checks to the one path's.
///
/// # Errors
/// As [`Mesh::new`](crate::Mesh::new), but for the overlap check's, and with no repair.
pub fn mesh_as_written(raw: &crate::RawMesh) -> crate::Result<crate::Mesh> {
    crate::soup::general::build(raw, false).0
}

/// GeoJSON's one-piece reader alone, for the fuzz target that checks it and
/// [`io::geojson::parse`](crate::io::geojson::parse)'s typed reader agree on every document.
///
/// # Errors
/// As [`io::geojson::parse`](crate::io::geojson::parse).
#[cfg(feature = "fuzzing")]
pub fn geojson_one_piece(bytes: &[u8]) -> crate::Result<Vec<crate::io::geojson::Part>> {
    crate::io::geojson::parse_tree(bytes)
}

/// The overlap check as a mapped file gets it: the parallel pass keeps the weld's points
/// (and would let the file's pages go), and the check reads the corners through the point
/// numbers. `None` when the pass refuses the soup. For the fuzz target that checks it
/// finds what [`check_overlap`] finds on the soup's own corners.
#[cfg(feature = "fuzzing")]
pub fn check_overlap_kept<S: Soup>(
    soup: &S,
) -> Option<Result<Option<crate::overlap::Contacts>, Overlap>> {
    /// `soup`, saying it is a mapped file (letting nothing go).
    struct Mapped<'a, S>(&'a S);
    impl<S: Soup> Soup for Mapped<'_, S> {
        type Point = S::Point;
        fn len(&self) -> usize {
            self.0.len()
        }
        fn triangle(&self, t: usize) -> [S::Point; 3] {
            self.0.triangle(t)
        }
        fn mapped(&self) -> bool {
            true
        }
    }
    let mapped = Mapped(soup);
    let (_, welded) = crate::soup::solid_with(&mapped, true)?;
    Some(crate::overlap::check_welded(&mapped, welded))
}
