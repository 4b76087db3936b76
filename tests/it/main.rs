//! The integration tests, as one binary (one link of the library instead of one per file):
//! each file is a module, named after what it tests; `common` holds shared helpers.

mod assemblies;
mod assembly_cli;
mod bad_input;
mod batch_cli;
mod bench_real_parts;
mod common;
mod contacts;
mod determinism;
mod dxf_cad;
mod dxf_cli;
mod dxf_drawings;
mod dxf_open;
mod exact_arcs;
mod exact_splines;
mod finished_output;
mod fuzz_regressions;
mod geojson_cli;
mod hostile;
mod junctions;
mod layers;
mod mesh_cli;
mod mesh_properties;
mod mutations;
mod never_silent;
mod one_call;
mod one_path;
mod plot_cli;
mod polygon_cli;
mod polygon_properties;
mod read_path;
mod repair_rule;
mod report_snapshots;
mod shape_cli;
mod shared_vertex;
mod shell_cli;
#[cfg(feature = "step")]
mod step_cli;
mod stl_fast;
mod threemf;
mod touching_parts;
mod typed_errors;
#[cfg(feature = "union")]
mod union;
mod units_cli;
