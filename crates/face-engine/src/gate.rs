//! The one inference gate of a process: it bounds how many model runs go at once, HTTP requests
//! (detect, compare, index, search) and live-session frames alike. Inference is CPU-bound: with
//! more running than there are cores they only slow each other down (measured with
//! `bench/load.sh`: two cores gave 19 compares/s at 2 clients but 15 at 8 and 32 when every
//! request ran at once). Work over the bound waits its turn on a blocking thread, not on a core.
//! `services::Services::open` builds it once (inside the `SessionService`, which runs the
//! live frames) and hands it to the face use cases; it lives with the engine whose runs it
//! bounds, so the use cases share it without depending on each other.

use parking_lot::{Condvar, Mutex};

/// A counting gate; [`InferenceGate::enter`] blocks until a place is free.
#[derive(Debug)]
pub struct InferenceGate {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A place in the gate, given back when dropped.
#[derive(Debug)]
pub struct GatePass<'a> {
    gate: &'a InferenceGate,
}

impl InferenceGate {
    /// At most `places` requests inside at once (at least one).
    pub fn new(places: usize) -> Self {
        Self {
            free: Mutex::new(places.max(1)),
            freed: Condvar::new(),
        }
    }

    /// One place per core of this machine.
    pub fn per_core() -> Self {
        Self::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// A place if one is free now, without waiting: a request that can split its work (the
    /// two images of a compare) takes a second place when the server has one to spare.
    pub fn try_enter(&self) -> Option<GatePass<'_>> {
        let mut free = self.free.lock();
        (*free > 0).then(|| {
            *free -= 1;
            GatePass { gate: self }
        })
    }

    /// Waits for a place (call it on a blocking thread, inside `web::block`).
    pub fn enter(&self) -> GatePass<'_> {
        let mut free = self.free.lock();
        while *free == 0 {
            self.freed.wait(&mut free);
        }
        *free -= 1;
        GatePass { gate: self }
    }
}

impl Drop for GatePass<'_> {
    fn drop(&mut self) {
        *self.gate.free.lock() += 1;
        self.gate.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::InferenceGate;

    #[test]
    fn try_enter_takes_only_a_free_place() {
        let gate = InferenceGate::new(2);
        let first = gate.enter();
        let second = gate.try_enter().expect("a second place is free");
        assert!(gate.try_enter().is_none(), "both places are taken");
        drop(second);
        assert!(gate.try_enter().is_some());
        drop(first);
    }

    #[test]
    fn never_more_inside_than_places() {
        let gate = Arc::new(InferenceGate::new(2));
        let (inside, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let workers: Vec<_> = (0..8)
            .map(|_| {
                let (gate, inside, most) = (gate.clone(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _pass = gate.enter();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().expect("worker");
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
        assert_eq!(inside.load(Ordering::SeqCst), 0);
    }
}
