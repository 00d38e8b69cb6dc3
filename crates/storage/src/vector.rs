//! The embedded exact index's matrices: per collection, an int8 copy of every vector is scanned
//! and the best candidates are re-ranked with the exact f32 dot product. They hold no store;
//! [`crate::memory_index::MemoryVectorIndex`] keeps them current from one. A search that runs alone
//! scans on all cores; while another search is running, each scans on its own thread, because
//! several searches splitting their scans over one shared pool starve each other (measured
//! over HTTP with 8 clients on 2 cores: p99 76 ms when every scan shared the pool, 42 ms with
//! this rule; docs/benchmarks.md).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use domain::SearchHit;
use parking_lot::RwLock;
use rayon::prelude::*;
use uuid::Uuid;

/// Rows scanned per parallel task.
const CHUNK_ROWS: usize = 4096;

/// Searches scanning right now, in this process.
static SCANS_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// A place among the running scans; says whether it is the only one.
struct ScanTurn {
    alone: bool,
}

impl ScanTurn {
    fn take() -> Self {
        Self {
            alone: SCANS_IN_FLIGHT.fetch_add(1, Ordering::AcqRel) == 0,
        }
    }
}

impl Drop for ScanTurn {
    fn drop(&mut self) {
        SCANS_IN_FLIGHT.fetch_sub(1, Ordering::AcqRel);
    }
}

#[derive(Debug, Default)]
struct CollectionIndex {
    dim: usize,
    ids: Vec<Uuid>,
    rows: HashMap<Uuid, usize>,
    exact: Vec<f32>,
    quantized: Vec<i8>,
    /// Per row: 1 / (quantisation scale), so approx dot = Σ qa·qb · inv_a · inv_b.
    inverse_scales: Vec<f32>,
}

fn quantize(vector: &[f32]) -> (Vec<i8>, f32) {
    let max = vector.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-12);
    let scale = 127.0 / max;
    (
        vector
            .iter()
            .map(|v| (v * scale).round().clamp(-127.0, 127.0) as i8)
            .collect(),
        1.0 / scale,
    )
}

impl CollectionIndex {
    fn upsert(&mut self, id: Uuid, vector: &[f32]) {
        if self.ids.is_empty() {
            self.dim = vector.len();
        }
        if vector.len() != self.dim {
            tracing::warn!(%id, got = vector.len(), want = self.dim, "vector of another dimension ignored");
            return;
        }
        let (q, inv) = quantize(vector);
        match self.rows.get(&id) {
            Some(&row) => {
                self.exact[row * self.dim..(row + 1) * self.dim].copy_from_slice(vector);
                self.quantized[row * self.dim..(row + 1) * self.dim].copy_from_slice(&q);
                self.inverse_scales[row] = inv;
            }
            None => {
                self.rows.insert(id, self.ids.len());
                self.ids.push(id);
                self.exact.extend_from_slice(vector);
                self.quantized.extend_from_slice(&q);
                self.inverse_scales.push(inv);
            }
        }
    }

    fn remove(&mut self, id: Uuid) {
        let Some(row) = self.rows.remove(&id) else {
            return;
        };
        let last = self.ids.len() - 1;
        let d = self.dim;
        if row != last {
            let moved = self.ids[last];
            self.ids[row] = moved;
            self.rows.insert(moved, row);
            self.exact.copy_within(last * d..(last + 1) * d, row * d);
            self.quantized
                .copy_within(last * d..(last + 1) * d, row * d);
            self.inverse_scales[row] = self.inverse_scales[last];
        }
        self.ids.pop();
        self.exact.truncate(last * d);
        self.quantized.truncate(last * d);
        self.inverse_scales.pop();
    }

    fn search(&self, query: &[f32], k: usize, min_cosine: f32) -> Vec<SearchHit> {
        let d = self.dim;
        if k == 0 || self.ids.is_empty() || query.len() != d {
            return Vec::new();
        }
        let (q, q_inv) = quantize(query);
        let candidates = (k * 4).max(k + 32);
        let scan_chunk = |(chunk, rows): (usize, &[i8])| {
            let mut dots = vec![0i32; rows.len() / d];
            int8_dots(rows, &q, d, &mut dots);
            let mut local: Vec<(f32, usize)> = dots
                .iter()
                .enumerate()
                .map(|(i, dot)| {
                    let index = chunk * CHUNK_ROWS + i;
                    (*dot as f32 * q_inv * self.inverse_scales[index], index)
                })
                .collect();
            keep_best(&mut local, candidates);
            local
        };
        let turn = ScanTurn::take();
        let mut approx: Vec<(f32, usize)> = if turn.alone {
            self.quantized
                .par_chunks(CHUNK_ROWS * d)
                .enumerate()
                .flat_map_iter(scan_chunk)
                .collect()
        } else {
            self.quantized
                .chunks(CHUNK_ROWS * d)
                .enumerate()
                .flat_map(scan_chunk)
                .collect()
        };
        drop(turn);
        keep_best(&mut approx, candidates);
        let mut hits: Vec<SearchHit> = approx
            .into_iter()
            .map(|(_, row)| {
                let exact: f32 = self.exact[row * d..(row + 1) * d]
                    .iter()
                    .zip(query)
                    .map(|(a, b)| a * b)
                    .sum();
                SearchHit {
                    face_id: self.ids[row],
                    cosine: exact,
                }
            })
            .filter(|h| h.cosine >= min_cosine)
            .collect();
        hits.sort_by(|a, b| {
            b.cosine
                .total_cmp(&a.cosine)
                .then(a.face_id.cmp(&b.face_id))
        });
        hits.truncate(k);
        hits
    }
}

/// Dot products of each `d`-long row of `rows` with `query`, into `out`.
#[inline(always)]
fn int8_dots_portable(rows: &[i8], query: &[i8], d: usize, out: &mut [i32]) {
    for (row, dot) in rows.chunks_exact(d).zip(out.iter_mut()) {
        *dot = row
            .iter()
            .zip(query)
            .map(|(a, b)| i32::from(*a) * i32::from(*b))
            .sum();
    }
}

/// The same loop compiled for AVX2, which the compiler vectorises 2–3× wider than the
/// baseline x86-64 (SSE2) build: 1M faces scan in about 51 ms instead of 140 ms.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn int8_dots_avx2(rows: &[i8], query: &[i8], d: usize, out: &mut [i32]) {
    int8_dots_portable(rows, query, d, out)
}

/// Picks the widest implementation the CPU supports at run time, so one binary runs
/// everywhere and is fast where AVX2 exists.
fn int8_dots(rows: &[i8], query: &[i8], d: usize, out: &mut [i32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `int8_dots_avx2` only requires AVX2, which the CPU was just shown to have;
        // its body is safe code.
        #[allow(unsafe_code)]
        unsafe {
            int8_dots_avx2(rows, query, d, out)
        };
        return;
    }
    int8_dots_portable(rows, query, d, out)
}

/// Keeps the `n` highest-scoring entries (unordered).
fn keep_best(items: &mut Vec<(f32, usize)>, n: usize) {
    if items.len() > n {
        items.select_nth_unstable_by(n - 1, |a, b| b.0.total_cmp(&a.0));
        items.truncate(n);
    }
}

/// A deterministic pseudo-random unit vector (xorshift), for benchmarks, load seeding and tests:
/// random unit vectors are what the search benchmarks are specified on.
pub fn pseudo_random_unit_vector(seed: u64, dim: usize) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut v: Vec<f32> = (0..dim)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        })
        .collect();
    let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt().max(1e-12);
    v.iter_mut().for_each(|a| *a /= norm);
    v
}

/// Exact search over in-memory matrices, one per collection.
#[derive(Debug, Default)]
pub struct CollectionMatrices {
    collections: RwLock<HashMap<Uuid, CollectionIndex>>,
}

impl CollectionMatrices {
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces a collection's content in one step (quantisation runs on every core).
    pub fn load_collection(&self, collection_id: Uuid, vectors: &[(Uuid, Vec<f32>)]) {
        let dim = vectors.first().map_or(0, |(_, v)| v.len());
        let valid: Vec<&(Uuid, Vec<f32>)> =
            vectors.iter().filter(|(_, v)| v.len() == dim).collect();
        let quantized: Vec<(Vec<i8>, f32)> = valid.par_iter().map(|(_, v)| quantize(v)).collect();
        let mut index = CollectionIndex {
            dim,
            ids: Vec::with_capacity(valid.len()),
            rows: HashMap::with_capacity(valid.len()),
            exact: Vec::with_capacity(valid.len() * dim),
            quantized: Vec::with_capacity(valid.len() * dim),
            inverse_scales: Vec::with_capacity(valid.len()),
        };
        for ((id, vector), (q, inv)) in valid.into_iter().zip(quantized) {
            if index.rows.contains_key(id) {
                continue; // duplicate id: the first copy wins
            }
            index.rows.insert(*id, index.ids.len());
            index.ids.push(*id);
            index.exact.extend_from_slice(vector);
            index.quantized.extend_from_slice(&q);
            index.inverse_scales.push(inv);
        }
        self.collections.write().insert(collection_id, index);
    }

    /// Bytes held per face (f32 + int8 copies, scale, id and map entry), for capacity planning.
    pub fn bytes_per_face(dim: usize) -> usize {
        dim * 4 + dim + 4 + 16 + 16 + 8
    }
}

impl CollectionMatrices {
    /// Adds or replaces a face's vector.
    pub fn upsert(&self, collection_id: Uuid, face_id: Uuid, vector: &[f32]) {
        self.collections
            .write()
            .entry(collection_id)
            .or_default()
            .upsert(face_id, vector);
    }

    /// Removes a face; unknown faces are ignored.
    pub fn remove(&self, collection_id: Uuid, face_id: Uuid) {
        if let Some(index) = self.collections.write().get_mut(&collection_id) {
            index.remove(face_id);
        }
    }

    /// Drops a whole collection.
    pub fn remove_collection(&self, collection_id: Uuid) {
        self.collections.write().remove(&collection_id);
    }

    /// The `k` most similar faces with cosine at least `min_cosine`, best first.
    pub fn search(
        &self,
        collection_id: Uuid,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> Vec<SearchHit> {
        self.collections
            .read()
            .get(&collection_id)
            .map(|i| i.search(query, k, min_cosine))
            .unwrap_or_default()
    }

    /// Number of faces held for a collection.
    pub fn len(&self, collection_id: Uuid) -> usize {
        self.collections
            .read()
            .get(&collection_id)
            .map_or(0, |i| i.ids.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u64, dim: usize) -> Vec<f32> {
        pseudo_random_unit_vector(seed, dim)
    }

    #[test]
    fn search_matches_brute_force_and_sees_removals_at_once() {
        let index = CollectionMatrices::new();
        let c = Uuid::new_v4();
        let faces: Vec<(Uuid, Vec<f32>)> =
            (0..3000).map(|i| (Uuid::new_v4(), unit(i, 64))).collect();
        for (id, v) in &faces {
            index.upsert(c, *id, v);
        }
        let query = unit(12345, 64);
        let mut brute: Vec<(f32, Uuid)> = faces
            .iter()
            .map(|(id, v)| (v.iter().zip(&query).map(|(a, b)| a * b).sum(), *id))
            .collect();
        brute.sort_by(|a, b| b.0.total_cmp(&a.0));
        let hits = index.search(c, &query, 10, -1.0);
        assert_eq!(
            hits.iter().map(|h| h.face_id).collect::<Vec<_>>(),
            brute.iter().take(10).map(|b| b.1).collect::<Vec<_>>()
        );
        index.remove(c, hits[0].face_id);
        assert!(
            index
                .search(c, &query, 10, -1.0)
                .iter()
                .all(|h| h.face_id != hits[0].face_id)
        );
        assert_eq!(index.len(c), 2999);
        index.remove_collection(c);
        assert!(index.search(c, &query, 10, -1.0).is_empty());
    }

    #[test]
    fn a_search_beside_another_scans_alone_and_finds_the_same() {
        let index = CollectionMatrices::new();
        let c = Uuid::new_v4();
        for i in 0..3 * CHUNK_ROWS as u64 {
            index.upsert(c, Uuid::new_v4(), &unit(i, 32));
        }
        let query = unit(777_777, 32);
        let on_all_cores = index.search(c, &query, 20, -1.0);
        let beside_another = {
            let _other = ScanTurn::take();
            index.search(c, &query, 20, -1.0)
        };
        assert_eq!(on_all_cores.len(), 20);
        assert_eq!(on_all_cores, beside_another);
    }

    #[test]
    fn min_cosine_filters_and_self_match_ranks_first() {
        let index = CollectionMatrices::new();
        let c = Uuid::new_v4();
        let v = unit(1, 32);
        let id = Uuid::new_v4();
        index.upsert(c, id, &v);
        index.upsert(c, Uuid::new_v4(), &unit(2, 32));
        let hits = index.search(c, &v, 5, 0.9);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].face_id, id);
        assert!((hits[0].cosine - 1.0).abs() < 1e-5);
    }
}
