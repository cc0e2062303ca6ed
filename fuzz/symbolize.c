/*
 * The two functions of the sanitizer runtime that libFuzzer needs to name
 * code: `-print_coverage=1` (covered and uncovered edges per function, at
 * exit), `-print_pcs=1` (each new edge) and the NEW_FUNC lines it prints
 * when an input first reaches a function. The fuzz build has no sanitizer
 * runtime (`--sanitizer none`, see ROBUSTNESS.md), so without these libFuzzer
 * says "__sanitizer_symbolize_pc ... is not available" and prints nothing.
 *
 * A program counter is described by its offset in its module ("0x1a2b3c"),
 * whatever the format asks for (function, file or line): symbolizing in
 * process would need the DWARF reader of a sanitizer runtime. Offsets are
 * the same in every process despite ASLR; fuzz/stability.py turns them into
 * functions and lines with llvm-symbolizer (or addr2line) on the binary.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static uintptr_t module_offset(void *pc, const char **module) {
    Dl_info info;
    if (dladdr(pc, &info) && info.dli_fbase) {
        if (module) *module = info.dli_fname ? info.dli_fname : "";
        return (uintptr_t)pc - (uintptr_t)info.dli_fbase;
    }
    if (module) *module = "";
    return (uintptr_t)pc;
}

__attribute__((no_sanitize_coverage)) int __sanitizer_get_module_and_offset_for_pc(void *pc, char *module_name,
                                                                                   size_t module_name_len, void **pc_offset) {
    const char *module;
    uintptr_t offset = module_offset(pc, &module);
    if (module_name && module_name_len) snprintf(module_name, module_name_len, "%s", module);
    if (pc_offset) *pc_offset = (void *)offset;
    return 1;
}

__attribute__((no_sanitize_coverage)) void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t out_len) {
    (void)fmt;
    if (out && out_len) snprintf(out, out_len, "0x%lx", (unsigned long)module_offset(pc, NULL));
}
