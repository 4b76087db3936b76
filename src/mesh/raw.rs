//! Triangles as read, before validation: `RawMesh`, and joining corners that noise kept apart.

use super::*;

/// Triangles as read from a file, before welding and validation.
///
/// # Examples
/// ```
/// let raw = inertia::io::obj::parse(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")?;
/// assert_eq!((raw.vertices.len(), raw.triangles.len()), (3, 1));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawMesh {
    /// Vertex coordinates (finite).
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as indices into `vertices`, in file order.
    pub triangles: Vec<[u32; 3]>,
    /// For each triangle, the source line it came from (OBJ); empty when triangles are
    /// numbered in file order (STL).
    pub lines: Vec<u32>,
}

impl RawMesh {
    /// The same mesh with corners closer than `tol` (Euclidean) joined (every pair within
    /// `tol/√3`, and pairs up to `tol` apart across grid cells with up to 8 points of each
    /// cell up to two away compared, so the cost stays linear): each triangle
    /// refers to the first-listed corner of its group, whose coordinates it then uses
    /// (no corner moves by more than `tol` times the length of the chain that joined it,
    /// in practice `tol`). Also returns how many distinct points were joined to another.
    ///
    /// # Examples
    /// ```
    /// use inertia::RawMesh;
    /// let m = RawMesh {
    ///     vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.7e-17, 0.0, 0.0]],
    ///     triangles: vec![[0, 1, 2], [3, 2, 1]],
    ///     lines: vec![],
    /// };
    /// let (w, merged) = m.welded_within(1e-15);
    /// assert_eq!(merged, 1);
    /// assert_eq!(w.triangles[1], [0, 2, 1]);
    /// ```
    pub fn welded_within(&self, tol: f64) -> (RawMesh, usize) {
        let n = self.vertices.len();
        if !(tol > 0.0 && tol.is_finite()) || n == 0 {
            return (self.clone(), 0);
        }
        // Cells of side tol/√3: any two points in one cell are within tol, and are joined
        // outright; two points within tol can lie two cells apart along an axis (tol is √3
        // cells), so a point is compared with up to NEIGHBOURS points of each cell up to two
        // away, so that a crowd of points in one place (a cone's apex written once per
        // triangle) costs linear time, not quadratic.
        const NEIGHBOURS: usize = 8;
        let inv = 3f64.sqrt() / tol;
        let cell = |p: &[f64; 3]| -> Option<[i64; 3]> {
            let c = p.map(|x| (x * inv).floor());
            c.iter()
                .all(|x| x.abs() < 4e18)
                .then(|| c.map(|x| x as i64))
        };
        let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::with_capacity(n);
        for (i, p) in self.vertices.iter().enumerate() {
            if let Some(c) = cell(p) {
                grid.entry(c).or_default().push(i as u32);
            }
        }
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn root(parent: &mut [u32], mut i: u32) -> u32 {
            while parent[i as usize] != i {
                parent[i as usize] = parent[parent[i as usize] as usize];
                i = parent[i as usize];
            }
            i
        }
        let join = |parent: &mut [u32], i: u32, j: u32| {
            let (a, b) = (root(parent, i), root(parent, j));
            if a != b {
                // The lower index stays the group's point.
                parent[a.max(b) as usize] = a.min(b);
            }
        };
        for list in grid.values() {
            for &j in &list[1..] {
                join(&mut parent, list[0], j);
            }
        }
        for (i, p) in self.vertices.iter().enumerate() {
            let Some(c) = cell(p) else { continue };
            for dx in -2..=2 {
                for dy in -2..=2 {
                    for dz in -2..=2 {
                        if (dx, dy, dz) == (0, 0, 0) {
                            continue;
                        }
                        let Some(list) = grid.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) else {
                            continue;
                        };
                        for &j in list.iter().take(NEIGHBOURS) {
                            let q = &self.vertices[j as usize];
                            let d2 = (p[0] - q[0]).powi(2)
                                + (p[1] - q[1]).powi(2)
                                + (p[2] - q[2]).powi(2);
                            if d2 <= tol * tol {
                                join(&mut parent, i as u32, j);
                            }
                        }
                    }
                }
            }
        }
        let roots: Vec<u32> = (0..n as u32).map(|i| root(&mut parent, i)).collect();
        // Distinct points joined to a different point.
        let merged = (0..n)
            .filter(|&i| {
                let r = roots[i] as usize;
                r != i && key(self.vertices[r]) != key(self.vertices[i])
            })
            .map(|i| key(self.vertices[i]))
            .collect::<std::collections::HashSet<_>>()
            .len();
        let triangles = self
            .triangles
            .iter()
            .map(|t| t.map(|v| roots[v as usize]))
            .collect();
        (
            RawMesh {
                vertices: self.vertices.clone(),
                triangles,
                lines: self.lines.clone(),
            },
            merged,
        )
    }

    /// How to name triangle `t` (0-based) in a message: "triangle 5" or "triangle 5 (line 12)".
    ///
    /// # Examples
    /// ```
    /// let m = inertia::RawMesh { lines: vec![12], ..Default::default() };
    /// assert_eq!(m.place(0), "triangle 1 (line 12)");
    /// ```
    pub fn place(&self, t: usize) -> String {
        match self.lines.get(t) {
            Some(l) => format!("triangle {} (line {l})", t + 1),
            None => format!("triangle {}", t + 1),
        }
    }
}

/// The default distance within which [`RawMesh::welded_within`] joins corners: 8 units in
/// the last place of the largest coordinate magnitude (about 1.8e-15 of it), far below
/// any feature a CAD program draws and above the noise its exporters write (`-1.7e-17`
/// beside `0` in a part 100 long).
///
/// # Examples
/// ```
/// let m = inertia::RawMesh { vertices: vec![[0.0, 0.0, 0.0], [100.0, 0.0, 0.0]], ..Default::default() };
/// assert_eq!(inertia::mesh::default_weld_tolerance(&m), 8.0 * f64::EPSILON * 100.0);
/// ```
pub fn default_weld_tolerance(raw: &RawMesh) -> f64 {
    let big = raw
        .vertices
        .iter()
        .flatten()
        .fold(0.0_f64, |a, c| a.max(c.abs()));
    8.0 * f64::EPSILON * big
}

/// The distance between the two closest distinct corners that lie on the mesh's boundary
/// edges (after welding identical points), and the length of its shortest boundary edge,
/// or `None` if it has fewer than two such corners: how far apart the pieces of an open
/// mesh are beside its own edges, to suggest a weld tolerance only for a gap of noise.
///
/// # Examples
/// ```
/// use inertia::RawMesh;
/// // Two triangles that would share an edge but for 1e-9 of noise.
/// let m = RawMesh {
///     vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1e-9, 0.0, 0.0], [1.0, 1.0, 0.0]],
///     triangles: vec![[0, 1, 2], [3, 2, 1]],
///     lines: vec![],
/// };
/// assert_eq!(inertia::mesh::nearest_open_corners(&m), Some((1e-9, 0.999999999)));
/// ```
pub fn nearest_open_corners(raw: &RawMesh) -> Option<(f64, f64)> {
    let (vertices, remap) = weld(raw);
    let mut edges: HashMap<(u32, u32), i32> = HashMap::new();
    for t in &raw.triangles {
        let w = t.map(|v| remap[v as usize]);
        for k in 0..3 {
            let (u, v) = (w[k], w[(k + 1) % 3]);
            if u == v {
                continue;
            }
            let (key, d) = if u < v { ((u, v), 1) } else { ((v, u), -1) };
            *edges.entry(key).or_insert(0) += d;
        }
    }
    let shortest = edges
        .iter()
        .filter(|(_, b)| **b != 0)
        .map(|((u, v), _)| (vertices[*u as usize] - vertices[*v as usize]).norm())
        .fold(f64::INFINITY, f64::min);
    let mut open: Vec<u32> = edges
        .iter()
        .filter(|(_, b)| **b != 0)
        .flat_map(|((u, v), _)| [*u, *v])
        .collect();
    open.sort_unstable();
    open.dedup();
    let mut pts: Vec<Point3<f64>> = open.iter().map(|&v| vertices[v as usize]).collect();
    if pts.len() < 2 {
        return None;
    }
    // Closest pair: sorted by x, each point against those within the best distance in x.
    pts.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut best = f64::INFINITY;
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            if pts[j].x - pts[i].x >= best {
                break;
            }
            let d = (pts[j] - pts[i]).norm();
            if d < best {
                best = d;
            }
        }
    }
    best.is_finite().then_some((best, shortest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_within_the_tolerance_two_cells_apart_are_joined() {
        // Cells are tol/√3 wide: 0.9·tol along x spans about 1.56 cells, so a point just
        // below a cell's end and one 0.9·tol further are two cells apart.
        let tol = 1e-3;
        let cell = tol / 3f64.sqrt();
        let x = 0.999 * cell;
        let m = RawMesh {
            vertices: vec![
                [x, 0.0, 0.0],
                [x + 0.9 * tol, 0.0, 0.0],
                [x + 2.0 * tol, 0.0, 0.0],
            ],
            triangles: vec![[1, 2, 0]],
            lines: vec![],
        };
        let (w, merged) = m.welded_within(tol);
        assert_eq!(merged, 1);
        // The second point now refers to the first; the third, 2·tol away, stays.
        assert_eq!(w.triangles[0], [0, 2, 0]);
    }
}
