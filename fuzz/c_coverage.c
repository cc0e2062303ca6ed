/*
 * Edge coverage of the C code (tree-sitter's runtime, tree-sitter-pbn's
 * generated parser and external scanner) for libFuzzer, with gcc.
 *
 * rustc instruments the Rust code with LLVM's SanitizerCoverage, but the C
 * dependencies are compiled by the `cc` crate with the system C compiler,
 * gcc here (no clang on this machine), which only offers
 * `-fsanitize-coverage=trace-pc` (a call per basic block) and `trace-cmp`.
 * libFuzzer implements the trace-cmp hooks itself, but its `trace_pc` only
 * says "deprecated instrumentation" and exits; build.rs links with
 * `--wrap=__sanitizer_cov_trace_pc` so that the C code's calls land in
 * `__wrap___sanitizer_cov_trace_pc` below instead, which works AFL-style:
 * the hash of (previous block, this block) increments a byte in a 64 KiB
 * map placed in the `__libfuzzer_extra_counters` section, which libFuzzer
 * reads as extra coverage counters (they count in `ft:`, not in `cov:`, and
 * are cleared before every run). Block addresses are taken relative to this function so
 * that the map is the same in every process despite ASLR.
 *
 * Enabled by building with CC=fuzz/cc-cover.sh (run.sh does), which adds
 * `-fsanitize-coverage=trace-pc,trace-cmp` to tree-sitter's C files only;
 * without it nothing calls this code. See ROBUSTNESS.md.
 */
#include <stdint.h>

#define MAP_BITS 16
#define MAP_SIZE (1u << MAP_BITS)

__attribute__((section("__libfuzzer_extra_counters"), used, aligned(64)))
uint8_t pbn_fuzz_c_edges[MAP_SIZE];

static __thread uintptr_t previous;

__attribute__((no_sanitize_coverage)) void __wrap___sanitizer_cov_trace_pc(void) {
    uintptr_t pc = (uintptr_t)__builtin_return_address(0) - (uintptr_t)&__wrap___sanitizer_cov_trace_pc;
    uintptr_t here = (pc * 0x9E3779B97F4A7C15ull) >> (64 - MAP_BITS);
    pbn_fuzz_c_edges[(here ^ previous) & (MAP_SIZE - 1)]++;
    previous = here >> 1;
}

/* gcc's trace-cmp also reports floating-point comparisons, which libFuzzer
 * does not take: accept and ignore them (weak, in case it ever does). */
__attribute__((weak, no_sanitize_coverage)) void __sanitizer_cov_trace_cmpf(float a, float b) {
    (void)a;
    (void)b;
}

__attribute__((weak, no_sanitize_coverage)) void __sanitizer_cov_trace_cmpd(double a, double b) {
    (void)a;
    (void)b;
}
