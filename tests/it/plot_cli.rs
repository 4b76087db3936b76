//! `--plot`: the SVG is written, well formed, and renders (with rsvg-convert, where installed).

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::Path;
use std::process::Command;

fn check_svg(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{text:.100}"
    );
    assert!(text.trim_end().ends_with("</svg>"));
    // Every element we open is closed (self-closing or paired), a cheap well-formedness check.
    for tag in ["g", "text"] {
        let opens =
            text.matches(&format!("<{tag}")).count() - text.matches(&format!("<{tag} />")).count();
        assert_eq!(
            opens,
            text.matches(&format!("</{tag}>")).count(),
            "<{tag}> not balanced"
        );
    }
    assert!(text.contains("I1") && text.contains("I2"));
    if Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok()
    {
        let png = path.with_extension("png");
        let out = Command::new("rsvg-convert")
            .arg(path)
            .arg("-o")
            .arg(&png)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "rsvg-convert: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(std::fs::metadata(&png).unwrap().len() > 1000);
    }
}

#[test]
fn polygon_and_mesh_plots() {
    let dir = std::env::temp_dir().join(format!("inertia-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("holed.svg");
    cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/square_with_hole.json",
            "--plot",
            p.to_str().unwrap(),
        ])
        .assert()
        .success();
    check_svg(&p);
    let m = dir.join("box.svg");
    cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/box_with_cavity.obj",
            "--plot",
            m.to_str().unwrap(),
        ])
        .assert()
        .success();
    check_svg(&m);
    assert!(std::fs::read_to_string(&m).unwrap().contains("I3"));
    // One picture per call.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/parcels.geojson",
            "--plot",
            p.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--plot draws one polygon"));
    std::fs::remove_dir_all(&dir).ok();
}
