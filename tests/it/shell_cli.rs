//! Shell comforts: --version, --help with examples, completions, the manual page.

use assert_cmd::cargo::cargo_bin_cmd;

fn stdout(args: &[&str]) -> String {
    let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn version_help_completions_manpage() {
    assert!(stdout(&["--version"]).starts_with("inertia "));
    assert!(stdout(&["--help"]).contains("Examples:"));
    for sub in ["polygon", "mesh", "shape", "combine"] {
        assert!(stdout(&[sub, "--help"]).contains("Examples:"), "{sub}");
    }
    for shell in ["bash", "zsh", "fish"] {
        assert!(
            stdout(&["completions", shell]).contains("inertia"),
            "{shell}"
        );
    }
    let man = stdout(&["manpage"]);
    assert!(man.contains(".TH inertia 1"));
    assert!(man.contains("inertia\\-polygon(1)"));
    assert!(man.contains(".SH \"EXIT STATUS\"") && man.contains("\\-\\-method all"));
    // The pages the main one points to exist, each with its command's options.
    for (sub, option) in [
        ("polygon", "thickness"),
        ("mesh", "weld\\-tolerance"),
        ("shape", "max\\-input\\-bytes"),
        ("combine", "translate"),
        ("materials", "format"),
    ] {
        let page = stdout(&["manpage", sub]);
        assert!(page.contains(&format!(".TH inertia-{sub} 1")), "{sub}");
        assert!(page.contains(".SH \"EXIT STATUS\""), "{sub}");
        assert!(
            page.contains(&format!("\\fB\\-\\-{option}\\fR")),
            "{sub}: {option}"
        );
    }
    assert!(stdout(&["manpage", "shape"]).contains("inertia\\-shape\\-sphere(1)"));
    // The pages `shape`'s page points to exist too.
    let sphere = stdout(&["manpage", "shape", "sphere"]);
    assert!(
        sphere.contains(".TH inertia-shape-sphere 1") && sphere.contains("\\fB\\-\\-radius\\fR")
    );
    let out = assert_cmd::cargo::cargo_bin_cmd!("inertia")
        .args(["manpage", "polygon", "sphere"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn typos_keep_clap_s_suggestion_on_the_one_line() {
    for (args, tip) in [
        (
            vec!["mesh", "x.stl", "--densty", "2"],
            "a similar argument exists: '--density'",
        ),
        (
            vec!["meshh", "x.stl"],
            "a similar subcommand exists: 'mesh'",
        ),
    ] {
        let out = cargo_bin_cmd!("inertia").args(&args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(tip), "{err}");
    }
}

#[test]
fn completion_offers_material_names_for_material() {
    for shell in ["bash", "zsh", "fish"] {
        let text = stdout(&["completions", shell]);
        assert!(
            text.contains("aluminium") && text.contains("polycarbonate"),
            "{shell}"
        );
    }
}

/// Each command's help says what it reads: a shape reads no file, so its unit flags speak
/// of the dimensions given and `--units-override` is neither shown nor taken; a polygon's
/// `--material` needs the plate's thickness; `--method all` says its exit code.
#[test]
fn help_says_what_each_command_reads() {
    let shape = stdout(&["shape", "box", "--help"]);
    assert!(!shape.contains("--units-override"), "{shape}");
    assert!(
        shape.contains("The length unit of the dimensions given"),
        "{shape}"
    );
    let out = cargo_bin_cmd!("inertia")
        .args([
            "shape",
            "box",
            "--size",
            "1,1,1",
            "--units",
            "mm",
            "--units-override",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a shape reads no file"), "{err}");
    let polygon = stdout(&["polygon", "--help"]);
    assert!(polygon.contains("the plate's --thickness"), "{polygon}");
    let mesh = stdout(&["mesh", "--help"]);
    assert!(
        mesh.contains("exit code 1") && mesh.contains("STEP"),
        "{mesh}"
    );
    let materials = stdout(&["materials", "--help"]);
    assert!(materials.contains("a row per material"), "{materials}");
    // Every page ends with the exit codes, the CAD tessellations' among them.
    assert!(stdout(&["manpage", "mesh"]).contains("tessellation differs from its B-rep"));
}
