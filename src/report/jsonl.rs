//! `--format jsonl`: one compact JSON object per line per input; for batches.
//!
//! A file that could not be processed gets `{"source": ..., "error": ...}` on its line.

use serde::Serialize;

/// One line per result or failure.
///
/// # Examples
/// ```
/// use inertia::{Amount, Polygon, PolygonMethod, report::{jsonl, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = PolygonReport::new("sq", &p, PolygonMethod::Fan, Amount::Density(1.0), None);
/// let text = jsonl::lines(&[Ok(r), Err(("bad.json".to_string(), "line 1: EOF".to_string()))]);
/// let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
/// assert_eq!(lines[0]["area"], 1.0);
/// assert_eq!(lines[1]["error"], "line 1: EOF");
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn lines<R: Serialize>(rows: &[Result<R, (String, String)>]) -> String {
    let mut out = String::new();
    for row in rows {
        let line = match row {
            Ok(r) => serde_json::to_string(&super::json::versioned(r)),
            Err((source, message)) => serde_json::to_string(&serde_json::json!({
                "schema_version": super::json::SCHEMA_VERSION,
                "source": source,
                "error": message
            })),
        };
        out += &line.unwrap_or_default();
        out.push('\n');
    }
    out
}
