//! Helpers for black-box tests of the facegate binary (see tests/tests/).
