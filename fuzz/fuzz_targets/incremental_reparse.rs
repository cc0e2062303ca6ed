//! `cargo fuzz run incremental_reparse`: the property is `pbn_tests::fuzz::incremental_reparse`
//! (tests/src/fuzz.rs); see ROBUSTNESS.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pbn_tests::fuzz::incremental_reparse(data));
