//! Output that looks finished (issue 47, item 5), through the binary: one notation per
//! column, no `-0`, rounding noise as 0 in tables, CSV numbers as JSON's, the unit of
//! second moments of area, plot legends to 6 digits in one unit notation, semicolon and
//! tab CSV input, missing flags named, `--help` examples that run anywhere.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = cargo_bin_cmd!("inertia")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("inertia-finished-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A box of 0.3 × 0.7 × 1.1 tessellated finely: its products are 0 exactly, computed as
/// noise of 1e-18 beside moments of 1e-2.
fn noisy_box() -> PathBuf {
    let path = dir("box").join("b.stl");
    ok(
        &[
            "shape",
            "box",
            "--size",
            "0.3,0.7,1.1",
            "--segments",
            "3",
            "--mesh-out",
            path.to_str().unwrap(),
        ],
        "",
    );
    path
}

/// The numbers of a table's lines, as written.
fn cells(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || "[](),".contains(c))
        .filter(|w| w.parse::<f64>().is_ok())
        .collect()
}

#[test]
fn tables_write_one_notation_per_tensor_no_minus_zero_and_noise_as_zero() {
    // The tetrahedron in millimetres: components from 1.2e-10 to 1.2e-11, all in exponent
    // form (the issue saw 0.0000326093050423 beside 8.71172932331e-6).
    let t = ok(
        &[
            "mesh",
            "fixtures/mesh/right_tetrahedron.stl",
            "--units",
            "mm",
        ],
        "",
    );
    let tensor: Vec<&str> = t
        .lines()
        .filter(|l| l.trim_start().starts_with(['x', 'y', 'z']) && l.contains('['))
        .chain(t.lines().filter(|l| l.contains("principal moments")))
        .flat_map(cells)
        .collect();
    assert_eq!(tensor.len(), 12, "{t}");
    assert!(tensor.iter().all(|c| c.contains('e')), "{tensor:?}");
    // The box: its products and centroid are rounding noise, printed as 0, never -0.
    let b = noisy_box();
    let t = ok(&["mesh", b.to_str().unwrap()], "");
    assert!(!t.contains("e-1") && !t.contains("e-2"), "{t}");
    let all = ok(&["mesh", b.to_str().unwrap(), "--method", "all"], "");
    for line in all.lines().skip(2).filter(|l| l.starts_with("  ")) {
        // The methods' columns (the spread, relative, may be 1e-17).
        let values = &cells(line)[..2];
        assert!(values.iter().all(|c| !c.contains("e-")), "{line}");
    }
    for c in t.lines().chain(all.lines()).flat_map(cells) {
        assert_ne!(c, "-0", "{t}{all}");
    }
    let xy = all
        .lines()
        .find(|l| l.contains("inertia_tensor.xy"))
        .unwrap();
    assert_eq!(&cells(xy)[..2], ["0", "0"], "{all}");
    // Each method's column in one notation.
    let far = "[[1000.1,2000.3],[1001.3,2000.3],[1001.3,2002.7],[1000.1,2002.7]]";
    let all = ok(&["polygon", "-", "--units", "mm", "--method", "all"], far);
    let rows: Vec<Vec<&str>> = all
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("exact"))
        .map(|l| cells(l))
        .collect();
    for m in 0..3 {
        let column: Vec<&str> = rows.iter().map(|r| r[m]).filter(|c| *c != "0").collect();
        let exp = column.iter().filter(|c| c.contains('e')).count();
        assert!(
            exp == 0 || exp == column.len(),
            "column {m}: {column:?}\n{all}"
        );
    }
}

/// Every number of a CSV row, by column name.
fn csv_rows(text: &str) -> Vec<Vec<(String, String)>> {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn csv_writes_the_numbers_json_writes() {
    let b = noisy_box();
    let path = b.to_str().unwrap();
    let csv = ok(&["mesh", path, "--units", "mm", "--format", "csv"], "");
    let json: Value =
        serde_json::from_str(&ok(&["mesh", path, "--units", "mm", "--json"], "")).unwrap();
    let row = &csv_rows(&csv)[0];
    let cell = |name: &str| &row.iter().find(|(k, _)| k == name).unwrap().1;
    let t = &json["inertia_tensor"];
    for (name, v) in [
        ("volume", &json["volume"]),
        ("mass", &json["mass"]),
        ("centroid_x", &json["centroid"][0]),
        ("ixx", &t[0][0]),
        ("ixy", &t[0][1]),
        ("surface_area", &json["surface_area"]),
    ] {
        let c = cell(name);
        // The same f64, written in at most 17 significant digits (no long fixed decimals).
        assert_eq!(c.parse::<f64>().unwrap(), v.as_f64().unwrap(), "{name}");
        let digits = c
            .split(['e', 'E'])
            .next()
            .unwrap()
            .chars()
            .filter(char::is_ascii_digit)
            .skip_while(|d| *d == '0')
            .count();
        assert!(digits <= 17, "{name} = {c}");
        assert!(
            !c.starts_with("-0") || c.parse::<f64>().unwrap() != 0.0,
            "{name} = {c}"
        );
    }
    assert!(cell("ixy").contains('e'), "{}", cell("ixy"));
    assert!(!csv.contains("0.00000000"), "{csv}");
}

#[test]
fn second_moments_of_area_carry_their_unit() {
    let square = "[[0,0],[10,0],[10,10],[0,10]]";
    let json: Value = serde_json::from_str(&ok(
        &[
            "polygon",
            "-",
            "--units",
            "mm",
            "--output-units",
            "mm",
            "--json",
        ],
        square,
    ))
    .unwrap();
    assert_eq!(json["units"]["area_moment"], "mm^4");
    let ixx = json["area_moments"]["ixx"].as_f64().unwrap();
    assert!((ixx - 1e4 / 12.0).abs() < 1e-9, "{ixx}"); // b h³ / 12 in mm⁴
    let json: Value =
        serde_json::from_str(&ok(&["polygon", "-", "--units", "mm", "--json"], square)).unwrap();
    assert_eq!(json["units"]["area_moment"], "m^4");
    // A mesh has no second moments of area.
    let mesh: Value = serde_json::from_str(&ok(
        &[
            "mesh",
            "fixtures/mesh/right_tetrahedron.stl",
            "--units",
            "mm",
            "--json",
        ],
        "",
    ))
    .unwrap();
    assert!(mesh["units"].get("area_moment").is_none());
    let table = ok(
        &["polygon", "-", "--units", "mm", "--output-units", "mm"],
        square,
    );
    assert!(
        table.contains("second moments of area (geometry alone, mm^4)"),
        "{table}"
    );
    assert!(table.contains("area moments mm^4"), "{table}");
}

#[test]
fn plot_legends_use_six_digits_and_one_unit_notation() {
    let d = dir("plots");
    let svg = d.join("l.svg");
    ok(
        &[
            "polygon",
            "fixtures/polygon/l_shape.json",
            "--units",
            "mm",
            "--output-units",
            "mm",
            "--plot",
            svg.to_str().unwrap(),
        ],
        "",
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let legend = &text[text.find(r#"<g class="legend">"#).unwrap()..];
    let legend = &legend[..legend.find("</g>").unwrap()];
    assert!(legend.contains("mm⁴") && legend.contains("kg·mm²") && legend.contains("mm²"));
    assert!(!legend.contains('^') && !legend.contains('*'), "{legend}");
    // 1/1.2 mm = 0.833333 mm: six significant digits, not twelve.
    assert!(legend.contains("centroid x 0.833333 mm"), "{legend}");
    for w in legend.split(|c: char| c.is_whitespace() || c == '>' || c == '<') {
        if let Ok(v) = w.parse::<f64>()
            && v != 0.0
        {
            let digits = w
                .split('e')
                .next()
                .unwrap()
                .chars()
                .filter(char::is_ascii_digit)
                .skip_while(|d| *d == '0')
                .count();
            assert!(digits <= 6, "{w} in {legend}");
        }
    }
}

#[test]
fn csv_input_with_semicolons_or_tabs_is_read_and_another_delimiter_is_named() {
    let area = |input: &str| -> f64 {
        let v: Value = serde_json::from_str(&ok(
            &["polygon", "-", "--input-format", "csv", "--json"],
            input,
        ))
        .unwrap();
        v["area"].as_f64().unwrap()
    };
    assert_eq!(area("X;Y;Z\n0;0;1\n3;0;1\n0;4;1\n"), 6.0);
    assert_eq!(area("x\ty\n0\t0\n3\t0\n0\t4\n"), 6.0);
    assert_eq!(area("0;0\n3;0\n0;4\n"), 6.0);
    let (code, out, err) = run(
        &["polygon", "-", "--input-format", "csv"],
        "x|y\n0|0\n3|0\n0|4\n",
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("line 1: cells separated by '|'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn missing_required_flags_say_so() {
    for (args, flag) in [
        (vec!["shape", "box", "--mass", "1"], "--size"),
        (vec!["shape", "sphere"], "--radius"),
        (vec!["shape", "rectangle", "--width", "1"], "--height"),
    ] {
        let (code, out, err) = run(&args, "");
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(
            err.contains("required") && err.contains(flag),
            "{args:?}: {err}"
        );
    }
    for command in ["mesh", "polygon"] {
        let (code, _, err) = run(&[command], "");
        assert_eq!(code, 2);
        assert!(err.contains("no input: give a FILE"), "{err}");
    }
}

/// The example lines of `args`' help.
fn examples(args: &[&str]) -> Vec<String> {
    let help = ok(args, "");
    let tail = &help[help.find("Examples:").expect("examples")..];
    tail.lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn help_examples_work_in_any_folder() {
    let bin = Path::new(env!("CARGO_BIN_EXE_inertia")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Files the help says stand for the user's own.
    let own = [
        "parts/",
        "profile.csv",
        "part.obj",
        "part.stl",
        "body.",
        "wheel.",
    ];
    let mut ran = 0;
    for command in [
        vec!["--help"],
        vec!["polygon", "--help"],
        vec!["mesh", "--help"],
        vec!["shape", "--help"],
    ] {
        let help = ok(&command, "");
        assert!(
            !help.contains("fixtures/"),
            "{command:?} names the repository's fixtures"
        );
        for line in examples(&command) {
            if own.iter().any(|o| line.contains(o)) {
                assert!(help.contains("your own"), "{command:?}: {line}");
                continue;
            }
            let folder = dir(&format!("help-{ran}"));
            let out = std::process::Command::new("sh")
                .args(["-c", &line])
                .current_dir(&folder)
                .env("PATH", &path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{line}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 7, "only {ran} examples ran");
}

#[test]
fn principal_moments_about_a_far_point_keep_the_bodys_own_digits() {
    // A 1 × 2 × 3 box seen from 1e8 along x: its tensor there is m d² (6e16) beside its own
    // Ixx = 6.5, below the tensor's rounding (0 in the tensor), but the least principal
    // moment, about the line through the centroid, is 6.5 to every digit.
    let path = dir("far").join("box.stl");
    let p = path.to_str().unwrap();
    ok(
        &[
            "shape",
            "box",
            "--size",
            "1,2,3",
            "--segments",
            "3",
            "--mesh-out",
            p,
        ],
        "",
    );
    let t = ok(&["mesh", p, "--about", "1e8,0,0"], "");
    let line = t.lines().find(|l| l.contains("principal moments")).unwrap();
    assert_eq!(cells(line), ["6.5e0", "6e16", "6e16"], "{t}");
    let x = t
        .lines()
        .find(|l| l.trim_start().starts_with("x  ["))
        .unwrap();
    assert_eq!(cells(x), ["0", "0", "0"], "{t}");
}
