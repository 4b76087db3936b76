//! Differential: the parallel path (`inertia::soup`, via `soup::stl_solid` and `IndexedSoup`)
//! against the general path (`Mesh::new`) on arbitrary STL or OBJ bytes: each answers
//! exactly where the other does, and the answers agree; and the overlap check on the weld's
//! kept points (a mapped file's) finds what it finds on the soup's own corners.
#![no_main]
use inertia::io::{MeshFormat, obj, stl};
use inertia::details::{IndexedSoup, mesh, solid};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (fast, raw) = match MeshFormat::sniff(data) {
        MeshFormat::Stl => match (inertia::details::stl_solid(data), stl::parse(data)) {
            (Ok(fast), Ok(raw)) => (fast, raw),
            // A defect in the file: the parallel path steps aside or refuses alike.
            (Ok(None) | Err(_), Err(_)) => return,
            (Ok(Some(_)), Err(e)) => panic!("parallel path answered, reader refused: {e}"),
            (Err(e), Ok(_)) => panic!("parallel path refused what the reader read: {e}"),
        },
        _ => {
            let Ok(raw) = obj::parse(data) else { return };
            (solid(&IndexedSoup(&raw)), raw)
        }
    };
    // The parallel weld's mesh (voxel, pictures) is the general path's mesh.
    let general = inertia::Mesh::new(&raw);
    let welded = match MeshFormat::sniff(data) {
        MeshFormat::Stl => inertia::details::stl_mesh(data).ok().flatten(),
        _ => mesh(&IndexedSoup(&raw)),
    };
    match (&welded, &general) {
        (Some(w), Ok(g)) => {
            assert_eq!(w.triangles().len(), g.triangles().len());
            assert!((0..w.triangles().len()).all(|t| w.corners(t) == g.corners(t)));
            assert_eq!(w.tetra_integral(), g.tetra_integral());
        }
        (None, Err(_)) => {}
        (w, g) => panic!("parallel weld {} / general path {:?}", w.is_some(), g.as_ref().err()),
    }
    match (fast, general) {
        (Some(s), Ok(mesh)) => {
            let p = mesh.tetra_integral().unwrap();
            assert_eq!(s.body.shells, mesh.shell_count());
            assert_eq!(s.body.inside_out, mesh.inside_out());
            assert_eq!(s.body.degenerate_triangles, mesh.degenerate_count());
            assert_eq!(s.body.vertices, mesh.vertex_count());
            assert!((s.properties.volume - p.volume).abs() <= 1e-9 * p.volume, "{} {}", s.properties.volume, p.volume);
        }
        (Some(_), Err(e)) => panic!("parallel path answered, general path refused: {e}"),
        (None, Ok(mesh)) => panic!("parallel path refused what the general path accepts ({} shells)", mesh.shell_count()),
        (None, Err(_)) => {}
    }
    // A mapped file's overlap check reads the corners from the weld's kept points: it
    // finds what the soup's own corners give.
    let soup = IndexedSoup(&raw);
    if let Some(kept) = inertia::details::check_overlap_kept(&soup) {
        let own = inertia::details::check_overlap(&soup);
        match (&own, &kept) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("own corners {own:?}, kept points {kept:?}"),
        }
    }
});
