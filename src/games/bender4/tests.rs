//! Bender played whole: the spec's intro hints win in the steps it says.

use super::testing::{INTRO1, INTRO2, INTRO3, INTRO4, steps};

#[test]
fn intro_hints_win_as_the_spec_says() {
    assert_eq!(steps(INTRO1, "1;DR1"), Ok(33));
    assert_eq!(steps(INTRO2, "LRRRRRR"), Ok(7));
    assert_eq!(steps(INTRO3, "UDRRRRR"), Ok(7));
    assert_eq!(steps(INTRO4, "RRD"), Ok(3));
}
