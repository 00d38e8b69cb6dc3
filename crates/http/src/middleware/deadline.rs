//! Deadlines for request bodies: a client that sends its body slowly, or stops sending it, is
//! answered 408 `body_timeout` once the whole body has taken longer than
//! `server.body_timeout_seconds` or no byte has arrived for `server.body_idle_seconds`. The
//! headers have their own deadline in actix (`client_request_timeout`); WebSocket upgrades are
//! left alone (their frames have the session's idle rules).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::{StatusCode, header};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use futures_util::Stream;
use tokio::time::{Instant, Sleep, sleep};

use crate::error::{ApiError, Code};

/// How long a request body may take, as a whole and between two chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyDeadlines {
    pub whole: Duration,
    pub idle: Duration,
}

/// Middleware: puts the deadlines on every request body except a WebSocket upgrade's.
pub async fn limit_body_time(
    deadlines: BodyDeadlines,
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if !req.headers().contains_key(header::UPGRADE) {
        let inner = req.take_payload();
        req.set_payload(Payload::Stream {
            payload: Box::pin(DeadlinedBody::new(inner, deadlines)),
        });
    }
    next.call(req).await
}

/// Whether a payload error is this module's deadline passing.
pub fn is_body_timeout(error: &PayloadError) -> bool {
    matches!(error, PayloadError::Io(e) if e.kind() == io::ErrorKind::TimedOut)
}

/// The answer to a body that arrived too slowly.
pub fn body_timeout() -> ApiError {
    ApiError::new(
        Code::BodyTimeout,
        "the request body arrived too slowly; send it again",
    )
}

/// Reads a small JSON body whole: 413 `invalid_json` past the JSON limit, 408 `body_timeout`
/// when it arrives too slowly (for routes that accept an empty body as well as JSON).
pub async fn read_json_bytes(payload: actix_web::web::Payload) -> Result<Bytes, ApiError> {
    let read = payload
        .to_bytes_limited(crate::MAX_JSON_BYTES)
        .await
        .map_err(|_| {
            ApiError::with_status(
                StatusCode::PAYLOAD_TOO_LARGE,
                Code::InvalidJson,
                format!(
                    "the JSON body is larger than {} bytes",
                    crate::MAX_JSON_BYTES
                ),
            )
        })?;
    read.map_err(|error| match error.as_error::<PayloadError>() {
        Some(payload) if is_body_timeout(payload) => body_timeout(),
        _ => ApiError::new(Code::InvalidJson, error.to_string()),
    })
}

/// A request body that fails with a timed-out error once a deadline passes.
struct DeadlinedBody {
    inner: Payload,
    whole: Pin<Box<Sleep>>,
    idle: Pin<Box<Sleep>>,
    idle_for: Duration,
    done: bool,
}

impl DeadlinedBody {
    fn new(inner: Payload, deadlines: BodyDeadlines) -> Self {
        Self {
            inner,
            whole: Box::pin(sleep(deadlines.whole)),
            idle: Box::pin(sleep(deadlines.idle)),
            idle_for: deadlines.idle,
            done: false,
        }
    }
}

impl Stream for DeadlinedBody {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                let next_idle = Instant::now() + self.idle_for;
                self.idle.as_mut().reset(next_idle);
                return Poll::Ready(Some(Ok(chunk)));
            }
            Poll::Ready(end_or_error) => {
                self.done = true;
                return Poll::Ready(end_or_error);
            }
            Poll::Pending => {}
        }
        let whole_passed = self.whole.as_mut().poll(cx).is_ready();
        let idle_passed = self.idle.as_mut().poll(cx).is_ready();
        if whole_passed || idle_passed {
            self.done = true;
            return Poll::Ready(Some(Err(PayloadError::Io(io::Error::new(
                io::ErrorKind::TimedOut,
                "the request body arrived too slowly",
            )))));
        }
        Poll::Pending
    }
}
