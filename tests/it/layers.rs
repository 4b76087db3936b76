//! The library's layers, read from its sources. Its modules import one way: no module uses
//! a module that (through others) uses it back, submodules of one module among them. Every
//! `crate::a::b`, `super::a` and `self::a` path and `use crate::{a, b}` outside comments and
//! test modules is resolved to the longest module it names. The library names no
//! command-line flag in its strings, prints nothing and exits nothing, and its readers only
//! parse.

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
    without_tests(text)
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
    // `super::` and `self::` paths name modules relative to this one: `super` of
    // `overlap::grid` (grid.rs) is `overlap`; of `overlap` (overlap/mod.rs) the crate.
    let parent = me.rsplit_once("::").map_or("", |(p, _)| p);
    for (prefix, base) in [("crate::", ""), ("super::", parent), ("self::", me)] {
        for (i, _) in text.match_indices(prefix) {
            // `crate::` inside `super::crate::`... or an identifier ending so (`myself::`).
            if text[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &text[i + prefix.len()..];
            let absolute = |path: &str| match (base, path) {
                ("", p) => p.to_string(),
                (b, "") => b.to_string(),
                (b, p) => format!("{b}::{p}"),
            };
            if let Some(list) = rest.strip_prefix('{') {
                for item in list[..list.find('}').unwrap_or(0)].split(',') {
                    resolve(&absolute(item.trim()));
                }
            } else {
                let end = rest.find(|c| !ident(c)).unwrap_or(rest.len());
                resolve(&absolute(rest[..end].trim_end_matches(':')));
            }
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
    // Sanity: the reader sees imports, by `crate::` and by `super::` paths.
    assert!(graph["soup"].contains("mesh"), "{:?}", graph["soup"]);
    assert!(
        graph["mesh::validate"].contains("mesh::topology"),
        "{:?}",
        graph["mesh::validate"]
    );
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

/// The text of a file without its test modules (comments kept, for [`string_literals`]).
fn without_tests(text: &str) -> &str {
    let end = [
        "#[cfg(test)]\nmod ",
        "#[cfg(test)]\npub(crate) mod ",
        "#[cfg(test)]\npub mod ",
    ]
    .iter()
    .filter_map(|p| text.find(p))
    .min()
    .unwrap_or(text.len());
    &text[..end]
}

/// The string literals of Rust (or C++) source, outside comments, each with the line it
/// starts on and its text as written (escapes and line continuations kept): `"..."`,
/// `b"..."`, `r"..."`, `r#"..."#`; character literals (`'"'`) and lifetimes are skipped.
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let c: Vec<char> = text.chars().collect();
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        match (c[i], at(i + 1)) {
            ('\n', _) => {
                line += 1;
                i += 1;
            }
            ('/', '/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            ('/', '*') => {
                i += 2;
                while i < c.len() && !(c[i] == '*' && at(i + 1) == '/') {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
                i += 2;
            }
            ('\'', _) => {
                // 'x', '\n', '\'', '\u{..}': a character; 'a (no closing quote): a lifetime.
                if at(i + 1) == '\\' {
                    i += 3;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            ('r', '"' | '#') if i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_') => {
                let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
                if at(i + 1 + hashes) != '"' {
                    i += 1;
                    continue;
                }
                let start = (line, i + 2 + hashes);
                let mut j = start.1;
                let close = |j: usize| c[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#');
                while j < c.len() && !close(j) {
                    line += usize::from(c[j] == '\n');
                    j += 1;
                }
                out.push((start.0, c[start.1..j.min(c.len())].iter().collect()));
                i = j + 1 + hashes;
            }
            ('"', _) => {
                let start = (line, i + 1);
                let mut j = i + 1;
                while j < c.len() && c[j] != '"' {
                    let step = if c[j] == '\\' { 2 } else { 1 };
                    line += usize::from(c[j + step - 1] == '\n');
                    j += step;
                }
                out.push((start.0, c[start.1..j.min(c.len())].iter().collect()));
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Where `literal` names a command-line flag: `--` and a lowercase letter.
fn names_a_flag(literal: &str) -> bool {
    literal
        .match_indices("--")
        .any(|(i, _)| literal[i + 2..].starts_with(|c: char| c.is_ascii_lowercase()))
}

#[test]
fn the_string_reader_sees_every_literal_and_no_comment() {
    let text = "let a = \"give\\\n   --weld-tolerance\"; // \"--not\"\n\
                let q = '\"'; let b: &'static str = r#\"x \"--raw\" y\"#;\n\
                /* \"--nor\" */ let c = b\"--bytes\"; let d = '\\'';\n";
    let found = string_literals(text);
    let texts: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        texts,
        ["give\\\n   --weld-tolerance", "x \"--raw\" y", "--bytes"],
        "{found:?}"
    );
    assert_eq!(found[1].0, 3);
    assert!(texts.iter().all(|t| names_a_flag(t)));
    assert!(!names_a_flag("a -- b") && !names_a_flag("--X"));
}

/// The library never names a command-line flag: no string literal in its code (outside
/// comments and test modules, the C++ shim's included; a message continued over several
/// lines too) holds `--` followed by a lowercase letter. The binary (`src/cli/`,
/// `main.rs`) adds the hints from the typed errors.
#[test]
fn no_library_string_names_a_flag() {
    let mut found = Vec::new();
    let mut sources: Vec<(String, String)> = modules().into_iter().collect();
    sources.push((
        "io/step.cpp".into(),
        std::fs::read_to_string("src/io/step.cpp").unwrap(),
    ));
    for (module, text) in &sources {
        if module.starts_with("cli::") {
            continue;
        }
        for (line, literal) in string_literals(without_tests(text)) {
            if names_a_flag(&literal) {
                found.push(format!("{module} (line {line}): \"{literal}\""));
            }
        }
    }
    // Sanity: the binary's hints, which do name flags, are seen.
    let hints = std::fs::read_to_string("src/cli/hints.rs").unwrap();
    assert!(string_literals(&hints).iter().any(|(_, l)| names_a_flag(l)));
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

/// The public API has no empty public module (each `pub mod x;` holds a public item) and
/// one type named `Solid`.
#[test]
fn no_empty_public_module_and_one_solid() {
    let files = modules();
    let public_item = |text: &str| {
        code(text).lines().any(|l| {
            let l = l.trim_start();
            [
                "pub fn ",
                "pub struct ",
                "pub enum ",
                "pub const ",
                "pub static ",
                "pub type ",
                "pub trait ",
                "pub use ",
                "pub mod ",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        })
    };
    let mut empty = Vec::new();
    let mut declared = 0;
    for (module, text) in &files {
        for line in code(text).lines() {
            let Some(name) = line.trim().strip_prefix("pub mod ") else {
                continue;
            };
            let Some(name) = name.strip_suffix(';') else {
                continue; // an inline module (`pub mod testing { ... }`)
            };
            let child = if module == "lib" {
                name.to_string()
            } else {
                format!("{module}::{name}")
            };
            declared += 1;
            if !files.get(&child).is_some_and(|t| public_item(t)) {
                empty.push(child);
            }
        }
    }
    assert!(
        declared > 20,
        "the reader sees the public modules: {declared}"
    );
    assert!(
        empty.is_empty(),
        "public modules without a public item: {empty:?}"
    );
    let solids: Vec<&String> = files
        .iter()
        .filter(|(_, text)| {
            code(text).lines().any(|l| {
                let l = l.trim_start();
                ["pub struct Solid", "pub enum Solid"].iter().any(|p| {
                    l.strip_prefix(p)
                        .is_some_and(|rest| rest.starts_with([' ', '{', '<', '(']))
                })
            })
        })
        .map(|(m, _)| m)
        .collect();
    assert_eq!(solids, [&"solid".to_string()], "types named Solid");
}
