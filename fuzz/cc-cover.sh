#!/bin/sh
# C compiler wrapper for the fuzz build (run.sh sets CC to it): adds gcc's
# coverage instrumentation to the C code of tree-sitter and tree-sitter-pbn
# only (the runtime, the generated parser, the external scanner), not to
# other C dependencies such as the allocator, whose paths depend on heap
# state rather than on the input. c_coverage.c turns the calls into
# libFuzzer counters. See ROBUSTNESS.md.
case "$*" in
  */tree-sitter-pbn/src/*.c* | */tree-sitter-[0-9]*/src/lib.c*) exec "${PBN_FUZZ_REAL_CC:-gcc}" -fsanitize-coverage=trace-pc,trace-cmp "$@" ;;
esac
exec "${PBN_FUZZ_REAL_CC:-gcc}" "$@"
