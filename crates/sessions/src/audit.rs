//! Audit frames (off by default): when the operator sets `sessions.audit_frames`, up to that
//! many of the frames a session analysed are kept, spread evenly over the session, sealed at
//! rest and deleted with the session's retention. The sampler holds at most twice the count
//! in memory: when full it keeps every other frame and from then on takes half as many.

/// The most audit frames a session may keep.
pub const MAX_AUDIT_FRAMES: usize = 4;

/// Keeps an even spread of at most `limit` frames of a stream of unknown length.
#[derive(Debug, Default)]
pub(crate) struct AuditSampler {
    limit: usize,
    /// Only every `stride`-th frame offered is a candidate.
    stride: u64,
    offered: u64,
    candidates: Vec<Vec<u8>>,
}

impl AuditSampler {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            limit: limit.min(MAX_AUDIT_FRAMES),
            stride: 1,
            offered: 0,
            candidates: Vec::new(),
        }
    }

    pub(crate) fn offer(&mut self, jpeg: &[u8]) {
        if self.limit == 0 {
            return;
        }
        if self.offered.is_multiple_of(self.stride) {
            self.candidates.push(jpeg.to_vec());
            if self.candidates.len() >= 2 * self.limit {
                let mut index = 0;
                self.candidates.retain(|_| {
                    index += 1;
                    index % 2 == 1
                });
                self.stride *= 2;
            }
        }
        self.offered += 1;
    }

    /// At most `limit` frames, evenly spread over what was offered, in order.
    pub(crate) fn take(&mut self) -> Vec<Vec<u8>> {
        let candidates = std::mem::take(&mut self.candidates);
        let (n, limit) = (candidates.len(), self.limit);
        if n <= limit {
            return candidates;
        }
        let wanted: Vec<usize> = (0..limit).map(|i| i * n / limit).collect();
        candidates
            .into_iter()
            .enumerate()
            .filter(|(i, _)| wanted.contains(i))
            .map(|(_, frame)| frame)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_the_limit_spread_over_the_stream() {
        for (limit, offered) in [(0usize, 50u8), (1, 1), (3, 2), (4, 100), (4, 7)] {
            let mut sampler = AuditSampler::new(limit);
            for i in 0..offered {
                sampler.offer(&[i]);
            }
            let kept = sampler.take();
            assert_eq!(
                kept.len(),
                limit.min(offered as usize),
                "{limit} of {offered}"
            );
            assert!(kept.windows(2).all(|w| w[0][0] < w[1][0]), "in order");
        }
        let mut sampler = AuditSampler::new(4);
        for i in 0..100u8 {
            sampler.offer(&[i]);
        }
        let kept: Vec<u8> = sampler.take().into_iter().map(|f| f[0]).collect();
        assert!(kept[0] < 10 && kept[3] > 60, "spread: {kept:?}");
        assert_eq!(AuditSampler::new(9).limit, MAX_AUDIT_FRAMES);
    }
}
