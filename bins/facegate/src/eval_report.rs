//! `--report DIR` of `facegate eval verify` and `facegate eval liveness`: a self-contained HTML
//! page (inline SVG drawn with `plotters`, no script, nothing fetched) that opens offline. For
//! verification: ROC and DET curves with the operating threshold marked, and the score
//! histograms of same-person and different-person pairs; for liveness: the verdict table of
//! each class of recordings, a chart of their verdicts and one row per recording.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use face_engine::evaluation::VerificationReport;
use plotters::prelude::*;

const WIDTH: u32 = 560;
const HEIGHT: u32 = 400;
const GENUINE: RGBColor = RGBColor(11, 87, 208);
const IMPOSTOR: RGBColor = RGBColor(200, 80, 30);

/// One point of a verification curve at one threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    pub threshold: f32,
    /// Impostor pairs accepted (similarity above the threshold).
    pub far: f64,
    /// Genuine pairs rejected.
    pub frr: f64,
}

/// FAR and FRR at up to `points` thresholds spread over the observed scores, from the
/// strictest to the most lenient.
pub fn error_curve(genuine: &[f32], impostor: &[f32], points: usize) -> Vec<CurvePoint> {
    let mut scores: Vec<f32> = genuine.iter().chain(impostor).copied().collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    scores.dedup();
    let mut genuine = genuine.to_vec();
    let mut impostor = impostor.to_vec();
    genuine.sort_by(f32::total_cmp);
    impostor.sort_by(f32::total_cmp);
    let step = (scores.len() / points.max(1)).max(1);
    let above = |sorted: &[f32], t: f32| sorted.len() - sorted.partition_point(|&s| s <= t);
    scores
        .iter()
        .step_by(step)
        .chain(scores.last())
        .map(|&threshold| CurvePoint {
            threshold,
            far: above(&impostor, threshold) as f64 / impostor.len().max(1) as f64,
            frr: 1.0 - above(&genuine, threshold) as f64 / genuine.len().max(1) as f64,
        })
        .collect()
}

fn svg(
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        area.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&area)?;
        area.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// The smallest rate a log axis shows: half of one pair in `pairs`.
fn floor_rate(pairs: usize) -> f64 {
    0.5 / pairs.max(1) as f64
}

/// ROC: accepted genuine pairs against accepted impostor pairs (log scale), with the
/// operating point.
fn roc_chart(
    curve: &[CurvePoint],
    operating: CurvePoint,
    impostors: usize,
) -> Result<String, String> {
    let floor = floor_rate(impostors);
    svg(|area| {
        let mut chart = ChartBuilder::on(area)
            .caption("ROC", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d((floor..1.0f64).log_scale(), 0.0f64..1.0f64)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("false accept rate (impostor pairs accepted)")
            .y_desc("true accept rate")
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                curve.iter().map(|p| (p.far.max(floor), 1.0 - p.frr)),
                GENUINE.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(Circle::new(
                (operating.far.max(floor), 1.0 - operating.frr),
                5,
                IMPOSTOR.filled(),
            )))
            .map_err(|e| e.to_string())?
            .label(format!("threshold {:.3}", operating.threshold))
            .legend(|(x, y)| Circle::new((x, y), 4, IMPOSTOR.filled()));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())
    })
}

/// DET: rejected genuine pairs against accepted impostor pairs, both on log scales.
fn det_chart(
    curve: &[CurvePoint],
    operating: CurvePoint,
    genuines: usize,
    impostors: usize,
) -> Result<String, String> {
    let (far_floor, frr_floor) = (floor_rate(impostors), floor_rate(genuines));
    svg(|area| {
        let mut chart = ChartBuilder::on(area)
            .caption("DET", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(
                (far_floor..1.0f64).log_scale(),
                (frr_floor..1.0f64).log_scale(),
            )
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("false accept rate")
            .y_desc("false reject rate")
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                curve
                    .iter()
                    .map(|p| (p.far.max(far_floor), p.frr.max(frr_floor))),
                GENUINE.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(Circle::new(
                (operating.far.max(far_floor), operating.frr.max(frr_floor)),
                5,
                IMPOSTOR.filled(),
            )))
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// Shares of `scores` in `bins` equal bins over 0..1.
fn histogram(scores: &[f32], bins: usize) -> Vec<f64> {
    let mut counts = vec![0usize; bins];
    for &s in scores {
        let bin = ((s.clamp(0.0, 1.0) * bins as f32) as usize).min(bins - 1);
        counts[bin] += 1;
    }
    counts
        .into_iter()
        .map(|c| c as f64 / scores.len().max(1) as f64)
        .collect()
}

/// The similarity histograms of genuine and impostor pairs, with the threshold.
fn histogram_chart(genuine: &[f32], impostor: &[f32], threshold: f32) -> Result<String, String> {
    const BINS: usize = 50;
    let (g, i) = (histogram(genuine, BINS), histogram(impostor, BINS));
    let top = g.iter().chain(&i).copied().fold(0.0f64, f64::max).max(0.01) * 1.1;
    svg(|area| {
        let mut chart = ChartBuilder::on(area)
            .caption("Similarity of pairs", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0f64..1.0f64, 0.0f64..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("similarity")
            .y_desc("share of pairs")
            .draw()
            .map_err(|e| e.to_string())?;
        for (shares, color, label) in [
            (&g, GENUINE, "same person"),
            (&i, IMPOSTOR, "different people"),
        ] {
            chart
                .draw_series(shares.iter().enumerate().map(|(bin, &share)| {
                    let x0 = bin as f64 / BINS as f64;
                    Rectangle::new(
                        [(x0, 0.0), (x0 + 1.0 / BINS as f64, share)],
                        color.mix(0.45).filled(),
                    )
                }))
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.mix(0.45).filled())
                });
        }
        let t = f64::from(threshold);
        chart
            .draw_series(LineSeries::new([(t, 0.0), (t, top)], BLACK.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(format!("threshold {threshold:.3}"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 12, y)], BLACK.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())
    })
}

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
    let operating = error_curve(genuine, impostor, usize::MAX)
        .into_iter()
        .find(|p| p.threshold <= threshold)
        .unwrap_or(CurvePoint {
            threshold,
            far: 0.0,
            frr: 1.0,
        });
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

/// Verdict counts of one class of recordings.
#[derive(Debug, Clone)]
pub struct ClassRow {
    pub class: String,
    pub pass: usize,
    pub retry: usize,
    pub fail: usize,
}

fn verdict_chart(classes: &[ClassRow]) -> Result<String, String> {
    let top = classes
        .iter()
        .map(|c| c.pass + c.retry + c.fail)
        .max()
        .unwrap_or(1)
        .max(1);
    svg(|area| {
        let mut chart = ChartBuilder::on(area)
            .caption("Verdicts by class", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(
                0.0f64..classes.len().max(1) as f64,
                0.0f64..top as f64 * 1.1,
            )
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(classes.len().max(1))
            .x_label_formatter(&|x| {
                classes
                    .get(x.floor() as usize)
                    .map(|c| c.class.clone())
                    .unwrap_or_default()
            })
            .y_desc("recordings")
            .draw()
            .map_err(|e| e.to_string())?;
        let colors = [
            ("pass", RGBColor(40, 150, 70)),
            ("retry", RGBColor(200, 160, 20)),
            ("fail", RGBColor(200, 50, 40)),
        ];
        for (k, (label, color)) in colors.into_iter().enumerate() {
            chart
                .draw_series(classes.iter().enumerate().map(|(i, c)| {
                    let count = [c.pass, c.retry, c.fail][k] as f64;
                    let x0 = i as f64 + 0.15 + k as f64 * 0.23;
                    Rectangle::new([(x0, 0.0), (x0 + 0.2, count)], color.filled())
                }))
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())
    })
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
    fn the_error_curve_runs_from_strict_to_lenient() {
        let genuine = [0.9, 0.8, 0.7, 0.4];
        let impostor = [0.1, 0.2, 0.5, 0.3];
        let curve = error_curve(&genuine, &impostor, 100);
        let first = curve.first().expect("points");
        let last = curve.last().expect("points");
        assert_eq!(
            (first.far, first.frr),
            (0.0, 1.0),
            "nothing above the highest score"
        );
        assert_eq!(
            last.far, 0.75,
            "all but the lowest impostor above the lowest score"
        );
        assert!(
            curve
                .windows(2)
                .all(|w| w[0].far <= w[1].far && w[0].frr >= w[1].frr)
        );
    }

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
