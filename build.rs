//! Builds the C++ shims: `src/io/step.cpp` (and `src/io/green.cpp`, its integrator for
//! B-spline faces) with the `step` feature, `src/union/cgal.cpp` with `union`; nothing
//! otherwise.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "step")]
    shim();
    #[cfg(feature = "union")]
    union();
}

/// Compiles `src/union/cgal.cpp` against the system's CGAL (headers only) and links the
/// GMP and MPFR libraries its exact kernel uses.
#[cfg(feature = "union")]
fn union() {
    println!("cargo:rerun-if-changed=src/union/cgal.cpp");
    if !std::path::Path::new("/usr/include/CGAL/Surface_mesh.h").exists()
        && std::env::var_os("CGAL_INCLUDE_DIR").is_none()
    {
        println!(
            "cargo:warning=CGAL headers not found: install them (Debian: apt-get install \
             libcgal-dev) or set CGAL_INCLUDE_DIR"
        );
    }
    println!("cargo:rerun-if-env-changed=CGAL_INCLUDE_DIR");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("src/union/cgal.cpp")
        .flag_if_supported("-std=c++17")
        // CGAL's interval arithmetic needs the compiler to respect the rounding mode.
        .flag_if_supported("-frounding-math")
        .warnings(false)
        // Optimised in every profile: exact corefinement at -O0 is many times slower.
        .opt_level(2);
    if let Ok(dir) = std::env::var("CGAL_INCLUDE_DIR") {
        build.include(dir);
    }
    build.compile("inertia_cgal_shim");
    for lib in ["mpfr", "gmp"] {
        println!("cargo:rustc-link-lib=dylib={lib}");
    }
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
