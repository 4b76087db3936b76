//! Machinery that the `inertia` binary, the benches, the fuzz targets and the integration
//! tests reach inside the crate. Not part of the public API: hidden from the docs, and it
//! may change in any release. Everything else that is not re-exported here or documented
//! is `pub(crate)`.

pub use crate::io::guard::fault_message;
pub use crate::overlap::{Overlap, check as check_overlap, doubled_faces, first_overlap};
pub use crate::soup::{
    Certified, IndexedSoup, Point, Soup, VertexSoup, mesh, solid, stl_mesh, stl_solid,
};
pub use crate::sums::BLOCK;
pub use crate::text::{clip, clip_to, human_bytes, num, tidy_numbers};
