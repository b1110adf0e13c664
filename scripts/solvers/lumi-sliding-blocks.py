#!/usr/bin/env python3
"""frontier --solver wrapper for lumi-a/sliding-blocks, the public reference solver whose text
format and 24 example puzzles frontier's sliding-blocks game uses.

Solver:  https://github.com/lumi-a/sliding-blocks, commit 20d9d4d17d3f1aa25002b0c38fcc1be492fedd35
         (Rust; licence MIT OR Apache-2.0). Fewest moves, a move being one block slid along any
         path (frontier's rule): BFS with one goal block, A* (misplaced goal blocks) with several.
         It is a library only (its main.rs solves one built-in example), so the build below puts
         DRIVER (a dozen lines of Rust, below) in place of src/main.rs.
Build:   git clone https://github.com/lumi-a/sliding-blocks /work/ext/sliding-blocks
         git -C /work/ext/sliding-blocks checkout 20d9d4d17d3f1aa25002b0c38fcc1be492fedd35
         scripts/solvers/lumi-sliding-blocks.py --build /work/ext/sliding-blocks
         (writes src/main.rs, runs cargo build --release --locked: target/release/sliding-blocks)
Binary:  $LUMI_SLIDING_BLOCKS, default /work/ext/sliding-blocks/target/release/sliding-blocks.
Use:     frontier solve --solver 'scripts/solvers/lumi-sliding-blocks.py {level}' PATHS...
         (no argument, or '-': the level file's text on standard input). Python 3 alone.
Converts: the level file (a one-record .tsv with name/start/goal columns, or a .txt start grid,
         empty line, goal grid) into the start and goal strings; the solver's answer, one grid per
         position, into frontier's moves: the block whose cells changed, with a shortest chain of
         unit steps to its new place (BFS, U D L R order, as frontier writes them). The solver
         reports no state count, so no `frontier-states:` line. Unsolvable: prints `unsolvable`.
"""
import os, subprocess, sys
from collections import deque

DRIVER = r'''// stdin: start grid, NUL, goal grid. stdout: the solution's positions, each grid then NUL.
use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let (start, goal) = s.split_once('\0').expect("stdin: start grid, NUL, goal grid");
    match sliding_blocks::solve_puzzle(start, goal) {
        Ok(Some(path)) => for grid in path { print!("{grid}\0") },
        Ok(None) => { eprintln!("unsolvable"); std::process::exit(1) }
        Err(e) => { eprintln!("{e}"); std::process::exit(2) }
    }
}
'''

def read_level(text):
    lines = text.replace('\r\n', '\n').split('\n')
    head = lines[0].split('\t')
    if 'start' in head and 'goal' in head:  # .tsv: the first record
        rec = next(l for l in lines[1:] if l.strip()).split('\t')
        unesc = lambda f: f.replace('\\\\', '\0').replace('\\n', '\n').replace('\\t', '\t').replace('\0', '\\')
        return unesc(rec[head.index('start')]), unesc(rec[head.index('goal')])
    cut = lines.index('')  # .txt: the first truly empty line ends the start grid
    return '\n'.join(lines[:cut]), '\n'.join(lines[cut + 1:])

def cells(grid):
    out = {}
    for r, row in enumerate(grid.split('\n')):
        for c, ch in enumerate(row):
            if ch != ' ':
                out.setdefault(ch, set()).add((r, c))
    return out

def move(before, after):
    (name,) = [k for k in before if k != '.' and before[k] != after.get(k)]
    board = set().union(*before.values())
    free = board - set().union(*(v for k, v in before.items() if k not in ('.', name)))
    old, new = before[name], after[name]
    goal = (min(new)[0] - min(old)[0], min(new)[1] - min(old)[1])
    steps = {'U': (-1, 0), 'D': (1, 0), 'L': (0, -1), 'R': (0, 1)}
    prev, todo = {(0, 0): None}, deque([(0, 0)])
    while goal not in prev:
        d = todo.popleft()
        for s, (dr, dc) in steps.items():
            n = (d[0] + dr, d[1] + dc)
            if n not in prev and all((r + n[0], c + n[1]) in free for r, c in old):
                prev[n] = (d, s); todo.append(n)
    path, d = '', goal
    while prev[d]:
        d, s = prev[d]; path = s + path
    return f'{name}:{path}'

def main():
    if sys.argv[1:2] == ['--version']:  # what frontier records in the run's sidecar
        print('lumi-a/sliding-blocks 20d9d4d (frontier wrapper)')
        return
    if sys.argv[1:2] == ['--build']:
        with open(os.path.join(sys.argv[2], 'src', 'main.rs'), 'w') as f:
            f.write(DRIVER)
        sys.exit(subprocess.call(['cargo', 'build', '--release', '--locked'], cwd=sys.argv[2]))
    path = sys.argv[1] if len(sys.argv) > 1 else '-'
    text = sys.stdin.read() if path == '-' else open(path, encoding='utf-8').read()
    start, goal = read_level(text)
    exe = os.environ.get('LUMI_SLIDING_BLOCKS', '/work/ext/sliding-blocks/target/release/sliding-blocks')
    run = subprocess.run([exe], input=(start + '\0' + goal).encode(), stdout=subprocess.PIPE)
    if run.returncode == 1:  # the driver's "unsolvable": frontier's word for it
        print('unsolvable')
        return
    if run.returncode:
        sys.exit(run.returncode)
    grids = [cells(g) for g in run.stdout.decode().split('\0')[:-1]]
    print(' '.join(move(a, b) for a, b in zip(grids, grids[1:])))

main()
