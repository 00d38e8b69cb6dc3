//! The live streams of this process: one [`StreamState`] per session, moved by the stream's
//! events under one lock. A session is absent until a connection opens it, `Streaming` while a
//! connection feeds it, `Recording` from its verdict until the record is stored, and
//! `Releasing` from the end of a connection until its stream lease is released in the store.
//! Every transition names the connection (its lease holder), so a late event of an old
//! connection never moves a newer one's state.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::Mutex;
use uuid::Uuid;

/// Where one session's stream is in this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StreamState {
    /// Connection `holder` streams it.
    Streaming { holder: String },
    /// Its verdict was reached on `holder`'s stream and its record is being stored: it cannot
    /// be streamed again meanwhile, and the record releases the lease.
    Recording { holder: String },
    /// `holder`'s connection ended and its lease is being released in the store.
    Releasing { holder: String },
}

/// Why a connection may not open a session's stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConnectRefusal {
    /// Another connection streams it.
    AlreadyConnected,
    /// Its verdict was reached; the record is being stored.
    AlreadyCompleted,
}

/// What a connection's end asks of the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterDisconnect {
    /// Release the lease in the store, then call [`StreamRegistry::released`].
    ReleaseLease,
    /// Nothing: the record releases the lease, or a newer connection holds the session.
    Nothing,
}

/// One state per session streaming, recording or releasing in this process.
#[derive(Debug, Default)]
pub(crate) struct StreamRegistry {
    states: Mutex<HashMap<Uuid, StreamState>>,
    /// How many of `states` are `Streaming`, moved with them under their lock
    /// ([`Self::set`]): read at every take (`LiveHub::crowded_for_looks`) without the lock.
    streaming: AtomicUsize,
}

impl StreamRegistry {
    /// Connection `holder` opens session `id`: `Ok(Some(old))` when an ended connection's lease
    /// `old` must be released first, `Ok(None)` when nothing stood in the way.
    pub(crate) fn connect(&self, id: Uuid, holder: &str) -> Result<Option<String>, ConnectRefusal> {
        let mut states = self.states.lock();
        let ended = match states.get(&id) {
            Some(StreamState::Streaming { .. }) => return Err(ConnectRefusal::AlreadyConnected),
            Some(StreamState::Recording { .. }) => return Err(ConnectRefusal::AlreadyCompleted),
            Some(StreamState::Releasing { holder }) => Some(holder.clone()),
            None => None,
        };
        self.set(
            &mut states,
            id,
            Some(StreamState::Streaming {
                holder: holder.to_owned(),
            }),
        );
        Ok(ended)
    }

    /// Connection `holder` could not open session `id` after all (its lease, the engine).
    pub(crate) fn connect_failed(&self, id: Uuid, holder: &str) {
        self.remove_if(id, |state| {
            matches!(state, StreamState::Streaming { holder: current } if current == holder)
        });
    }

    /// Connection `holder` reached session `id`'s verdict and stores its record now (a newer
    /// connection streaming the session meanwhile keeps its state: the store takes one verdict).
    pub(crate) fn verdict_reached(&self, id: Uuid, holder: &str) {
        let mut states = self.states.lock();
        let newer_streams = matches!(
            states.get(&id),
            Some(StreamState::Streaming { holder: current }) if current != holder
        );
        if !newer_streams {
            self.set(
                &mut states,
                id,
                Some(StreamState::Recording {
                    holder: holder.to_owned(),
                }),
            );
        }
    }

    /// Session `id`'s record was stored or refused: the session may be opened again (a stored
    /// one is then refused as completed by the store).
    pub(crate) fn record_done(&self, id: Uuid, holder: &str) {
        self.remove_if(id, |state| {
            matches!(state, StreamState::Recording { holder: current } if current == holder)
        });
    }

    /// Connection `holder` of session `id` ended.
    pub(crate) fn disconnected(&self, id: Uuid, holder: &str) -> AfterDisconnect {
        let mut states = self.states.lock();
        match states.get(&id) {
            Some(StreamState::Streaming { holder: current }) if current == holder => {
                self.set(
                    &mut states,
                    id,
                    Some(StreamState::Releasing {
                        holder: holder.to_owned(),
                    }),
                );
                AfterDisconnect::ReleaseLease
            }
            _ => AfterDisconnect::Nothing,
        }
    }

    /// Connection `holder`'s lease on session `id` was released in the store.
    pub(crate) fn released(&self, id: Uuid, holder: &str) {
        self.remove_if(id, |state| {
            matches!(state, StreamState::Releasing { holder: current } if current == holder)
        });
    }

    /// Sessions a connection streams now.
    pub(crate) fn streaming(&self) -> usize {
        self.streaming.load(Ordering::Relaxed)
    }

    /// Puts session `id` in `state` (none: removes it) in `states`, the locked map, and keeps
    /// the count of streaming sessions with it.
    fn set(&self, states: &mut HashMap<Uuid, StreamState>, id: Uuid, state: Option<StreamState>) {
        let streams =
            |state: Option<&StreamState>| matches!(state, Some(StreamState::Streaming { .. }));
        let now = streams(state.as_ref());
        let before = match state {
            Some(state) => states.insert(id, state),
            None => states.remove(&id),
        };
        match (streams(before.as_ref()), now) {
            (false, true) => self.streaming.fetch_add(1, Ordering::Relaxed),
            (true, false) => self.streaming.fetch_sub(1, Ordering::Relaxed),
            _ => 0,
        };
    }

    /// Sessions whose verdict was reached and whose record is being stored.
    pub(crate) fn recording(&self) -> usize {
        self.count(|state| matches!(state, StreamState::Recording { .. }))
    }

    /// Sessions streaming or storing their verdict (one look under the lock).
    pub(crate) fn not_releasing(&self) -> usize {
        self.count(|state| !matches!(state, StreamState::Releasing { .. }))
    }

    fn count(&self, counts: impl Fn(&StreamState) -> bool) -> usize {
        self.states
            .lock()
            .values()
            .filter(|state| counts(state))
            .count()
    }

    #[cfg(test)]
    fn state(&self, id: Uuid) -> Option<StreamState> {
        self.states.lock().get(&id).cloned()
    }

    fn remove_if(&self, id: Uuid, applies: impl FnOnce(&StreamState) -> bool) {
        let mut states = self.states.lock();
        if states.get(&id).is_some_and(applies) {
            self.set(&mut states, id, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streaming(holder: &str) -> Option<StreamState> {
        Some(StreamState::Streaming {
            holder: holder.into(),
        })
    }

    #[test]
    fn a_stream_is_opened_once_and_its_lease_released_after_it_ends() {
        let registry = StreamRegistry::default();
        let id = Uuid::new_v4();
        assert_eq!(registry.connect(id, "a"), Ok(None));
        assert_eq!(registry.state(id), streaming("a"));
        assert_eq!(
            registry.connect(id, "b"),
            Err(ConnectRefusal::AlreadyConnected)
        );
        assert_eq!(registry.streaming(), 1);
        assert_eq!(
            registry.disconnected(id, "a"),
            AfterDisconnect::ReleaseLease
        );
        assert_eq!(
            registry.state(id),
            Some(StreamState::Releasing { holder: "a".into() })
        );
        assert_eq!((registry.streaming(), registry.recording()), (0, 0));
        registry.released(id, "a");
        assert_eq!(registry.state(id), None);
    }

    #[test]
    fn a_reconnect_before_the_old_lease_is_released_releases_it_first() {
        let registry = StreamRegistry::default();
        let id = Uuid::new_v4();
        registry.connect(id, "a").expect("first");
        registry.disconnected(id, "a");
        assert_eq!(registry.connect(id, "b"), Ok(Some("a".into())));
        // the old connection's release finishing late leaves the new stream alone
        registry.released(id, "a");
        assert_eq!(registry.state(id), streaming("b"));
    }

    #[test]
    fn a_session_storing_its_verdict_is_refused_as_completed_and_the_record_releases() {
        let registry = StreamRegistry::default();
        let id = Uuid::new_v4();
        registry.connect(id, "a").expect("first");
        registry.verdict_reached(id, "a");
        assert_eq!(
            registry.connect(id, "b"),
            Err(ConnectRefusal::AlreadyCompleted)
        );
        // the connection ends while the record is made: the record releases the lease
        assert_eq!(registry.disconnected(id, "a"), AfterDisconnect::Nothing);
        assert_eq!((registry.streaming(), registry.recording()), (0, 1));
        registry.record_done(id, "a");
        assert_eq!(registry.state(id), None);
        assert_eq!(registry.recording(), 0);
    }

    #[test]
    fn late_events_of_an_old_connection_never_move_a_newer_one() {
        let registry = StreamRegistry::default();
        let id = Uuid::new_v4();
        registry.connect(id, "a").expect("first");
        registry.verdict_reached(id, "a");
        registry.record_done(id, "a"); // refused by the store: the session may stream again
        assert_eq!(registry.connect(id, "b"), Ok(None));
        assert_eq!(registry.disconnected(id, "a"), AfterDisconnect::Nothing);
        registry.record_done(id, "a");
        registry.connect_failed(id, "a");
        assert_eq!(registry.state(id), streaming("b"));
        registry.connect_failed(id, "b");
        assert_eq!(registry.state(id), None);
    }
}
