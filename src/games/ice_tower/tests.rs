//! Unit tests of the Ice Tower rules, parser, notation and search.
