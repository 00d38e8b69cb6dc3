//! The operators' metrics beside the request metrics: live sessions, verdicts by outcome,
//! looks at the colours' end by outcome, frames received and dropped, verdicts' records
//! pending and not stored, the analysis queue's depth and wait (this process), webhook
//! deliveries by outcome (this process's worker) and the webhook backlog with its oldest age
//! (the whole deployment, from the store).

use std::fmt::Write;

use crate::sessions::stats::LiveStats;
use crate::storage::webhooks::WebhookBacklog;

/// Appends the families in the Prometheus text format. `backlog` is `None` when the store
/// could not be read: the two backlog gauges are left out rather than reported as zero.
pub(crate) fn render(
    out: &mut String,
    live: &LiveStats,
    deliveries: &[(&str, u64)],
    backlog: Option<WebhookBacklog>,
    now_ms: i64,
) {
    single(
        out,
        "facegate_sessions_active",
        "gauge",
        "Sessions streaming over a WebSocket in this process.",
        live.active,
    );
    counters_by(
        out,
        "facegate_session_verdicts_total",
        "Verdicts given by this process, by outcome.",
        "verdict",
        &live.verdicts,
    );
    counters_by(
        out,
        "facegate_session_looks_total",
        "Lit passive sessions' looks at the colours' end, by outcome: ended there, not sure (waited for the unlit faces), too few faces (the analysis fell behind).",
        "outcome",
        &live.looks,
    );
    single(
        out,
        "facegate_session_frames_total",
        "counter",
        "Liveness frames received by this process.",
        live.frames,
    );
    single(
        out,
        "facegate_session_frames_dropped_total",
        "counter",
        "Liveness frames replaced before analysis (the analysis could not keep up).",
        live.frames_dropped,
    );
    single(
        out,
        "facegate_session_frames_over_rate_total",
        "counter",
        "Liveness frames a client sent past its connection's max_fps, set aside unread (the client is told slow_down).",
        live.frames_over_rate,
    );
    single(
        out,
        "facegate_session_records_pending",
        "gauge",
        "Verdicts reached whose record (result, portrait, webhook) is being stored; each is sent once stored.",
        live.records_pending,
    );
    single(
        out,
        "facegate_session_records_not_stored_total",
        "counter",
        "Verdicts reached whose record the store refused: not sent, the session stays in progress.",
        live.records_not_stored,
    );
    let queue = &live.analysis_queue;
    single(
        out,
        "facegate_session_analysis_queue_depth",
        "gauge",
        "Liveness analysis jobs (one per session with a frame waiting) waiting for a worker now.",
        queue.waiting,
    );
    family(
        out,
        "facegate_session_analysis_queue_wait_seconds",
        "summary",
        "Time liveness analysis jobs waited for a worker, in all, and how many were served.",
    );
    let name = "facegate_session_analysis_queue_wait_seconds";
    let _ = writeln!(
        out,
        "{name}_sum {}\n{name}_count {}",
        queue.waited_seconds, queue.served
    );
    counters_by(
        out,
        "facegate_webhook_deliveries_total",
        "Webhook delivery attempts recorded by this process, by outcome.",
        "outcome",
        deliveries,
    );
    if let Some(backlog) = backlog {
        single(
            out,
            "facegate_webhook_backlog",
            "gauge",
            "Webhooks neither delivered nor given up, in the whole deployment.",
            backlog.pending,
        );
        let age = backlog
            .oldest_created_at
            .map_or(0.0, |at| (now_ms - at).max(0) as f64 / 1000.0);
        single(
            out,
            "facegate_webhook_backlog_oldest_seconds",
            "gauge",
            "Age of the oldest pending webhook (0 when none).",
            age,
        );
    }
}

/// A family of one unlabelled sample: its `# HELP` and `# TYPE` lines and its value.
fn single(out: &mut String, name: &str, kind: &str, help: &str, value: impl std::fmt::Display) {
    family(out, name, kind, help);
    let _ = writeln!(out, "{name} {value}");
}

/// A counter family with one sample per `(label value, count)`.
fn counters_by(out: &mut String, name: &str, help: &str, label: &str, counts: &[(&str, u64)]) {
    family(out, name, "counter", help);
    for (value, n) in counts {
        let _ = writeln!(out, "{name}{{{label}=\"{value}\"}} {n}");
    }
}

/// The `# HELP` and `# TYPE` lines of a family.
fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}
