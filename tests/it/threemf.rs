//! 3MF as the core and production specifications define it, with packages written the way
//! real programs write them: relationships, prefixed namespaces, production parts in
//! `3D/Objects/`, required extensions, object types and structure faults.

use std::io::Write;
use std::path::{Path, PathBuf};

const CORE: &str = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02";
const PROD: &str = "http://schemas.microsoft.com/3dmanufacturing/production/2015/06";
const BEAM: &str = "http://schemas.microsoft.com/3dmanufacturing/beamlattice/2017/02";

/// The package relationships naming `root` as the 3D model.
fn rels(targets: &[&str]) -> String {
    let r: String = targets
        .iter()
        .enumerate()
        .map(|(k, t)| {
            format!(
                r#"<Relationship Target="{t}" Id="rel{k}" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>"#
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{r}</Relationships>"#
    )
}

/// A zip package of `parts` (name, text), deflated as slicers write them, with content
/// types; `_rels/.rels` is among the parts when the test gives it, else it names
/// `/3D/3dmodel.model`.
pub(super) fn package(parts: &[(&str, String)]) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("[Content_Types].xml", o).unwrap();
        z.write_all(br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>"#).unwrap();
        if !parts.iter().any(|(n, _)| *n == "_rels/.rels") {
            z.start_file("_rels/.rels", o).unwrap();
            z.write_all(rels(&["/3D/3dmodel.model"]).as_bytes())
                .unwrap();
        }
        for (name, text) in parts {
            z.start_file(*name, o).unwrap();
            z.write_all(text.as_bytes()).unwrap();
        }
        z.finish().unwrap();
    }
    buf.into_inner()
}

/// A box's `<vertices>` and `<triangles>`, low corner at `at`, in elements of `prefix`
/// (empty: the default namespace).
pub(super) fn box_mesh(prefix: &str, at: [f64; 3], size: [f64; 3]) -> String {
    let p = if prefix.is_empty() {
        String::new()
    } else {
        format!("{prefix}:")
    };
    let mut v = format!("<{p}vertices>");
    for k in 0..8 {
        let c = |i: usize| at[i] + if k >> i & 1 == 1 { size[i] } else { 0.0 };
        v += &format!(r#"<{p}vertex x="{}" y="{}" z="{}"/>"#, c(0), c(1), c(2));
    }
    v += &format!("</{p}vertices><{p}triangles>");
    for t in [
        [0, 2, 3],
        [0, 3, 1],
        [4, 5, 7],
        [4, 7, 6],
        [0, 1, 5],
        [0, 5, 4],
        [2, 6, 7],
        [2, 7, 3],
        [0, 4, 6],
        [0, 6, 2],
        [1, 3, 7],
        [1, 7, 5],
    ] {
        v += &format!(
            r#"<{p}triangle v1="{}" v2="{}" v3="{}"/>"#,
            t[0], t[1], t[2]
        );
    }
    v + &format!("</{p}triangles>")
}

/// A core model (default namespace, millimetres) of `resources` and `build`, with extra
/// attributes on `<model>`.
pub(super) fn model(attrs: &str, resources: &str, build: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<model unit="millimeter" xml:lang="en-US" xmlns="{CORE}" xmlns:p="{PROD}" {attrs}>
<resources>{resources}</resources>
{build}
</model>"#
    )
}

/// An object of `mesh` (a box), with extra attributes.
pub(super) fn object(id: u32, attrs: &str, mesh: &str) -> String {
    format!(r#"<object id="{id}" type="model" {attrs}><mesh>{mesh}</mesh></object>"#)
}

/// Writes `bytes` to a fresh file named `name`.
pub(super) fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("inertia-3mf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Runs inertia: exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::cargo::cargo_bin_cmd!("inertia")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The volume of each body of a 3MF (`--parts --json`), and the warnings.
fn volumes(path: &Path, extra: &[&str]) -> (Vec<f64>, String) {
    let mut args = vec![
        "mesh",
        path.to_str().unwrap(),
        "--parts",
        "--json",
        "--output-units",
        "mm",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let parts = v["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["volume"].as_f64().unwrap())
        .collect();
    (parts, err)
}

/// A refusal: exit 2, nothing on stdout, one line on stderr naming the file and holding
/// each of `words`.
fn refused(path: &Path, extra: &[&str], words: &[&str]) {
    let mut args = vec!["mesh", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(path.file_name().unwrap().to_str().unwrap()),
        "{err}"
    );
    for w in words {
        assert!(err.contains(w), "{err:?} lacks {w:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn a_component_in_another_part_is_that_parts_object() {
    // The root's object 1 is a 2 × 3 × 4 box (24); the component asks for object 1 of
    // /3D/other.model, a 5-cube (125): the answer is 125, not 24.
    let root = model(
        "",
        &format!(
            r#"{}<object id="2" type="model"><components><component p:path="/3D/other.model" objectid="1"/></components></object>"#,
            object(1, "", &box_mesh("", [0.0; 3], [2.0, 3.0, 4.0]))
        ),
        r#"<build><item objectid="2"/></build>"#,
    );
    let other = model(
        "",
        &object(1, "", &box_mesh("", [0.0; 3], [5.0; 3])),
        "<build/>",
    );
    let p = file(
        "other_part.3mf",
        &package(&[("3D/3dmodel.model", root), ("3D/other.model", other)]),
    );
    let (v, _) = volumes(&p, &[]);
    assert_eq!(v.len(), 1);
    assert!(close(v[0], 125.0), "{v:?}");
    // An item may name its part too.
    let root = model(
        "",
        &object(1, "", &box_mesh("", [0.0; 3], [2.0, 3.0, 4.0])),
        r#"<build><item objectid="1" p:path="/3D/other.model" transform="1 0 0 0 1 0 0 0 1 10 0 0"/></build>"#,
    );
    let other = model(
        "",
        &object(1, "", &box_mesh("", [0.0; 3], [5.0; 3])),
        "<build/>",
    );
    let p = file(
        "item_part.3mf",
        &package(&[("3D/3dmodel.model", root), ("3D/other.model", other)]),
    );
    assert!(close(volumes(&p, &[]).0[0], 125.0));
}

/// A project as Bambu Studio and OrcaSlicer write one: root objects of components only,
/// each pointing into its own part under `3D/Objects/`, whose ids start again at 1.
fn slicer_project(second_unit: &str) -> Vec<u8> {
    let bambu =
        r#"xmlns:BambuStudio="http://schemas.bambulab.com/package/2021" requiredextensions="p""#;
    let root = model(
        bambu,
        r#"<object id="2" p:UUID="00000001-61cb-4c03-9d28-80fed5dfa1dc" type="model"><components><component p:path="/3D/Objects/object_1.model" objectid="1" p:UUID="00010000-b206-40ff-9872-83e8017abed1" transform="1 0 0 0 1 0 0 0 1 0 0 0"/></components></object>
<object id="4" p:UUID="00000002-61cb-4c03-9d28-80fed5dfa1dc" type="model"><components><component p:path="/3D/Objects/object_2.model" objectid="1" p:UUID="00020000-b206-40ff-9872-83e8017abed1" transform="1 0 0 0 1 0 0 0 1 0 0 0"/></components></object>"#,
        r#"<build p:UUID="2c7c17d8-22b5-4d84-8835-1976022ea369"><item objectid="2" p:UUID="00000002-b1ec-4553-aec9-835e5b724bb4" transform="1 0 0 0 1 0 0 0 1 100 100 0" printable="1"/><item objectid="4" p:UUID="00000004-b1ec-4553-aec9-835e5b724bb4" transform="1 0 0 0 1 0 0 0 1 150 100 0" printable="1"/></build>"#,
    );
    let part = |unit: &str, mesh: String| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<model unit="{unit}" xml:lang="en-US" xmlns="{CORE}" xmlns:BambuStudio="http://schemas.bambulab.com/package/2021" xmlns:p="{PROD}" requiredextensions="p">
 <metadata name="BambuStudio:3mfVersion">1</metadata>
 <resources>
  <object id="1" p:UUID="00010000-81cb-4c03-9d28-80fed5dfa1dc" type="model">
   <mesh>{mesh}</mesh>
  </object>
 </resources>
 <build/>
</model>"#
        )
    };
    let model_rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/Objects/object_1.model" Id="rel-1" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/><Relationship Target="/3D/Objects/object_2.model" Id="rel-2" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>"#;
    package(&[
        ("3D/3dmodel.model", root),
        ("3D/_rels/3dmodel.model.rels", model_rels.to_string()),
        (
            "3D/Objects/object_1.model",
            part("millimeter", box_mesh("", [-10.0; 3], [20.0; 3])),
        ),
        (
            "3D/Objects/object_2.model",
            part(second_unit, box_mesh("", [0.0; 3], [1.0, 2.0, 3.0])),
        ),
        ("Metadata/project_settings.config", "{}".to_string()),
    ])
}

#[test]
fn a_slicer_project_with_objects_in_their_own_parts_is_answered() {
    let p = file("bambu.3mf", &slicer_project("millimeter"));
    let (v, err) = volumes(&p, &[]);
    assert!(close(v[0], 8000.0) && close(v[1], 6.0), "{v:?}");
    assert!(!err.contains("warning"), "{err}");
    // A part in centimetres is read in its own unit: 1 × 2 × 3 cm = 6000 mm³.
    let p = file("bambu_cm.3mf", &slicer_project("centimeter"));
    let (v, _) = volumes(&p, &[]);
    assert!(close(v[1], 6000.0), "{v:?}");
}

#[test]
fn core_elements_count_by_namespace_not_prefix() {
    // The core namespace bound to a prefix, as some writers do.
    let m = format!(
        r#"<?xml version="1.0"?><m:model xmlns:m="{CORE}" unit="millimeter"><m:resources><m:object id="1" type="model"><m:mesh>{}</m:mesh></m:object></m:resources><m:build><m:item objectid="1"/></m:build></m:model>"#,
        box_mesh("m", [0.0; 3], [2.0, 3.0, 4.0])
    );
    let p = file("prefixed.3mf", &package(&[("3D/3dmodel.model", m)]));
    assert!(close(volumes(&p, &[]).0[0], 24.0));
    // Foreign elements and attributes are not the core's: a transform in another
    // namespace, a vertex and a triangle of another namespace among the core ones, an
    // object of another namespace with the same id.
    let mesh = box_mesh("", [0.0; 3], [2.0, 3.0, 4.0])
        .replacen(
            "<vertices>",
            r#"<vertices><v:vertex x="9" y="9" z="9"/>"#,
            1,
        )
        .replacen(
            "<triangles>",
            r#"<triangles><v:triangle v1="0" v2="1" v3="2"/>"#,
            1,
        );
    let m = model(
        r#"xmlns:v="http://example.com/vendor/2024""#,
        &format!(
            r#"<v:object id="1"><mesh>{}</mesh></v:object>{}"#,
            box_mesh("", [0.0; 3], [9.0; 3]),
            object(1, r#"v:type="support""#, &mesh)
        ),
        r#"<build><item objectid="1" v:transform="2 0 0 0 2 0 0 0 2 0 0 0"/><v:item objectid="1"/></build>"#,
    );
    let p = file("foreign.3mf", &package(&[("3D/3dmodel.model", m)]));
    let (v, _) = volumes(&p, &[]);
    assert_eq!(v.len(), 1);
    assert!(close(v[0], 24.0), "{v:?}");
}

#[test]
fn the_unit_is_the_model_elements_not_a_comments() {
    // A comment before the root holding `<model unit="inch">`: the model is in millimetres.
    let m = model(
        "",
        &object(1, "", &box_mesh("", [0.0; 3], [10.0; 3])),
        r#"<build><item objectid="1"/></build>"#,
    )
    .replacen(
        "?>",
        r#"?><!-- exported from <model unit="inch"> by hand --><?app x="<model unit='foot'>"?>"#,
        1,
    );
    let p = file("commented.3mf", &package(&[("3D/3dmodel.model", m)]));
    let (code, out, err) = run(&["mesh", p.to_str().unwrap(), "--material", "steel", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mass = v["mass"].as_f64().unwrap();
    assert!(close(mass, 1e-6 * 7850.0), "{mass}");
}

#[test]
fn required_extensions_not_read_are_refused_by_name() {
    let body = object(1, "", &box_mesh("", [0.0; 3], [1.0; 3]));
    let build = r#"<build><item objectid="1"/></build>"#;
    let case = |name: &str, attrs: &str, words: &[&str]| {
        let p = file(
            name,
            &package(&[("3D/3dmodel.model", model(attrs, &body, build))]),
        );
        refused(&p, &[], words);
    };
    case(
        "req_beams.3mf",
        &format!(r#"xmlns:b="{BEAM}" requiredextensions="b""#),
        &["requires the beam lattice extension", "(\"b\")"],
    );
    case(
        "req_displacement.3mf",
        r#"xmlns:d="http://schemas.3mf.io/3dmanufacturing/displacement/2023/10" requiredextensions="d""#,
        &["requires the displacement extension"],
    );
    case(
        "req_unknown.3mf",
        r#"xmlns:q="http://example.com/q/2030" requiredextensions="p q""#,
        &["requires the extension http://example.com/q/2030"],
    );
    case(
        "req_undeclared.3mf",
        r#"requiredextensions="zz""#,
        &["requiredextensions names \"zz\""],
    );
    // Materials and production are read (their content cannot change a mass property).
    let p = file(
        "req_read.3mf",
        &package(&[(
            "3D/3dmodel.model",
            model(
                r#"xmlns:m="http://schemas.microsoft.com/3dmanufacturing/material/2015/02" requiredextensions="m p""#,
                &format!(
                    r##"<m:basematerials id="5"><m:base name="PLA" displaycolor="#FF0000"/></m:basematerials>{body}"##
                ),
                build,
            ),
        )]),
    );
    assert!(close(volumes(&p, &[]).0[0], 1.0));
}

#[test]
fn optional_geometry_that_carries_mass_is_refused_not_dropped() {
    // A beam lattice beside the mesh, the extension not required.
    let mesh = box_mesh("", [0.0; 3], [1.0; 3]).replace(
        "</triangles>",
        r#"</triangles><b:beamlattice radius="1" minlength="0.0001"><b:beams><b:beam v1="0" v2="7"/><b:beam v1="1" v2="6"/></b:beams></b:beamlattice>"#,
    );
    let m = model(
        &format!(r#"xmlns:b="{BEAM}""#),
        &object(1, "", &mesh),
        r#"<build><item objectid="1"/></build>"#,
    );
    let p = file("opt_beams.3mf", &package(&[("3D/3dmodel.model", m)]));
    refused(&p, &[], &["object 1", "beam lattice of 2 beam(s)"]);
    // A displacement mesh in place of a mesh.
    let m = model(
        r#"xmlns:d="http://schemas.3mf.io/3dmanufacturing/displacement/2022/07""#,
        r#"<object id="1" type="model"><d:displacementmesh><d:vertices/></d:displacementmesh></object>"#,
        r#"<build><item objectid="1"/></build>"#,
    );
    let p = file("opt_displacement.3mf", &package(&[("3D/3dmodel.model", m)]));
    refused(&p, &[], &["object 1", "d:displacementmesh"]);
}

#[test]
fn support_and_other_objects_are_left_out_and_counted() {
    let resources = [
        object(1, "", &box_mesh("", [0.0; 3], [1.0; 3])),
        object(2, "", &box_mesh("", [5.0, 0.0, 0.0], [2.0, 1.0, 1.0]))
            .replace(r#"type="model""#, r#"type="solidsupport""#),
        object(3, "", &box_mesh("", [10.0, 0.0, 0.0], [3.0, 1.0, 1.0]))
            .replace(r#"type="model""#, r#"type="support""#),
        object(4, "", &box_mesh("", [20.0, 0.0, 0.0], [4.0, 1.0, 1.0]))
            .replace(r#"type="model""#, r#"type="other""#),
        // An open surface: a box missing its top.
        object(5, "", &box_mesh("", [30.0, 0.0, 0.0], [1.0; 3]))
            .replace(
                r#"<triangle v1="4" v2="5" v3="7"/><triangle v1="4" v2="7" v3="6"/>"#,
                "",
            )
            .replace(r#"type="model""#, r#"type="surface""#),
    ]
    .concat();
    let build = r#"<build><item objectid="1"/><item objectid="2"/><item objectid="3"/><item objectid="4"/><item objectid="5"/><item objectid="3" transform="1 0 0 0 1 0 0 0 1 0 5 0"/></build>"#;
    let p = file(
        "types.3mf",
        &package(&[("3D/3dmodel.model", model("", &resources, build))]),
    );
    let (v, err) = volumes(&p, &[]);
    // A `solidsupport` is a support: removed after building, left out with the others.
    assert!(v.len() == 1 && close(v[0], 1.0), "{v:?}");
    assert!(
        err.contains("3 build items of type support or solidsupport left out"),
        "{err}"
    );
    assert!(err.contains("1 build item of type other left out"), "{err}");
    assert!(
        err.contains("1 build item of type surface left out"),
        "{err}"
    );
    // The library's note names no flag; the command line adds the one that keeps it.
    assert!(
        err.contains("an open surface has no volume (--shell integrates it as a wall)"),
        "{err}"
    );
    // The counts are in the result too: the one body's report.
    let (code, out, err) = run(&["mesh", p.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let want = serde_json::json!({"support": 3, "other": 1, "surface": 1});
    assert_eq!(v["left_out"], want, "{v}");
    assert!(v.get("parts").is_none(), "{v}");
    // With --shell the surface is a body (a wall), and is not left out.
    let (code, out, err) = run(&["mesh", p.to_str().unwrap(), "--json", "--shell", "0.01"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["parts"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v["total"]["left_out"]["surface"], 0, "{v}");
    // Only supports: nothing to answer.
    let build = r#"<build><item objectid="3"/></build>"#;
    let p = file(
        "only_support.3mf",
        &package(&[("3D/3dmodel.model", model("", &resources, build))]),
    );
    refused(
        &p,
        &[],
        &["places no body", "support or solidsupport left out"],
    );
}

#[test]
fn structure_faults_are_refused() {
    let cube = |id: u32| object(id, "", &box_mesh("", [0.0; 3], [1.0; 3]));
    let item = r#"<build><item objectid="1"/></build>"#;
    let case = |name: &str, parts: Vec<(&str, String)>, words: &[&str]| {
        refused(&file(name, &package(&parts)), &[], words);
    };
    case(
        "dup_ids.3mf",
        vec![(
            "3D/3dmodel.model",
            model("", &format!("{}{}", cube(1), cube(1)), item),
        )],
        &["object 1", "two objects have this id"],
    );
    case(
        "mesh_and_components.3mf",
        vec![(
            "3D/3dmodel.model",
            model(
                "",
                &format!(
                    r#"{}<object id="2"><mesh>{}</mesh><components><component objectid="1"/></components></object>"#,
                    cube(1),
                    box_mesh("", [0.0; 3], [1.0; 3])
                ),
                r#"<build><item objectid="2"/></build>"#,
            ),
        )],
        &["object 2", "both a mesh and components"],
    );
    case(
        "no_build.3mf",
        vec![("3D/3dmodel.model", model("", &cube(1), ""))],
        &["no <build>"],
    );
    case(
        "two_roots.3mf",
        vec![
            ("_rels/.rels", rels(&["/3D/3dmodel.model", "/3D/b.model"])),
            ("3D/3dmodel.model", model("", &cube(1), item)),
            ("3D/b.model", model("", &cube(1), item)),
        ],
        &["_rels/.rels", "2 relationships name a 3D model part"],
    );
    case(
        "missing_root.3mf",
        vec![
            ("_rels/.rels", rels(&["/3D/elsewhere.model"])),
            ("3D/3dmodel.model", model("", &cube(1), item)),
        ],
        &["\"/3D/elsewhere.model\", which is not in the archive"],
    );
    case(
        "missing_item_object.3mf",
        vec![(
            "3D/3dmodel.model",
            model("", &cube(1), r#"<build><item objectid="7"/></build>"#),
        )],
        &["build item", "missing object \"7\""],
    );
    case(
        "missing_part.3mf",
        vec![(
            "3D/3dmodel.model",
            model(
                "",
                r#"<object id="2"><components><component p:path="/3D/Objects/gone.model" objectid="1"/></components></object>"#,
                r#"<build><item objectid="2"/></build>"#,
            ),
        )],
        &["p:path \"/3D/Objects/gone.model\"", "not in the archive"],
    );
    case(
        "bad_type.3mf",
        vec![(
            "3D/3dmodel.model",
            model("", &cube(1).replace("\"model\"", "\"solid\""), item),
        )],
        &["type \"solid\""],
    );
    case(
        "not_core_root.3mf",
        vec![(
            "3D/3dmodel.model",
            model("", &cube(1), item).replace(CORE, "http://example.com/not-3mf"),
        )],
        &["not a 3MF core <model>"],
    );
    case(
        "cycle_across_parts.3mf",
        vec![
            (
                "3D/3dmodel.model",
                model(
                    "",
                    r#"<object id="1"><components><component p:path="/3D/a.model" objectid="1"/></components></object>"#,
                    item,
                ),
            ),
            (
                "3D/a.model",
                model(
                    "",
                    r#"<object id="1"><components><component p:path="/3D/3dmodel.model" objectid="1"/></components></object>"#,
                    "<build/>",
                ),
            ),
        ],
        &["nest more than 32 deep"],
    );
}

#[test]
fn build_items_that_overlap_are_refused_or_summed() {
    let cube = object(1, r#"name="cube""#, &box_mesh("", [0.0; 3], [1.0; 3]));
    let at =
        |x: f64, y: f64| format!(r#"<item objectid="1" transform="1 0 0 0 1 0 0 0 1 {x} {y} 0"/>"#);
    let case = |name: &str, items: &[String]| {
        file(
            name,
            &package(&[(
                "3D/3dmodel.model",
                model("", &cube, &format!("<build>{}</build>", items.concat())),
            )]),
        )
    };
    // The same object placed twice at one spot; two cubes overlapping by half.
    let twice = case("twice.3mf", &[at(0.0, 0.0), at(0.0, 0.0)]);
    refused(
        &twice,
        &[],
        &[
            "build items 1 (cube) and 2 (cube)",
            "union",
            "--overlap sum",
        ],
    );
    let half = case("half.3mf", &[at(0.0, 0.0), at(0.5, 0.0)]);
    refused(
        &half,
        &[],
        &["build items 1 (cube) and 2 (cube)", "overlap"],
    );
    // With --overlap sum they are added, with a warning: 2, not the union's 1.5.
    let (v, err) = volumes(&half, &["--overlap", "sum"]);
    assert!(close(v[0] + v[1], 2.0), "{v:?}");
    assert!(err.contains("build items 1 (cube) and 2 (cube)"), "{err}");
    // A cube inside a bigger one's box, far apart, and side by side: the first refused,
    // the others answered.
    let inside = file(
        "inside.3mf",
        &package(&[(
            "3D/3dmodel.model",
            model(
                "",
                &format!(
                    "{cube}{}",
                    object(2, r#"name="big""#, &box_mesh("", [-1.0; 3], [3.0; 3]))
                ),
                r#"<build><item objectid="2"/><item objectid="1"/></build>"#,
            ),
        )]),
    );
    refused(&inside, &[], &["build items 1 (big) and 2 (cube)"]);
    let apart = case("apart.3mf", &[at(0.0, 0.0), at(3.0, 0.0), at(0.0, 3.0)]);
    assert_eq!(volumes(&apart, &[]).0.len(), 3);
    // Thin walls (--shell) are surfaces: items are not checked against each other.
    let open_box = object(1, r#"name="tray""#, &box_mesh("", [0.0; 3], [1.0; 3]))
        .replace(
            r#"<triangle v1="4" v2="5" v3="7"/><triangle v1="4" v2="7" v3="6"/>"#,
            "",
        )
        .replace(r#"type="model""#, r#"type="surface""#);
    let trays = file(
        "trays.3mf",
        &package(&[(
            "3D/3dmodel.model",
            model(
                "",
                &open_box,
                &format!("<build>{}{}</build>", at(0.0, 0.0), at(0.5, 0.0)),
            ),
        )]),
    );
    assert_eq!(volumes(&trays, &["--shell", "0.01"]).0.len(), 2);
    let side_by_side = case("side_by_side.3mf", &[at(0.0, 0.0), at(1.0, 0.0)]);
    let (v, err) = volumes(&side_by_side, &[]);
    assert!(close(v[0] + v[1], 2.0), "{v:?} {err}");
}

#[test]
fn a_batch_mixing_stated_and_unstated_units_needs_units() {
    let threemf = PathBuf::from("fixtures/mesh/two_parts.3mf");
    let stl = "fixtures/mesh/right_tetrahedron.stl";
    refused(
        &threemf,
        &[stl],
        &[
            "two_parts.3mf states its unit as mm",
            "right_tetrahedron.stl states none",
            "--units",
        ],
    );
    // Saying what the others are in answers it: 10 + 1 (the 3MF) + 10 (the STL) mm³.
    let (code, out, err) = run(&[
        "mesh",
        "fixtures/mesh/two_parts.3mf",
        stl,
        "--units",
        "mm",
        "--output-units",
        "mm",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(close(v["total"]["volume"].as_f64().unwrap(), 21.0), "{v}");
    // A 3MF on standard input states its unit as a file does (it is read once); an STL
    // there states none.
    let stdin = |bytes: Vec<u8>, extra: &[&str]| {
        assert_cmd::cargo::cargo_bin_cmd!("inertia")
            .args(["mesh", "fixtures/mesh/two_parts.3mf", "-", "--json"])
            .args(extra)
            .write_stdin(bytes)
            .output()
            .map(|o| {
                (
                    o.status.code().unwrap_or(-1),
                    String::from_utf8_lossy(&o.stdout).into_owned(),
                    String::from_utf8_lossy(&o.stderr).into_owned(),
                )
            })
            .unwrap()
    };
    let (code, out, err) = stdin(
        std::fs::read("fixtures/mesh/two_parts.3mf").unwrap(),
        &["--input-format", "3mf"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"]["units"]["length"], "m", "{v}");
    let (code, out, err) = stdin(
        std::fs::read("fixtures/mesh/right_tetrahedron.stl").unwrap(),
        &[],
    );
    assert!(code == 2 && out.is_empty(), "{err}");
    assert!(err.contains("standard input is read without one"), "{err}");
}

#[test]
fn a_model_in_the_0_93_draft_namespace_is_read_as_core() {
    // lib3mf reads the 2013/01 draft's namespace, which early exporters wrote.
    let draft = "http://schemas.microsoft.com/3dmanufacturing/2013/01";
    let m = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><model unit="millimeter" xmlns="{draft}"><resources><object id="1" type="model"><mesh>{}</mesh></object></resources><build><item objectid="1"/></build></model>"#,
        box_mesh("", [1.0, 2.0, 3.0], [2.0, 3.0, 4.0])
    );
    let p = file("draft.3mf", &package(&[("3D/3dmodel.model", m)]));
    let (v, err) = volumes(&p, &[]);
    assert_eq!(v, [24.0], "{err}");
}

/// A package placing one unit cube `n` times, item `k` moved `k * step` along x (`step` 0:
/// all at one spot).
fn placed(n: usize, step: f64) -> Vec<u8> {
    let cube = object(1, r#"name="cube""#, &box_mesh("", [0.0; 3], [1.0; 3]));
    let items: String = (0..n)
        .map(|k| {
            format!(
                r#"<item objectid="1" transform="1 0 0 0 1 0 0 0 1 {} 0 0"/>"#,
                k as f64 * step
            )
        })
        .collect();
    package(&[(
        "3D/3dmodel.model",
        model("", &cube, &format!("<build>{items}</build>")),
    )])
}

/// The length of a one-line message beside the path it names.
fn beside_path(err: &str, path: &Path) -> usize {
    err.len().saturating_sub(path.to_str().unwrap().len())
}

#[test]
fn repeated_placements_are_refused_naming_the_first_two() {
    // One cube placed thousands of times at one spot, or each 1e-4 further along x: every
    // triangle lies on thousands of others. Checked as one group, its pairs grew with the
    // square of the items and the message listed every item (2,000 at one spot: 13–19 s
    // and 79 kB; 1e-4 apart: an abort on a 2.4 GB allocation). The first two are refused,
    // in the line two items get; with --overlap sum all are added, with one warning.
    for (name, n, step) in [
        ("spot_2000.3mf", 2000, 0.0),
        ("apart_2000.3mf", 2000, 1e-4),
        ("spot_20000.3mf", 20000, 0.0),
        ("apart_20000.3mf", 20000, 1e-4),
    ] {
        let path = file(name, &placed(n, step));
        let words = [
            "build items 1 (cube) and 2 (cube)",
            "item 2's from 13",
            "triangle 1 and triangle 13 coincide",
        ];
        refused(&path, &[], &words);
        let (_, _, err) = run(&["mesh", path.to_str().unwrap()]);
        assert!(beside_path(&err, &path) < 450, "{} bytes: {err}", err.len());
        let (v, err) = volumes(&path, &["--overlap", "sum"]);
        assert_eq!(v.len(), n);
        let total: f64 = v.iter().sum();
        assert!(close(total, n as f64), "{name}: {total}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("{}, of {n} whose boxes meet: ", words[0]))
                && err.contains("summed as asked"),
            "{err}"
        );
        assert!(beside_path(&err, &path) < 450, "{} bytes: {err}", err.len());
    }
}

#[test]
fn near_copies_that_do_not_overlap_are_answered() {
    // A comb of eight slabs 1/8 thick, 1/4 apart (volume 1); a copy 1/8 along x fills its
    // gaps, touching every slab: a repeated placement, checked alone, that passes and is
    // its whole group. A third copy touching the second's end joins the group, checked as
    // one; a third 1/4 along lies on the first. A copy 1/16 along: refused at once.
    let (mut vertices, mut triangles) = (String::new(), String::new());
    for b in 0..8 {
        let m = box_mesh("", [b as f64 / 4.0, 0.0, 0.0], [0.125, 1.0, 1.0]);
        let (v, t) = m.split_once("</vertices>").unwrap();
        vertices += v.trim_start_matches("<vertices>");
        // The quoted values of the triangles are their vertex numbers.
        let t = t
            .trim_start_matches("<triangles>")
            .trim_end_matches("</triangles>")
            .split('"')
            .enumerate()
            .map(|(i, p)| match i % 2 {
                1 => (p.parse::<usize>().unwrap() + 8 * b).to_string(),
                _ => p.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\"");
        triangles += &t;
    }
    let comb = object(
        1,
        r#"name="comb""#,
        &format!("<vertices>{vertices}</vertices><triangles>{triangles}</triangles>"),
    );
    let at = |x: f64| format!(r#"<item objectid="1" transform="1 0 0 0 1 0 0 0 1 {x} 0 0"/>"#);
    let case = |name: &str, xs: &[f64]| {
        let items: String = xs.iter().map(|&x| at(x)).collect();
        file(
            name,
            &package(&[(
                "3D/3dmodel.model",
                model("", &comb, &format!("<build>{items}</build>")),
            )]),
        )
    };
    let (v, err) = volumes(&case("combs.3mf", &[0.0, 0.125]), &[]);
    assert_eq!(v, [1.0, 1.0], "{err}");
    let (v, err) = volumes(&case("combs_three.3mf", &[0.0, 0.125, 2.0]), &[]);
    assert_eq!(v, [1.0, 1.0, 1.0], "{err}");
    refused(
        &case("combs_on_combs.3mf", &[0.0, 0.125, 0.25]),
        &[],
        &["build items 1 (comb), 2 (comb), 3 (comb)"],
    );
    refused(
        &case("combs_in_combs.3mf", &[0.0, 0.0625]),
        &[],
        &["build items 1 (comb) and 2 (comb)"],
    );
}

#[test]
fn many_objects_at_one_spot_are_named_by_the_two_that_overlap() {
    // Twelve objects, each its own cube, all at one spot: not one object's placements, so
    // checked as one group; the message names the two items whose triangles it gives and
    // how many meet, not all twelve.
    let objects: String = (1..=12)
        .map(|k| {
            object(
                k,
                &format!(r#"name="cube {k}""#),
                &box_mesh("", [0.0; 3], [1.0; 3]),
            )
        })
        .collect();
    let items: String = (1..=12)
        .map(|k| format!(r#"<item objectid="{k}"/>"#))
        .collect();
    let path = file(
        "twelve.3mf",
        &package(&[(
            "3D/3dmodel.model",
            model("", &objects, &format!("<build>{items}</build>")),
        )]),
    );
    refused(
        &path,
        &[],
        &[
            "build items 1 (cube 1) and 2 (cube 2), of 12 whose boxes meet",
            "item 2's from 13",
        ],
    );
    let (_, _, err) = run(&["mesh", path.to_str().unwrap()]);
    assert!(!err.contains("cube 3"), "{err}");
}
