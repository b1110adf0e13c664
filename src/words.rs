//! Numbers in messages: `1 move`, `2 moves`. One rule for every message a user reads, so that
//! none says "1 levels".

use std::fmt;

/// `n` and the noun, singular for 1: `count(1, "level")` is `1 level`, `count(3, "push")` is
/// `3 pushes`.
pub fn count<N: fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("1 {noun}")
    } else {
        format!("{n} {}", plural(noun))
    }
}

/// The noun's plural: nouns ending in s, x, ch or sh take -es, the others -s.
pub fn plural(noun: &str) -> String {
    if ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end)) {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_every_other_number_plural() {
        assert_eq!(count(1u32, "level"), "1 level");
        assert_eq!(count(0u32, "level"), "0 levels");
        assert_eq!(count(52usize, "new level"), "52 new levels");
        assert_eq!(count(2u64, "push"), "2 pushes");
        assert_eq!(count(1u64, "push"), "1 push");
        assert_eq!(count(3u8, "process"), "3 processes");
    }
}
