//! Issue "Bounded by the input": small inputs or flags that would cost gigabytes or minutes
//! are refused up front, with one line on stderr and exit 2, under a memory limit.

use assert_cmd::cargo::cargo_bin_cmd;

/// Runs `inertia ARGS` under `ulimit -v` (virtual memory, KiB) with `stdin` piped from a
/// shell command; returns (exit code, stdout, stderr).
fn limited(kib: u64, stdin: &str, args: &str) -> (i32, String, String) {
    let bin = assert_cmd::cargo::cargo_bin!("inertia");
    let script = format!("ulimit -v {kib}; {stdin} | {} {args}", bin.display());
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn one_line_refusal(code: i32, stdout: &str, stderr: &str, words: &[&str]) {
    assert_eq!(code, 2, "stderr: {stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for w in words {
        assert!(stderr.contains(w), "{stderr:?} lacks {w:?}");
    }
}

#[test]
fn endless_streams_stop_at_the_limit() {
    // An endless stdin, under 1 GiB of address space, stops at the limit.
    let (code, out, err) = limited(
        1 << 20,
        "cat /dev/zero",
        "mesh - --max-input-bytes 10000000",
    );
    one_line_refusal(
        code,
        &out,
        &err,
        &["<stdin>", "goes on past 10000000 bytes"],
    );
    let (code, out, err) = limited(1 << 20, "yes 0,0", "polygon - --max-input-bytes 1000000");
    one_line_refusal(code, &out, &err, &["goes on past 1000000 bytes"]);
    // A device named as the input file: the same.
    let (code, out, err) = limited(1 << 20, "true", "mesh /dev/zero --max-input-bytes 1000000");
    one_line_refusal(code, &out, &err, &["/dev/zero", "goes on past"]);
}

#[test]
fn flags_that_imply_huge_output_are_refused_with_the_estimate() {
    let out = cargo_bin_cmd!("inertia")
        .args([
            "shape",
            "regular",
            "--sides",
            "1000000000000",
            "--side",
            "1",
            "--polygon-out",
            "never.json",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    one_line_refusal(
        out.status.code().unwrap_or(-1),
        &String::from_utf8_lossy(&out.stdout),
        &err,
        &["1000000000000 vertices", "48.0 TB"],
    );
    assert!(!std::path::Path::new("never.json").exists());
    // Its closed form needs no vertices: answered.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "shape",
            "regular",
            "--sides",
            "1000000000000",
            "--side",
            "1e-9",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = cargo_bin_cmd!("inertia")
        .args([
            "shape",
            "sphere",
            "--radius",
            "1",
            "--segments",
            "100000",
            "--mesh-out",
            "never.stl",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    one_line_refusal(
        out.status.code().unwrap_or(-1),
        &String::from_utf8_lossy(&out.stdout),
        &err,
        &["about 10000000000 triangles", "--segments 7071"],
    );
    assert!(!std::path::Path::new("never.stl").exists());
}
