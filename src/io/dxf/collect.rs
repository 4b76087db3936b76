//! Gathering a drawing's curves and pieces through its INSERTs.

use super::curves::{SplinePiece, bulged, check_bulges, elliptic_arc, planar, spline_spans, turn};
use super::{Origin, Path, kind_name};
use crate::curve::Curve;
use crate::error::{Error, Result};
use std::f64::consts::PI;

/// An affine map of the plane, `p ↦ m p + t` (`m` row-major): how a block's entities land
/// in the drawing through the INSERTs that place it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Affine {
    m: [[f64; 2]; 2],
    t: [f64; 2],
}

impl Affine {
    pub(super) const IDENTITY: Affine = Affine {
        m: [[1.0, 0.0], [0.0, 1.0]],
        t: [0.0, 0.0],
    };

    fn apply(&self, p: [f64; 2]) -> [f64; 2] {
        [
            self.m[0][0] * p[0] + self.m[0][1] * p[1] + self.t[0],
            self.m[1][0] * p[0] + self.m[1][1] * p[1] + self.t[1],
        ]
    }

    /// Moves points and the curves between them.
    fn place(&self, points: &mut [[f64; 2]], arcs: &mut [Option<Curve>]) {
        for p in points {
            *p = self.apply(*p);
        }
        for c in arcs.iter_mut().flatten() {
            *c = c.transformed(&self.m);
        }
    }

    /// The mirror image in the y axis when `sx` is −1 (an entity seen from below).
    fn mirror_x(sx: f64) -> Affine {
        Affine {
            m: [[sx, 0.0], [0.0, 1.0]],
            t: [0.0, 0.0],
        }
    }

    /// `self` after `inner`: p ↦ self(inner(p)).
    fn after(&self, inner: &Affine) -> Affine {
        let a = &self.m;
        let b = &inner.m;
        let m = [
            [
                a[0][0] * b[0][0] + a[0][1] * b[1][0],
                a[0][0] * b[0][1] + a[0][1] * b[1][1],
            ],
            [
                a[1][0] * b[0][0] + a[1][1] * b[1][0],
                a[1][0] * b[0][1] + a[1][1] * b[1][1],
            ],
        ];
        Affine {
            m,
            t: self.apply(inner.t),
        }
    }
}

/// INSERTs nested deeper than this are refused (a block that places itself through others
/// is refused earlier, as a cycle).
const MAX_DEPTH: usize = 32;
/// How many entities a drawing's INSERTs expand to, counted before anything is expanded:
/// an INSERT counts its block's count per cell of its array, a block the sum of its
/// entities' (memoized, so a deep tree costs its number of blocks, and saturating, so a
/// bomb of 32767 × 32767 arrays gives a number, not an overflow). Blocks that are not
/// defined, or place themselves, count nothing here and are refused when expanded.
pub(super) struct Tally<'a> {
    blocks: &'a std::collections::HashMap<&'a str, &'a ::dxf::Block>,
    memo: std::collections::HashMap<&'a str, u64>,
    visiting: Vec<&'a str>,
}

impl<'a> Tally<'a> {
    pub(super) fn new(blocks: &'a std::collections::HashMap<&'a str, &'a ::dxf::Block>) -> Self {
        Tally {
            blocks,
            memo: Default::default(),
            visiting: Vec::new(),
        }
    }

    /// The entities `entities` stand for once every INSERT among them is expanded (each
    /// placed copy counting one, as the expansion counts it).
    pub(super) fn count(&mut self, entities: &[&'a ::dxf::entities::Entity]) -> u64 {
        entities.iter().fold(0u64, |sum, e| {
            let n = match &e.specific {
                ::dxf::entities::EntityType::Insert(ins) => {
                    let cells = u64::from(ins.column_count.max(1).unsigned_abs())
                        .saturating_mul(u64::from(ins.row_count.max(1).unsigned_abs()));
                    cells.saturating_mul(1 + self.block(ins.name.as_str()))
                }
                _ => 1,
            };
            sum.saturating_add(n)
        })
    }

    fn block(&mut self, name: &str) -> u64 {
        let Some((&key, block)) = self.blocks.get_key_value(name) else {
            return 0;
        };
        if let Some(&n) = self.memo.get(key) {
            return n;
        }
        if self.visiting.contains(&key) {
            return 0;
        }
        self.visiting.push(key);
        let entities: Vec<&'a ::dxf::entities::Entity> = block.entities.iter().collect();
        let n = self.count(&entities);
        self.visiting.pop();
        self.memo.insert(key, n);
        n
    }
}

/// Gathers a drawing's closed curves and open pieces, expanding INSERTs.
pub(super) struct Collector<'a> {
    pub(super) layers: Vec<String>,
    /// The handles an ASCII drawing writes (group 5), to tell them from those the `dxf`
    /// crate makes up for entities written without one (`None`: not known).
    pub(super) file_handles: Option<&'a std::collections::HashSet<u64>>,
    /// The space read, for names (`model space`).
    pub(super) space: String,
    /// Layers that are off or frozen (upper-case names).
    pub(super) states: &'a std::collections::HashMap<String, super::LayerState>,
    /// The handles of the LWPOLYLINEs that frame an MTEXT: annotation, left out.
    pub(super) frames: &'a std::collections::HashSet<u64>,
    pub(super) blocks: &'a std::collections::HashMap<&'a str, &'a ::dxf::Block>,
    pub(super) curves: Vec<Path>,
    pub(super) pieces: Vec<Path>,
    pub(super) expanded: usize,
    /// The most entities INSERTs may expand to (checked on the way too, as a guard).
    pub(super) max_expanded: usize,
    pub(super) annotations: std::collections::BTreeMap<String, usize>,
    /// The spans of the drawing's own SPLINEs (not those in blocks), made beforehand on
    /// every core ([`spline_cache`]), by the entity's address: taken when the entity is
    /// read. A SPLINE whose spans could not be made is not here; it is made again when
    /// read, for its error.
    pub(super) splines: std::collections::HashMap<usize, Vec<SplinePiece>>,
}

/// The spans of each SPLINE among `entities` (see [`Collector::splines`]), made on every
/// core: each costs its chords' count and its integrals, a plate of splines mostly these.
pub(super) fn spline_cache(
    entities: &[&::dxf::entities::Entity],
) -> std::collections::HashMap<usize, Vec<SplinePiece>> {
    use rayon::prelude::*;
    entities
        .par_iter()
        .filter_map(|e| match &e.specific {
            ::dxf::entities::EntityType::Spline(sp) => {
                Some((std::ptr::from_ref(sp) as usize, spline_spans(sp, "").ok()?))
            }
            _ => None,
        })
        .collect()
}

impl<'a> Collector<'a> {
    /// Adds a path placed by `xf` (named with the INSERTs that placed it): to the closed
    /// curves, or to the pieces to chain.
    fn add(&mut self, xf: &Affine, where_: &str, mut c: Path, closed: bool) {
        if *xf != Affine::IDENTITY {
            xf.place(&mut c.points, &mut c.arcs);
        }
        c.name.push_str(where_);
        if closed {
            self.curves.push(c);
        } else {
            self.pieces.push(c);
        }
    }

    /// Counts an entity left out because a CAD program does not show it.
    fn hide(&mut self, reason: &str) -> Result<()> {
        *self.annotations.entry(reason.into()).or_default() += 1;
        Ok(())
    }

    /// A polyline's vertices with their bulges: a closed curve, or a piece to chain.
    fn polyline(
        &mut self,
        xf: &Affine,
        where_: &str,
        (origin, name): (Origin, String),
        v: &[([f64; 2], f64)],
        closed: bool,
    ) -> Result<()> {
        check_bulges(&name, v)?;
        if v.is_empty() {
            return Ok(());
        }
        let (points, arcs) = bulged(v, closed);
        if closed || points.len() >= 2 {
            self.add(xf, where_, Path::exact(origin, name, points, arcs), closed);
        }
        Ok(())
    }

    /// Reads `entities` placed by `xf`; `where_` says which INSERTs placed them (for names)
    /// and `stack` which blocks are being expanded (for cycles).
    pub(super) fn entities(
        &mut self,
        entities: &[&'a ::dxf::entities::Entity],
        xf: &Affine,
        where_: &str,
        inherited: &str,
        stack: &mut Vec<&'a str>,
    ) -> Result<()> {
        for (position, e) in entities.iter().enumerate() {
            if !stack.is_empty() {
                self.expanded += 1;
                if self.expanded > self.max_expanded {
                    return Err(Error::in_part(
                        "DXF",
                        Error::TooLarge {
                            excess: crate::error::Excess::Entities {
                                count: None,
                                copies: false,
                                max: self.max_expanded as u64,
                            },
                        },
                    ));
                }
            }
            self.entity(e, position, xf, where_, inherited, stack)?;
        }
        Ok(())
    }

    /// How messages name an entity after its type: its handle, and its layer when it is
    /// not the default one. An entity written without a handle (group 5) is given one by
    /// the `dxf` crate, which the file does not hold: it is named by its place instead (the
    /// `position`-th of `block`, or of the space read).
    fn handle(
        &self,
        e: &::dxf::entities::Entity,
        position: usize,
        layer: &str,
        block: Option<&&str>,
    ) -> String {
        let id = match &self.file_handles {
            Some(h) if !h.contains(&e.common.handle.0) => format!(
                "(no handle; entity {} of {})",
                position + 1,
                match block {
                    Some(b) => format!("block \"{}\"", crate::error::clip(b)),
                    None => self.space.clone(),
                }
            ),
            _ => e.common.handle.as_string(),
        };
        if layer == "0" || layer.is_empty() {
            id
        } else {
            format!("{id} (layer {})", crate::error::clip(layer))
        }
    }

    /// Reads one entity, the `position`-th of its block (or of the space read).
    #[allow(clippy::too_many_arguments)]
    fn entity(
        &mut self,
        e: &'a ::dxf::entities::Entity,
        position: usize,
        xf: &Affine,
        where_: &str,
        inherited: &str,
        stack: &mut Vec<&'a str>,
    ) -> Result<()> {
        use ::dxf::entities::EntityType;
        // Layer 0 inside a block is the layer of the INSERT that places it.
        let layer = if e.common.layer == "0" && !inherited.is_empty() {
            inherited
        } else {
            e.common.layer.as_str()
        };
        if !self.layers.is_empty() && !self.layers.iter().any(|l| l == layer) {
            return Ok(());
        }
        // What a CAD program does not show is not the part: an invisible entity, one on a
        // layer that is off, and anything on a frozen layer (an INSERT on a frozen layer
        // shows nothing of its block; one on a layer that is off still shows the entities
        // of its block that are on other layers). A layer asked for by name is read.
        if !e.common.is_visible {
            return self.hide("invisible");
        }
        if self.layers.is_empty()
            && let Some(state) = self.states.get(&layer.to_uppercase())
        {
            if state.frozen {
                return self.hide("layer frozen");
            }
            if state.off && !matches!(e.specific, ::dxf::entities::EntityType::Insert(_)) {
                return self.hide("layer off");
            }
        }
        let handle = self.handle(e, position, layer, stack.last());
        if let EntityType::Insert(ins) = &e.specific {
            return self.insert(ins, &handle, xf, where_, layer, stack);
        }
        let origin = |kind: &'static str| Origin {
            kind,
            layer: layer.to_string(),
        };
        match &e.specific {
            // The frame of an MTEXT's text box is part of the text.
            EntityType::LwPolyline(_)
                if self.frames.contains(&e.common.handle.0)
                    && self
                        .file_handles
                        .is_none_or(|h| h.contains(&e.common.handle.0)) =>
            {
                return self.hide("MTEXT frames");
            }
            EntityType::LwPolyline(lw) => {
                let name = format!("LWPOLYLINE {handle}");
                let sx = planar(lw.extrusion_direction.z, &name)?;
                let v: Vec<([f64; 2], f64)> = lw
                    .vertices
                    .iter()
                    .map(|p| ([sx * p.x, p.y], sx * p.bulge))
                    .collect();
                self.polyline(xf, where_, (origin("LWPOLYLINE"), name), &v, lw.is_closed())?;
            }
            EntityType::Polyline(pl) => {
                self.polyline_entity(pl, xf, where_, (origin("POLYLINE"), &handle))?;
            }
            EntityType::Circle(c) => {
                self.circle(c, xf, where_, (origin("CIRCLE"), &handle))?;
            }
            EntityType::Line(l) => {
                let name = format!("LINE {handle}");
                let (a, b) = ([l.p1.x, l.p1.y], [l.p2.x, l.p2.y]);
                if ![a, b].iter().flatten().all(|c| c.is_finite()) {
                    return Err(Error::parse(name, "has a coordinate that is not finite"));
                }
                // A zero-length line joins nothing.
                if a != b {
                    let path = Path::exact(origin("LINE"), name, vec![a, b], vec![None]);
                    self.add(xf, where_, path, false);
                }
            }
            EntityType::Arc(a) => {
                self.arc(a, xf, where_, (origin("ARC"), &handle))?;
            }
            EntityType::Ellipse(el) => {
                self.ellipse(el, xf, where_, (origin("ELLIPSE"), &handle))?;
            }
            EntityType::Spline(sp) => {
                self.spline(sp, xf, where_, (origin("SPLINE"), &handle))?;
            }
            EntityType::Helix(_)
            | EntityType::MLine(_)
            | EntityType::Solid(_)
            | EntityType::Trace(_)
            | EntityType::Face3D(_)
            | EntityType::Region(_)
            | EntityType::Solid3D(_)
            | EntityType::Body(_) => {
                let kind = format!("{:?}", e.specific)
                    .split('(')
                    .next()
                    .unwrap_or("entity")
                    .to_ascii_uppercase();
                return Err(Error::parse(
                    format!("{kind} {handle}"),
                    "this kind of entity is not read yet, and dropping it could change the outline: explode it into lines, arcs and polylines",
                ));
            }
            // Annotations and construction geometry: text, dimensions, points, leaders,
            // images, xlines and rays. Counted, so that the report says what was left out.
            other => {
                *self.annotations.entry(kind_name(other)).or_default() += 1;
            }
        }
        Ok(())
    }

    /// A 2D POLYLINE (a PEDIT-fitted one through its fitted vertices).
    fn polyline_entity(
        &mut self,
        pl: &::dxf::entities::Polyline,
        xf: &Affine,
        where_: &str,
        (origin, handle): (Origin, &str),
    ) -> Result<()> {
        let name = format!("POLYLINE {handle}");
        if pl.is_3d_polyline() || pl.is_polyface_mesh() || pl.is_3d_polygon_mesh() {
            return Err(Error::parse(
                name,
                "is a 3D polyline or mesh, not a plane profile",
            ));
        }
        let sx = planar(pl.normal.z, &name)?;
        // A polyline smoothed by PEDIT Spline keeps its frame (control points,
        // vertex flag 16) beside the fitted vertices (flag 8) that CAD programs
        // draw: the outline is the fitted vertices. A frame without them cannot be
        // read as drawn.
        let frame = pl.vertices().any(|v| v.is_spline_frame_control_point());
        let fitted = pl
            .vertices()
            .any(|v| v.is_spline_vertex_created_by_spline_fitting());
        if frame && !fitted {
            return Err(Error::parse(
                name,
                "is a spline-fit polyline (PEDIT Spline) given by its frame only, without the fitted vertices CAD programs draw: save it again, or convert it to a SPLINE",
            ));
        }
        let v: Vec<([f64; 2], f64)> = pl
            .vertices()
            .filter(|v| !v.is_spline_frame_control_point())
            .map(|p| ([sx * p.location.x, p.location.y], sx * p.bulge))
            .collect();
        self.polyline(xf, where_, (origin, name), &v, pl.is_closed())?;
        Ok(())
    }

    /// A CIRCLE: four quarter arcs, a closed curve.
    fn circle(
        &mut self,
        c: &::dxf::entities::Circle,
        xf: &Affine,
        where_: &str,
        (origin, handle): (Origin, &str),
    ) -> Result<()> {
        let name = format!("CIRCLE {handle}");
        let sx = planar(c.normal.z, &name)?;
        // A circle of radius 0 is a dot: no area, nothing to join.
        if c.radius == 0.0 {
            return self.hide("zero-length arcs");
        }
        if c.radius.is_nan() || c.radius <= 0.0 {
            return Err(Error::parse(
                name,
                format!("radius {} is not positive", c.radius),
            ));
        }
        if ![c.center.x, c.center.y, c.radius]
            .iter()
            .all(|v| v.is_finite())
        {
            return Err(Error::parse(name, "needs a finite centre and radius"));
        }
        // Four quarter arcs, in the entity's plane, then seen from above.
        let r = c.radius;
        let (mut points, mut arcs) = elliptic_arc(
            [c.center.x, c.center.y],
            [[r, 0.0], [0.0, r]],
            0.0,
            2.0 * PI,
        );
        points.pop();
        Affine::mirror_x(sx).place(&mut points, &mut arcs);
        let path = Path::exact(origin, name, points, arcs);
        self.add(xf, where_, path, true);
        Ok(())
    }

    /// An ARC: a piece to chain.
    fn arc(
        &mut self,
        a: &::dxf::entities::Arc,
        xf: &Affine,
        where_: &str,
        (origin, handle): (Origin, &str),
    ) -> Result<()> {
        let name = format!("ARC {handle}");
        let sx = planar(a.normal.z, &name)?;
        // An ARC of radius 0 is a dot (CAD programs write them for points of a
        // sketch): it joins nothing and bounds nothing.
        if a.radius == 0.0 {
            return self.hide("zero-length arcs");
        }
        let ok = [a.center.x, a.center.y, a.start_angle, a.end_angle]
            .iter()
            .all(|c| c.is_finite());
        if !ok || a.radius.is_nan() || a.radius <= 0.0 || !a.radius.is_finite() {
            return Err(Error::parse(
                name,
                "needs a finite centre and angles and a positive finite radius",
            ));
        }
        // Counter-clockwise from start to end, less than a turn past a full one (a
        // loop adding 360° to huge angles would never end).
        let s = a.start_angle.rem_euclid(360.0).to_radians();
        let e = s + turn(a.end_angle - a.start_angle, 360.0).to_radians();
        let r = a.radius;
        let (mut points, mut arcs) =
            elliptic_arc([a.center.x, a.center.y], [[r, 0.0], [0.0, r]], s, e);
        Affine::mirror_x(sx).place(&mut points, &mut arcs);
        let path = Path::exact(origin, name, points, arcs);
        self.add(xf, where_, path, false);
        Ok(())
    }

    /// An ELLIPSE: a closed curve when full, else a piece to chain.
    fn ellipse(
        &mut self,
        el: &::dxf::entities::Ellipse,
        xf: &Affine,
        where_: &str,
        (origin, handle): (Origin, &str),
    ) -> Result<()> {
        let name = format!("ELLIPSE {handle}");
        let nz = planar(el.normal.z, &name)?;
        let nums = [
            el.center.x,
            el.center.y,
            el.major_axis.x,
            el.major_axis.y,
            el.minor_axis_ratio,
            el.start_parameter,
            el.end_parameter,
        ];
        let major = el.major_axis.x.hypot(el.major_axis.y);
        if nums.iter().any(|v| !v.is_finite())
            || major == 0.0
            || el.minor_axis_ratio <= 0.0
            || el.major_axis.z != 0.0
        {
            return Err(Error::parse(
                name,
                "needs a finite centre, a non-zero major axis in the plane and a positive minor/major ratio",
            ));
        }
        // P(t) = C + cos t · M + sin t · r (N × M), N = ±z. A ratio above 1 (which
        // some writers produce, 1.0095 say) is read as AutoCAD reads it: the same
        // formula, so the "minor" axis is the longer one and the parameters keep
        // their meaning (the curve is that of the axes swapped).
        let m = [el.major_axis.x, el.major_axis.y];
        let minor = [
            -nz * el.minor_axis_ratio * m[1],
            nz * el.minor_axis_ratio * m[0],
        ];
        let t0 = el.start_parameter.rem_euclid(2.0 * PI);
        let t1 = t0 + turn(el.end_parameter - el.start_parameter, 2.0 * PI);
        let full = (t1 - t0 - 2.0 * PI).abs() < 1e-12;
        let a = [[m[0], minor[0]], [m[1], minor[1]]];
        let c = [el.center.x, el.center.y];
        let (mut points, arcs) = elliptic_arc(c, a, t0, if full { t0 + 2.0 * PI } else { t1 });
        if full {
            points.pop();
        }
        let path = Path::exact(origin, name, points, arcs);
        self.add(xf, where_, path, full);
        Ok(())
    }

    /// A SPLINE: its spans, one piece (or closed curve) per stretch between discontinuous knots.
    fn spline(
        &mut self,
        sp: &'a ::dxf::entities::Spline,
        xf: &Affine,
        where_: &str,
        (origin, handle): (Origin, &str),
    ) -> Result<()> {
        let name = format!("SPLINE {handle}");
        let pieces = match self.splines.remove(&(std::ptr::from_ref(sp) as usize)) {
            Some(pieces) => pieces,
            None => spline_spans(sp, &name)?,
        };
        // A discontinuous knot vector makes pieces, chained like any others (and
        // refused if they do not join).
        let count = pieces.len();
        for (k, (mut points, arcs)) in pieces.into_iter().enumerate() {
            let name = if count > 1 {
                format!("{name} (piece {} of {count})", k + 1)
            } else {
                name.clone()
            };
            let closed = points.len() > 2 && points[0] == points[points.len() - 1];
            if closed {
                points.pop();
            }
            let path = Path::exact(origin.clone(), name, points, arcs);
            self.add(xf, where_, path, closed);
        }
        Ok(())
    }

    /// Expands an INSERT: its block's entities, moved from the block's base point, scaled
    /// (a negative scale mirrors), rotated and placed at the insertion point, once per cell
    /// of its row × column array.
    fn insert(
        &mut self,
        ins: &'a ::dxf::entities::Insert,
        handle: &str,
        xf: &Affine,
        where_: &str,
        layer: &str,
        stack: &mut Vec<&'a str>,
    ) -> Result<()> {
        let name = format!("INSERT {handle}");
        let block = *self.blocks.get(ins.name.as_str()).ok_or_else(|| {
            Error::parse(
                name.clone(),
                format!(
                    "places block \"{}\", which the drawing does not define",
                    crate::error::clip(&ins.name)
                ),
            )
        })?;
        // An external reference's block holds nothing in this drawing: its geometry is in
        // another file, so expanding it would leave the part out silently.
        if block.is_xref()
            || block.is_xref_overlay()
            || block.is_externally_dependent()
            || !block.xref_path_name.is_empty()
        {
            let file = if block.xref_path_name.is_empty() {
                "a file the drawing does not name".to_string()
            } else {
                format!("\"{}\"", crate::error::clip_to(&block.xref_path_name, 120))
            };
            return Err(Error::parse(
                name,
                format!(
                    "places external reference \"{}\" ({file}), whose geometry is not in this drawing: bind it into the drawing (XREF Bind) or read that file",
                    crate::error::clip(&block.name)
                ),
            ));
        }
        if stack.contains(&block.name.as_str()) {
            return Err(Error::parse(
                name,
                format!(
                    "block \"{}\" places itself (through {}): a cycle",
                    crate::error::clip(&block.name),
                    stack.join(" → ")
                ),
            ));
        }
        if stack.len() >= MAX_DEPTH {
            return Err(Error::parse(
                name,
                format!("blocks nested more than {MAX_DEPTH} deep"),
            ));
        }
        let sx = planar(ins.extrusion_direction.z, &name)?;
        let nums = [
            ins.location.x,
            ins.location.y,
            ins.x_scale_factor,
            ins.y_scale_factor,
            ins.rotation,
            ins.column_spacing,
            ins.row_spacing,
            block.base_point.x,
            block.base_point.y,
        ];
        if nums.iter().any(|v| !v.is_finite())
            || ins.x_scale_factor == 0.0
            || ins.y_scale_factor == 0.0
        {
            return Err(Error::parse(
                name,
                "needs finite numbers and non-zero scale factors",
            ));
        }
        let (sin, cos) = ins.rotation.to_radians().sin_cos();
        let (kx, ky) = (ins.x_scale_factor, ins.y_scale_factor);
        // In the INSERT's own plane: p ↦ location + R (S (p − base) + array offset).
        let local = |dx: f64, dy: f64| Affine {
            m: [[cos * kx, -sin * ky], [sin * kx, cos * ky]],
            t: [
                ins.location.x + cos * dx
                    - sin * dy
                    - (cos * kx * block.base_point.x - sin * ky * block.base_point.y),
                ins.location.y + sin * dx + cos * dy
                    - (sin * kx * block.base_point.x + cos * ky * block.base_point.y),
            ],
        };
        // An INSERT seen from below (extrusion −z) mirrors x, as for the other entities.
        let plane = Affine {
            m: [[sx, 0.0], [0.0, 1.0]],
            t: [0.0, 0.0],
        };
        let cols = ins.column_count.max(1) as usize;
        let rows = ins.row_count.max(1) as usize;
        let entities: Vec<&'a ::dxf::entities::Entity> = block.entities.iter().collect();
        stack.push(block.name.as_str());
        for r in 0..rows {
            for c in 0..cols {
                // Every placed copy counts, even of an empty block: an array of 32767 ×
                // 32767 cells is refused, not walked.
                self.expanded += 1;
                if self.expanded > self.max_expanded {
                    return Err(Error::in_part(
                        &name,
                        Error::TooLarge {
                            excess: crate::error::Excess::Entities {
                                count: None,
                                copies: true,
                                max: self.max_expanded as u64,
                            },
                        },
                    ));
                }
                let inner = plane.after(&local(
                    c as f64 * ins.column_spacing,
                    r as f64 * ins.row_spacing,
                ));
                let placed = xf.after(&inner);
                let cell = if rows * cols > 1 {
                    format!(" [{}, {}]", r + 1, c + 1)
                } else {
                    String::new()
                };
                let here = format!(" in {name}{cell}{where_}");
                self.entities(&entities, &placed, &here, layer, stack)?;
            }
        }
        stack.pop();
        Ok(())
    }
}
