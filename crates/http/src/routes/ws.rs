//! `WS /ws/{session_id}?token=`: the socket of a liveness stream (crate `sessions`): framing,
//! the heartbeat and idle timers, the send timeout and the close. Binary messages are JPEG
//! frames; the server sends `{type, data}` JSON text messages (`sessions::messages`, the
//! protocol's home). Every `error` message is a typed `SocketError`, whose close code follows
//! it; the socket otherwise closes with 1000 after the `verdict`, 1001 when the heartbeat is
//! lost and 1002 on a malformed frame (docs/api.md lists them all).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::sessions::SessionError;
use crate::sessions::live::{
    ClientMessage, EventSink, LiveStream, MAX_FRAME_BYTES, SocketError, StreamEnd,
};
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{CloseCode, CloseReason, Message, ProtocolError};
use domain::LivenessPath;
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::AppState;
use crate::error::{ApiError, Code};

/// How often the server pings (at most; a fifth of the idle timeout when that is shorter). A
/// client that sends no frame, or answers no ping, for `sessions.socket_idle_seconds` is dropped.
pub const HEARTBEAT: Duration = Duration::from_secs(5);
/// A send to a client that does not read gives up after this long, and the socket goes.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Deserialize)]
pub struct StreamQuery {
    pub token: Option<String>,
    /// `light` (default) or `no_flash`: no colours; a passive session asks head turns. A
    /// session that does not allow it is refused with `no_flash_not_allowed` (4003).
    pub liveness_path: Option<LivenessPath>,
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

/// The close frame that follows `error`.
fn close_with(error: SocketError) -> Option<CloseReason> {
    Some(CloseReason {
        code: CloseCode::from(error.close_code()),
        description: Some(error.close_reason().to_owned()),
    })
}

/// A close frame that follows no `error` message (a verdict, a lost heartbeat, a malformed
/// frame).
fn standard_close(code: CloseCode, description: &str) -> Option<CloseReason> {
    Some(CloseReason {
        code,
        description: Some(description.to_owned()),
    })
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

async fn send_error(session: &mut actix_ws::Session, code: SocketError, message: String) {
    send_json(session, &ClientMessage::Error { code, message }).await;
}

pub async fn stream(
    req: HttpRequest,
    body: web::Payload,
    path: web::Path<String>,
    query: web::Query<StreamQuery>,
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
    let StreamQuery {
        token,
        liveness_path,
    } = query.into_inner();
    let token = token.unwrap_or_default();
    let path = liveness_path.unwrap_or_default();
    let service = state.sessions.clone();
    let client = crate::client::client_address(&req, &state.trusted_proxies);
    let failed_credentials = state.failed_credentials.clone();
    let idle = Duration::from_secs(service.settings().socket_idle_seconds.max(1));
    actix_web::rt::spawn(async move {
        let connected = match id {
            None => Err(SessionError::NotFound),
            Some(id) => web::block(move || service.connect(id, &token, path, sink))
                .await
                .unwrap_or(Err(SessionError::NotFound)),
        };
        match connected {
            Ok(live) => pump(live, session, messages, receiver, idle).await,
            Err(error) => {
                if matches!(error, SessionError::NotFound) {
                    failed_credentials.record(client);
                }
                let code = SocketError::refusing(&error);
                send_error(&mut session, code, error.to_string()).await;
                let _ = session.close(close_with(code)).await;
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
                    if let Err(error) = live.push_frame(&frame) {
                        send_error(&mut session, SocketError::FrameTooLarge, error.to_string()).await;
                        break close_with(SocketError::FrameTooLarge);
                    }
                }
                Some(Ok(Message::Text(_))) => {
                    send_error(&mut session, SocketError::TextNotAccepted, "send JPEG frames as binary messages".into()).await;
                    break close_with(SocketError::TextNotAccepted);
                }
                Some(Ok(Message::Ping(payload))) => {
                    let _ = session.pong(&payload).await;
                }
                Some(Ok(Message::Pong(_))) => last_pong = Instant::now(),
                Some(Ok(Message::Close(_))) | None => break None,
                Some(Ok(Message::Continuation(_) | Message::Nop)) => {}
                Some(Err(ProtocolError::Overflow)) => {
                    send_error(&mut session, SocketError::FrameTooLarge, format!("a frame may be at most {MAX_FRAME_BYTES} bytes")).await;
                    break close_with(SocketError::FrameTooLarge);
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
                Some(Outbound::End(StreamEnd::Refused(error))) => break close_with(error),
                None => break None,
            },
            _ = heartbeat.tick() => {
                if live.has_expired() {
                    send_error(&mut session, SocketError::SessionExpired, "the session's lifetime ended".into()).await;
                    break close_with(SocketError::SessionExpired);
                }
                if last_frame.elapsed() >= idle && !live.is_finished() {
                    send_error(&mut session, SocketError::IdleTimeout, format!("no frame for {} s", idle.as_secs())).await;
                    break close_with(SocketError::IdleTimeout);
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
