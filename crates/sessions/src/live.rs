//! A client's live stream. Frames go into the engine's one-frame mailbox (a newer frame
//! replaces one not yet analysed), and one bounded pool shared by every session analyses them,
//! at most one job per session at a time: a slow server drops frames and never queues them.
//! On the verdict, the same worker stores the result, portrait, audit frames and webhook outbox
//! row in one transaction (assembled by `outcome.rs`), and only then sends the `verdict`
//! message and ends the stream: a backend that reads the result the moment its client sees the
//! verdict reads it `completed` (issue 67). While the record is made the session cannot be
//! streamed again. One connection streams a session at a time across every
//! replica: it holds the session's stream lease in the store, renewed while frames are
//! analysed and released when it ends, or once its record is stored. In this process, a
//! session's stream moves through one state machine (`registry`).
//!
//! The jobs live in their own files: `connect` opens and closes a stream, `rate` holds a
//! connection to `max_fps` (frames past it set aside unread, the client told `slow_down`),
//! `analysis` feeds the engine on the pool, `record` stores the verdict before it is sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use domain::{LivenessPath, Session};
use liveness_engine::LivenessSession;
use liveness_engine::capture_time;
use liveness_engine::mailbox::{LatestFrame, PendingFrame};
use parking_lot::Mutex;
use uuid::Uuid;

mod analysis;
mod connect;
mod rate;
mod record;
pub(crate) mod registry;

use rate::{Admission, FrameRate};
pub use rate::{BURST_FRAMES, MAX_FPS};

use crate::audit::AuditSampler;
pub use crate::hub::LiveHub;
pub use crate::messages::{
    ClientMessage, EventSink, SocketError, StreamEnd, redirect_with_session,
};
use crate::{SessionError, SessionResult, SessionService};

/// Largest JPEG frame accepted (the spec's 1.5 MB, taken as 1,500,000 bytes).
pub const MAX_FRAME_BYTES: usize = 1_500_000;
/// How long a stream lease lasts unless renewed: how soon a session whose replica died can be
/// streamed again elsewhere.
pub const STREAM_LEASE_MS: i64 = 10_000;
/// Renew the lease when it is this old.
const STREAM_LEASE_RENEW: std::time::Duration = std::time::Duration::from_secs(3);

struct Live {
    service: SessionService,
    session: Session,
    /// This connection's name in the session's stream lease.
    holder: String,
    /// Whether this connection shows the screen's colours.
    path: LivenessPath,
    lease_renewed: Mutex<Instant>,
    engine_session: Mutex<Option<LivenessSession>>,
    mailbox: LatestFrame,
    scheduled: AtomicBool,
    finished: AtomicBool,
    audit: Mutex<AuditSampler>,
    sink: Arc<dyn EventSink>,
}

/// A connected client's stream; dropping it frees the session for a reconnect.
pub struct LiveStream {
    live: Arc<Live>,
    started: Instant,
    /// The time given to the previous frame (`capture_time::frame_time` keeps them in order).
    last_frame_ms: Mutex<Option<u64>>,
    /// The frames this connection may still send at once ([`MAX_FPS`]).
    rate: Mutex<FrameRate>,
}

impl std::fmt::Debug for LiveStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveStream")
            .field("session", &self.live.session.id)
            .finish_non_exhaustive()
    }
}

impl LiveStream {
    pub fn session_id(&self) -> Uuid {
        self.live.session.id
    }

    /// Whether the session's lifetime has ended, by the services' clock: the transport closes
    /// the stream then.
    pub fn has_expired(&self) -> bool {
        self.live
            .session
            .is_expired_at(self.live.service.store.now_millis())
    }

    /// Whether the verdict was given (the transport closes after the `verdict` message).
    pub fn is_finished(&self) -> bool {
        self.live.finished.load(Ordering::SeqCst)
    }

    /// Hands one JPEG frame to the analysis, timed by the capture time the client wrote into
    /// it, within what the arrival allows, or else by its arrival (`capture_time`). Oversized
    /// frames are refused; a frame past [`MAX_FPS`] is set aside unread, and the client told
    /// `slow_down` (at most once a second); a frame not yet analysed when the next arrives is
    /// dropped. Only a frame taken is copied.
    pub fn push_frame(&self, jpeg: &[u8]) -> SessionResult<()> {
        if jpeg.len() > MAX_FRAME_BYTES {
            return Err(SessionError::FrameTooLarge {
                max: MAX_FRAME_BYTES,
            });
        }
        if self.is_finished() {
            return Ok(());
        }
        let arrival_ms = self.started.elapsed().as_millis() as u64;
        let admission = self.rate.lock().admit(arrival_ms);
        if let Admission::OverRate { tell_client } = admission {
            self.live.service.live.counters.over_rate();
            if tell_client {
                self.live
                    .sink
                    .send(ClientMessage::SlowDown { max_fps: MAX_FPS });
            }
            return Ok(());
        }
        let timestamp_ms = {
            let mut last = self.last_frame_ms.lock();
            let time = capture_time::frame_time(capture_time::read_stamp(jpeg), arrival_ms, *last);
            *last = Some(time);
            time
        };
        let replaced = self.live.mailbox.put(PendingFrame {
            jpeg: jpeg.to_vec(),
            timestamp_ms,
        });
        self.live.service.live.counters.frame(replaced);
        self.live.schedule();
        Ok(())
    }

    /// Frames replaced before they were analysed (frames past [`MAX_FPS`] are not among them).
    pub fn dropped_frames(&self) -> u64 {
        self.live.mailbox.dropped()
    }
}
