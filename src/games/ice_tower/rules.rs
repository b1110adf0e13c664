//! The Ice Tower simulator (spec §2): the single source of truth for the rules.
//!
//! A [`Grid`] is the static level (walls, floor, fire cells, recyclers, arrows); a [`Position`]
//! is what changes (the ice, the fires still burning, the magician's cell). [`Grid::reachable`]
//! is the magician's free walk (W1–W2, with the arrows of X6–X8), [`Grid::push`] one push
//! (P1–P4, X2–X5). `check` replays solutions with these functions alone; the search's packed
//! tables are built from them and tested against them.

use bitvec::prelude::{BitSlice, BitVec};

pub use crate::games::dir::Dir;

/// What a cell of the grid is, independent of the ice on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    Wall,
    Floor,
    /// A fire at the start; floor once put out.
    Fire,
    Recycler,
    Arrow(Dir),
}

/// A block of ice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ice {
    Regular,
    Golden,
}

/// The static part of a level. Cells are indexed row-major: `row * width + col` (spec L7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    pub tiles: Vec<Tile>,
}

/// The changing part of a level.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The ice on each cell.
    pub ice: Vec<Option<Ice>>,
    /// Whether each cell holds a burning fire.
    pub burning: Vec<bool>,
    /// The magician's cell.
    pub magician: usize,
}

impl Position {
    /// G1: solved when no fire burns.
    pub fn is_solved(&self) -> bool {
        !self.burning.contains(&true)
    }
}

/// Why a push is illegal (P1, X5, X7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushError {
    /// No block at the named cell.
    NoIce,
    /// The push cell (the cell behind the block) is not in the magician's reachable region.
    Unreachable { push_cell: usize },
    /// The magician would stand on an arrow pointing elsewhere (X7).
    ArrowElsewhere { push_cell: usize },
    /// The first cell beyond the block is a wall or holds a block.
    Blocked { first: usize },
    /// The slide would enter an arrow cell a second time (X5).
    EndlessSlide,
}

/// How a push ended for the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlideEnd {
    /// The block rests at this cell.
    Rests(usize),
    /// A regular block melted in a fire or was destroyed by a recycler at this cell.
    Destroyed(usize),
}

impl Grid {
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.width, cell % self.width)
    }

    /// The neighbour of a cell, or `None` off the grid.
    pub fn neighbour(&self, cell: usize, dir: Dir) -> Option<usize> {
        let (row, col) = self.row_col(cell);
        let (dr, dc) = dir.delta();
        let (r, c) = (
            row.checked_add_signed(dr as isize)?,
            col.checked_add_signed(dc as isize)?,
        );
        (r < self.height && c < self.width).then(|| self.cell(r, c))
    }

    fn is_wall(&self, cell: Option<usize>) -> bool {
        cell.is_none_or(|c| self.tiles[c] == Tile::Wall)
    }

    /// W1: floor (a put-out fire and an arrow included) without a block.
    pub fn is_walkable(&self, pos: &Position, cell: usize) -> bool {
        pos.ice[cell].is_none()
            && match self.tiles[cell] {
                Tile::Floor | Tile::Arrow(_) => true,
                Tile::Fire => !pos.burning[cell],
                Tile::Wall | Tile::Recycler => false,
            }
    }

    /// Where one step from `from` towards `dir` ends, arrows followed (X6, X7), or `None` when
    /// the step is not possible.
    pub fn step(&self, pos: &Position, from: usize, dir: Dir) -> Option<usize> {
        if matches!(self.tiles[from], Tile::Arrow(a) if a != dir) {
            return None;
        }
        let mut cur = self.neighbour(from, dir)?;
        if !self.is_walkable(pos, cur) {
            return None;
        }
        let mut passed: Vec<usize> = Vec::new();
        while let Tile::Arrow(forced) = self.tiles[cur] {
            if passed.contains(&cur) {
                return None;
            }
            passed.push(cur);
            match self.neighbour(cur, forced) {
                Some(next) if self.is_walkable(pos, next) => cur = next,
                _ => break,
            }
        }
        Some(cur)
    }

    /// W2, X8: every cell where a walk of the magician can end, his own cell included, as a
    /// bit per cell. (The simulator's plain set of cells; the search has its own shifted board
    /// sets in [`super::bits`].)
    pub fn reachable(&self, pos: &Position) -> BitVec {
        let mut seen = BitVec::repeat(false, self.tiles.len());
        seen.set(pos.magician, true);
        let mut todo = vec![pos.magician];
        while let Some(cell) = todo.pop() {
            for dir in Dir::ALL {
                if let Some(next) = self.step(pos, cell, dir).filter(|&n| !seen[n]) {
                    seen.set(next, true);
                    todo.push(next);
                }
            }
        }
        seen
    }

    /// Pushes the block at `block` towards `dir` (P1–P4, X2–X5), given the magician's reachable
    /// region. Returns the new position and where the block ended.
    pub fn push(
        &self,
        pos: &Position,
        reachable: &BitSlice,
        block: usize,
        dir: Dir,
    ) -> Result<(Position, SlideEnd), PushError> {
        let kind = pos
            .ice
            .get(block)
            .copied()
            .flatten()
            .ok_or(PushError::NoIce)?;
        let behind = self.neighbour(block, dir.opposite());
        let push_cell = behind
            .filter(|&p| reachable[p])
            .ok_or(PushError::Unreachable {
                push_cell: behind.unwrap_or(block),
            })?;
        if matches!(self.tiles[push_cell], Tile::Arrow(a) if a != dir) {
            return Err(PushError::ArrowElsewhere { push_cell });
        }
        let first = self.neighbour(block, dir);
        if self.is_wall(first) || first.is_some_and(|c| pos.ice[c].is_some()) {
            return Err(PushError::Blocked {
                first: first.unwrap_or(block),
            });
        }
        let mut next = pos.clone();
        next.ice[block] = None;
        next.magician = push_cell;
        let (mut cur, mut heading) = (block, dir);
        let mut arrows_entered: Vec<usize> = Vec::new();
        let end = loop {
            // P2.1 and X4: a wall, a block or the magician stops the slide.
            let n = match self.neighbour(cur, heading) {
                Some(n)
                    if self.tiles[n] != Tile::Wall && next.ice[n].is_none() && n != push_cell =>
                {
                    n
                }
                _ => break SlideEnd::Rests(cur),
            };
            cur = n;
            match self.tiles[n] {
                Tile::Recycler if kind == Ice::Regular => break SlideEnd::Destroyed(n),
                Tile::Fire if next.burning[n] => {
                    next.burning[n] = false;
                    if kind == Ice::Regular {
                        break SlideEnd::Destroyed(n);
                    }
                }
                Tile::Arrow(a) => {
                    if arrows_entered.contains(&n) {
                        return Err(PushError::EndlessSlide);
                    }
                    arrows_entered.push(n);
                    heading = a;
                }
                _ => {}
            }
        };
        if let SlideEnd::Rests(cell) = end {
            next.ice[cell] = Some(kind);
        }
        Ok((next, end))
    }

    /// Whether the grid has an arrow (such levels keep the magician's exact cell, X8).
    pub fn has_arrows(&self) -> bool {
        self.tiles.iter().any(|t| matches!(t, Tile::Arrow(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice_tower::tests::{after, ice_at, push_error, puzzle};

    #[test]
    fn case_ice_stops_in_front_of_ice() {
        let p = puzzle("######## / #@% %*## / ########");
        let pos = after(&p, "1,2,R");
        assert_eq!(ice_at(&p, &pos, 1, 3), Some(Ice::Regular));
        assert_eq!(ice_at(&p, &pos, 1, 4), Some(Ice::Regular));
    }

    #[test]
    fn walking_is_free_over_floor_and_put_out_fires_only() {
        // W1/W2: ice, burning fires, recyclers and walls block the walk; a put-out fire does not.
        let p = puzzle("######### / #@ *  - # / #%#######/ #########");
        let reach = p.grid.reachable(&p.start);
        let reached: Vec<usize> = (0..reach.len()).filter(|&c| reach[c]).collect();
        assert_eq!(reached, [p.grid.cell(1, 1), p.grid.cell(1, 2)]);
        let mut pos = p.start.clone();
        pos.burning[p.grid.cell(1, 3)] = false;
        let reach = p.grid.reachable(&pos);
        assert!(reach[p.grid.cell(1, 5)] && !reach[p.grid.cell(1, 6)] && !reach[p.grid.cell(1, 7)]);
        assert!(!reach[p.grid.cell(2, 1)]);
    }

    #[test]
    fn a_push_needs_a_free_first_cell() {
        // P1: a wall or a block right beyond the ice makes the push illegal; fire, recycler and
        // arrow are fine.
        let p = puzzle("######## / #@%#   # / # %%   # / #  $-  # / ########");
        assert!(push_error(&p, "", "1,2,R").contains("1,3 beyond the ice is a wall"));
        let p2 = puzzle("####### / #@%%  # / #######");
        assert!(push_error(&p2, "", "1,2,R").contains("1,3 beyond the ice is a wall or holds ice"));
        let p3 = puzzle("###### / #@%-*# / ######");
        assert!(after(&p3, "1,2,R").ice.iter().all(Option::is_none));
        // A golden block resting on a recycler counts as a block.
        let p4 = puzzle("######### / #@$ -%  # / #########");
        let pos = after(&p4, "1,2,R");
        assert_eq!(ice_at(&p4, &pos, 1, 4), Some(Ice::Golden));
        let everywhere = bitvec::vec::BitVec::repeat(true, pos.ice.len());
        assert_eq!(
            p4.grid
                .push(&pos, &everywhere, p4.grid.cell(1, 5), Dir::Left),
            Err(PushError::Blocked {
                first: p4.grid.cell(1, 4)
            })
        );
    }

    #[test]
    fn slides_stop_before_walls_and_ice_and_the_magician_stays() {
        // P2/P3: the block slides to the last free cell; the magician stays on the push cell.
        let p = puzzle("######### / #@%    %# / #       # / #########");
        let pos = after(&p, "1,2,R");
        assert_eq!(ice_at(&p, &pos, 1, 6), Some(Ice::Regular));
        assert_eq!(pos.magician, p.grid.cell(1, 1));
        let p = puzzle("##### / #@  # / # % # / #   # / #####");
        let pos = after(&p, "2,2,D");
        assert_eq!(ice_at(&p, &pos, 3, 2), Some(Ice::Regular));
        assert_eq!(pos.magician, p.grid.cell(1, 2));
    }

    #[test]
    fn regular_ice_melts_with_the_first_fire_and_golden_ice_goes_on() {
        let p = puzzle("######## / #@%* * # / # $* * # / ########");
        let regular = after(&p, "2,2,R 1,2,R");
        assert!(!regular.burning[p.grid.cell(1, 3)] && regular.burning[p.grid.cell(1, 5)]);
        assert!(
            regular.ice[p.grid.cell(1, 2)..p.grid.cell(1, 7)]
                .iter()
                .all(Option::is_none)
        );
        let golden = after(&p, "2,2,R");
        assert!(!golden.burning[p.grid.cell(2, 3)] && !golden.burning[p.grid.cell(2, 5)]);
        assert_eq!(ice_at(&p, &golden, 2, 6), Some(Ice::Golden));
    }

    #[test]
    fn golden_ice_pushed_off_a_recycler_leaves_it_bare() {
        let p = puzzle("######## / #  @   # / # $ -% # / #      # / ########");
        let pos = after(&p, "2,2,R");
        assert_eq!(ice_at(&p, &pos, 2, 4), Some(Ice::Golden));
        let pos = after(&p, "2,2,R 2,4,D");
        assert_eq!(ice_at(&p, &pos, 2, 4), None);
        assert_eq!(ice_at(&p, &pos, 3, 4), Some(Ice::Golden));
        // The bare recycler destroys the regular block pushed into it.
        let pos = after(&p, "2,2,R 2,4,D 2,5,L");
        assert_eq!(pos.ice.iter().filter(|i| i.is_some()).count(), 1);
    }

    #[test]
    fn x2_a_block_rests_on_an_arrow_facing_a_wall() {
        let p = puzzle("####### / #@%v  # / ####### ");
        let (pos, end) = {
            let reach = p.grid.reachable(&p.start);
            p.grid
                .push(&p.start, &reach, p.grid.cell(1, 2), Dir::Right)
                .unwrap()
        };
        assert_eq!(end, SlideEnd::Rests(p.grid.cell(1, 3)));
        assert_eq!(ice_at(&p, &pos, 1, 3), Some(Ice::Regular));
    }

    #[test]
    fn x3_a_block_leaves_an_arrow_in_the_push_direction() {
        let p = puzzle("####### / #@%v  # / ####### ");
        let pos = after(&p, "1,2,R 1,3,R");
        assert_eq!(ice_at(&p, &pos, 1, 5), Some(Ice::Regular));
    }

    #[test]
    fn x4_the_magician_stops_a_block_sent_back_at_him() {
        let p = puzzle("###### / #@% <# / ######");
        let pos = after(&p, "1,2,R");
        assert_eq!(ice_at(&p, &pos, 1, 2), Some(Ice::Regular));
        assert_eq!(pos.magician, p.grid.cell(1, 1));
    }

    #[test]
    fn x5_a_slide_that_loops_is_illegal() {
        let p = puzzle("###### / #@%>v# / #  ^<# / ######");
        let reach = p.grid.reachable(&p.start);
        assert_eq!(
            p.grid.push(&p.start, &reach, p.grid.cell(1, 2), Dir::Right),
            Err(PushError::EndlessSlide)
        );
        assert!(push_error(&p, "", "1,2,R").contains("never end"));
    }

    #[test]
    fn x6_arrows_carry_the_magician() {
        // Stepping on `>` carries him on; he never ends a walk on it while the way is free.
        let p = puzzle("###### / #@>  # / ######");
        let reach = p.grid.reachable(&p.start);
        assert!(!reach[p.grid.cell(1, 2)] && reach[p.grid.cell(1, 3)] && reach[p.grid.cell(1, 4)]);
        // A blocked forced step leaves him on the arrow.
        let p = puzzle("###### / #@>% # / ######");
        let reach = p.grid.reachable(&p.start);
        assert!(reach[p.grid.cell(1, 2)] && !reach[p.grid.cell(1, 3)]);
        // A forced walk that comes back to an arrow is not allowed at all.
        let p = puzzle("###### / #@>< # / ######");
        let reach = p.grid.reachable(&p.start);
        assert_eq!(reach.count_ones(), 1);
    }

    #[test]
    fn x7_on_an_arrow_he_steps_and_pushes_only_its_way() {
        let p = puzzle("###### / #@>% # / # %  # / #    # / ######");
        // He stands on the arrow at 1,2 (1,3 holds ice): pushing 2,2 down from there is illegal.
        assert!(push_error(&p, "", "2,2,D").contains("arrow pointing elsewhere"));
        assert_eq!(
            after(&p, "1,3,R").ice[p.grid.cell(1, 4)],
            Some(Ice::Regular)
        );
    }
}
