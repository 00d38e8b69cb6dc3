//! Vector search speed at 10k, 100k and 1M faces of 512 dimensions (random unit vectors),
//! index throughput, memory per face and rebuild time. Run with
//! `cargo bench -p facegate-storage --bench search`; the 1M case needs about 3 GB of RAM.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use facegate_storage::vector::{CollectionMatrices, pseudo_random_unit_vector};
use uuid::Uuid;

const DIM: usize = 512;

fn unit_vectors(n: usize, seed: u64) -> Vec<Vec<f32>> {
    (0..n as u64)
        .map(|i| pseudo_random_unit_vector(seed.wrapping_mul(1_000_003).wrapping_add(i), DIM))
        .collect()
}

fn search(c: &mut Criterion) {
    let sizes: Vec<usize> = std::env::var("FACEGATE_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 100_000, 1_000_000]);
    let queries = unit_vectors(16, 99);
    for n in sizes {
        let vectors = unit_vectors(n, n as u64);
        let faces: Vec<(Uuid, Vec<f32>)> =
            vectors.into_iter().map(|v| (Uuid::new_v4(), v)).collect();
        let collection = Uuid::new_v4();
        let index = CollectionMatrices::new();
        let started = Instant::now();
        for (id, v) in &faces {
            index.upsert(collection, *id, v);
        }
        let insert = started.elapsed();
        let started = Instant::now();
        index.load_collection(collection, &faces);
        let rebuild = started.elapsed();
        println!(
            "n={n}: index {:.0} faces/s one by one, rebuild from rows {:.2} s, memory {} bytes/face",
            n as f64 / insert.as_secs_f64(),
            rebuild.as_secs_f64(),
            CollectionMatrices::bytes_per_face(DIM)
        );
        let mut q = 0;
        c.bench_function(&format!("search_top10_{n}"), |b| {
            b.iter(|| {
                q = (q + 1) % queries.len();
                index.search(collection, black_box(&queries[q]), 10, -1.0)
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = search
}
criterion_main!(benches);
