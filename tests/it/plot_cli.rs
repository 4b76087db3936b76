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
            "--units",
            "m",
            "--plot",
            p.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--plot draws one polygon"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Whether `rsvg-convert` can be run (CI installs it).
fn have_rsvg() -> bool {
    Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// An 8-bit RGB or RGBA, non-interlaced PNG (what rsvg-convert writes) as width, height
/// and RGBA pixels.
fn decode_png(bytes: &[u8]) -> (usize, usize, Vec<[u8; 4]>) {
    use std::io::Read;
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let (mut w, mut h, mut channels) = (0, 0, 0);
    let mut idat = Vec::new();
    let mut at = 8;
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                h = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                assert_eq!(data[8], 8, "bit depth");
                channels = match data[9] {
                    2 => 3,
                    6 => 4,
                    t => panic!("colour type {t}"),
                };
                assert_eq!(data[12], 0, "interlaced");
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = w * channels;
    let mut prev = vec![0u8; stride];
    let mut pixels = Vec::with_capacity(w * h);
    for row in 0..h {
        let line = &raw[row * (stride + 1)..(row + 1) * (stride + 1)];
        let mut cur = line[1..].to_vec();
        for i in 0..stride {
            let a = if i >= channels { cur[i - channels] } else { 0 } as i16;
            let b = prev[i] as i16;
            let c = if i >= channels { prev[i - channels] } else { 0 } as i16;
            let add = match line[0] {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let p = a + b - c;
                    let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("filter {f}"),
            };
            cur[i] = cur[i].wrapping_add(add as u8);
        }
        for px in cur.chunks(channels) {
            pixels.push([px[0], px[1], px[2], if channels == 4 { px[3] } else { 255 }]);
        }
        prev = cur;
    }
    (w, h, pixels)
}

/// The value of attribute `name` in the first element of `svg` that `marker` starts.
fn attr(svg: &str, marker: &str, name: &str) -> String {
    let at = svg.find(marker).unwrap_or_else(|| panic!("no {marker}"));
    let rest = &svg[at..];
    let end = rest.find('>').unwrap();
    let tag = &rest[..end];
    let key = format!(" {name}=\"");
    let from = tag
        .find(&key)
        .unwrap_or_else(|| panic!("{marker} has no {name}"))
        + key.len();
    tag[from..from + tag[from..].find('"').unwrap()].to_string()
}

/// The rings of an SVG path of `M x,y L x,y … Z` commands.
fn rings(d: &str) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    for tok in d.split_whitespace() {
        if tok == "Z" {
            continue;
        }
        let (cmd, xy) = tok.split_at(1);
        let (x, y) = xy.split_once(',').unwrap();
        if cmd == "M" {
            out.push(Vec::new());
        }
        out.last_mut()
            .unwrap()
            .push((x.parse().unwrap(), y.parse().unwrap()));
    }
    out
}

/// Even-odd point in polygon over every ring.
fn inside(p: (f64, f64), rings: &[Vec<(f64, f64)>]) -> bool {
    let mut odd = false;
    for r in rings {
        for i in 0..r.len() {
            let (a, b) = (r[i], r[(i + 1) % r.len()]);
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) {
                odd = !odd;
            }
        }
    }
    odd
}

/// Every `<text class="label">`: its box (x, y of the baseline's start, estimated width
/// at 0.64 em of 12 px) and its text.
fn labels(svg: &str) -> Vec<((f64, f64, f64, f64), String)> {
    svg.match_indices(r#"<text class="label""#)
        .map(|(at, _)| {
            let rest = &svg[at..];
            let x: f64 = attr(rest, "<text", "x").parse().unwrap();
            let y: f64 = attr(rest, "<text", "y").parse().unwrap();
            let body = &rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()];
            let w = body.chars().count() as f64 * 0.64 * 12.0;
            ((x, y - 12.0, w, 16.0), body.to_string())
        })
        .collect()
}

fn assert_no_overlap(svg: &str) {
    let l = labels(svg);
    for (i, (a, ta)) in l.iter().enumerate() {
        for (b, tb) in &l[i + 1..] {
            let apart =
                a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
            assert!(apart, "labels {ta:?} at {a:?} and {tb:?} at {b:?} overlap");
        }
    }
}

fn plot(args: &[&str], svg: &Path) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--plot", svg.to_str().unwrap()]);
    cargo_bin_cmd!("inertia").args(&all).assert().success();
    check_svg(svg);
    std::fs::read_to_string(svg).unwrap()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("inertia-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// With `--units` the outline, the centroid and the axes are all drawn in the output unit:
/// the centroid marker lies inside the filled outline, in the SVG and in the rendered PNG.
#[test]
fn units_changing_plot_has_its_centroid_inside_the_outline() {
    let dir = temp_dir("plot-units");
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["polygon", "fixtures/polygon/l_shape.json", "--units", "mm"],
            "x (m)",
            "C (0.000833, 0.000833)",
        ),
        (
            &[
                "polygon",
                "fixtures/polygon/l_shape.json",
                "--units",
                "in",
                "--output-units",
                "mm",
            ],
            "x (mm)",
            "C (21.2, 21.2)",
        ),
        // The DXF states millimetres; the report is in metres.
        (
            &["polygon", "fixtures/polygon/a3_sheet.dxf"],
            "x (m)",
            "C (0.10500, 0.10500)",
        ),
    ];
    for (n, (args, axis_title, centroid)) in cases.iter().enumerate() {
        let svg_path = dir.join(format!("case{n}.svg"));
        let svg = plot(args, &svg_path);
        assert!(svg.contains(&format!(">{axis_title}<")), "{args:?}");
        assert!(
            labels(&svg).iter().any(|(_, t)| t == centroid),
            "{args:?}: {:?}",
            labels(&svg)
        );
        let outline = rings(&attr(&svg, r#"<path class="outline""#, "d"));
        let marker = r#"<circle"#;
        let from = svg.find(r#"<g class="centroid""#).unwrap();
        let cx: f64 = attr(&svg[from..], marker, "cx").parse().unwrap();
        let cy: f64 = attr(&svg[from..], marker, "cy").parse().unwrap();
        assert!(inside((cx, cy), &outline), "{args:?}: ({cx}, {cy}) outside");
        // Not at the page's corner, where the old plot put it: well inside the plot area.
        assert!(
            cx > 100.0 && cy > 40.0 && cx < 640.0 && cy < 500.0,
            "({cx}, {cy})"
        );
        assert_no_overlap(&svg);
        if have_rsvg() {
            let (w, _, px) = decode_png(&std::fs::read(svg_path.with_extension("png")).unwrap());
            let at = |x: f64, y: f64| px[y.round() as usize * w + x.round() as usize];
            // The marker's red (#c00000) where the SVG puts it.
            let c = at(cx, cy);
            assert!(c[0] > 170 && c[1] < 60 && c[2] < 60, "{args:?}: {c:?}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A square: I1 = I2 is said once and no label covers another; the L's labels neither.
#[test]
fn equal_moments_are_labelled_once_without_overlap() {
    let dir = temp_dir("plot-labels");
    let svg = plot(
        &["polygon", "fixtures/polygon/unit_square.json"],
        &dir.join("square.svg"),
    );
    let l = labels(&svg);
    let texts: Vec<&str> = l.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        texts,
        ["C (0.500, 0.500)", "I1 = I2: any axis is principal"],
        "{l:?}"
    );
    assert_no_overlap(&svg);
    // Every label inside the page.
    for ((x, y, w, h), t) in &l {
        assert!(
            *x >= 0.0 && *y >= 0.0 && x + w <= 980.0 && y + h <= 560.0,
            "{t}"
        );
    }
    let svg = plot(
        &["mesh", "fixtures/mesh/box_with_cavity.obj"],
        &dir.join("box.svg"),
    );
    assert_no_overlap(&svg);
    // I1 = I2 once per view, I3 in each.
    let texts: Vec<String> = labels(&svg).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        texts.iter().filter(|t| *t == "I1 = I2").count(),
        3,
        "{texts:?}"
    );
    assert_eq!(texts.iter().filter(|t| *t == "I3").count(), 3, "{texts:?}");
    assert!(svg.contains("I1 = I2: any axis in their plane is principal"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A long path is shortened in the middle to fit the legend, its full text kept as the
/// line's title.
#[test]
fn long_paths_fit_the_legend() {
    let dir = temp_dir("plot-long");
    let deep = dir.join("a_rather_long_directory_name_for_a_project".repeat(3));
    std::fs::create_dir_all(&deep).unwrap();
    let file = deep.join("bracket_revision_c_final.json");
    std::fs::copy("fixtures/polygon/l_shape.json", &file).unwrap();
    let full = file.to_str().unwrap();
    let svg = plot(&["polygon", full], &dir.join("long.svg"));
    let at = svg.find(r#"<g class="legend">"#).unwrap();
    let first = &svg[at..][svg[at..].find("<text").unwrap()..];
    let line = &first[..first.find("</text>").unwrap()];
    assert!(line.contains(&format!("<title>{full}</title>")), "{line}");
    let shown = &line[line.find("</title>").unwrap() + 8..];
    assert!(
        shown.contains('…') && shown.ends_with("bracket_revision_c_final.json"),
        "{shown}"
    );
    let x: f64 = attr(first, "<text", "x").parse().unwrap();
    assert!(
        x + shown.chars().count() as f64 * 0.64 * 12.0 <= 980.0,
        "{shown}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A sphere of 65024 triangles draws as its silhouette: a small file whose outline in the
/// top view is a circle about the centroid.
#[test]
fn mesh_plot_draws_the_silhouette() {
    let dir = temp_dir("plot-mesh");
    let stl = dir.join("sphere.stl");
    cargo_bin_cmd!("inertia")
        .args([
            "shape",
            "sphere",
            "--radius",
            "50",
            "--segments",
            "256",
            "--mesh-out",
        ])
        .arg(&stl)
        .assert()
        .success();
    let svg = plot(
        &[
            "mesh",
            stl.to_str().unwrap(),
            "--units",
            "mm",
            "--output-units",
            "mm",
        ],
        &dir.join("sphere.svg"),
    );
    assert!(
        svg.contains("silhouette of 65024 triangles"),
        "{:.300}",
        &svg[svg.len() - 1500..]
    );
    // Every triangle drawn took 4.7 MB.
    assert!(svg.len() < 60_000, "{} bytes", svg.len());
    let d = attr(&svg, r#"<path class="silhouette""#, "d");
    let from = svg.find(r#"<g class="centroid""#).unwrap();
    let cx: f64 = attr(&svg[from..], "<circle", "cx").parse().unwrap();
    let cy: f64 = attr(&svg[from..], "<circle", "cy").parse().unwrap();
    let points: Vec<(f64, f64)> = d
        .split(['M', 'L'])
        .filter(|s| !s.is_empty())
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    assert!(points.len() >= 256, "{}", points.len());
    let r: Vec<f64> = points.iter().map(|(x, y)| (x - cx).hypot(y - cy)).collect();
    let (lo, hi) = r
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
    assert!(hi - lo < 0.01 * hi && hi > 50.0, "radii {lo}..{hi}");
    // The scale bar and the axes speak millimetres.
    assert!(svg.contains(">x (mm)<") && svg.contains(" mm</text></g>"));
    std::fs::remove_dir_all(&dir).ok();
}
