//! Search throughput per variant: a fixed-depth search from the start position at 1 and
//! 2 threads. The throughput is the single-thread node count per second, so the
//! 2-thread figure reads as an effective (time-to-depth) speed.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dama::engine::time::Limits;
use dama::engine::Engine;
use dama::game::Game;
use dama::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};
use dama::{Position, Rules};

fn bench_variant<R: Rules>(c: &mut Criterion, depth: u32) {
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let run = |threads: usize| {
        let mut e = Engine::<R>::new(32, threads);
        e.set_game(Game::new(Position::<R>::start()));
        e.search(&limits, 1, &|_| {})
    };
    let nodes = run(1).nodes;
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("{}/d{depth}/t{threads}", R::NAME), |b| {
            b.iter(|| assert!(run(threads).best.is_some()))
        });
    }
    group.finish();
}

fn search_benches(c: &mut Criterion) {
    bench_variant::<Dameo>(c, 8);
    bench_variant::<Croda>(c, 8);
    bench_variant::<Scandinavian>(c, 12);
    bench_variant::<BoyerParton>(c, 12);
    bench_variant::<English>(c, 14);
}

criterion_group!(benches, search_benches);
criterion_main!(benches);
