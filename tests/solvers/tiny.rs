//! The tests' own external solvers, one program with a mode per behaviour (tests/external.rs
//! compiles it with `rustc`): `tiny MODE ARGS...`.
//!
//! - `answers FILE NAME`: prints NAME's solution from FILE (lines `name<TAB>solution`).
//! - `wrong FILE NAME`: the solution without its last move (or `xyzzy` for a one-move one).
//! - `sleep`: sleeps a minute.
//! - `alloc MIB`: touches MIB MiB, a MiB at a time, then sleeps a minute.
//! - `hold MIB FILE NAME`: touches MIB MiB, then answers as `answers` does.
//! - `crash`: aborts.
//! - `garbage`: prints bytes that are not text.
//! - `fork MARKER FILE NAME`: leaves a child running `sleep` (its command line naming
//!   MARKER), then answers.
//! - `states N FILE NAME`: says it explored N states, then answers.

use std::io::Write;
use std::time::Duration;

fn answer(file: &str, name: &str) -> String {
    let text = std::fs::read_to_string(file).expect("the answers file");
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .find(|(level, _)| *level == name)
        .map(|(_, solution)| solution.to_string())
        .unwrap_or_else(|| panic!("no answer for {name}"))
}

fn touch(mib: usize) -> Vec<Vec<u8>> {
    (0..mib).map(|_| vec![1u8; 1 << 20]).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args[i].as_str();
    match arg(0) {
        "answers" => println!("{}", answer(arg(1), arg(2))),
        "wrong" => {
            let solution = answer(arg(1), arg(2));
            let moves: Vec<&str> = solution.split_whitespace().collect();
            match moves.split_last() {
                Some((_, rest)) if !rest.is_empty() => println!("{}", rest.join(" ")),
                _ => println!("xyzzy"),
            }
        }
        "sleep" => std::thread::sleep(Duration::from_secs(60)),
        "alloc" => {
            let mut held = Vec::new();
            for _ in 0..arg(1).parse::<usize>().unwrap() {
                held.push(vec![1u8; 1 << 20]);
            }
            std::thread::sleep(Duration::from_secs(60));
            drop(held);
        }
        "hold" => {
            let held = touch(arg(1).parse().unwrap());
            println!("{}", answer(arg(2), arg(3)));
            drop(held);
        }
        "crash" => std::process::abort(),
        "garbage" => {
            std::io::stdout().write_all(&[0xff, 0xfe, 0x00, 0x80]).unwrap();
        }
        "fork" => {
            std::process::Command::new("/bin/sh")
                .args(["-c", &format!("sleep 600; : {}", arg(1))])
                .spawn()
                .unwrap();
            println!("{}", answer(arg(2), arg(3)));
        }
        "states" => {
            eprintln!("frontier-states: {}", arg(1));
            println!("{}", answer(arg(2), arg(3)));
        }
        other => panic!("unknown mode {other}"),
    }
}
