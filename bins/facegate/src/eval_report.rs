//! `--report DIR` of `facegate eval verify` and `facegate eval liveness`: a self-contained HTML
//! page (the inline SVG charts of `eval_charts`, no script, nothing fetched) that opens offline. For
//! verification: ROC and DET curves with the operating threshold marked, and the score
//! histograms of same-person and different-person pairs; for liveness: the verdict table of
//! each class of recordings, a chart of their verdicts, the fitted decision's DET curve per
//! attack class with its pass point marked (lit passive runs), and one row per recording.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use face_engine::evaluation::VerificationReport;
use liveness_engine::{LivenessConfig, LivenessPath, SessionMode};
use liveness_rig::replay::ReplayOutcome;

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
                "DET",
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

/// The fitted decision's probabilities of a live person, by class of recordings, and its pass
/// point (a session passes from it on). A class whose name starts with `live` holds bona fide
/// recordings ([`is_live_class`]); every other class is an attack.
#[derive(Debug, Clone)]
pub struct FittedScores {
    pub pass_at: f32,
    pub classes: Vec<(String, Vec<f32>)>,
}

impl FittedScores {
    /// The fitted decision's probabilities by class, in the order the classes first appear,
    /// where it decides: a passive run on the light's path with the light rendered.
    pub fn of_run(
        config: &LivenessConfig,
        (mode, path, ratio): (SessionMode, LivenessPath, Option<f32>),
        by_class: &[(&str, Vec<&ReplayOutcome>)],
    ) -> Option<Self> {
        let decision = config.fitted_decision.as_ref()?;
        if mode != decision.mode || path != LivenessPath::Light || ratio.is_none() {
            return None;
        }
        let classes = by_class
            .iter()
            .map(|(class, outcomes)| {
                let scores = outcomes
                    .iter()
                    .filter_map(|o| o.report.fitted_live_probability)
                    .collect();
                (class.to_string(), scores)
            })
            .collect();
        Some(Self {
            pass_at: decision.pass_at as f32,
            classes,
        })
    }
}

/// Whether a class of recordings holds live people: its folder's name starts with `live`.
pub fn is_live_class(class: &str) -> bool {
    class.starts_with("live")
}

/// A chart file's name for `class`: its letters and digits, the rest as dashes.
fn chart_file(class: &str) -> String {
    let slug: String = class
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("det-{slug}.svg")
}

/// The fitted decision's section: APCER and BPCER at the pass point per attack class, and
/// one DET chart per attack class against every live recording, the pass point marked.
fn fitted_section(fitted: &FittedScores) -> Result<(String, Vec<(String, String)>), String> {
    let live: Vec<f32> = fitted
        .classes
        .iter()
        .filter(|(class, _)| is_live_class(class))
        .flat_map(|(_, scores)| scores.iter().copied())
        .collect();
    let mut body = format!(
        "<h2>The fitted decision</h2><p>Its probability of a live person for each recording; a \
         session passes from {:.3} on (the rules' hard vetoes aside). {} live recordings \
         (classes named <code>live…</code>) against each attack class.</p>",
        fitted.pass_at,
        live.len()
    );
    if live.is_empty() {
        body.push_str("<p>No live class: no DET curve.</p>");
        return Ok((body, Vec::new()));
    }
    body.push_str(
        "<table><tr><th>attack class</th><th>recordings</th><th>APCER at the pass point</th>\
         <th>BPCER at the pass point</th></tr>",
    );
    let mut charts = Vec::new();
    // `CurvePoint::at` accepts scores strictly above its threshold; a session passes at it
    let operating_threshold = fitted.pass_at.next_down();
    for (class, attacks) in fitted
        .classes
        .iter()
        .filter(|(class, scores)| !is_live_class(class) && !scores.is_empty())
    {
        let operating = CurvePoint::at(&live, attacks, operating_threshold);
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td></tr>",
            escape(class),
            attacks.len(),
            operating.far,
            operating.frr
        );
        let curve = error_curve(&live, attacks, 200);
        let chart = det_chart(
            &format!("DET: {class}"),
            &curve,
            operating,
            live.len(),
            attacks.len(),
        )?;
        charts.push((chart_file(class), chart));
    }
    body.push_str("</table><div class=\"charts\">");
    for (_, chart) in &charts {
        body.push_str(chart);
    }
    body.push_str("</div>");
    Ok((body, charts))
}

/// Writes `dir/report.html` for a liveness run (`fitted`: the fitted decision's
/// probabilities, for its DET curves); returns its path.
pub fn write_liveness(
    dir: &Path,
    setup: &str,
    (classes, fitted): (&[ClassRow], Option<&FittedScores>),
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
    body.push_str("</div>");
    let (fitted_body, fitted_charts) = match fitted {
        Some(fitted) => fitted_section(fitted)?,
        None => (String::new(), Vec::new()),
    };
    body.push_str(&fitted_body);
    body.push_str("<h2>Recordings</h2><table><tr><th>recording</th><th>verdict</th><th>confidence</th><th>end</th></tr>");
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
    let mut charts: Vec<(&str, String)> = vec![("verdicts.svg", chart)];
    charts.extend(
        fitted_charts
            .iter()
            .map(|(name, chart)| (name.as_str(), chart.clone())),
    );
    write_page(dir, &page("Facegate: liveness verdicts", &body), &charts)
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

    #[test]
    fn a_liveness_report_draws_a_det_curve_per_attack_class_with_the_pass_point() {
        let dir = tempfile::tempdir().expect("dir");
        let classes = [
            ClassRow {
                class: "live".into(),
                pass: 19,
                retry: 1,
                fail: 0,
            },
            ClassRow {
                class: "print sheet".into(),
                pass: 1,
                retry: 9,
                fail: 0,
            },
        ];
        let fitted = FittedScores {
            pass_at: 0.5,
            classes: vec![
                (
                    "live".into(),
                    (0..20).map(|i| 0.46 + 0.025 * i as f32).collect(),
                ),
                (
                    "print sheet".into(),
                    (0..10).map(|i| 0.06 * i as f32).collect(),
                ),
                ("replay".into(), vec![0.1, 0.2]),
                ("tinted".into(), Vec::new()),
            ],
        };
        let rows = [LivenessRow {
            recording: "a".into(),
            verdict: "pass".into(),
            confidence: 0.9,
            end_reason: "completed".into(),
        }];
        let path =
            write_liveness(dir.path(), "setup", (&classes, Some(&fitted)), &rows).expect("written");
        let html = std::fs::read_to_string(path).expect("html");
        assert_eq!(
            html.matches("<svg").count(),
            3,
            "the verdicts and two DET curves"
        );
        assert!(html.contains("DET: print sheet") && html.contains("DET: replay"));
        // at the pass point 18 of 20 live recordings pass (0.46 and 0.485 do not), and 1 of 10
        // sheets (0.54; 0.48 does not)
        assert!(
            html.contains("<td>print sheet</td><td>10</td><td>0.100</td><td>0.100</td>"),
            "{html}"
        );
        assert!(dir.path().join("det-print-sheet.svg").exists());
        assert!(dir.path().join("verdicts.svg").exists());
    }
}
