//! The charts of `facegate eval … --report`, drawn as SVG with `plotters`: ROC and DET curves
//! with the operating point, the similarity histograms of same- and different-person pairs, and
//! the verdicts of each class of liveness recordings.

use plotters::prelude::*;

/// Verdict counts of one class of recordings.
#[derive(Debug, Clone)]
pub struct ClassRow {
    pub class: String,
    pub pass: usize,
    pub retry: usize,
    pub fail: usize,
}

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

impl CurvePoint {
    /// The rates at one `threshold`.
    pub fn at(genuine: &[f32], impostor: &[f32], threshold: f32) -> Self {
        let above = |scores: &[f32]| scores.iter().filter(|&&s| s > threshold).count() as f64;
        Self {
            threshold,
            far: above(impostor) / impostor.len().max(1) as f64,
            frr: 1.0 - above(genuine) / genuine.len().max(1) as f64,
        }
    }
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

/// A chart builder on `area` with the report's caption, margin and label areas.
fn framed<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    caption: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(caption, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50);
    builder
}

/// The smallest rate a log axis shows: half of one pair in `pairs`.
fn floor_rate(pairs: usize) -> f64 {
    0.5 / pairs.max(1) as f64
}

/// ROC: accepted genuine pairs against accepted impostor pairs (log scale), with the
/// operating point.
pub(crate) fn roc_chart(
    curve: &[CurvePoint],
    operating: CurvePoint,
    impostors: usize,
) -> Result<String, String> {
    let floor = floor_rate(impostors);
    svg(|area| {
        let mut chart = framed(area, "ROC")
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

/// DET: rejected genuine pairs against accepted impostor pairs, both on log scales, under
/// `caption`.
pub(crate) fn det_chart(
    caption: &str,
    curve: &[CurvePoint],
    operating: CurvePoint,
    genuines: usize,
    impostors: usize,
) -> Result<String, String> {
    let (far_floor, frr_floor) = (floor_rate(impostors), floor_rate(genuines));
    svg(|area| {
        let mut chart = framed(area, caption)
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
pub(crate) fn histogram_chart(
    genuine: &[f32],
    impostor: &[f32],
    threshold: f32,
) -> Result<String, String> {
    const BINS: usize = 50;
    let (g, i) = (histogram(genuine, BINS), histogram(impostor, BINS));
    let top = g.iter().chain(&i).copied().fold(0.0f64, f64::max).max(0.01) * 1.1;
    svg(|area| {
        let mut chart = framed(area, "Similarity of pairs")
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

/// The verdict counts of each class, side by side.
pub(crate) fn verdict_chart(classes: &[ClassRow]) -> Result<String, String> {
    let top = classes
        .iter()
        .map(|c| c.pass + c.retry + c.fail)
        .max()
        .unwrap_or(1)
        .max(1);
    svg(|area| {
        let mut chart = framed(area, "Verdicts by class")
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
    fn the_point_at_a_threshold_counts_scores_strictly_above_it() {
        let point = CurvePoint::at(&[0.9, 0.5, 0.4], &[0.1, 0.6], 0.5);
        assert_eq!(point.far, 0.5);
        assert!((point.frr - 2.0 / 3.0).abs() < 1e-12);
    }
}
