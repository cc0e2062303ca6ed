//! `cargo fuzz run convert`: the property is `pbn_tests::fuzz::convert`
//! (tests/src/fuzz.rs); see ROBUSTNESS.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pbn_tests::fuzz::convert(data));
