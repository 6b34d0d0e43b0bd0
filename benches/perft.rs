//! Perft throughput per variant from the start position. Each bench asserts its node
//! count (docs/rules.md table P), so a fast but wrong generator fails instead of timing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dama::perft::{perft, perft_paths};
use dama::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};
use dama::{Position, Rules};
use std::hint::black_box;

fn bench_variant<R: Rules>(c: &mut Criterion, depth: u32, nodes: u64, paths: bool) {
    let start = Position::<R>::start();
    let run = |p: &Position<R>| {
        if paths {
            perft_paths(p, depth)
        } else {
            perft(p, depth)
        }
    };
    assert_eq!(run(&start), nodes, "{} perft {depth}", R::NAME);
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("{}/{depth}", R::NAME), |b| {
        b.iter(|| assert_eq!(run(black_box(&start)), nodes))
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_variant::<Dameo>(c, 5, 275_931_640, false);
    bench_variant::<Croda>(c, 6, 60_221_416, false);
    bench_variant::<Scandinavian>(c, 9, 3_963_671, false);
    bench_variant::<BoyerParton>(c, 10, 511_073, false);
    bench_variant::<English>(c, 9, 3_963_680, true);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
