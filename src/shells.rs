//! The shells of a closed, consistently wound surface: which are bodies and which are
//! cavities, or why they cannot be told apart.
//!
//! Both mesh paths call [`check`]: the general one ([`Mesh`](crate::Mesh)) on its welded
//! triangles, and the parallel one ([`crate::soup`]) on a file's triangles where they lie,
//! so the two decide alike. Each shell's signed volume (about the same reference vertex the
//! `tetra` sums use) must be clearly non-zero; with several shells, the winding number of a
//! point of each shell with respect to the others (the sum of solid angles, after Van
//! Oosterom and Strackee, "The solid angle of a plane triangle", 1983) must be 0 for a shell
//! wound outward (a body) and 1 for one wound inward (a cavity), or all of it reversed for a
//! mesh wound inside out. Only the shells whose bounding box holds the point can wind around
//! it; a grid of the shells' boxes finds them, so a million shells cost a million lookups,
//! and a shell whose box meets no other shell's box (found first, on every core, by
//! [`crate::boxes`]) needs none.

use crate::body::BoundingBox;
use crate::mass3d::MassProperties3d;
use crate::sums::Sums;
use nalgebra::{Matrix3, Point3, Vector3};
use rayon::prelude::*;

/// A triangle given this label belongs to no shell (a degenerate one).
pub(crate) const NONE: u32 = u32::MAX;

/// What the shells are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Verdict {
    /// Connected pieces of the surface.
    pub shells: usize,
    /// Shells that are holes inside a body.
    pub cavities: usize,
    /// Whether every shell is wound the wrong way round (a mesh inside out).
    pub inside_out: bool,
    /// Bodies lying inside another body (only when bodies may overlap).
    pub nested: usize,
    /// With several shells: volume, centroid and inertia tensor (unit density) of them all,
    /// right way out, each shell summed about its own first corner and the shells combined
    /// about their common centroid (parallel-axis theorem), so that a small body far from
    /// another keeps its digits. `None` for one shell (the caller's sums are its own).
    pub properties: Option<MassProperties3d>,
}

/// Why the shells were refused; `shell` counts from 0, `first` is the shell's first
/// triangle in the caller's numbering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Refusal {
    /// The shell's volume is not a finite number.
    Overflow { shell: usize, first: usize },
    /// The shell encloses no volume (flat, or folding onto itself).
    Flat { shell: usize, first: usize },
    /// The rounding of the shell's sums could reach a millionth of its volume (a sliver
    /// spanning many orders of magnitude): `volume` could be off by `error`.
    Unresolvable {
        shell: usize,
        first: usize,
        volume: f64,
        error: f64,
    },
    /// No point of the shell has a clear winding number: it touches another shell.
    Touches { shell: usize, first: usize },
    /// The shell's winding disagrees with its place (a cavity outside any body when
    /// `inward`, else a body inside another).
    Misplaced {
        shell: usize,
        first: usize,
        inward: bool,
    },
    /// A cavity whose box is not inside the box of any body: shells cross.
    CavityOutside { shell: usize, first: usize },
    /// The cavities enclose as much as the bodies or more.
    Outweighed { total: f64 },
}

/// A shell's box.
type Bounds = BoundingBox;

/// Decides the shells of a surface whose triangle `t` has corners `corners(t)` and lies in
/// shell `labels[t]` (numbered from 0 in order of first appearance, [`NONE`] for a triangle
/// that counts for nothing); each shell's signed volume is summed about its own first
/// corner (a body far from the others keeps its digits). With
/// `overlapping`, bodies may overlap (`--overlap sum`): a shell wound outward is a body
/// wherever it lies, even partly inside another.
///
/// Sums run over each shell's triangles in order, the same bits on any number of threads.
pub(crate) fn check<F>(
    labels: &[u32],
    n_shells: usize,
    corners: F,
    overlapping: bool,
) -> Result<Verdict, Refusal>
where
    F: Fn(usize) -> [Point3<f64>; 3] + Sync,
{
    check_apart(labels, n_shells, corners, overlapping).map(|(verdict, _)| verdict)
}

/// Whether a shell of signed volume `v`, Σ |signed tetrahedron volume| `m`, is flat or
/// folds back on itself: its signed tetrahedra cancel to rounding.
pub(crate) fn encloses_no_volume(v: f64, m: f64) -> bool {
    v.abs() <= 1e-9 * m
}

/// [`check`], and with several shells, whether each shell's box (of its corners) meets
/// another shell's box, if that was found ([`meets_another`](crate::boxes::meets_another);
/// `None` when the boxes are a crowd): only such shells can wind around a point of another
/// or hold a cavity, and only their triangles can meet another shell's, which the overlap
/// check then need not ask again.
pub(crate) fn check_apart<F>(
    labels: &[u32],
    n_shells: usize,
    corners: F,
    overlapping: bool,
) -> Result<(Verdict, Option<Vec<bool>>), Refusal>
where
    F: Fn(usize) -> [Point3<f64>; 3] + Sync,
{
    let mut lookup = Lookup {
        turn: true,
        turned: false,
    };
    check_apart_in(labels, n_shells, corners, overlapping, &mut lookup)
}

/// How [`check_apart_in`] looks up the shells holding a point.
struct Lookup {
    /// Whether a crowd of boxes may be looked at in a turned frame (see [`Probes`]); the
    /// tests hold the turned frame to the file's.
    turn: bool,
    /// Set when the points were looked up in a turned frame.
    turned: bool,
}

/// [`check_apart`], looking the points up as `lookup` says.
fn check_apart_in<F>(
    labels: &[u32],
    n_shells: usize,
    corners: F,
    overlapping: bool,
    lookup: &mut Lookup,
) -> Result<(Verdict, Option<Vec<bool>>), Refusal>
where
    F: Fn(usize) -> [Point3<f64>; 3] + Sync,
{
    let shells = Shells::new(labels, n_shells, &corners);
    let (stats, boxes) = shells.measure()?;
    if n_shells == 1 {
        let verdict = Verdict {
            shells: 1,
            cavities: 0,
            inside_out: stats[0].volume < 0.0,
            nested: 0,
            properties: None,
        };
        return Ok((verdict, None));
    }
    // A point of a shell lies in another shell's box only if the two boxes meet, and a
    // cavity lies in a body's box only if theirs do: the index holds only the boxes that
    // meet another, and a shell whose box meets none winds around nothing.
    let meets = crate::boxes::meets_another(&boxes);
    let meets_another = |s: usize| meets.as_ref().is_none_or(|m| m[s]);
    // Where the boxes are a crowd (parallel slivers along a diagonal, whose boxes are as
    // wide as they are long), the points are looked up among boxes in a frame turned along
    // the slivers, if they are no crowd there (see [`Probes`]).
    let turned = if meets.is_none() && n_shells >= TURN_SHELLS && lookup.turn {
        Probes::turned(labels, n_shells, &|s| shells.own(s), &corners)
    } else {
        None
    };
    lookup.turned = turned.is_some();
    let probes = turned.as_ref().map_or(
        Probes {
            frame: None,
            boxes: &boxes,
            meets: meets.as_deref(),
        },
        Probes::borrowed,
    );
    let index = BoxIndex::new(probes.boxes, &|s| probes.meets_another(s));
    let depth = shells.depths(&probes, &index)?;
    let inside_out = shells.inside_out(&stats, &depth, overlapping)?;
    let flip = if inside_out { -1.0 } else { 1.0 };
    // The boxes in the file's frame, indexed only if there is a cavity, when the points
    // were looked up in a turned frame.
    let unturned = std::cell::OnceCell::new();
    let index = || match probes.frame {
        None => &index,
        Some(_) => unturned.get_or_init(|| BoxIndex::new(&boxes, &meets_another)),
    };
    let cavities = shells.cavities(&stats, &boxes, index, flip)?;
    let total: f64 = stats.iter().map(|s| s.volume).sum::<f64>() * flip;
    if total.is_nan() || total <= 0.0 {
        return Err(Refusal::Outweighed { total });
    }
    let verdict = Verdict {
        shells: n_shells,
        cavities,
        inside_out,
        nested: (0..n_shells)
            .filter(|&s| stats[s].volume * flip > 0.0 && depth[s] as f64 * flip >= 1.0)
            .count(),
        properties: Some(combined(
            &stats,
            &shells.by_shell,
            &shells.start,
            &corners,
            flip,
        )),
    };
    Ok((verdict, meets))
}

/// The shells of a surface for [`check_apart_in`]: each shell's triangles in order, and
/// the triangles' corners.
struct Shells<'a, F> {
    n: usize,
    /// Shell `s`'s triangles are `by_shell[start[s]..start[s + 1]]`.
    by_shell: Vec<u32>,
    start: Vec<usize>,
    corners: &'a F,
}

impl<'a, F> Shells<'a, F>
where
    F: Fn(usize) -> [Point3<f64>; 3] + Sync,
{
    /// The `n` shells of the triangles labelled `labels` (see [`check`]).
    fn new(labels: &[u32], n: usize, corners: &'a F) -> Self {
        // Each shell's triangles, in order: a counting sort by shell, or, where a file lists
        // its bodies one after another (the labels never go down), the triangles as they are.
        let mut start = vec![0usize; n + 1];
        for &s in labels {
            if s != NONE {
                start[s as usize + 1] += 1;
            }
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let grouped = labels
            .par_windows(2)
            .all(|w| w[0] != NONE && w[1] != NONE && w[0] <= w[1]);
        let by_shell: Vec<u32> = if grouped {
            (0..labels.len() as u32).collect()
        } else {
            let mut by_shell = vec![0u32; start[n]];
            let mut fill = start.clone();
            for (t, &s) in labels.iter().enumerate() {
                if s != NONE {
                    by_shell[fill[s as usize]] = t as u32;
                    fill[s as usize] += 1;
                }
            }
            by_shell
        };
        Shells {
            n,
            by_shell,
            start,
            corners,
        }
    }

    /// Shell `s`'s triangles, in order.
    fn own(&self, s: usize) -> &[u32] {
        &self.by_shell[self.start[s]..self.start[s + 1]]
    }

    /// Shell `s`'s first triangle.
    fn first(&self, s: usize) -> usize {
        self.own(s).first().map_or(0, |&t| t as usize)
    }

    /// What is wrong with shell `s`, if anything, from its signed volume `v`, Σ |signed
    /// tetrahedron volume| `m` and the sums' rounding bound `error`.
    fn fault(&self, s: usize, v: f64, m: f64, error: f64) -> Option<Refusal> {
        let first = self.first(s);
        if !v.is_finite() || !m.is_finite() {
            return Some(Refusal::Overflow { shell: s, first });
        }
        if encloses_no_volume(v, m) {
            return Some(Refusal::Flat { shell: s, first });
        }
        if self.n > 1 && (error > 1e-6 * v.abs() || !error.is_finite()) {
            return Some(Refusal::Unresolvable {
                shell: s,
                first,
                volume: v,
                error,
            });
        }
        None
    }

    /// Each shell's signed volume, centroid and whether it is at fault, summed about its
    /// first corner, and its box (kept apart: 40 bytes and 48 a shell, where a million
    /// shells make every byte a page to fault in); the first shell at fault, summed again
    /// to say why.
    fn measure(&self) -> Result<(Vec<Stat>, Vec<Bounds>), Refusal> {
        let corners = self.corners;
        let terms = if self.n > 1 {
            Terms::Centroid
        } else {
            Terms::Volume
        };
        let stat = |s: usize| {
            let (r, (sums, m)) = shell_sums(self.own(s), corners, terms);
            let volume = sums.det / 6.0;
            let error = 8.0 * f64::EPSILON * sums.spread / 6.0;
            Stat {
                volume,
                centroid: r + Vector3::from(sums.first) / (4.0 * sums.det),
                faulty: self.fault(s, volume, m, error).is_some(),
            }
        };
        let bounds = |s: usize| {
            let mut bx = BoundingBox::empty();
            for &t in self.own(s) {
                for p in &corners(t as usize) {
                    bx.include(&[p.x, p.y, p.z]);
                }
            }
            bx
        };
        let (stats, boxes): (Vec<Stat>, Vec<Bounds>) = (0..self.n)
            .into_par_iter()
            .with_min_len(256)
            .map(|s| (stat(s), bounds(s)))
            .unzip();
        if let Some(s) = stats.iter().position(|st| st.faulty) {
            let (_, (sums, m)) = shell_sums(self.own(s), corners, terms);
            let error = 8.0 * f64::EPSILON * sums.spread / 6.0;
            if let Some(refusal) = self.fault(s, sums.det / 6.0, m, error) {
                return Err(refusal);
            }
        }
        Ok((stats, boxes))
    }

    /// The winding number of a point of shell `s` with respect to all the others (0 for a
    /// body, 1 for a cavity inside one body, 0 again for a body inside a cavity...), the
    /// shells holding a point looked up in `index` (`found`: scratch); `None` when no
    /// point decides it. The number is counted exactly, as the signed crossings of a ray
    /// from the point along an axis (see [`ray_crossing`]). A point on another shell (a
    /// box resting on another: its bottom corners on the other's top face) has none, nor
    /// one within reach of another shell's face (see [`crate::tolerance::reach_across`]):
    /// bodies that touch in the design but were rounded leave a point of one a little
    /// inside the other, as good as on it. Such a point is skipped, as is one whose rays
    /// all pass through an edge or a corner.
    fn winding(
        &self,
        probes: &Probes,
        index: &BoxIndex,
        found: &mut Vec<usize>,
        s: usize,
    ) -> Option<i64> {
        let corners = |t: u32| (self.corners)(t as usize).map(|v| [v.x, v.y, v.z]);
        if !probes.meets_another(s) {
            return Some(0);
        }
        // Candidate points: corners of a few of the shell's triangles, then the same
        // triangles' centroids (for a body wedged between others that every corner
        // touches).
        let firsts = self.own(s).iter().take(16).map(|&t| corners(t));
        let centroid =
            |c: [[f64; 3]; 3]| std::array::from_fn(|k| (c[0][k] + c[1][k] + c[2][k]) / 3.0);
        let mut tris: Vec<u32> = Vec::new();
        for p in firsts.clone().flatten().chain(firsts.map(centroid)) {
            index.containing(&probes.place(&Point3::from(p)), found);
            if found.iter().all(|&k| k == s) {
                // No other shell's box holds the point: none winds around it.
                return Some(0);
            }
            // The other shells' triangles: a shell whose box does not hold the point
            // winds around it no times.
            tris.clear();
            tris.extend(
                found
                    .iter()
                    .filter(|&&k| k != s)
                    .flat_map(|&k| self.own(k).iter().copied()),
            );
            if tris.iter().any(|&t| near(&p, &corners(t))) {
                continue;
            }
            for k in 0..3 {
                let count = tris.iter().try_fold(0_i64, |w, &t| {
                    Some(w + ray_crossing(&corners(t), &p, k)? as i64)
                });
                if count.is_some() {
                    return count;
                }
            }
        }
        None
    }

    /// Each shell's [`winding`](Self::winding) number. Stopped at the first shell that no
    /// point decides; that shell is then found in order (the message names the first), so
    /// that a file of shells all touching one another (copies a hair apart) is refused
    /// after one shell's probes, not every shell's.
    fn depths(&self, probes: &Probes, index: &BoxIndex) -> Result<Vec<i64>, Refusal> {
        let probe = |found: &mut Vec<usize>, s: usize| self.winding(probes, index, found, s);
        let depth: Option<Vec<i64>> = (0..self.n)
            .into_par_iter()
            .with_min_len(64)
            .map_init(Vec::new, probe)
            .collect();
        depth.ok_or_else(|| {
            let mut found = Vec::new();
            let s = (0..self.n)
                .find(|&s| probe(&mut found, s).is_none())
                .unwrap_or(0);
            Refusal::Touches {
                shell: s,
                first: self.first(s),
            }
        })
    }

    /// Whether the surface is inside out: every shell a body where it winds 0 times (with
    /// `overlapping`, at least 0) and a cavity where once (at least once), the shells as
    /// wound or all turned over; else the first shell that fits neither.
    fn inside_out(
        &self,
        stats: &[Stat],
        depth: &[i64],
        overlapping: bool,
    ) -> Result<bool, Refusal> {
        let fits = |s: usize, flip: f64| {
            let (v, w) = (stats[s].volume * flip, depth[s] as f64 * flip);
            if overlapping {
                (v > 0.0 && w >= 0.0) || (v < 0.0 && w >= 1.0)
            } else {
                (v > 0.0 && w == 0.0) || (v < 0.0 && w == 1.0)
            }
        };
        if (0..self.n).all(|s| fits(s, 1.0)) {
            Ok(false)
        } else if (0..self.n).all(|s| fits(s, -1.0)) {
            Ok(true)
        } else {
            let s = (0..self.n).find(|&s| !fits(s, 1.0)).unwrap_or(0);
            Err(Refusal::Misplaced {
                shell: s,
                first: self.first(s),
                inward: stats[s].volume < 0.0,
            })
        }
    }

    /// How many cavities there are (shells of negative volume once turned by `flip`).
    /// One vertex decided whether a shell is a cavity; its box must also lie inside a
    /// body's (looked up in the index `index()` of the boxes `boxes`), else shells cross
    /// each other: refused rather than a negative or shrunken volume printed.
    fn cavities<'b>(
        &self,
        stats: &[Stat],
        boxes: &[Bounds],
        index: impl Fn() -> &'b BoxIndex<'b>,
        flip: f64,
    ) -> Result<usize, Refusal> {
        let volume = |s: usize| stats[s].volume;
        let mut found = Vec::new();
        let mut cavities = 0;
        for s in 0..self.n {
            if volume(s) * flip >= 0.0 {
                continue;
            }
            cavities += 1;
            // A box holding this one holds its low corner.
            index().containing(&boxes[s].min, &mut found);
            let held = found
                .iter()
                .any(|&b| volume(b) * flip > 0.0 && boxes[b].holds(&boxes[s]));
            if !held {
                return Err(Refusal::CavityOutside {
                    shell: s,
                    first: self.first(s),
                });
            }
        }
        Ok(cavities)
    }
}

/// Shells from which on a crowd of boxes is looked at again in a turned frame: fewer
/// cost little however their boxes lie.
const TURN_SHELLS: usize = 64;

/// The boxes among which [`check_apart`] looks up the shells holding a point: the shells'
/// own, or, for a crowd of slivers, their boxes in a frame turned along the slivers
/// ([`crate::boxes::along_slivers`]). A shell winds around no point outside the convex
/// hull of its corners, which lies in its box in any frame (and under any linear map).
/// A turned box is the box of its shell's corners as computed in the turned frame,
/// widened by four times a bound on the rounding of any turned point: the computed corners
/// are within one bound of their exact images, a point looked up within one bound of its
/// own, so the box holds the computed image of every point whose exact image lies in the
/// exact images' box (the rest covers the centroids' rounding and the widening's).
struct Probes<'a> {
    /// The turn (rows) and the powers of two its coordinates are multiplied by, or `None`
    /// for the file's frame.
    frame: Option<(Matrix3<f64>, [f64; 3])>,
    boxes: &'a [Bounds],
    /// Whether each box meets another (`None`: take every one as meeting).
    meets: Option<&'a [bool]>,
}

/// [`Probes`] in a turned frame, owning its boxes.
struct Turned {
    frame: Matrix3<f64>,
    /// Powers of two each turned coordinate is multiplied by (exactly).
    scale: [f64; 3],
    boxes: Vec<Bounds>,
    meets: Vec<bool>,
}

impl Probes<'_> {
    fn borrowed(t: &Turned) -> Probes<'_> {
        Probes {
            frame: Some((t.frame, t.scale)),
            boxes: &t.boxes,
            meets: Some(&t.meets),
        }
    }

    /// The shells' boxes in a frame along their slivers, if they are no crowd there.
    fn turned<'b, O, F>(labels: &[u32], n_shells: usize, own: &O, corners: &F) -> Option<Turned>
    where
        O: Fn(usize) -> &'b [u32] + Sync,
        F: Fn(usize) -> [Point3<f64>; 3] + Sync,
    {
        let at = |t: usize| corners(t).map(|p| [p.x, p.y, p.z]);
        let shelled = |t: usize| (labels[t] != NONE).then(|| at(t));
        let frame = crate::boxes::along_slivers(labels.len(), shelled)?;
        // The largest magnitude of each coordinate over every corner bounds it over every
        // point looked up (corners, and centroids of three of them), and so the rounding
        // of any turned point.
        let most = (0..labels.len())
            .into_par_iter()
            .with_min_len(1 << 12)
            .filter_map(shelled)
            .map(|c| {
                c.into_iter()
                    .fold([0.0f64; 3], |m, p| [0, 1, 2].map(|k| m[k].max(p[k].abs())))
            })
            .reduce(|| [0.0; 3], |a, b| [0, 1, 2].map(|k| a[k].max(b[k])));
        let (_, err) = crate::boxes::turn(&frame.map(f64::abs), &most);
        let widen = 4.0 * err[0].max(err[1]).max(err[2]);
        if !widen.is_finite() {
            return None;
        }
        let boxes: Vec<Bounds> = (0..n_shells)
            .into_par_iter()
            .with_min_len(256)
            .map(|s| {
                let mut bx = BoundingBox::empty();
                for &t in own(s) {
                    for p in &at(t as usize) {
                        let (x, _) = crate::boxes::turn(&frame, p);
                        bx.include(&x.map(|x| x - widen));
                        bx.include(&x.map(|x| x + widen));
                    }
                }
                bx
            })
            .collect();
        // Each axis scaled by a power of two (exactly) to bring the boxes' mean sides
        // within a factor of two of the shortest, so that the grid's cubic cells fit them:
        // along the slivers (the first axis) the boxes shrink until they are about as
        // long as they are wide.
        let mean = [0, 1, 2].map(|k| {
            boxes.iter().map(|b| b.max[k] - b.min[k]).sum::<f64>() / n_shells.max(1) as f64
        });
        let shortest = mean
            .iter()
            .copied()
            .filter(|&m| m > 0.0)
            .fold(f64::INFINITY, f64::min);
        let scale = mean.map(|m| {
            if m > 0.0 && shortest.is_finite() {
                (shortest / m).log2().floor().exp2()
            } else {
                1.0
            }
        });
        if !scale.iter().all(|&s| s.is_finite() && s > 0.0) {
            return None;
        }
        // Multiplying by a positive number is monotone, rounded or not: a box that held a
        // point's image holds its scaled image.
        let boxes: Vec<Bounds> = boxes
            .into_iter()
            .map(|b| BoundingBox {
                min: [0, 1, 2].map(|k| b.min[k] * scale[k]),
                max: [0, 1, 2].map(|k| b.max[k] * scale[k]),
            })
            .collect();
        let meets = crate::boxes::meets_another(&boxes)?;
        Some(Turned {
            frame,
            scale,
            boxes,
            meets,
        })
    }
}

impl Probes<'_> {
    fn meets_another(&self, s: usize) -> bool {
        self.meets.is_none_or(|m| m[s])
    }

    /// Where `p` is looked up: itself, or its computed image in the turned frame.
    fn place(&self, p: &Point3<f64>) -> [f64; 3] {
        match &self.frame {
            None => [p.x, p.y, p.z],
            Some((f, scale)) => {
                let x = crate::boxes::turn(f, &[p.x, p.y, p.z]).0;
                [0, 1, 2].map(|k| x[k] * scale[k])
            }
        }
    }
}

/// What [`check`] keeps of a shell.
struct Stat {
    /// Signed volume.
    volume: f64,
    /// Centroid (of the signed volume).
    centroid: Point3<f64>,
    /// Whether it is refused (flat, overflowing, or its volume lost to rounding).
    faulty: bool,
}

/// How much of [`Sums`] [`shell_sums`] fills in.
#[derive(Clone, Copy, PartialEq)]
enum Terms {
    /// The volume (`det`) alone.
    Volume,
    /// The volume, the first moment and the rounding bound (`spread`).
    Centroid,
    /// Everything.
    Full,
}

/// The sums of a shell's triangles about its first corner, in order, with the terms
/// `terms` asks for, and Σ |signed tetrahedron volume|.
fn shell_sums<F>(tris: &[u32], corners: &F, terms: Terms) -> (Point3<f64>, (Sums, f64))
where
    F: Fn(usize) -> [Point3<f64>; 3],
{
    let r = tris
        .first()
        .map_or(Point3::origin(), |&t| corners(t as usize)[0]);
    let mut sums = Sums::default();
    let mut m = 0.0;
    for &t in tris {
        let [a, b, c] = corners(t as usize).map(|p| p - r);
        let det = match terms {
            Terms::Full => sums.add(a.into(), b.into(), c.into()),
            Terms::Volume => {
                let det = a.dot(&b.cross(&c));
                sums.det += det;
                det
            }
            Terms::Centroid => {
                let det = a.dot(&b.cross(&c));
                sums.det += det;
                let s = a + b + c;
                for k in 0..3 {
                    sums.first[k] += s[k] * det;
                }
                sums.spread += a.x.abs() * ((b.y * c.z).abs() + (b.z * c.y).abs())
                    + a.y.abs() * ((b.z * c.x).abs() + (b.x * c.z).abs())
                    + a.z.abs() * ((b.x * c.y).abs() + (b.y * c.x).abs());
                det
            }
        };
        m += (det / 6.0).abs();
    }
    (r, (sums, m))
}

/// Shells per group of the combination (fixed, so that the bits do not depend on the
/// number of threads).
const GROUP: usize = 1024;

/// All shells' volume, centroid and inertia tensor (unit density; `flip` −1 when every
/// shell is wound inside out): the centroid from each shell's volume and centroid, then
/// each shell's tensor about its own centroid (summed again about its first corner), moved
/// to the common centroid (Steiner's parallel-axis theorem) and added, in fixed groups.
/// `by_shell[start[s]..start[s + 1]]` are shell `s`'s triangles.
fn combined<F>(
    stats: &[Stat],
    by_shell: &[u32],
    start: &[usize],
    corners: &F,
    flip: f64,
) -> MassProperties3d
where
    F: Fn(usize) -> [Point3<f64>; 3] + Sync,
{
    // The centroid, as an offset from the first shell's (no digits lost to a far origin).
    let origin = stats[0].centroid;
    let mut volume = 0.0;
    let mut moment = Vector3::zeros();
    for st in stats {
        volume += st.volume;
        moment += (st.centroid - origin) * st.volume;
    }
    let centroid = origin + moment / volume;
    let groups: Vec<Matrix3<f64>> = (0..stats.len().div_ceil(GROUP))
        .into_par_iter()
        .map(|k| {
            let mut sum = Matrix3::zeros();
            for s in k * GROUP..((k + 1) * GROUP).min(stats.len()) {
                let (r, (sums, _)) =
                    shell_sums(&by_shell[start[s]..start[s + 1]], corners, Terms::Full);
                let p = sums.finish(r);
                sum += crate::mass3d::shift_tensor(&p.inertia, p.volume, p.centroid - centroid);
            }
            sum
        })
        .collect();
    let inertia = groups.iter().fold(Matrix3::zeros(), |a, g| a + g) * flip;
    MassProperties3d {
        volume: volume * flip,
        mass: volume * flip,
        centroid,
        inertia: (inertia + inertia.transpose()) * 0.5,
    }
}

/// The points where separate pieces of a closed, consistently wound surface meet (two
/// bodies touching at a corner, a tetrahedron inside a box at its corner): those whose
/// triangles form more than one group joined through shared neighbours (see
/// [`Fans::pinches`](crate::fans::Fans::pinches)). For each, `(point, triangle, group)` for
/// every triangle at it, groups numbered from 0; `triangles` index `n` points and repeat
/// none, at most [`crate::mesh::MAX_TRIANGLES`] of them (more are never read).
pub(crate) fn pinches(n: usize, triangles: &[[u32; 3]]) -> Vec<(u32, u32, u32)> {
    let ids = triangles.as_flattened();
    crate::fans::Fans::new(ids, n)
        .map(|f| f.pinches(ids))
        .unwrap_or_default()
}

/// Whether `p` lies on triangle `t` or within reach across it
/// ([`crate::tolerance::reach_across`]), after a test of `t`'s box against a bound on that
/// reach (with a margin of 2 for the rounding of the bound and the box).
fn near(p: &[f64; 3], t: &[[f64; 3]; 3]) -> bool {
    let m = t.iter().flatten().fold(0.0_f64, |m, x| m.max(x.abs()));
    let e = [0, 1, 2].map(|k| t[1][k] - t[0][k]);
    // The shortest edge is no longer than this one.
    let bound = crate::tolerance::rounding(m)
        .max(crate::tolerance::REACH * (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt());
    let far = (0..3).any(|k| {
        let (lo, hi) = (
            t[0][k].min(t[1][k]).min(t[2][k]),
            t[0][k].max(t[1][k]).max(t[2][k]),
        );
        p[k] < lo - 2.0 * bound || p[k] > hi + 2.0 * bound
    });
    !far && (on(t, p) || crate::tolerance::distance(p, t) <= crate::tolerance::reach_across(t))
}

/// Whether `p` lies exactly on the closed triangle `t` (exact predicates).
fn on(t: &[[f64; 3]; 3], p: &[f64; 3]) -> bool {
    use crate::predicates::{orient, orient2, project};
    if orient(&t[0], &t[1], &t[2], p) != 0 {
        return false;
    }
    // In the plane: inside or on the edges in a projection that keeps the triangle's area
    // (one exists unless the triangle is degenerate, which touches nothing).
    (0..3).any(|drop| {
        let [a, b, c] = t.map(|q| project(q, drop));
        let q = project(*p, drop);
        let area = orient2(&a, &b, &c);
        area != 0
            && [(a, b), (b, c), (c, a)]
                .iter()
                .all(|(u, v)| orient2(u, v, &q) * area >= 0)
    })
}

/// How the ray from `p` along axis `k` (its coordinate growing) meets triangle `t`, by
/// exact predicates: +1 where it leaves the space behind `t` through `t`'s interior
/// (the way `t` faces), −1 where it comes in, 0 where it misses `t` or runs parallel to
/// it; `None` where it passes through an edge or a corner of `t` ahead of `p`, or `p`
/// lies on `t`. The crossings of a closed surface a ray passes through nowhere else add
/// up to its winding number around `p` (a ray along a face parallel to it leaves that
/// face through an edge of a face that is not, and is caught there).
fn ray_crossing(t: &[[f64; 3]; 3], p: &[f64; 3], k: usize) -> Option<i8> {
    use crate::predicates::{orient, orient2, project};
    let lo = |d: usize| t[0][d].min(t[1][d]).min(t[2][d]);
    let hi = |d: usize| t[0][d].max(t[1][d]).max(t[2][d]);
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    if hi(k) < p[k] || p[i] < lo(i) || p[i] > hi(i) || p[j] < lo(j) || p[j] > hi(j) {
        return Some(0);
    }
    // The projection dropping axis `k` is cyclic, so `t`'s area there has the sign of
    // its normal's component along the ray.
    let [a, b, c] = t.map(|q| project(q, k));
    let q = project(*p, k);
    let area = orient2(&a, &b, &c);
    if area == 0 {
        return Some(0);
    }
    let sides = [
        orient2(&a, &b, &q),
        orient2(&b, &c, &q),
        orient2(&c, &a, &q),
    ];
    if sides.contains(&-area) {
        return Some(0);
    }
    // `orient` is positive with `p` behind `t`: its plane then lies ahead of `p` along the
    // ray where the normal points along it.
    let behind = orient(&t[0], &t[1], &t[2], p);
    if behind == -area {
        return Some(0);
    }
    if behind == 0 || sides.contains(&0) {
        return None;
    }
    Some(area)
}

/// Boxes on a uniform grid of cells about twice the mean box (each box listed in the cells
/// it covers), and the few boxes that cover many cells in an R*-tree, to find the boxes
/// holding a point.
struct BoxIndex<'a> {
    boxes: &'a [Bounds],
    lo: [f64; 3],
    inv: f64,
    dims: [usize; 3],
    /// Cell `c`'s boxes are `entries[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    entries: Vec<u32>,
    large:
        rstar::RTree<rstar::primitives::GeomWithData<rstar::primitives::Rectangle<[f64; 3]>, u32>>,
}

/// A box covering more cells than this goes to the R*-tree.
const MAX_CELLS: usize = 64;

impl<'a> BoxIndex<'a> {
    /// The index of the boxes `k` for which `keep(k)`.
    fn new(boxes: &'a [Bounds], keep: &dyn Fn(usize) -> bool) -> Self {
        let mut extent = BoundingBox::empty();
        let mut sum = 0.0;
        let mut kept = 0usize;
        for (k, b) in boxes.iter().enumerate() {
            if !keep(k) {
                continue;
            }
            kept += 1;
            extent = extent.union(b);
            let (a, b) = (b.min, b.max);
            sum += (b[0] - a[0]).max(b[1] - a[1]).max(b[2] - a[2]);
        }
        let lo = extent.min;
        let size = [0, 1, 2].map(|k| extent.max[k] - lo[k]);
        let longest = size[0].max(size[1]).max(size[2]);
        // Cells twice the mean box, at most 2^20 along an axis and about four per box in
        // all (a grid of boxes far apart would otherwise be mostly empty cells).
        let mut cell = (2.0 * sum / kept.max(1) as f64).max(longest / (1 << 20) as f64);
        let cells = |cell: f64| size.map(|s| ((s / cell) as usize).clamp(1, 1 << 20));
        let budget = kept + 64;
        while cell.is_finite()
            && cell > 0.0
            && cells(cell).iter().map(|&d| d as f64).product::<f64>() > budget as f64
        {
            cell *= 2.0;
        }
        let (inv, dims) = if kept > 0 && cell.is_finite() && cell > 0.0 {
            (1.0 / cell, cells(cell))
        } else {
            // Every box a point (or the coordinates overflow): one cell.
            (0.0, [1; 3])
        };
        let mut index = BoxIndex {
            boxes,
            lo,
            inv,
            dims,
            start: Vec::new(),
            entries: Vec::new(),
            large: rstar::RTree::new(),
        };
        let span = |b: &Bounds| (index.cell(&b.min), index.cell(&b.max));
        let covers = |(a, b): ([usize; 3], [usize; 3])| {
            (b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1)
        };
        let mut start = vec![0u32; dims[0] * dims[1] * dims[2] + 1];
        let mut large = Vec::new();
        for (k, b) in boxes.iter().enumerate() {
            if !keep(k) {
                continue;
            }
            let s = span(b);
            if covers(s) > MAX_CELLS {
                large.push(rstar::primitives::GeomWithData::new(
                    rstar::primitives::Rectangle::from_corners(b.min, b.max),
                    k as u32,
                ));
                continue;
            }
            index.each_cell(s, |c| start[c + 1] += 1);
        }
        for c in 1..start.len() {
            start[c] += start[c - 1];
        }
        let mut entries = vec![0u32; *start.last().unwrap_or(&0) as usize];
        let mut fill = start.clone();
        for (k, b) in boxes.iter().enumerate() {
            if !keep(k) {
                continue;
            }
            let s = span(b);
            if covers(s) > MAX_CELLS {
                continue;
            }
            index.each_cell(s, |c| {
                entries[fill[c] as usize] = k as u32;
                fill[c] += 1;
            });
        }
        index.start = start;
        index.entries = entries;
        index.large = rstar::RTree::bulk_load(large);
        index
    }

    /// The cell holding `p` (clamped to the grid): monotone in each coordinate, so a point
    /// inside a box lies in a cell the box covers.
    fn cell(&self, p: &[f64; 3]) -> [usize; 3] {
        [0, 1, 2].map(|k| {
            let c = (p[k] - self.lo[k]) * self.inv;
            if c > 0.0 {
                (c as usize).min(self.dims[k] - 1)
            } else {
                0
            }
        })
    }

    fn each_cell(&self, (a, b): ([usize; 3], [usize; 3]), mut f: impl FnMut(usize)) {
        for z in a[2]..=b[2] {
            for y in a[1]..=b[1] {
                for x in a[0]..=b[0] {
                    f(x + self.dims[0] * (y + self.dims[1] * z));
                }
            }
        }
    }

    /// Every box that holds `p`, ascending, into `out`.
    fn containing(&self, p: &[f64; 3], out: &mut Vec<usize>) {
        out.clear();
        let holds = |b: &Bounds| b.contains(p);
        let [x, y, z] = self.cell(p);
        let c = x + self.dims[0] * (y + self.dims[1] * z);
        out.extend(
            self.entries[self.start[c] as usize..self.start[c + 1] as usize]
                .iter()
                .map(|&k| k as usize)
                .filter(|&k| holds(&self.boxes[k])),
        );
        out.extend(
            self.large
                .locate_in_envelope_intersecting(&rstar::AABB::from_point(*p))
                .map(|g| g.data as usize),
        );
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::{
        BoundingBox, Bounds, BoxIndex, Lookup, Point3, Refusal, Verdict, check_apart_in, near,
        ray_crossing,
    };

    /// A triangular prism (a needle) `long` along (1, 1, 1), `wide` across, its first
    /// edge at `(x, y)` in the plane across it, as 8 triangles (outward, or inward when
    /// `inward`).
    fn needle(x: f64, y: f64, wide: f64, long: f64, inward: bool) -> Vec<[Point3<f64>; 3]> {
        let (s3, s2, s6) = (3f64.sqrt(), 2f64.sqrt(), 6f64.sqrt());
        let frame = [
            [1.0 / s3; 3],
            [1.0 / s2, -1.0 / s2, 0.0],
            [1.0 / s6, 1.0 / s6, -2.0 / s6],
        ];
        needle_in(frame, x, y, wide, long, inward)
    }

    /// [`needle`] along `frame[0]`, across along `frame[1]` and `frame[2]`.
    fn needle_in(
        frame: [[f64; 3]; 3],
        x: f64,
        y: f64,
        wide: f64,
        long: f64,
        inward: bool,
    ) -> Vec<[Point3<f64>; 3]> {
        let [d, u, v] = frame;
        let at = |a: f64, b: f64, t: f64| {
            Point3::from([0, 1, 2].map(|m| (x + a) * u[m] + (y + b) * v[m] + t * d[m]))
        };
        let cross = [(0.0, 0.0), (wide, 0.0), (0.0, wide)];
        let lo = cross.map(|(a, b)| at(a, b, 0.0));
        let hi = cross.map(|(a, b)| at(a, b, long));
        let mut out = vec![[lo[0], lo[2], lo[1]], [hi[0], hi[1], hi[2]]];
        for m in 0..3 {
            let q = (m + 1) % 3;
            out.push([lo[m], lo[q], hi[q]]);
            out.push([lo[m], hi[q], hi[m]]);
        }
        if inward {
            for t in &mut out {
                t.swap(1, 2);
            }
        }
        out
    }

    /// `check_apart` on shells given one after another, with the points looked up in a
    /// turned frame (checking that they were) and in the file's.
    fn both(shells: &[Vec<[Point3<f64>; 3]>]) -> [Result<Verdict, Refusal>; 2] {
        let (found, turned) = either(shells);
        assert!(turned, "the frame was not turned");
        found
    }

    /// `check_apart` on shells given one after another, with the points looked up in a
    /// turned frame if it allows and in the file's, and whether it turned.
    fn either(shells: &[Vec<[Point3<f64>; 3]>]) -> ([Result<Verdict, Refusal>; 2], bool) {
        let tris: Vec<[Point3<f64>; 3]> = shells.concat();
        let labels: Vec<u32> = shells
            .iter()
            .enumerate()
            .flat_map(|(s, t)| std::iter::repeat_n(s as u32, t.len()))
            .collect();
        let mut turned = false;
        let found = [true, false].map(|turn| {
            let mut lookup = Lookup {
                turn,
                turned: false,
            };
            let got = check_apart_in(&labels, shells.len(), |t| tris[t], false, &mut lookup);
            turned |= lookup.turned;
            got.map(|(v, _)| v)
        });
        (found, turned)
    }

    #[test]
    fn a_crowd_of_needles_is_looked_up_alike_in_a_turned_frame() {
        // 400 needles 10 long, 1e-3 across, 0.01 apart along (1, 1, 1): every box in the
        // file's frame holds every other needle's points.
        let grid = |k: usize| (0.01 * (k / 20) as f64, 0.01 * (k % 20) as f64);
        let mut shells: Vec<Vec<[Point3<f64>; 3]>> = (0..400)
            .map(|k| needle(grid(k).0, grid(k).1, 1e-3, 10.0, false))
            .collect();
        let [turned, plain] = both(&shells);
        let v = turned.unwrap();
        assert_eq!(
            (v.shells, v.cavities, v.nested, v.inside_out),
            (400, 0, 0, false)
        );
        assert_eq!(turned, plain);
        // A hollow needle: a thinner one inside it, inward, is its cavity.
        let (x, y) = grid(210);
        shells.push(needle(x + 1e-4, y + 1e-4, 5e-4, 9.0, true));
        let [turned, plain] = both(&shells);
        assert_eq!(turned.map(|v| v.cavities), Ok(1), "{turned:?}");
        assert_eq!(turned, plain);
        // The same thinner needle outward: a body inside another, refused.
        let last = shells.len() - 1;
        shells[last] = needle(x + 1e-4, y + 1e-4, 5e-4, 9.0, false);
        let [turned, plain] = both(&shells);
        assert!(
            matches!(turned, Err(Refusal::Misplaced { shell, .. }) if shell == last),
            "{turned:?}"
        );
        assert_eq!(turned, plain);
    }

    #[test]
    fn random_crowds_of_needles_are_looked_up_alike_in_a_turned_frame() {
        // Needles along (1, 1, 1), each tilted a little off it, some rounded to 6
        // significant digits, with thinner needles put inside some (inward: cavities;
        // outward: bodies inside bodies, refused) and others across the gaps.
        use crate::test_rng::Lcg;
        let round6 = |x: f64| {
            if x == 0.0 {
                return x;
            }
            let e = 10f64.powi(5 - x.abs().log10().floor() as i32);
            (x * e).round() / e
        };
        let mut turns = 0;
        for seed in 0..24u64 {
            let mut rng = Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) + 1);
            let n = 64 + rng.below(200) as usize;
            let side = (n as f64).sqrt().ceil() as usize;
            let rounded = rng.below(2) == 0;
            let mut shells: Vec<Vec<[Point3<f64>; 3]>> = Vec::new();
            let mut kinds = [0usize; 3];
            for k in 0..n {
                // Over 10 long, a tilt of 2e-4 moves an end by 2e-3 of the 0.01 between
                // needles: turned, their boxes still lie apart.
                let tilt = 2e-4 * (rng.unit() - 0.5);
                let d = nalgebra::Vector3::new(1.0 + tilt, 1.0 - tilt, 1.0).normalize();
                let u = d.cross(&nalgebra::Vector3::z()).normalize();
                let v = d.cross(&u);
                let frame = [d, u, v].map(|w| [w.x, w.y, w.z]);
                let (x, y) = (0.01 * (k / side) as f64, 0.01 * (k % side) as f64);
                let wide = 1e-3 * (1.0 + rng.unit());
                let long = 5.0 + 5.0 * rng.unit();
                let mut needle = needle_in(frame, x, y, wide, long, false);
                if rounded {
                    for t in &mut needle {
                        for p in t.iter_mut() {
                            *p = p.map(round6);
                        }
                    }
                }
                shells.push(needle);
                match rng.below(16) {
                    0 => {
                        // A cavity: a thinner needle inside, inward.
                        let inner =
                            needle_in(frame, x + 2e-4, y + 2e-4, 0.3 * wide, 0.8 * long, true);
                        shells.push(inner);
                        kinds[0] += 1;
                    }
                    1 if kinds[1] == 0 => {
                        // A body inside a body: refused.
                        let inner =
                            needle_in(frame, x + 2e-4, y + 2e-4, 0.3 * wide, 0.8 * long, false);
                        shells.push(inner);
                        kinds[1] += 1;
                    }
                    _ => kinds[2] += 1,
                }
            }
            let ([turned, plain], was) = either(&shells);
            // The same verdict; where both refuse, the shell first named may differ (a
            // point within reach of a shell outside its turned box is not looked at there).
            match (&turned, &plain) {
                (Err(a), Err(b)) => assert_eq!(
                    std::mem::discriminant(a),
                    std::mem::discriminant(b),
                    "seed {seed}: {a:?} {b:?}"
                ),
                _ => assert_eq!(turned, plain, "seed {seed}"),
            }
            turns += was as usize;
            if kinds[1] == 0 {
                let v = turned.unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
                assert_eq!(v.cavities, kinds[0], "seed {seed}");
            } else {
                assert!(
                    matches!(turned, Err(Refusal::Misplaced { .. })),
                    "seed {seed}: {turned:?}"
                );
            }
        }
        // Most crowds were looked up turned (the others' boxes were no crowd to begin with).
        assert!(turns >= 12, "{turns} of 24");
    }

    #[test]
    fn index_finds_exactly_the_boxes_holding_a_point() {
        // Small boxes on a lattice, a few big ones, flat ones, and a point-sized one.
        let mut boxes: Vec<Bounds> = Vec::new();
        for i in 0..20 {
            for j in 0..20 {
                let (x, y) = (i as f64 * 1.5, j as f64 * 1.5);
                boxes.push(BoundingBox::of_points(&[
                    [x, y, 0.0],
                    [x + 1.0, y + 1.0, 1.0],
                ]));
            }
        }
        boxes.push(BoundingBox::of_points(&[[-5.0; 3], [40.0; 3]]));
        boxes.push(BoundingBox::of_points(&[
            [2.0, 2.0, 0.5],
            [20.0, 25.0, 0.5],
        ]));
        boxes.push(BoundingBox::of_points(&[[3.25, 3.25, 0.25]]));
        let index = BoxIndex::new(&boxes, &|_| true);
        let mut found = Vec::new();
        for i in 0..=120 {
            for j in 0..=120 {
                for z in [-1.0, 0.0, 0.25, 0.5, 1.0, 3.0] {
                    let p = [i as f64 * 0.25, j as f64 * 0.25, z];
                    index.containing(&p, &mut found);
                    let want: Vec<usize> = (0..boxes.len())
                        .filter(|&k| {
                            (0..3).all(|a| boxes[k].min[a] <= p[a] && p[a] <= boxes[k].max[a])
                        })
                        .collect();
                    assert_eq!(found, want, "{p:?}");
                }
            }
        }
    }

    /// The unit cube at `o`, outward, each face split on the diagonal from its corner
    /// nearest `o`.
    fn cube_at(o: [f64; 3]) -> Vec<[[f64; 3]; 3]> {
        let c = |x: f64, y: f64, z: f64| [o[0] + x, o[1] + y, o[2] + z];
        vec![
            [c(0., 0., 0.), c(1., 1., 0.), c(1., 0., 0.)],
            [c(0., 0., 0.), c(0., 1., 0.), c(1., 1., 0.)],
            [c(0., 0., 1.), c(1., 0., 1.), c(1., 1., 1.)],
            [c(0., 0., 1.), c(1., 1., 1.), c(0., 1., 1.)],
            [c(0., 0., 0.), c(1., 0., 0.), c(1., 0., 1.)],
            [c(0., 0., 0.), c(1., 0., 1.), c(0., 0., 1.)],
            [c(0., 1., 0.), c(1., 1., 1.), c(1., 1., 0.)],
            [c(0., 1., 0.), c(0., 1., 1.), c(1., 1., 1.)],
            [c(0., 0., 0.), c(0., 1., 1.), c(0., 1., 0.)],
            [c(0., 0., 0.), c(0., 0., 1.), c(0., 1., 1.)],
            [c(1., 0., 0.), c(1., 1., 0.), c(1., 1., 1.)],
            [c(1., 0., 0.), c(1., 1., 1.), c(1., 0., 1.)],
        ]
    }

    /// The signed crossings of the ray from `p` along axis `k`, `None` if one is undecided.
    fn count(tris: &[[[f64; 3]; 3]], p: &[f64; 3], k: usize) -> Option<i64> {
        tris.iter()
            .try_fold(0, |w, t| Some(w + ray_crossing(t, p, k)? as i64))
    }

    #[test]
    fn rays_count_the_winding_number_exactly_or_say_they_cannot() {
        // Far from the origin, where the solid angles' rounding is largest.
        let o = [1e8, -3e7, 2e6];
        let at = |x: f64, y: f64, z: f64| [o[0] + x, o[1] + y, o[2] + z];
        let cube = cube_at(o);
        // Inside: once round, along every axis; turned inside out, −1.
        let inward: Vec<_> = cube.iter().map(|t| [t[0], t[2], t[1]]).collect();
        for k in 0..3 {
            assert_eq!(count(&cube, &at(0.25, 0.5, 0.625), k), Some(1), "axis {k}");
            assert_eq!(
                count(&inward, &at(0.25, 0.5, 0.625), k),
                Some(-1),
                "axis {k}"
            );
            // Outside, in front of the cube, behind it, and just past a face.
            assert_eq!(count(&cube, &at(-2.0, 0.5, 0.625), k), Some(0), "axis {k}");
            assert_eq!(count(&cube, &at(3.0, 0.25, 0.5), k), Some(0), "axis {k}");
            assert_eq!(
                count(&cube, &at(0.25, 0.5, 1.0 + 1e-8), k),
                Some(0),
                "axis {k}"
            );
        }
        // The centre's rays pass through the diagonals splitting the faces: undecided.
        for k in 0..3 {
            assert_eq!(count(&cube, &at(0.5, 0.5, 0.5), k), None, "axis {k}");
        }
        // A point on a face: no winding number.
        assert_eq!(count(&cube, &at(1.0, 0.25, 0.5), 0), None);
        // Along a face parallel to the ray (y = 0 for a ray along x), from outside: it
        // meets the faces x = 0 on their edge y = 0, and is caught there.
        assert_eq!(count(&cube, &at(-1.0, 0.0, 0.5), 0), None);
    }

    #[test]
    fn a_point_near_a_face_is_near_it_and_one_far_is_not() {
        let o = [1e6, 1e6, -1e6];
        let cube = cube_at(o);
        let at = |x: f64, y: f64, z: f64| [o[0] + x, o[1] + y, o[2] + z];
        // On a face, and within the reach across it (a thousandth of the face's edge).
        assert!(near(&at(1.0, 0.5, 0.25), &cube[10]));
        assert!(near(&at(1.0 + 5e-4, 0.5, 0.25), &cube[10]));
        assert!(!near(&at(1.0 + 2e-3, 0.5, 0.25), &cube[10]));
        assert!(!near(&at(5.0, 0.5, 0.25), &cube[10]));
    }
}
