//! Routes into programs: greedy grammar compression of a move string into a main routine and
//! up to nine functions. The program executes exactly the route's moves (calls only add steps),
//! so it wins whenever the route does and its arrival stays within the step limit. These
//! programs seed the program search ([`super::anneal`]), which does the real shortening.

use std::collections::HashMap;

/// The longest function body the compressor considers.
const MAX_BODY: usize = 16;
/// Functions a program may have.
pub const MAX_FUNCTIONS: usize = 9;

/// Compresses `route` (or any program piece) into pieces: main first, then functions 1..=k.
pub fn compress(route: &[u8]) -> Vec<Vec<u8>> {
    let mut pieces = vec![route.to_vec()];
    while pieces.len() <= MAX_FUNCTIONS {
        let Some(body) = best_repeat(&pieces) else {
            break;
        };
        let call = b'0' + pieces.len() as u8;
        for piece in &mut pieces {
            *piece = replace(piece, &body, call);
        }
        pieces.push(body);
    }
    pieces
}

/// The substring whose extraction into a new function saves the most characters, if any does.
fn best_repeat(pieces: &[Vec<u8>]) -> Option<Vec<u8>> {
    let mut counted: HashMap<&[u8], ()> = HashMap::new();
    let mut best: Option<(isize, &[u8])> = None;
    for piece in pieces {
        for start in 0..piece.len() {
            for len in 2..=MAX_BODY.min(piece.len() - start) {
                let body = &piece[start..start + len];
                if counted.insert(body, ()).is_some() {
                    continue;
                }
                let uses: usize = pieces.iter().map(|p| occurrences(p, body)).sum();
                // Each use shrinks from `len` characters to one; the body costs `len + 1`.
                let saving = uses as isize * (len as isize - 1) - (len as isize + 1);
                if saving > best.map_or(0, |b| b.0) {
                    best = Some((saving, body));
                }
            }
        }
    }
    best.map(|(_, body)| body.to_vec())
}

/// Non-overlapping occurrences, taken greedily from the left.
fn occurrences(piece: &[u8], body: &[u8]) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i + body.len() <= piece.len() {
        if &piece[i..i + body.len()] == body {
            count += 1;
            i += body.len();
        } else {
            i += 1;
        }
    }
    count
}

/// `piece` with every non-overlapping occurrence of `body` (from the left) replaced by `call`.
fn replace(piece: &[u8], body: &[u8], call: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(piece.len());
    let mut i = 0;
    while i < piece.len() {
        if piece[i..].starts_with(body) {
            out.push(call);
            i += body.len();
        } else {
            out.push(piece[i]);
            i += 1;
        }
    }
    out
}

/// The program line of some pieces.
pub fn line(pieces: &[Vec<u8>]) -> String {
    let parts: Vec<&str> = pieces
        .iter()
        .map(|p| std::str::from_utf8(p).expect("program pieces are ASCII"))
        .collect();
    parts.join(";")
}
