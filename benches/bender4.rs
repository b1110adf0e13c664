//! Bender – Episode 4: the route searches and the program search's judge on official maps.
//!
//! - `plain routes`: the (cell, field mask) distance table and shortest route of a map.
//! - `push route`: the engine's A* with pushes, on maps where it finishes in a few thousand
//!   states.
//! - `judge`: runs of one winning program (its compressed plain route) from the start, the
//!   program search's unit of work.
//!
//! `cargo bench --bench bender4`.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use frontier::engine::astar::astar;
use frontier::engine::{SearchControl, SearchOutcome};
use frontier::games::bender4::Level;
use frontier::games::bender4::anneal::Genome;
use frontier::games::bender4::compress::compress;
use frontier::games::bender4::judge::{Judge, Record};
use frontier::games::bender4::routes::PlainGraph;
use frontier::games::bender4::space::PushSpace;

fn load(file: &str) -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/official/bender4")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("the official Bender maps");
    Level::parse_text(&text).expect("a valid map")
}

fn benches(c: &mut Criterion) {
    let maps = [
        "06-test01.txt",
        "29-test24.txt",
        "31-validator01.txt",
        "59-validator29.txt",
    ];
    let mut group = c.benchmark_group("plain routes");
    for file in maps {
        let level = load(file);
        group.bench_function(file, |b| {
            b.iter(|| {
                let graph = PlainGraph::new(&level.board).unwrap();
                graph.shortest_from_start().moves.unwrap().len()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("push route");
    for (file, moves) in [
        ("24-test19.txt", 21),
        ("40-validator10.txt", 69),
        ("53-validator23.txt", 49),
    ] {
        let level = load(file);
        group.bench_function(file, |b| {
            b.iter(|| {
                let space = PushSpace::new(&level.board, 1).unwrap();
                match astar(&space, &SearchControl::unlimited()) {
                    SearchOutcome::Found(path) => assert_eq!(path.len() - 1, moves),
                    other => panic!("{other:?}"),
                }
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("judge");
    for file in maps {
        let level = load(file);
        let graph = PlainGraph::new(&level.board).unwrap();
        let route = graph.shortest_from_start().moves.unwrap();
        let program = Genome::new(&compress(route.as_bytes()));
        let mut judge = Judge::new(std::slice::from_ref(&graph));
        let mut record = Record::default();
        group.bench_function(file, |b| {
            b.iter(|| {
                judge
                    .run(&program, &mut record)
                    .won
                    .expect("the route wins")
            })
        });
    }
    group.finish();
}

criterion_group!(bender4, benches);
criterion_main!(bender4);
