//! Builds the C++ shim (`src/io/step.cpp`, and `src/io/green.cpp`, its integrator for
//! B-spline faces) with the `step` feature; nothing otherwise.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "step")]
    shim();
}

/// Compiles the shim (`cc`) and links the system's OpenCASCADE libraries it calls.
#[cfg(feature = "step")]
fn shim() {
    println!("cargo:rerun-if-changed=src/io/step.cpp");
    println!("cargo:rerun-if-changed=src/io/green.cpp");
    println!("cargo:rerun-if-changed=src/io/green.h");
    println!("cargo:rerun-if-env-changed=OCCT_INCLUDE_DIR");
    println!("cargo:rerun-if-env-changed=OCCT_LIB_DIR");
    let include = std::env::var("OCCT_INCLUDE_DIR")
        .unwrap_or_else(|_| "/usr/include/opencascade".to_string());
    if !std::path::Path::new(&include).join("Standard.hxx").exists() {
        println!(
            "cargo:warning=OpenCASCADE headers not found in {include}: install them \
             (Debian: apt-get install libocct-foundation-dev libocct-modeling-data-dev \
             libocct-modeling-algorithms-dev libocct-data-exchange-dev libocct-ocaf-dev) \
             or set OCCT_INCLUDE_DIR"
        );
    }
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("src/io/step.cpp")
        .file("src/io/green.cpp")
        .include(&include)
        .flag_if_supported("-std=c++17")
        // OpenCASCADE's headers use std::iterator, deprecated in C++17.
        .flag_if_supported("-Wno-deprecated-declarations")
        .warnings(false)
        // Optimised in every profile: the B-spline faces' integrator (green.cpp) evaluates
        // surfaces millions of times, ~5x slower at -O0 (the test profile's default).
        .opt_level(2);
    build.compile("inertia_occt_shim");
    if let Ok(dir) = std::env::var("OCCT_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    }
    for lib in [
        "TKXDESTEP",
        "TKXCAF",
        "TKLCAF",
        "TKCAF",
        "TKCDF",
        "TKSTEP",
        "TKSTEPBase",
        "TKSTEPAttr",
        "TKSTEP209",
        "TKIGES",
        "TKXSBase",
        "TKBO",
        "TKBool",
        "TKPrim",
        "TKMesh",
        "TKShHealing",
        "TKTopAlgo",
        "TKGeomAlgo",
        "TKGeomBase",
        "TKBRep",
        "TKG3d",
        "TKG2d",
        "TKMath",
        "TKernel",
    ] {
        println!("cargo:rustc-link-lib=dylib={lib}");
    }
    // cc links the C++ standard library for a cpp build.
}
