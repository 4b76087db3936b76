//! One call from a mesh file's bytes to its validated, integrated bodies: the pipeline
//! `inertia mesh` runs, for a library user to run the same.
//!
//! [`read_solids`] picks the path (see ARCHITECTURE.md): a binary or ASCII STL asked only
//! for `tetra` is validated and integrated in place (the fast path); otherwise the file
//! is parsed into raw meshes ([`crate::io::read_raw_meshes_limited`]), each body validated
//! by the parallel path or, when that cannot certify it, by [`Mesh::new`], which says what
//! is wrong. Every body is checked for overlapping triangles; a body
//! open only by rounding noise is welded within a tolerance and tried again.

use crate::body::Body;
use crate::error::{Error, Result};
use crate::io::{MeshFormat, stl};
use crate::method::{MeshIntegral, MeshMethod};
use crate::soup::general::{Validated, overlap_judged, validate};
use crate::tolerance::Checks;
use crate::warning::Warning;
use crate::{Mesh, RawMesh};
use std::cmp::Ordering;

pub use crate::tolerance::OverlapPolicy;

/// How [`read_solids`] reads, validates and integrates.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The methods to integrate each body with, in order.
    pub methods: Vec<MeshMethod>,
    /// Cells along the longest side for [`MeshMethod::Voxel`].
    pub resolution: usize,
    /// Integrate each body as a thin shell of this thickness (a surface need not be closed).
    pub shell: Option<f64>,
    /// Keep each body's [`Mesh`] in the result (to draw it).
    pub keep_mesh: bool,
    /// Join corners closer than this when a body is open (`None`: 8 units in the last place
    /// of its largest coordinate).
    pub weld_tolerance: Option<f64>,
    /// Overlapping triangles: refused or summed.
    pub overlap: OverlapPolicy,
    /// How much the repairs that make a body a closed solid (T-junctions split, crossings
    /// taken for contact; see [`crate::tolerance`]) may change its volume, relative to it;
    /// a body whose repairs could change more is refused ([`Error::RepairTooLarge`]).
    pub repair_tolerance: f64,
    /// A file holding or expanding to more triangles is refused.
    pub max_triangles: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            methods: vec![MeshMethod::Tetra],
            resolution: crate::method::voxel::DEFAULT_RESOLUTION,
            shell: None,
            keep_mesh: false,
            weld_tolerance: None,
            overlap: OverlapPolicy::Refuse,
            repair_tolerance: DEFAULT_REPAIR_TOLERANCE,
            max_triangles: crate::io::threemf::DEFAULT_MAX_TRIANGLES,
        }
    }
}

impl Options {
    /// What validation may accept, as these options say: the checks of
    /// [`Mesh::with_checks`], the one path every body takes.
    pub fn checks(&self) -> Checks {
        Checks {
            overlap: self.overlap,
            weld_tolerance: self.weld_tolerance,
            repair_tolerance: self.repair_tolerance,
        }
    }
}

pub use crate::tolerance::DEFAULT_REPAIR_TOLERANCE;

/// A grid of more columns than this is refused by [`read_solids`] for `voxel`.
pub const MAX_VOXEL_COLUMNS: f64 = 1e9;

/// One body of a file, validated and integrated.
#[derive(Clone, Debug)]
pub struct Solid {
    /// Its name within the file (a 3MF build item's object), empty for a file of one body
    /// (`read_path` names that one after the file).
    pub name: String,
    /// Counts, surface area and bounding box.
    pub body: Body,
    /// One integral per method of [`Options::methods`] (or the shell's).
    pub integrals: Vec<MeshIntegral>,
    /// The mesh, with [`Options::keep_mesh`].
    pub mesh: Option<Mesh>,
    /// Warnings about this body (stray bytes, joined corners, overlaps summed; from
    /// `read_path`, inside-out first).
    pub warnings: Vec<Warning>,
    /// Warnings about the file rather than this body (what a 3MF build left out, build
    /// items summed where they overlap), given with its first body.
    /// (`read_path` moves them into `Parts::warnings`.)
    pub file_warnings: Vec<Warning>,
}

impl Solid {
    /// A body the parallel path validated and integrated by `tetra` without a mesh.
    fn from_soup(s: crate::soup::Certified, warnings: Vec<Warning>) -> Solid {
        Solid {
            name: String::new(),
            body: s.body,
            integrals: vec![MeshIntegral {
                properties: s.properties,
                grid: None,
            }],
            mesh: None,
            warnings,
            file_warnings: vec![],
        }
    }

    /// The same, with the contacts taken for touching.
    /// (A fold's turned-over layers are no surface: their area is taken off.)
    fn touching(mut self, contacts: Option<crate::overlap::Contacts>) -> Solid {
        if let Some(c) = contacts {
            self.body.surface_area -= c.fold_area;
        }
        self.body.contacts = contacts;
        self
    }

    /// A validated mesh and its integrals (the mesh kept if asked for).
    fn from_mesh(
        mesh: Mesh,
        integrals: Vec<MeshIntegral>,
        options: &Options,
        warnings: Vec<Warning>,
    ) -> Solid {
        Solid {
            name: String::new(),
            body: Body::of(&mesh),
            integrals,
            mesh: options.keep_mesh.then_some(mesh),
            warnings,
            file_warnings: vec![],
        }
    }
}

/// Reads, validates and integrates every body of a mesh file.
///
/// # Errors
/// The first body that cannot be read, validated or integrated, named when the file holds
/// several ([`Error::InPart`]); [`Error::TooLarge`] for more triangles than
/// [`Options::max_triangles`] or a voxel grid of more than [`MAX_VOXEL_COLUMNS`] columns.
///
/// # Examples
/// ```
/// use inertia::io::MeshFormat;
/// use inertia::solid::{read_solids, Options};
/// let bytes = std::fs::read("fixtures/mesh/right_tetrahedron.stl")?;
/// let solids = read_solids(&bytes, MeshFormat::Stl, &Options::default())?;
/// assert!((solids[0].integrals[0].properties.volume - 10.0).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_solids(bytes: &[u8], format: MeshFormat, options: &Options) -> Result<Vec<Solid>> {
    let fast =
        options.shell.is_none() && !options.keep_mesh && options.methods == [MeshMethod::Tetra];
    // What reading an STL found beside its triangles: stray bytes, normals read past.
    let mut read = Vec::new();
    // STL in place, without a copy (an ASCII STL parsed once).
    let in_place = options.shell.is_none() && format == MeshFormat::Stl;
    if in_place {
        let checks = options.checks();
        let found = match stl::triangles(bytes)? {
            stl::Triangles::Binary(soup) => {
                read.extend(stray_warning(bytes));
                crate::io::within_limit(
                    crate::soup::Soup::len(&soup) as u64,
                    options.max_triangles,
                )?;
                shortcut(&soup, options, &checks, fast, false, &read)
            }
            stl::Triangles::Ascii(corners) => {
                read.extend(corners.unread_normals.map(normals_warning));
                crate::io::within_limit(corners.points.len() as u64 / 3, options.max_triangles)?;
                let soup = crate::soup::VertexSoup(&corners.points);
                shortcut(&soup, options, &checks, fast, false, &read)
            }
        };
        if let Some(solid) = found {
            return solid.map(|s| vec![s]);
        }
    }
    if format == MeshFormat::ThreeMf {
        return build_items(bytes, options, fast);
    }
    let bodies = crate::io::read_raw_meshes_limited(bytes, format, options.max_triangles)?;
    if format == MeshFormat::Stl && !in_place {
        read.extend(stray_warning(bytes));
        read.extend(stl::unread_normals(bytes).map(normals_warning));
    }
    bodies
        .into_iter()
        .map(|(name, raw)| {
            // The parallel path has seen these triangles already, in place, and refused.
            // The shortcut has seen these triangles already, in place, and refused.
            let known = Known {
                refused: in_place,
                ..Known::default()
            };
            named_body(name, &raw, options, fast, &read, known)
        })
        .collect()
}

/// The one path's parallel shortcut ([`validate`]) on a body's triangles as they are, when
/// they are closed and clean as written: integrated straight from them by `tetra`
/// (`fast`), or a mesh welded in parallel for the other methods; then the overlap check
/// and the judgement of the one path on the same triangles. `None` when the triangles need
/// the one path (a defect to repair or explain, or several shells for `fast`); `clean`:
/// no two of them overlap, and no point joins separate pieces (a 3MF object checked once).
fn shortcut<S: crate::soup::Soup>(
    soup: &S,
    options: &Options,
    checks: &Checks,
    fast: bool,
    clean: bool,
    read: &[Warning],
) -> Option<Result<Solid>> {
    if fast {
        let (s, welded) = crate::soup::solid_with(soup, !clean)?;
        let volume = || s.properties.volume;
        let found = overlap_judged(soup, Some(welded), None, volume, checks, clean);
        // Bodies to unite need the mesh the general path builds.
        #[cfg(feature = "union")]
        if checks.overlap == OverlapPolicy::Union
            && matches!(&found, Ok(j) if j.summed.is_some() || j.unite)
        {
            return None;
        }
        Some(found.map(|j| {
            let warnings = read
                .iter()
                .cloned()
                .chain(overlap_warning(j.contacts, j.summed));
            Solid::from_soup(s, warnings.collect()).touching(j.contacts)
        }))
    } else {
        let (mut mesh, welded) = crate::soup::mesh_with(soup)?;
        let volume = mesh.tetra_integral().map_or(0.0, |p| p.volume);
        Some(
            overlap_judged(soup, Some(welded), None, || volume, checks, clean).and_then(|j| {
                mesh.repairs.contacts = j.contacts;
                let v = Validated {
                    mesh,
                    summed: j.summed,
                    unite: j.unite,
                };
                meshed(v, options, read)
            }),
        )
    }
}

/// The bodies of a 3MF build, each item expanded when its turn comes (several at once, one
/// per core), so that thousands of copies are never all in memory.
///
/// An object placed by several items is checked for overlapping triangles once, in its
/// own coordinates: an item is its exact affine image, which crosses itself exactly where
/// the object does (a mirror reverses the triangles too, keeping their relations). Each
/// item is still welded, checked closed, sorted into shells and integrated where it lies.
fn build_items(bytes: &[u8], options: &Options, fast: bool) -> Result<Vec<Solid>> {
    use rayon::prelude::*;
    let build =
        crate::io::threemf::Build::parse(bytes, options.max_triangles, options.shell.is_some())?;
    let placements = build.placements();
    let shared: Vec<usize> = placements
        .iter()
        .filter(|&(_, &n)| n > 1)
        .map(|(&o, _)| o)
        .collect();
    let clean: std::collections::HashSet<usize> = shared
        .into_par_iter()
        .filter(|&o| {
            build.object(o).is_ok_and(|m| {
                // Closed, no point joining separate pieces, nothing crossing: one weld (the
                // pinch check finds the neighbours the overlap check then reads).
                let soup = crate::soup::IndexedSoup(&m);
                crate::soup::closed_welded(&soup).is_some_and(|mut welded| {
                    !welded.pinched() && crate::overlap::check_welded(&soup, welded).is_ok()
                })
            })
        })
        .collect();
    let solids: Vec<Result<Solid>> = (0..build.len())
        .into_par_iter()
        .map(|k| {
            let (name, o, raw) = build.item(k)?;
            let known = Known {
                clean: clean.contains(&o),
                ..Known::default()
            };
            named_body(name, &raw, options, fast, &[], known)
        })
        .collect();
    let mut solids: Vec<Solid> = solids.into_iter().collect::<Result<_>>()?;
    #[cfg(feature = "union")]
    let unite = options.overlap == OverlapPolicy::Union && options.shell.is_none();
    #[cfg(not(feature = "union"))]
    let unite = false;
    if unite {
        #[cfg(feature = "union")]
        {
            solids = united_items(&build, solids, options)?;
        }
    } else {
        items_apart(&build, &mut solids, options)?;
    }
    // What the build left out (support objects, surfaces) is said with the first body.
    solids[0]
        .file_warnings
        .splice(0..0, crate::warning::left_out_warnings(&build.left_out));
    if build.left_out != Default::default() {
        solids[0].body.left_out = Some(build.left_out);
    }
    Ok(solids)
}

/// How near two placements of one object are checked on their own before their group: their
/// boxes' bounds within this share of their size on every axis.
const NEAR: f64 = 0.25;

/// Build items checked against each other by the rule a single mesh is checked by (`cat
/// a.stl b.stl` refused when the two overlap): the items whose bounding boxes meet are
/// expanded together, only those, and the group is checked as one body. The specification
/// builds overlapping items as their union, which inertia does not compute: refused, or
/// with `--overlap sum` added as they are, with a warning.
///
/// Repeated placements are looked for first: items of one object whose boxes coincide but
/// for less than [`NEAR`] of their size on every axis (the same spot, or a hair apart).
/// Sorted by object and by a grid of cells of that share of the object's box (so that such
/// items are next to each other), each is checked with the next of its cell, two items at
/// a time: at most one check per item, of two copies of the object. Thousands of such
/// placements are one group whose every triangle lies on thousands of others, which
/// checked as one body grew with the square of the items (and so did the list of them:
/// 2,000 unit cubes at one spot, 13–19 s and 79 kB; 1e-4 apart, an abort on a 2.4 GB
/// list of edges through corners); two at a time, the first two are refused at once, and
/// with `--overlap sum` a cell of them is known to overlap after its first overlapping
/// pair, without the group check. Items farther apart, or of other objects, are found by
/// the group check as before.
fn items_apart(
    build: &crate::io::threemf::Build,
    solids: &mut [Solid],
    options: &Options,
) -> Result<()> {
    let n = solids.len();
    // Thin walls (--shell) are surfaces, not closed bodies: no overlap rule to apply.
    if n < 2 || options.shell.is_some() {
        return Ok(());
    }
    let boxes: Vec<_> = solids.iter().map(|s| s.body.bounding_box).collect();
    let check = Options {
        methods: vec![MeshMethod::Tetra],
        shell: None,
        keep_mesh: false,
        ..options.clone()
    };
    let solids_named: &[Solid] = solids;
    let together = |set: &[usize]| together(build, set, &check, solids_named);
    // Repeated placements (see above): pairs checked, each [first, second] with its
    // warnings and whether the two overlap.
    let pairs = repeated_placements(build, &boxes, &together)?;
    // Groups of items whose boxes meet.
    let groups = meeting_groups(&boxes);
    let mut group_of = vec![0; n];
    for (g, members) in groups.iter().enumerate() {
        for &k in members {
            group_of[k] = g;
        }
    }
    // A group with a pair known to overlap is said by its first such pair, with how many
    // items meet (with --overlap sum: refused ones have returned); a group of two checked
    // already, by that check.
    let mut said: std::collections::HashMap<usize, usize> = Default::default();
    for (p, (set, _, overlap)) in pairs.iter().enumerate() {
        let g = group_of[set[0]];
        if *overlap || groups[g][..] == set[..] {
            said.entry(g).or_insert(p);
        }
    }
    let mut warnings = Vec::new();
    for (g, group) in groups.iter().enumerate().filter(|(_, g)| g.len() > 1) {
        match said.get(&g) {
            Some(&p) => warnings.extend(pairs[p].1.iter().map(|w| match w {
                Warning::InItems { items, warning } if group.len() > 2 => Warning::InItems {
                    items: format!("{items}, of {} whose boxes meet", group.len()),
                    warning: warning.clone(),
                },
                w => w.clone(),
            })),
            None => warnings.extend(together(group)?.0),
        }
    }
    solids[0].file_warnings.extend(warnings);
    Ok(())
}

/// The build items `set` (ascending) expanded together and checked as one body (with
/// `check`): its warnings, said of the items (named from `solids`), and whether they
/// overlap (summed, or one inside another); or the refusal, naming them.
fn together(
    build: &crate::io::threemf::Build,
    set: &[usize],
    check: &Options,
    solids: &[Solid],
) -> Result<Checked> {
    let (raw, starts) = expanded(build, set)?;
    let named = |triangles| items_named(set, &starts, triangles, solids);
    match named_body(String::new(), &raw, check, true, &[], Known::default()) {
        Ok(s) => {
            let overlap = s
                .warnings
                .iter()
                .any(|w| matches!(w, Warning::OverlapSummed(_) | Warning::Nested { .. }));
            let warnings = s.warnings.into_iter().map(|w| {
                let at = match &w {
                    Warning::OverlapSummed(at) => Some(at.triangles),
                    _ => None,
                };
                Warning::InItems {
                    items: named(at).0,
                    warning: Box::new(w),
                }
            });
            Ok((warnings.collect(), overlap))
        }
        Err(e) => Err(in_items(e, &named)),
    }
}

/// The build items `set` expanded into one raw mesh, and where each item's triangles start
/// in its numbering (from 1, for messages).
fn expanded(build: &crate::io::threemf::Build, set: &[usize]) -> Result<(RawMesh, Vec<usize>)> {
    let mut raw = RawMesh::default();
    let mut starts = Vec::with_capacity(set.len());
    for &k in set {
        let (_, _, m) = build.item(k)?;
        starts.push(raw.triangles.len() + 1);
        let base = raw.vertices.len() as u32;
        raw.vertices.extend_from_slice(&m.vertices);
        raw.triangles
            .extend(m.triangles.iter().map(|t| t.map(|v| v + base)));
    }
    Ok((raw, starts))
}

/// The refusal `e` of build items checked together, said of them (`named`: the items,
/// and the numbering of their triangles when `e` names two).
fn in_items(e: Error, named: &dyn Fn(Option<[usize; 2]>) -> (String, String)) -> Error {
    let at = match &e {
        Error::Overlapping { at, .. } => Some(at.triangles),
        _ => None,
    };
    let (items, numbering) = named(at);
    let numbering = if numbering.is_empty() {
        String::new()
    } else {
        format!("; triangles numbered through the items, {numbering}")
    };
    Error::in_part(
        &format!("{items} (3MF builds overlapping items as their union{numbering})"),
        e,
    )
}

/// With [`OverlapPolicy::Union`]: each group of build items whose boxes meet, expanded
/// together, validated and integrated by every method as one body; a group whose items
/// overlap becomes one part, their union (as the 3MF specification builds them), in the
/// place of its first item, named after them. Other items are kept as they are.
#[cfg(feature = "union")]
fn united_items(
    build: &crate::io::threemf::Build,
    solids: Vec<Solid>,
    options: &Options,
) -> Result<Vec<Solid>> {
    let boxes: Vec<_> = solids.iter().map(|s| s.body.bounding_box).collect();
    let mut union_at: Vec<Option<Solid>> = solids.iter().map(|_| None).collect();
    let mut dropped = vec![false; solids.len()];
    for group in meeting_groups(&boxes).into_iter().filter(|g| g.len() > 1) {
        let (raw, starts) = expanded(build, &group)?;
        let named = |triangles| items_named(&group, &starts, triangles, &solids);
        let mut s = named_body(String::new(), &raw, options, false, &[], Known::default())
            .map_err(|e| in_items(e, &named))?;
        if s.body.union.is_some() {
            s.name = named(None).0;
            union_at[group[0]] = Some(s);
            for &k in &group[1..] {
                dropped[k] = true;
            }
        }
    }
    Ok(solids
        .into_iter()
        .zip(union_at)
        .zip(dropped)
        .filter(|(_, dropped)| !dropped)
        .map(|((s, u), _)| u.unwrap_or(s))
        .collect())
}

/// Build items checked together: the warnings, and whether they overlap.
type Checked = (Vec<Warning>, bool);

/// Two build items checked together: which, the warnings, whether they overlap.
type CheckedPair = ([usize; 2], Vec<Warning>, bool);

/// Repeated placements (see [`items_apart`]): the pairs checked `together`, each [first,
/// second] with its warnings and whether the two overlap.
fn repeated_placements(
    build: &crate::io::threemf::Build,
    boxes: &[crate::body::BoundingBox],
    together: &dyn Fn(&[usize]) -> Result<Checked>,
) -> Result<Vec<CheckedPair>> {
    let n = boxes.len();
    let mut pairs: Vec<CheckedPair> = Vec::new();
    let object: Vec<usize> = (0..n).map(|k| build.object_of(k)).collect();
    let size = |k: usize| [0, 1, 2].map(|i| boxes[k].max[i] - boxes[k].min[i]);
    // Each object's cells: a quarter of its items' smallest box on each axis.
    let mut cells: std::collections::HashMap<usize, [f64; 3]> = Default::default();
    for (k, &o) in object.iter().enumerate() {
        let (s, c) = (size(k), cells.entry(o).or_insert(size(k)));
        *c = [0, 1, 2].map(|i| c[i].min(s[i]));
    }
    let cell: Vec<[f64; 3]> = (0..n)
        .map(|k| {
            let c = cells[&object[k]];
            [0, 1, 2].map(|i| (boxes[k].min[i] / (NEAR * c[i])).floor())
        })
        .collect();
    // Boxes that coincide but for less than a quarter of their size on each axis.
    let near = |a: usize, b: usize| {
        let (p, q) = (size(a), size(b));
        (0..3).all(|i| {
            let d = NEAR * p[i].min(q[i]);
            (boxes[a].min[i] - boxes[b].min[i]).abs() < d
                && (boxes[a].max[i] - boxes[b].max[i]).abs() < d
        })
    };
    // The items of one object and one cell, in a run (their boxes all meet), in order.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        object[a]
            .cmp(&object[b])
            .then_with(|| {
                (0..3)
                    .map(|i| cell[a][i].total_cmp(&cell[b][i]))
                    .fold(Ordering::Equal, Ordering::then)
            })
            .then(a.cmp(&b))
    });
    // Whether the run has overlapped already (with --overlap sum: its items are one
    // group, known to overlap).
    let mut run_overlaps = false;
    for w in order.windows(2) {
        let (a, b) = (w[0], w[1]);
        if object[a] != object[b] || cell[a] != cell[b] {
            run_overlaps = false;
            continue;
        }
        if run_overlaps || !near(a, b) {
            continue;
        }
        let (warnings, overlap) = together(&[a, b])?;
        run_overlaps = overlap;
        pairs.push(([a, b], warnings, overlap));
    }
    Ok(pairs)
}

/// The items whose boxes meet, directly or through others: groups of item numbers, each
/// ascending, in the order of their first items (an item meeting no other is a group of
/// one).
///
/// A sweep along x: each box, in the order of their low x, is set against the groups
/// still reaching that far, first against a group's box (of its members') and then against
/// its members still reaching, each only until one meets it. A stack of thousands of items
/// at one spot, or a hair apart, is one group whose first member meets the next box: the
/// sweep is linear in the boxes there, not in their pairs (it was: 20,000 placements at
/// one spot, 2·10⁸ box tests).
fn meeting_groups(boxes: &[crate::body::BoundingBox]) -> Vec<Vec<usize>> {
    use crate::body::BoundingBox;
    /// Items whose boxes meet: those still reaching the sweep, all of them, and their box.
    struct Group {
        reaching: Vec<usize>,
        items: Vec<usize>,
        bounds: BoundingBox,
        merged: bool,
    }
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| boxes[a].min[0].total_cmp(&boxes[b].min[0]));
    let mut groups: Vec<Group> = Vec::new();
    // The groups whose box reaches the sweep.
    let mut live: Vec<usize> = Vec::new();
    let mut met: Vec<usize> = Vec::new();
    for &b in &order {
        let x = boxes[b].min[0];
        live.retain(|&g| groups[g].bounds.max[0] >= x);
        met.clear();
        for &g in &live {
            let group = &mut groups[g];
            if !group.bounds.meets(&boxes[b]) {
                continue;
            }
            let mut m = 0;
            while m < group.reaching.len() {
                let a = group.reaching[m];
                if boxes[a].max[0] < x {
                    group.reaching.swap_remove(m);
                } else if boxes[a].meets(&boxes[b]) {
                    met.push(g);
                    break;
                } else {
                    m += 1;
                }
            }
        }
        // Into the largest group it meets, the others merged into that one.
        let Some(&into) = met.iter().max_by_key(|&&g| groups[g].items.len()) else {
            live.push(groups.len());
            groups.push(Group {
                reaching: vec![b],
                items: vec![b],
                bounds: boxes[b],
                merged: false,
            });
            continue;
        };
        for &g in &met {
            if g != into {
                let (reaching, items) = (
                    std::mem::take(&mut groups[g].reaching),
                    std::mem::take(&mut groups[g].items),
                );
                let bounds = groups[g].bounds;
                groups[g].merged = true;
                let target = &mut groups[into];
                target.reaching.extend(reaching);
                target.items.extend(items);
                target.bounds = target.bounds.union(&bounds);
            }
        }
        let target = &mut groups[into];
        target.reaching.push(b);
        target.items.push(b);
        target.bounds = target.bounds.union(&boxes[b]);
        if met.len() > 1 {
            live.retain(|&g| !groups[g].merged);
        }
    }
    let mut out: Vec<Vec<usize>> = groups
        .into_iter()
        .filter(|g| !g.merged)
        .map(|mut g| {
            g.items.sort_unstable();
            g.items
        })
        .collect();
    out.sort_unstable_by_key(|g| g[0]);
    out
}

/// How the items of `set` (their triangles numbered through them, each item's from
/// `starts`) are named in a message: all of them when they are few; else the ones holding
/// `triangles` (or the first two) and how many meet, so that the line is as long for
/// thousands of items as for two. With the numbering of the named items' triangles (of
/// those not starting at 1).
fn items_named(
    set: &[usize],
    starts: &[usize],
    triangles: Option<[usize; 2]>,
    solids: &[Solid],
) -> (String, String) {
    const ALL: usize = 3;
    let shown: Vec<usize> = if set.len() <= ALL {
        (0..set.len()).collect()
    } else {
        let holding = |t: usize| starts.partition_point(|&s| s <= t).saturating_sub(1);
        let mut p = match triangles {
            Some([a, b]) => vec![holding(a), holding(b)],
            None => vec![0, 1],
        };
        p.sort_unstable();
        p.dedup();
        p
    };
    let names: Vec<String> = shown
        .iter()
        .map(|&p| format!("{} ({})", set[p] + 1, solids[set[p]].name))
        .collect();
    let mut items = match &names[..] {
        [a] => format!("build item {a}"),
        [a, b] => format!("build items {a} and {b}"),
        _ => format!("build items {}", names.join(", ")),
    };
    if shown.len() < set.len() {
        items += &format!(", of {} whose boxes meet", set.len());
    }
    let numbering = shown
        .iter()
        .filter(|&&p| starts[p] > 1)
        .map(|&p| format!("item {}'s from {}", set[p] + 1, starts[p]))
        .collect::<Vec<_>>()
        .join(", ");
    (items, numbering)
}

/// What the caller knows already of a body's triangles.
#[derive(Clone, Copy, Default)]
struct Known {
    /// No two of them overlap, and no point of them joins separate pieces (the items of a
    /// 3MF object checked once).
    clean: bool,
    /// The parallel path has refused them (an STL read in place first): only the general
    /// path, which says what is wrong, is left to try.
    refused: bool,
}

/// One body of a file, validated and integrated ([`body`]), its error named after it when
/// the file holds several (`name` not empty).
fn named_body(
    name: String,
    raw: &RawMesh,
    options: &Options,
    fast: bool,
    read: &[Warning],
    known: Known,
) -> Result<Solid> {
    let mut solid = body(raw, options, fast, read, known).map_err(|e| {
        if name.is_empty() {
            e
        } else {
            Error::in_part(&name, e)
        }
    })?;
    solid.name = name;
    Ok(solid)
}

/// A warning for an ASCII STL's facet normals that are not three finite numbers.
fn normals_warning(u: stl::Unread) -> Warning {
    Warning::NormalsUnread {
        count: u.count,
        first: u.first as u64 + 1,
    }
}

/// A warning for a binary STL read past stray bytes after its last record.
fn stray_warning(bytes: &[u8]) -> Option<Warning> {
    match stl::stray_bytes(bytes) {
        0 => None,
        count => Some(Warning::StrayBytes { count }),
    }
}

/// What the overlap check found, said: contacts taken for touching, or triangles that
/// cross summed as asked.
fn overlap_warning(
    contacts: Option<crate::overlap::Contacts>,
    summed: Option<crate::error::OverlapAt>,
) -> Option<Warning> {
    match (contacts, summed) {
        (_, Some(at)) => Some(Warning::OverlapSummed(at)),
        (Some(c), None) => Some(Warning::Touching(c)),
        (None, None) => None,
    }
}

/// A body validated by the one path, integrated by every method of `options`, with the
/// warnings of what validation found and repaired.
fn meshed(v: Validated, options: &Options, read: &[Warning]) -> Result<Solid> {
    #[cfg(feature = "union")]
    if options.overlap == OverlapPolicy::Union
        && (v.summed.is_some() || v.unite || v.mesh.nested_count() > 0)
    {
        return united(v.mesh, options, read);
    }
    let Validated { mesh, summed, .. } = v;
    let integrals = integrate(&mesh, options)?;
    let r = *mesh.repairs();
    let overlap = overlap_warning(r.contacts, summed);
    // With --overlap sum, a body inside another crosses none of its triangles: say so.
    let nested = (mesh.nested_count() > 0 && overlap.is_none()).then(|| Warning::Nested {
        count: mesh.nested_count(),
    });
    let warnings = read.iter().cloned().chain(overlap).chain(nested);
    let warnings = warnings.chain(repair_warnings(&r)).collect();
    Ok(Solid::from_mesh(mesh, integrals, options, warnings))
}

/// The warnings of what validation repaired: corners joined, T-junctions split, triangles
/// turned.
fn repair_warnings(r: &crate::body::Repairs) -> impl Iterator<Item = Warning> + use<> {
    [
        r.joined.map(|j| Warning::PointsJoined {
            count: j.points,
            tolerance: j.tolerance,
        }),
        r.junctions.map(Warning::JunctionsSplit),
        r.reoriented.map(|count| Warning::Reoriented { count }),
    ]
    .into_iter()
    .flatten()
}

/// A mesh whose bodies overlap, replaced by their union ([`crate::union`]) and
/// integrated: its counts are the input's, its surface and box the union's.
#[cfg(feature = "union")]
fn united(mesh: Mesh, options: &Options, read: &[Warning]) -> Result<Solid> {
    let (union, done) = crate::union::united(&mesh)?;
    let integrals = integrate(&union, options)?;
    let warnings = read.iter().cloned().chain([Warning::United(done)]);
    let warnings = warnings.chain(repair_warnings(mesh.repairs())).collect();
    let input = Body::of(&mesh);
    let mut solid = Solid::from_mesh(union, integrals, options, warnings);
    solid.body = Body {
        triangles: input.triangles,
        degenerate_triangles: input.degenerate_triangles,
        vertices: input.vertices,
        junctions: input.junctions,
        union: Some(done),
        ..solid.body
    };
    Ok(solid)
}

/// Every method of `options` on `mesh`; a voxel grid of more than [`MAX_VOXEL_COLUMNS`]
/// columns is refused.
fn integrate(mesh: &Mesh, options: &Options) -> Result<Vec<MeshIntegral>> {
    if options.methods.contains(&MeshMethod::Voxel) {
        let g = crate::method::voxel::grid_for(mesh, options.resolution);
        let columns = g.cells[0] as f64 * g.cells[1] as f64;
        if columns > MAX_VOXEL_COLUMNS {
            return Err(Error::TooLarge {
                excess: crate::error::Excess::VoxelColumns {
                    resolution: options.resolution,
                    cells: g.cells,
                    max: MAX_VOXEL_COLUMNS,
                },
            });
        }
    }
    let integrals: Vec<MeshIntegral> = options
        .methods
        .iter()
        .map(|m| m.integrate(mesh, options.resolution))
        .collect();
    // A grid over the whole box can pass by bodies much smaller than the box (parts far
    // apart in one file): with no column through the mesh, there is no answer to give.
    if let Some(g) = integrals.iter().find_map(|i| {
        i.grid
            .as_ref()
            .filter(|_| i.properties.volume.abs() == 0.0 || i.properties.volume.is_nan())
    }) {
        return Err(Error::Unresolvable {
            what: crate::error::Unresolved::VoxelGrid {
                cells: g.cells,
                cell_size: g.cell_size,
            },
        });
    }
    Ok(integrals)
}

/// One raw body, validated by the one path ([`validate`], or its shortcut) and
/// integrated; as a thin wall with `--shell`.
fn body(
    raw: &RawMesh,
    options: &Options,
    fast: bool,
    read: &[Warning],
    known: Known,
) -> Result<Solid> {
    if let Some(t) = options.shell {
        return wall(raw, options, t, read);
    }
    let checks = options.checks();
    if !known.refused {
        let soup = crate::soup::IndexedSoup(raw);
        if let Some(found) = shortcut(&soup, options, &checks, fast, known.clean, read) {
            return found;
        }
    }
    meshed(validate(raw, &checks, known.clean)?, options, read)
}

/// A surface integrated as a thin wall of thickness `t`. A wall may cross another (sharing
/// a sliver of the order of t², which the thin-wall approximation neglects), but area
/// lying twice is mass counted twice: refused unless overlaps are summed.
fn wall(raw: &RawMesh, options: &Options, t: f64, read: &[Warning]) -> Result<Solid> {
    let soup = crate::soup::IndexedSoup(raw);
    let (mesh, welded) = crate::soup::general::surface(raw)?;
    if options.overlap != OverlapPolicy::Sum
        && let Some(o) = crate::overlap::doubled_faces_welded(&soup, welded)
    {
        return Err(Error::Overlapping {
            at: o.at(&soup),
            sum_allowed: true,
        });
    }
    let unit = MeshIntegral {
        properties: crate::method::shell::integrate(&mesh, t),
        grid: None,
    };
    let warnings = read.to_vec();
    Ok(Solid::from_mesh(mesh, vec![unit], options, warnings))
}

#[cfg(test)]
mod tests {
    use super::{MeshFormat, Options, meeting_groups, read_solids};
    use crate::io::threemf::tests::archive;

    /// A unit cube's vertices and triangles as 3MF mesh XML, its low corner at `at`.
    fn cube(at: [f64; 3]) -> String {
        cuboid(at, [1.0; 3])
    }

    /// A box's vertices and triangles as 3MF mesh XML.
    fn cuboid(at: [f64; 3], size: [f64; 3]) -> String {
        let m = crate::mesh::test_meshes::cuboid(at, size);
        let v: String = m
            .vertices
            .iter()
            .map(|p| format!(r#"<vertex x="{}" y="{}" z="{}"/>"#, p[0], p[1], p[2]))
            .collect();
        let t: String = m
            .triangles
            .iter()
            .map(|t| format!(r#"<triangle v1="{}" v2="{}" v3="{}"/>"#, t[0], t[1], t[2]))
            .collect();
        format!("{v}|{t}")
    }

    /// A 3MF model of one object made of `meshes` (each "vertices|triangles" with its own
    /// numbering) placed by each of `items` (transforms).
    fn model(meshes: &[String], items: &[&str]) -> Vec<u8> {
        let (mut vx, mut tx, mut base) = (String::new(), String::new(), 0);
        for m in meshes {
            let (v, t) = m.split_once('|').unwrap();
            vx += v;
            tx += &shift(t, base);
            base += v.matches("<vertex").count();
        }
        let build: String = items
            .iter()
            .map(|t| format!(r#"<item objectid="1" transform="{t}"/>"#))
            .collect();
        archive(&format!(
            r#"<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources><object id="1" type="model"><mesh><vertices>{vx}</vertices><triangles>{tx}</triangles></mesh></object></resources><build>{build}</build></model>"#
        ))
    }

    /// Adds `base` to every vertex index of `<triangle v1=".." v2=".." v3=".."/>` elements.
    fn shift(t: &str, base: usize) -> String {
        let mut out = String::new();
        for part in t.split('"') {
            match part.parse::<usize>() {
                Ok(i) => out += &(i + base).to_string(),
                Err(_) => out += part,
            }
            out.push('"');
        }
        out.pop();
        out
    }

    #[test]
    fn an_object_placed_many_times_is_checked_once_and_integrated_in_place() {
        let moves = [
            "1 0 0 0 1 0 0 0 1 0 0 0",
            "1 0 0 0 1 0 0 0 1 1000000 0 0",
            "-1 0 0 0 1 0 0 0 1 0 5 0",
            "0 1 0 -1 0 0 0 0 2 3 3 3",
        ];
        let file = model(&[cube([0.0; 3])], &moves);
        let solids = read_solids(&file, MeshFormat::ThreeMf, &Options::default()).unwrap();
        let volumes: Vec<f64> = solids
            .iter()
            .map(|s| s.integrals[0].properties.volume)
            .collect();
        assert_eq!(volumes, [1.0, 1.0, 1.0, 2.0]);
        assert_eq!(solids[1].integrals[0].properties.centroid.x, 1000000.5);
        assert_eq!(solids[2].integrals[0].properties.centroid.x, -0.5);
        assert!(
            solids
                .iter()
                .all(|s| !s.body.inside_out && s.warnings.is_empty())
        );
        // Two cubes overlapping in one object: every placement is refused, the first named.
        let file = model(&[cube([0.0; 3]), cube([0.5, 0.25, 0.125])], &moves);
        let e = read_solids(&file, MeshFormat::ThreeMf, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("object 1: ") && e.contains("overlap"), "{e}");
        // A tetrahedron inside a 4-cube, touching only its corner: no triangle crosses or
        // lies on another, so the object is not "clean" only for the point where the two
        // meet; each placement is still looked at, and refused.
        let tetra = concat!(
            r#"<vertex x="0" y="0" z="0"/><vertex x="1" y="1" z="2"/>"#,
            r#"<vertex x="2" y="1" z="1"/><vertex x="1" y="2" z="1"/>|"#,
            r#"<triangle v1="0" v2="2" v3="1"/><triangle v1="0" v2="3" v3="2"/>"#,
            r#"<triangle v1="0" v2="1" v3="3"/><triangle v1="1" v2="2" v3="3"/>"#
        );
        let file = model(&[cuboid([0.0; 3], [4.0; 3]), tetra.to_string()], &moves);
        let e = read_solids(&file, MeshFormat::ThreeMf, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("object 1: ") && e.contains("lies inside another shell"),
            "{e}"
        );
    }

    #[test]
    fn meeting_groups_are_those_of_every_pair() {
        // Boxes scattered, clustered, stacked at one spot and a hair apart, touching end
        // to end: the sweep's groups are the components of all pairs whose boxes meet.
        use crate::body::BoundingBox;
        let mut rng = crate::test_rng::Lcg(7);
        for case in 0..40 {
            let n = 1 + rng.below(300) as usize;
            let spread = [0.5, 4.0, 40.0][case % 3];
            let boxes: Vec<BoundingBox> = (0..n)
                .map(|k| {
                    let at: [f64; 3] = match case % 4 {
                        // Stacked: one spot, or 1e-4 apart along x.
                        0 => [(k % 2) as f64 * k as f64 * 1e-4, 0.0, 0.0],
                        // End to end along x (touching), some lifted apart.
                        1 => [k as f64, 0.0, (rng.below(3) as f64) * 0.75],
                        _ => [0, 1, 2].map(|_| rng.unit() * spread),
                    };
                    let size =
                        [0, 1, 2].map(|_| if case % 4 == 1 { 1.0 } else { 0.1 + rng.unit() });
                    BoundingBox {
                        min: at,
                        max: [0, 1, 2].map(|i| at[i] + size[i]),
                    }
                })
                .collect();
            let mut sets = crate::union_find::UnionFind::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    if boxes[a].meets(&boxes[b]) {
                        sets.union(a as u32, b as u32);
                    }
                }
            }
            // Numbered by first appearance: in order of each group's least item.
            let (labels, count) = sets.labels(0..n as u32);
            let mut expected: Vec<Vec<usize>> = vec![Vec::new(); count];
            for (k, &l) in labels.iter().enumerate() {
                expected[l as usize].push(k);
            }
            assert_eq!(meeting_groups(&boxes), expected, "case {case}");
        }
    }
}
