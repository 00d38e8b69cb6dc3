//! Keeping up under load: a one-frame mailbox per session. The socket side puts the newest
//! frame in, replacing one not yet analysed (counted as dropped); a worker takes it out when it
//! is free. Nothing queues, so a slow machine or a flooding client costs at most one frame of
//! memory per session and the analysis always works on the freshest frame.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// A frame waiting for analysis, with its capture timestamp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingFrame {
    pub jpeg: Vec<u8>,
    pub timestamp_ms: u64,
}

#[derive(Debug, Default)]
pub struct LatestFrame {
    slot: Mutex<Option<PendingFrame>>,
    dropped: AtomicU64,
}

impl LatestFrame {
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `frame`; returns `true` when it replaced a frame that was never analysed.
    pub fn put(&self, frame: PendingFrame) -> bool {
        let mut slot = self
            .slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let replaced = slot.replace(frame).is_some();
        if replaced {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        replaced
    }

    /// The newest frame, if one arrived since the last call.
    pub fn take(&self) -> Option<PendingFrame> {
        self.slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }

    /// Frames replaced before they were analysed.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_frame_waits() {
        let mailbox = LatestFrame::new();
        let frame = |t| PendingFrame {
            jpeg: vec![t as u8],
            timestamp_ms: t,
        };
        assert!(!mailbox.put(frame(1)));
        assert!(mailbox.put(frame(2)));
        assert!(mailbox.put(frame(3)));
        assert_eq!(mailbox.take(), Some(frame(3)));
        assert_eq!(mailbox.take(), None);
        assert_eq!(mailbox.dropped(), 2);
    }
}
