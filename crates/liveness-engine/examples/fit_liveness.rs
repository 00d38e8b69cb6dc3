//! Fits one small model of the liveness decision on the development set that
//! `examples/feature_table.rs` writes (issue 66) and reports it cross-validated, beside the
//! rule set's verdicts on the same sessions: an L2-regularised logistic regression over the
//! layers' features (each standardised on the training folds; a feature a layer could not
//! measure is set to the training mean and flagged by a missing indicator). Two ways of
//! holding out: leave one person out (a clip's source footage, which both halves of a face-swap
//! pair share) and leave one camera family out. In each fold the pass point is set on the
//! training sessions alone (just above the highest attack probability there) and applied to
//! the held-out sessions. A report, not the deciding model: nothing here changes a verdict.
//! `cargo run -p facegate-liveness-engine --release --example fit_liveness -- features.csv`.

use std::collections::{BTreeMap, BTreeSet};

use facegate_liveness_engine::illumination::reading::{MIN_RELIEF, PAPER_MARGIN};

/// L2 penalty on the coefficients (not the intercept), per session.
const L2: f64 = 0.05;
/// Gradient steps and their size (full batch, deterministic).
const STEPS: usize = 3_000;
const STEP_SIZE: f64 = 0.5;
/// Margin above the training attacks' highest probability at which the pass point sits.
const PASS_MARGIN: f64 = 1e-3;

struct Session {
    person: String,
    family: String,
    class: String,
    live: bool,
    rules: String,
    features: Vec<f64>,
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: fit_liveness <features.csv>");
    let text = std::fs::read_to_string(&path).expect("the development set");
    let mut lines = text.lines();
    let header = split_csv(lines.next().expect("a header"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let first_feature = column("verdict") + 1;
    let mut names: Vec<String> = header[first_feature..].to_vec();
    let derived = Derived::of(&names);
    names.extend(Derived::NAMES.map(String::from));
    let sessions: Vec<Session> = lines
        .map(split_csv)
        .map(|row| {
            Session {
                // a face-swap pair's two halves share their source: one person
                person: row[column("source")].clone(),
                family: row[column("family")].clone(),
                class: row[column("class")].clone(),
                live: row[column("truth")] == "live",
                rules: row[column("verdict")].clone(),
                features: derived.extend(
                    row[first_feature..]
                        .iter()
                        .map(|v| v.parse().unwrap_or(f64::NAN))
                        .collect(),
                ),
            }
        })
        .collect();
    let classes: BTreeSet<&str> = sessions.iter().map(|s| s.class.as_str()).collect();
    let families: BTreeSet<&str> = sessions.iter().map(|s| s.family.as_str()).collect();
    println!(
        "{} sessions ({} live), {} features, {} classes, {} families, {} people",
        sessions.len(),
        sessions.iter().filter(|s| s.live).count(),
        names.len(),
        classes.len(),
        families.len(),
        sessions
            .iter()
            .map(|s| s.person.as_str())
            .collect::<BTreeSet<_>>()
            .len()
    );
    let rules: Vec<Outcome> = sessions
        .iter()
        .map(|s| match s.rules.as_str() {
            "pass" => Outcome::Pass,
            "fail" => Outcome::Fail,
            _ => Outcome::Retry,
        })
        .collect();
    report("rules (today's verdicts)", &sessions, &rules);
    for (title, key) in [
        (
            "leave one person out",
            (|s: &Session| s.person.clone()) as fn(&Session) -> String,
        ),
        ("leave one camera family out", |s: &Session| {
            s.family.clone()
        }),
    ] {
        let held_out = cross_validate(&sessions, key);
        report(&format!("fitted, {title}"), &sessions, &held_out);
    }
    let model = Model::fit(&sessions.iter().collect::<Vec<_>>());
    println!("== coefficients on every session (standardised features)");
    let mut weighted: Vec<(f64, String)> = model
        .weights
        .iter()
        .zip(model.columns(&names))
        .map(|(w, n)| (*w, n))
        .collect();
    weighted.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
    for (w, n) in weighted.iter().take(15) {
        println!("{w:+.3} {n}");
    }
}

/// Features derived from the exported ones: the light's paper margin and relief as distances
/// from the engine's cut-offs (`PAPER_MARGIN`, `MIN_RELIEF`) in their own standard errors,
/// which is how the rules read them.
struct Derived {
    margin: usize,
    margin_error: usize,
    relief: usize,
    relief_error: usize,
}

impl Derived {
    const NAMES: [&str; 2] = ["derived.margin_z", "derived.relief_z"];

    fn of(names: &[String]) -> Self {
        let at = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .unwrap_or_else(|| panic!("the development set lacks {name}"))
        };
        Self {
            margin: at("deepfake_injection.light_margin_ratio"),
            margin_error: at("deepfake_injection.light_margin_error"),
            relief: at("deepfake_injection.light_relief"),
            relief_error: at("deepfake_injection.light_relief_error"),
        }
    }

    fn extend(&self, mut features: Vec<f64>) -> Vec<f64> {
        let z = |value: f64, cut: f64, error: f64| (value - cut) / error.max(1e-3);
        let margin = z(
            features[self.margin],
            f64::from(PAPER_MARGIN),
            features[self.margin_error],
        );
        let relief = z(
            features[self.relief],
            f64::from(MIN_RELIEF),
            features[self.relief_error],
        );
        features.extend([margin, relief]);
        features
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    Pass,
    Retry,
    Fail,
}

/// Each session's outcome when the model is fitted without its fold (`key`'s value).
fn cross_validate(sessions: &[Session], key: fn(&Session) -> String) -> Vec<Outcome> {
    let folds: BTreeSet<String> = sessions.iter().map(key).collect();
    let mut outcomes = vec![Outcome::Retry; sessions.len()];
    for fold in folds {
        let train: Vec<&Session> = sessions.iter().filter(|s| key(s) != fold).collect();
        let model = Model::fit(&train);
        let pass_at = train
            .iter()
            .filter(|s| !s.live)
            .map(|s| model.probability(&s.features))
            .fold(0.0f64, f64::max)
            + PASS_MARGIN;
        for (i, s) in sessions.iter().enumerate() {
            if key(s) == fold {
                outcomes[i] = if model.probability(&s.features) >= pass_at {
                    Outcome::Pass
                } else {
                    Outcome::Retry
                };
            }
        }
    }
    outcomes
}

/// BPCER, live `fail`s and APCER per class of `outcomes` (one per session, in order).
fn report(title: &str, sessions: &[Session], outcomes: &[Outcome]) {
    let live: Vec<Outcome> = sessions
        .iter()
        .zip(outcomes)
        .filter(|(s, _)| s.live)
        .map(|(_, o)| *o)
        .collect();
    let not_passed = live.iter().filter(|o| **o != Outcome::Pass).count();
    let failed = live.iter().filter(|o| **o == Outcome::Fail).count();
    println!("== {title}");
    println!(
        "live: BPCER {not_passed}/{} ({:.3}), failed {failed}",
        live.len(),
        not_passed as f64 / live.len().max(1) as f64
    );
    let mut by_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (s, outcome) in sessions.iter().zip(outcomes).filter(|(s, _)| !s.live) {
        let entry = by_class.entry(&s.class).or_default();
        entry.1 += 1;
        if *outcome == Outcome::Pass {
            entry.0 += 1;
        }
    }
    for (class, (passed, total)) in by_class {
        println!("attack {class}: APCER {passed}/{total}");
    }
}

/// Logistic regression on standardised features with missing indicators.
struct Model {
    means: Vec<f64>,
    scales: Vec<f64>,
    /// Features that were missing in some training session (they get an indicator).
    gaps: Vec<usize>,
    weights: Vec<f64>,
    intercept: f64,
}

impl Model {
    fn fit(train: &[&Session]) -> Self {
        let width = train[0].features.len();
        let mut means = vec![0.0; width];
        let mut scales = vec![1.0; width];
        let mut gaps = Vec::new();
        for j in 0..width {
            let seen: Vec<f64> = train
                .iter()
                .map(|s| s.features[j])
                .filter(|v| v.is_finite())
                .collect();
            if seen.len() < train.len() {
                gaps.push(j);
            }
            if seen.is_empty() {
                continue;
            }
            let mean = seen.iter().sum::<f64>() / seen.len() as f64;
            let var = seen.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / seen.len() as f64;
            means[j] = mean;
            scales[j] = if var > 1e-12 { var.sqrt() } else { 1.0 };
        }
        let mut model = Self {
            means,
            scales,
            gaps,
            weights: Vec::new(),
            intercept: 0.0,
        };
        let rows: Vec<Vec<f64>> = train.iter().map(|s| model.row(&s.features)).collect();
        let labels: Vec<f64> = train.iter().map(|s| f64::from(u8::from(s.live))).collect();
        let n = rows.len() as f64;
        let mut w = vec![0.0; rows[0].len()];
        let mut b = 0.0;
        for _ in 0..STEPS {
            let mut grad = vec![0.0; w.len()];
            let mut grad_b = 0.0;
            for (x, y) in rows.iter().zip(&labels) {
                let p = sigmoid(b + dot(&w, x));
                let e = p - y;
                grad_b += e;
                for (g, xi) in grad.iter_mut().zip(x) {
                    *g += e * xi;
                }
            }
            for (wi, g) in w.iter_mut().zip(&grad) {
                *wi -= STEP_SIZE * (g / n + L2 * *wi);
            }
            b -= STEP_SIZE * grad_b / n;
        }
        model.weights = w;
        model.intercept = b;
        model
    }

    /// The standardised features (missing ones at the mean) and the missing indicators.
    fn row(&self, features: &[f64]) -> Vec<f64> {
        let mut row: Vec<f64> = features
            .iter()
            .enumerate()
            .map(|(j, v)| {
                if v.is_finite() {
                    (v - self.means[j]) / self.scales[j]
                } else {
                    0.0
                }
            })
            .collect();
        row.extend(
            self.gaps
                .iter()
                .map(|&j| f64::from(u8::from(!features[j].is_finite()))),
        );
        row
    }

    fn columns(&self, names: &[String]) -> Vec<String> {
        names
            .iter()
            .cloned()
            .chain(self.gaps.iter().map(|&j| format!("{} missing", names[j])))
            .collect()
    }

    fn probability(&self, features: &[f64]) -> f64 {
        sigmoid(self.intercept + dot(&self.weights, &self.row(features)))
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// One CSV line's fields (quoted fields may hold commas and doubled quotes).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}
