//! The library's modules import one way: no module uses a module that (through others)
//! uses it back. Read from the sources: every `crate::a::b` path and `use crate::{a, b}`
//! outside comments and test modules, resolved to the longest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name (`io::stl`) for each library source file.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix("src").unwrap().with_extension("");
                let mut name = rel.to_string_lossy().replace('/', "::");
                if let Some(parent) = name.strip_suffix("::mod") {
                    name = parent.to_string();
                }
                out.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(Path::new("src"), &mut out);
    // The binary's files are not part of the library.
    for bin in ["main", "cli", "progress"] {
        out.remove(bin);
    }
    out
}

/// The code of a file without comments and without its test modules.
fn code(text: &str) -> String {
    let end = [
        "#[cfg(test)]\nmod ",
        "#[cfg(test)]\npub(crate) mod ",
        "#[cfg(test)]\npub mod ",
    ]
    .iter()
    .filter_map(|p| text.find(p))
    .min()
    .unwrap_or(text.len());
    text[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules `text` (of module `me`) refers to.
fn uses(me: &str, text: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    // Items re-exported at the crate root, by the module defining them.
    let root = [
        ("Mesh", "mesh"),
        ("RawMesh", "mesh"),
        ("Polygon", "polygon"),
        ("MeshMethod", "method"),
        ("PolygonMethod", "method"),
    ];
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    let mut out = BTreeSet::new();
    let mut resolve = |path: &str| {
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        for k in (1..=parts.len()).rev() {
            let m = parts[..k].join("::");
            if known.contains(&m) {
                out.insert(m);
                return;
            }
        }
        if let Some((_, m)) = root.iter().find(|(item, _)| Some(item) == parts.first()) {
            out.insert(m.to_string());
        }
    };
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + 7..];
        if let Some(list) = rest.strip_prefix('{') {
            for item in list[..list.find('}').unwrap_or(0)].split(',') {
                resolve(item.trim());
            }
        } else {
            let end = rest.find(|c| !ident(c)).unwrap_or(rest.len());
            resolve(rest[..end].trim_end_matches(':'));
        }
    }
    out.remove(me);
    out
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let files = modules();
    let known: BTreeSet<String> = files.keys().cloned().collect();
    let graph: BTreeMap<&str, BTreeSet<String>> = files
        .iter()
        .map(|(m, text)| (m.as_str(), uses(m, &code(text), &known)))
        .collect();
    // Sanity: the reader sees imports.
    assert!(graph["soup"].contains("mesh"), "{:?}", graph["soup"]);
    // Every module reached from each module; a module reaching itself is in a cycle.
    let mut cycles = Vec::new();
    for &start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&str> = graph[start].iter().map(String::as_str).collect();
        while let Some(m) = stack.pop() {
            if m == start {
                cycles.push(start);
                break;
            }
            if seen.insert(m) {
                stack.extend(graph.get(m).into_iter().flatten().map(String::as_str));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules in an import cycle: {cycles:?}\n{graph:#?}"
    );
}

/// The library never names a command-line flag: no string in its code (outside comments
/// and test modules) holds `--` followed by a letter. The binary (`src/cli/`, `main.rs`)
/// adds the hints from the typed errors.
#[test]
fn no_library_string_names_a_flag() {
    let mut found = Vec::new();
    for (module, text) in modules() {
        if module.starts_with("cli::") {
            continue;
        }
        for (k, line) in code(&text).lines().enumerate() {
            let b = line.as_bytes();
            for (i, _) in line.match_indices("--") {
                let in_string = line[..i].contains('"');
                if in_string && b.get(i + 2).is_some_and(u8::is_ascii_lowercase) {
                    found.push(format!("{module} (code line {}): {}", k + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "flags in library strings:\n{}",
        found.join("\n")
    );
}

/// The library prints nothing, exits nothing and installs no signal handler: those are
/// the binary's (a `SIGBUS` on a truncated mapped file is `cli/sigbus.rs`'s to report).
#[test]
fn the_library_neither_prints_nor_exits() {
    let banned = [
        "println!",
        "eprintln!",
        "print!(",
        "eprint!(",
        "process::exit",
        "_exit(",
        "sigaction",
        "libc::signal",
    ];
    let mut found = Vec::new();
    for (module, text) in modules() {
        if module.starts_with("cli::") {
            continue;
        }
        for line in code(&text).lines() {
            for b in banned {
                if line.contains(b) {
                    found.push(format!("{module}: {}", line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the library prints or exits:\n{}",
        found.join("\n")
    );
}

/// Readers only parse: no module under `io` uses the modules that weld, check or
/// integrate a mesh (`soup` but its `corners`, the trait readers implement; `overlap`,
/// `shells`, `fans`, `solid`, `mesh::validate`, `mesh::topology`, `method`) or validate a
/// polygon (`polygon` but its `rings`, the readers' output; `sweep`). The pipeline
/// (`solid`, `read`) calls the reader, then those. `io::step` is the exception: OpenCASCADE
/// reads and integrates a B-rep in one library, and its tessellation is checked there.
#[test]
fn readers_only_parse() {
    let files = modules();
    let known: BTreeSet<String> = files.keys().cloned().collect();
    let validation = [
        "soup",
        "soup::pass",
        "soup::weld",
        "overlap",
        "shells",
        "fans",
        "solid",
        "mesh::validate",
        "mesh::topology",
        "method",
        "method::tetra",
        "method::voxel",
        "polygon",
        "polygon::validate",
        "polygon::disjoint",
        "polygon::resolve",
        "sweep",
    ];
    let mut found = Vec::new();
    for (module, text) in &files {
        if module != "io" && !module.starts_with("io::") || module == "io::step" {
            continue;
        }
        for used in uses(module, &code(text), &known) {
            if validation.contains(&used.as_str()) {
                found.push(format!("{module} uses {used}"));
            }
        }
    }
    // Sanity: the reader sees the trait's module.
    assert!(uses("io::stl", &code(&files["io::stl"]), &known).contains("soup::corners"));
    assert!(uses("io", &code(&files["io"]), &known).contains("polygon::rings"));
    assert!(found.is_empty(), "readers that validate: {found:?}");
}
