//! `WS /ws/{session_id}?token=`: adapts a liveness stream (crate `sessions`) to a WebSocket.
//! Binary messages are JPEG frames; the server sends `{type, data}` JSON text messages. Every
//! way a socket ends has a documented close code (docs/api.md):
//!
//! | code | when |
//! |---|---|
//! | 1000 | after the `verdict` message |
//! | 1001 | heartbeat lost (no pong for `sessions.socket_idle_seconds`, default 30) |
//! | 1003 | a text message (only binary JPEG frames are accepted) |
//! | 1009 | a frame over 1.5 MB |
//! | 1011 | the result could not be stored (reconnect to try again) |
//! | 4000 | idle: no frame for `sessions.socket_idle_seconds` (default 30) |
//! | 4001 | the session's lifetime ended |
//! | 4004 | unknown or expired session, or a wrong token |
//! | 4009 | the session already has a verdict (single use) |
//! | 4029 | another socket is streaming this session |

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{CloseCode, CloseReason, Message, ProtocolError};
use serde::Deserialize;
use sessions::SessionError;
use sessions::live::{ClientMessage, EventSink, LiveStream, MAX_FRAME_BYTES, StreamEnd};
use tokio::sync::mpsc;

use crate::AppState;
use crate::error::{ApiError, Code};

/// How often the server pings (at most; a fifth of the idle timeout when that is shorter). A
/// client that sends no frame, or answers no ping, for `sessions.socket_idle_seconds` is dropped.
pub const HEARTBEAT: Duration = Duration::from_secs(5);
/// A send to a client that does not read gives up after this long, and the socket goes.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    pub token: Option<String>,
}

enum Outbound {
    Message(ClientMessage),
    End(StreamEnd),
}

struct ChannelSink(mpsc::UnboundedSender<Outbound>);

impl EventSink for ChannelSink {
    fn send(&self, message: ClientMessage) {
        let _ = self.0.send(Outbound::Message(message));
    }

    fn end(&self, end: StreamEnd) {
        let _ = self.0.send(Outbound::End(end));
    }
}

fn close_reason(code: u16, description: &str) -> Option<CloseReason> {
    Some(CloseReason {
        code: CloseCode::Other(code),
        description: Some(description.to_owned()),
    })
}

fn standard_close(code: CloseCode, description: &str) -> Option<CloseReason> {
    Some(CloseReason {
        code,
        description: Some(description.to_owned()),
    })
}

/// The `error` code and close frame of a refused connection, from the error's API code.
fn refusal(error: SessionError) -> (&'static str, Option<CloseReason>) {
    let api = ApiError::from(error);
    let close = match api.code {
        Code::SessionCompleted => close_reason(4009, "session already has a verdict"),
        Code::SessionBusy => close_reason(4029, "another socket streams this session"),
        Code::SessionNotFound => close_reason(4004, "session not found"),
        _ => standard_close(CloseCode::Error, "the session could not start"),
    };
    (api.code.name(), close)
}

async fn send_json(session: &mut actix_ws::Session, message: &ClientMessage) -> bool {
    let Ok(text) = serde_json::to_string(message) else {
        return false;
    };
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, session.text(text)).await,
        Ok(Ok(()))
    )
}

async fn send_error(session: &mut actix_ws::Session, code: &'static str, message: String) {
    send_json(session, &ClientMessage::Error { code, message }).await;
}

pub async fn stream(
    req: HttpRequest,
    body: web::Payload,
    path: web::Path<String>,
    query: web::Query<TokenQuery>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (response, mut session, messages) = actix_ws::handle(&req, body).map_err(|e| {
        ApiError::new(
            Code::WebsocketUpgradeRequired,
            format!("this is a WebSocket endpoint: {e}"),
        )
    })?;
    // a little over the frame limit, so an oversized frame reaches our own check and answer
    let messages = messages.max_frame_size(MAX_FRAME_BYTES + 64 * 1024);
    let (sender, receiver) = mpsc::unbounded_channel();
    let sink: Arc<dyn EventSink> = Arc::new(ChannelSink(sender));
    let id = uuid::Uuid::parse_str(path.as_str()).ok();
    let token = query.into_inner().token.unwrap_or_default();
    let service = state.sessions.clone();
    let client = crate::client::client_address(&req, &state.trusted_proxies);
    let failed_credentials = state.failed_credentials.clone();
    let idle = Duration::from_secs(service.settings().socket_idle_seconds.max(1));
    actix_web::rt::spawn(async move {
        let connected = match id {
            None => Err(SessionError::NotFound),
            Some(id) => web::block(move || service.connect(id, &token, sink))
                .await
                .unwrap_or(Err(SessionError::NotFound)),
        };
        match connected {
            Ok(live) => pump(live, session, messages, receiver, idle).await,
            Err(error) => {
                if matches!(error, SessionError::NotFound) {
                    failed_credentials.record(client);
                }
                let message = error.to_string();
                let (code, close) = refusal(error);
                send_error(&mut session, code, message).await;
                let _ = session.close(close).await;
            }
        }
    });
    Ok(response)
}

/// Moves frames in and messages out until the stream ends, then closes with its code.
async fn pump(
    live: LiveStream,
    mut session: actix_ws::Session,
    mut messages: actix_ws::MessageStream,
    mut outbound: mpsc::UnboundedReceiver<Outbound>,
    idle: Duration,
) {
    let mut heartbeat = tokio::time::interval(HEARTBEAT.min(idle / 5));
    let (mut last_frame, mut last_pong) = (Instant::now(), Instant::now());
    let close = loop {
        tokio::select! {
            incoming = messages.recv() => match incoming {
                Some(Ok(Message::Binary(frame))) => {
                    last_frame = Instant::now();
                    if let Err(error) = live.push_frame(frame.to_vec()) {
                        send_error(&mut session, "frame_too_large", error.to_string()).await;
                        break standard_close(CloseCode::Size, "frame over 1.5 MB");
                    }
                }
                Some(Ok(Message::Text(_))) => {
                    send_error(&mut session, "text_not_accepted", "send JPEG frames as binary messages".into()).await;
                    break standard_close(CloseCode::Unsupported, "binary JPEG frames only");
                }
                Some(Ok(Message::Ping(payload))) => {
                    let _ = session.pong(&payload).await;
                }
                Some(Ok(Message::Pong(_))) => last_pong = Instant::now(),
                Some(Ok(Message::Close(_))) | None => break None,
                Some(Ok(Message::Continuation(_) | Message::Nop)) => {}
                Some(Err(ProtocolError::Overflow)) => {
                    send_error(&mut session, "frame_too_large", format!("a frame may be at most {MAX_FRAME_BYTES} bytes")).await;
                    break standard_close(CloseCode::Size, "frame over 1.5 MB");
                }
                Some(Err(_)) => break standard_close(CloseCode::Protocol, "malformed WebSocket frame"),
            },
            event = outbound.recv() => match event {
                Some(Outbound::Message(message)) => {
                    if !send_json(&mut session, &message).await {
                        break None;
                    }
                }
                Some(Outbound::End(StreamEnd::Completed)) => break standard_close(CloseCode::Normal, "verdict given"),
                Some(Outbound::End(StreamEnd::ServerError)) => break standard_close(CloseCode::Error, "result not stored"),
                None => break None,
            },
            _ = heartbeat.tick() => {
                if storage::now_millis() >= live.expires_at() {
                    send_error(&mut session, "session_expired", "the session's lifetime ended".into()).await;
                    break close_reason(4001, "session expired");
                }
                if last_frame.elapsed() >= idle && !live.is_finished() {
                    send_error(&mut session, "idle_timeout", format!("no frame for {} s", idle.as_secs())).await;
                    break close_reason(4000, "idle");
                }
                if last_pong.elapsed() >= idle {
                    break standard_close(CloseCode::Away, "heartbeat lost");
                }
                if tokio::time::timeout(SEND_TIMEOUT, session.ping(b"")).await.map_or(true, |r| r.is_err()) {
                    break None;
                }
            }
        }
    };
    tracing::info!(session = %live.session_id(), dropped_frames = live.dropped_frames(), code = ?close.as_ref().map(|c| c.code), "socket closed");
    drop(live);
    let _ = tokio::time::timeout(SEND_TIMEOUT, session.close(close)).await;
}
