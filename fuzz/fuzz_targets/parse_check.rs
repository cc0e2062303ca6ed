//! `cargo fuzz run parse_check`: the property is `pbn_tests::fuzz::parse_check`
//! (tests/src/fuzz.rs); see ROBUSTNESS.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pbn_tests::fuzz::parse_check(data));
