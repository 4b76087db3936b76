//! Bytes to printed result for meshes (STL or OBJ), both methods: never a panic.
#![no_main]
use inertia::io::MeshFormat;
use inertia::report::{MeshReport, OutputFormat, View};
use inertia::solid::{Options, read_solids};
use inertia::{Amount, MeshMethod};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let format = MeshFormat::sniff(data);
    let options = Options { methods: MeshMethod::ALL.to_vec(), resolution: 16, ..Options::default() };
    let Ok(solids) = read_solids(data, format, &options) else { return };
    for (s, (m, i)) in solids.iter().flat_map(|s| MeshMethod::ALL.into_iter().zip(s.integrals.iter().cloned()).map(move |mi| (s, mi))) {
        let r = MeshReport::from_integral("fuzz", m.name(), s.body, i, Amount::Density(1.0), None, &View::default());
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
