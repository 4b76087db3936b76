//! Bytes to printed result for meshes (STL or OBJ), both methods: never a panic.
#![no_main]
use inertia::io::{MeshFormat, read_mesh};
use inertia::report::{MeshReport, OutputFormat};
use inertia::{Amount, MeshMethod};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let format = MeshFormat::sniff(data);
    let Ok(mesh) = read_mesh(data, format) else { return };
    for m in MeshMethod::ALL {
        let r = MeshReport::new("fuzz", &mesh, m, 16, Amount::Density(1.0), None);
        let _ = OutputFormat::Table.mesh(&r);
        let _ = OutputFormat::Json.mesh(&r);
        if r.volume.is_finite() && m == MeshMethod::Tetra {
            assert!(r.volume > 0.0, "a valid mesh encloses positive volume");
            let trace = r.inertia_tensor[0][0] + r.inertia_tensor[1][1] + r.inertia_tensor[2][2];
            if trace.is_finite() {
                assert!(trace > 0.0, "a valid mesh has a positive moment of inertia");
            }
        }
    }
});
