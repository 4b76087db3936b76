//! Which triangles belong together: shells by union-find, and the exact edge check that
//! proves a surface closed and consistently wound (or names the edge at fault).

use super::*;

/// Shell number of every vertex used by a triangle (connected components, union-find), and
/// the number of shells. Vertices no triangle uses get `usize::MAX`.
pub(super) fn shells(n: usize, triangles: &[[u32; 3]]) -> (Vec<usize>, usize) {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let p = parent[x as usize];
            parent[x as usize] = parent[p as usize];
            x = p;
        }
        x
    }
    for t in triangles {
        let r0 = find(&mut parent, t[0]);
        for &v in &t[1..] {
            let r = find(&mut parent, v);
            if r != r0 {
                parent[r as usize] = r0;
            }
        }
    }
    // Number the components in order of first appearance among the triangles.
    let mut id = vec![usize::MAX; n];
    let mut next = 0;
    for t in triangles {
        let r = find(&mut parent, t[0]) as usize;
        if id[r] == usize::MAX {
            id[r] = next;
            next += 1;
        }
    }
    let ids = (0..n)
        .map(|v| {
            let r = find(&mut parent, v as u32) as usize;
            id[r]
        })
        .collect();
    (ids, next)
}

/// Every edge must be used once in each direction (summed over all triangles using it).
pub(super) fn check_edges(
    vertices: &[Point3<f64>],
    triangles: &[[u32; 3]],
    origin: &[usize],
    raw: &RawMesh,
) -> Result<()> {
    // (undirected key, +1 if stored low→high else -1, triangle)
    let mut edges: Vec<(u64, i32, u32)> = Vec::with_capacity(3 * triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (u, v) = (tri[k], tri[(k + 1) % 3]);
            let (lo, hi, dir) = if u < v { (u, v, 1) } else { (v, u, -1) };
            edges.push(((lo as u64) << 32 | hi as u64, dir, t as u32));
        }
    }
    // Both cores: the sort is the largest part of validation.
    rayon::slice::ParallelSliceMut::par_sort_unstable(&mut edges[..]);
    let mut boundary = 0usize;
    let mut first_boundary = None;
    let mut first_unbalanced = None;
    let mut i = 0;
    while i < edges.len() {
        let mut j = i + 1;
        while j < edges.len() && edges[j].0 == edges[i].0 {
            j += 1;
        }
        let balance: i32 = edges[i..j].iter().map(|e| e.1).sum();
        if balance != 0 {
            if j - i == 1 {
                boundary += 1;
                first_boundary.get_or_insert(edges[i]);
            } else {
                first_unbalanced.get_or_insert((edges[i], edges[j - 1]));
            }
        }
        i = j;
    }
    let ends = |key: u64| {
        (
            fmt_point(vertices[(key >> 32) as usize]),
            fmt_point(vertices[(key & 0xffff_ffff) as usize]),
        )
    };
    if let Some(e) = first_boundary {
        let (a, b) = ends(e.0);
        return Err(Error::OpenMesh {
            boundary_edges: boundary,
            edge: format!("{a}–{b}"),
            triangle: raw.place(origin[e.2 as usize]),
            nearest_gap: None,
        });
    }
    if let Some((e, f)) = first_unbalanced {
        let (a, b) = ends(e.0);
        return Err(Error::InconsistentWinding {
            first: raw.place(origin[e.2 as usize]),
            second: raw.place(origin[f.2 as usize]),
            edge: format!("{a}–{b}"),
        });
    }
    Ok(())
}
