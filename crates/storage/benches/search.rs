//! Vector search speed of the embedded index at 10k, 100k and 1M faces of each face model's
//! width (512-d `fr_feature`, 128-d SFace; random unit vectors), index throughput, memory per
//! face, rebuild time, and recall@10 against exact search for two kinds of query: a probe of an
//! enrolled person (a stored face moved to cosine about 0.7, as a second photo of the same
//! person scores) and a stranger (a fresh random vector). Run with
//! `cargo bench -p facegate-storage --bench search`; `FACEGATE_BENCH_SIZES` and
//! `FACEGATE_BENCH_DIMS` pick the cases (comma-separated); the 1M 512-d case needs about 3 GB.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use facegate_storage::vector::{CollectionMatrices, pseudo_random_unit_vector};
use uuid::Uuid;

/// Queries a case is measured and its recall computed on.
const QUERIES: usize = 32;
/// Top-k the API searches by default.
const K: usize = 10;

fn unit_vectors(n: usize, seed: u64, dim: usize) -> Vec<Vec<f32>> {
    (0..n as u64)
        .map(|i| pseudo_random_unit_vector(seed.wrapping_mul(1_000_003).wrapping_add(i), dim))
        .collect()
}

fn env_list(name: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(name)
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

/// A stored face moved toward a random direction until its cosine to the original is `cosine`.
fn probe_of(stored: &[f32], seed: u64, cosine: f32) -> Vec<f32> {
    let noise = pseudo_random_unit_vector(seed, stored.len());
    let along: f32 = noise.iter().zip(stored).map(|(a, b)| a * b).sum();
    let mut orthogonal: Vec<f32> = noise
        .iter()
        .zip(stored)
        .map(|(a, b)| a - along * b)
        .collect();
    let norm = orthogonal
        .iter()
        .map(|a| a * a)
        .sum::<f32>()
        .sqrt()
        .max(1e-12);
    orthogonal.iter_mut().for_each(|a| *a /= norm);
    let sine = (1.0 - cosine * cosine).sqrt();
    stored
        .iter()
        .zip(&orthogonal)
        .map(|(s, o)| cosine * s + sine * o)
        .collect()
}

/// The exact top-k ids by f32 dot product.
fn exact_top_k(faces: &[(Uuid, Vec<f32>)], query: &[f32], k: usize) -> Vec<Uuid> {
    let mut scored: Vec<(f32, Uuid)> = faces
        .iter()
        .map(|(id, v)| (v.iter().zip(query).map(|(a, b)| a * b).sum(), *id))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(k).map(|(_, id)| id).collect()
}

fn recall_at_k(
    index: &CollectionMatrices,
    collection: Uuid,
    faces: &[(Uuid, Vec<f32>)],
    queries: &[Vec<f32>],
) -> f64 {
    let mut found = 0usize;
    for query in queries {
        let exact = exact_top_k(faces, query, K);
        let hits = index.search(collection, query, K, -1.0);
        found += hits.iter().filter(|h| exact.contains(&h.face_id)).count();
    }
    found as f64 / (queries.len() * K) as f64
}

/// The process's resident memory (Linux `VmRSS`), 0 where it cannot be read.
fn resident_bytes() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse::<usize>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// p50 and p99 in milliseconds of 200 single searches, one query at a time.
fn latency_percentiles(
    index: &CollectionMatrices,
    collection: Uuid,
    queries: &[Vec<f32>],
) -> (f64, f64) {
    let mut times: Vec<f64> = (0..200)
        .map(|i| {
            let started = Instant::now();
            black_box(index.search(collection, &queries[i % queries.len()], K, -1.0));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[99], times[197])
}

fn search(c: &mut Criterion) {
    for dim in env_list("FACEGATE_BENCH_DIMS", &[512, 128]) {
        for n in env_list("FACEGATE_BENCH_SIZES", &[10_000, 100_000, 1_000_000]) {
            let faces: Vec<(Uuid, Vec<f32>)> = unit_vectors(n, n as u64, dim)
                .into_iter()
                .map(|v| (Uuid::new_v4(), v))
                .collect();
            let collection = Uuid::new_v4();
            let index = CollectionMatrices::new();
            let resident_before = resident_bytes();
            let started = Instant::now();
            for (id, v) in &faces {
                index.upsert(collection, *id, v);
            }
            let insert = started.elapsed();
            let resident_growth = resident_bytes().saturating_sub(resident_before);
            let started = Instant::now();
            index.load_collection(collection, &faces);
            let rebuild = started.elapsed();
            let strangers = unit_vectors(QUERIES, 99, dim);
            let mates: Vec<&(Uuid, Vec<f32>)> =
                (0..QUERIES).map(|q| &faces[(q * 7919) % n]).collect();
            let probes: Vec<Vec<f32>> = mates
                .iter()
                .enumerate()
                .map(|(q, (_, stored))| probe_of(stored, 500 + q as u64, 0.7))
                .collect();
            let mates_first = mates
                .iter()
                .zip(&probes)
                .filter(|((mate, _), probe)| {
                    index
                        .search(collection, probe, 1, -1.0)
                        .first()
                        .is_some_and(|hit| hit.face_id == *mate)
                })
                .count();
            let (p50, p99) = latency_percentiles(&index, collection, &probes);
            println!(
                "dim={dim} n={n}: index {:.0} faces/s one by one, rebuild from rows {:.2} s, \
                 memory {} bytes/face ({} measured: resident growth while indexing), search p50 {p50:.2} ms p99 {p99:.2} ms, \
                 mate at rank 1 for {mates_first} of {QUERIES} enrolled probes, \
                 recall@{K} {:.4} for enrolled probes, {:.4} for strangers",
                n as f64 / insert.as_secs_f64(),
                rebuild.as_secs_f64(),
                CollectionMatrices::bytes_per_face(dim),
                resident_growth / n,
                recall_at_k(&index, collection, &faces, &probes),
                recall_at_k(&index, collection, &faces, &strangers),
            );
            let mut q = 0;
            c.bench_function(&format!("search_top10_{dim}d_{n}"), |b| {
                b.iter(|| {
                    q = (q + 1) % QUERIES;
                    index.search(collection, black_box(&probes[q]), K, -1.0)
                })
            });
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = search
}
criterion_main!(benches);
