//! `--report DIR` of `facegate eval verify` and `facegate eval liveness`: a self-contained HTML
//! page (the inline SVG charts of `eval_charts`, no script, nothing fetched) that opens offline. For
//! verification: ROC and DET curves with the operating threshold marked, and the score
//! histograms of same-person and different-person pairs; for liveness: the verdict table of
//! each class of recordings, a chart of their verdicts and one row per recording.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use face_engine::evaluation::VerificationReport;

pub use crate::eval_charts::ClassRow;
use crate::eval_charts::{
    CurvePoint, det_chart, error_curve, histogram_chart, roc_chart, verdict_chart,
};

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>body{{font:15px/1.45 system-ui,sans-serif;max-width:1180px;margin:2rem auto;\
         padding:0 1rem;color:#1b1c1e}}table{{border-collapse:collapse;margin:1rem 0}}\
         td,th{{border:1px solid #d0d4da;padding:.3rem .6rem;text-align:left}}\
         .charts{{display:flex;flex-wrap:wrap;gap:1rem}}</style></head>\
         <body><h1>{t}</h1>\n{body}\n</body></html>\n",
        t = escape(title)
    )
}

/// Writes `dir/report.html` for a verification run; returns its path.
pub fn write_verification(
    dir: &Path,
    source: &Path,
    report: &VerificationReport,
    genuine: &[f32],
    impostor: &[f32],
) -> Result<PathBuf, String> {
    let curve = error_curve(genuine, impostor, 400);
    let threshold = report.recommended_threshold;
    let operating = CurvePoint::at(genuine, impostor, threshold);
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} images ({} without a usable face) of <code>{}</code>: {} same-person and {} \
         different-person pairs. Operating threshold {:.3} (false accept rate 1e-3, or the finest \
         the impostor pairs allow): false accepts {:.5}, false rejects {:.5}.</p>\
         <table><tr><th>ROC AUC</th><td>{:.4}</td></tr><tr><th>EER</th><td>{:.4} at {:.3}</td></tr>",
        report.images,
        report.failed_images,
        escape(&source.display().to_string()),
        report.genuine_pairs,
        report.impostor_pairs,
        threshold,
        operating.far,
        operating.frr,
        report.auc,
        report.eer,
        report.eer_threshold
    );
    for t in &report.tar_at_far {
        let _ = write!(
            body,
            "<tr><th>TAR at FAR {}</th><td>{:.4} (threshold {:.3})</td></tr>",
            t.far, t.tar, t.threshold
        );
    }
    body.push_str("</table><div class=\"charts\">");
    let charts = [
        (
            "roc.svg",
            roc_chart(&curve, operating, report.impostor_pairs)?,
        ),
        (
            "det.svg",
            det_chart(
                &curve,
                operating,
                report.genuine_pairs,
                report.impostor_pairs,
            )?,
        ),
        ("scores.svg", histogram_chart(genuine, impostor, threshold)?),
    ];
    for (_, chart) in &charts {
        body.push_str(chart);
    }
    body.push_str("</div>");
    write_page(
        dir,
        &page("Facegate: verification accuracy", &body),
        &charts,
    )
}

/// One recording's outcome in a liveness report.
#[derive(Debug, Clone)]
pub struct LivenessRow {
    pub recording: String,
    pub verdict: String,
    pub confidence: f32,
    pub end_reason: String,
}

/// Writes `dir/report.html` for a liveness run; returns its path.
pub fn write_liveness(
    dir: &Path,
    setup: &str,
    classes: &[ClassRow],
    rows: &[LivenessRow],
) -> Result<PathBuf, String> {
    let mut body = format!(
        "<p>{}</p><table><tr><th>class</th><th>recordings</th><th>pass</th><th>retry</th><th>fail</th><th>pass rate</th></tr>",
        escape(setup)
    );
    for c in classes {
        let total = c.pass + c.retry + c.fail;
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{total}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3}</td></tr>",
            escape(&c.class),
            c.pass,
            c.retry,
            c.fail,
            c.pass as f64 / total.max(1) as f64
        );
    }
    body.push_str("</table><div class=\"charts\">");
    let chart = verdict_chart(classes)?;
    body.push_str(&chart);
    body.push_str("</div><h2>Recordings</h2><table><tr><th>recording</th><th>verdict</th><th>confidence</th><th>end</th></tr>");
    for r in rows {
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{:.3}</td><td>{}</td></tr>",
            escape(&r.recording),
            escape(&r.verdict),
            r.confidence,
            escape(&r.end_reason)
        );
    }
    body.push_str("</table>");
    write_page(
        dir,
        &page("Facegate: liveness verdicts", &body),
        &[("verdicts.svg", chart)],
    )
}

/// Writes `dir/report.html` and each chart beside it as its own SVG file (for documents that
/// show one chart); returns the page's path.
fn write_page(dir: &Path, html: &str, charts: &[(&str, String)]) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, chart) in charts {
        let path = dir.join(name);
        std::fs::write(&path, chart).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let path = dir.join("report.html");
    std::fs::write(&path, html).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_page_is_self_contained_svg() {
        let dir = tempfile::tempdir().expect("dir");
        let genuine: Vec<f32> = (0..200).map(|i| 0.6 + 0.002 * i as f32).collect();
        let impostor: Vec<f32> = (0..2000).map(|i| 0.0002 * i as f32).collect();
        let report = face_engine::evaluation::verification_report(&genuine, &impostor, 40, 0);
        let path = write_verification(dir.path(), Path::new("set"), &report, &genuine, &impostor)
            .expect("written");
        let html = std::fs::read_to_string(path).expect("html");
        assert_eq!(
            html.matches("<svg").count(),
            3,
            "ROC, DET and the histograms"
        );
        assert!(
            html.match_indices("http")
                .all(|(at, _)| html[at..].starts_with("http://www.w3.org/")),
            "no address but the SVG namespaces"
        );
        assert!(!html.contains("<script"), "nothing runs");
    }
}
