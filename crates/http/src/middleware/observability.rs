//! Request ids, one structured log line per request, and Prometheus metrics: requests by route
//! and status, latency histograms by route, and inference time by model (the operators'
//! session and webhook families come from `crate::ops_metrics`). Logs carry the method,
//! the route pattern and the status, never bodies, query strings, tokens or keys.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, web};
use parking_lot::Mutex;

use crate::AppState;

/// Upper bounds (seconds) of the latency histogram buckets.
const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

#[derive(Debug, Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// Request counters and latency histograms.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
}

impl Metrics {
    fn record(&self, method: &str, route: &str, status: u16, seconds: f64) {
        *self
            .requests
            .lock()
            .entry((method.to_owned(), route.to_owned(), status))
            .or_default() += 1;
        let mut latency = self.latency.lock();
        let histogram = latency.entry(route.to_owned()).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                histogram.counts[i] += 1;
            }
        }
        histogram.count += 1;
        histogram.sum += seconds;
    }

    fn render(&self, inference: &[(String, u64, f64)]) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP facegate_http_requests_total HTTP requests by method, route and status.\n",
        );
        out.push_str("# TYPE facegate_http_requests_total counter\n");
        for ((method, route, status), n) in self.requests.lock().iter() {
            let _ = writeln!(
                out,
                "facegate_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        out.push_str("# HELP facegate_http_request_duration_seconds Request latency by route.\n");
        out.push_str("# TYPE facegate_http_request_duration_seconds histogram\n");
        for (route, h) in self.latency.lock().iter() {
            for (bound, n) in BUCKETS.iter().zip(h.counts) {
                let _ = writeln!(
                    out,
                    "facegate_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "facegate_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "facegate_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "facegate_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                h.count
            );
        }
        out.push_str("# HELP facegate_inference_runs_total Model runs by model role.\n# TYPE facegate_inference_runs_total counter\n");
        for (model, runs, _) in inference {
            let _ = writeln!(
                out,
                "facegate_inference_runs_total{{model=\"{model}\"}} {runs}"
            );
        }
        out.push_str("# HELP facegate_inference_seconds_total Time spent in inference by model role.\n# TYPE facegate_inference_seconds_total counter\n");
        for (model, _, seconds) in inference {
            let _ = writeln!(
                out,
                "facegate_inference_seconds_total{{model=\"{model}\"}} {seconds}"
            );
        }
        out
    }
}

/// Middleware: assigns a request id (echoed in `x-request-id`), logs one line per request and
/// records metrics under the route pattern (so ids in paths do not explode the label set).
pub async fn request_log(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let request_id = uuid::Uuid::new_v4();
    let method = req.method().to_string();
    let route = req
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    let metrics = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.metrics.clone());
    let mut response = next.call(req).await?;
    let status = response.status().as_u16();
    let seconds = started.elapsed().as_secs_f64();
    if let Ok(value) = HeaderValue::from_str(&request_id.to_string()) {
        response
            .headers_mut()
            .insert(HeaderName::from_static("x-request-id"), value);
    }
    if let Some(metrics) = metrics {
        metrics.record(&method, &route, status, seconds);
    }
    tracing::info!(%request_id, %method, %route, status, elapsed_ms = seconds * 1000.0, "request");
    Ok(response)
}

/// `GET /metrics` in the Prometheus text format.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain")),
)]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let mut body = state
        .metrics
        .render(&state.faces.engine().inference_stats());
    let operations = state.operations.clone();
    let backlog = web::block(move || operations.webhook_backlog())
        .await
        .ok()
        .and_then(Result::ok);
    crate::ops_metrics::render(
        &mut body,
        &state.sessions.live_stats(),
        &state.deliveries.by_outcome(),
        backlog,
        state.clock.now_millis(),
    );
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(body)
}
