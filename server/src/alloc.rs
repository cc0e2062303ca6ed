//! Memory allocation: mimalloc for Rust and for tree-sitter's C core.
//!
//! A parse allocates one node per token and the model a few strings per tag;
//! with glibc's malloc, allocating and freeing took about a tenth of
//! `pbn check` (perf, 20,000 games). mimalloc (a well-kept allocator, used
//! by rustc's tooling and many servers) is faster for many small blocks.
//! Rust code uses it through `#[global_allocator]`; tree-sitter through
//! [`init`], which each binary calls first thing.

use std::ffi::c_void;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe extern "C" fn ts_malloc(size: usize) -> *mut c_void {
    let p = unsafe { libmimalloc_sys::mi_malloc(size) };
    if p.is_null() && size != 0 {
        std::process::abort();
    }
    p
}

unsafe extern "C" fn ts_calloc(n: usize, size: usize) -> *mut c_void {
    let p = unsafe { libmimalloc_sys::mi_calloc(n, size) };
    if p.is_null() && n != 0 && size != 0 {
        std::process::abort();
    }
    p
}

unsafe extern "C" fn ts_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    let p = unsafe { libmimalloc_sys::mi_realloc(ptr, size) };
    if p.is_null() && size != 0 {
        std::process::abort();
    }
    p
}

unsafe extern "C" fn ts_free(ptr: *mut c_void) {
    unsafe { libmimalloc_sys::mi_free(ptr) }
}

/// Makes tree-sitter allocate with mimalloc, and turns transparent huge
/// pages off for the process. Call it at the start of `main`, before any
/// tree-sitter object exists (tree-sitter requires it); later calls do
/// nothing.
///
/// Huge pages: mimalloc asks the kernel for them, and the kernel then zeroes
/// 2 MiB at the first touch of each; on 20,000 games that tripled the
/// system time of `pbn check` (0.7 s → 1.9 s, of which almost all in
/// `clear_page_erms`) for no gain in user time.
pub fn init() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        #[cfg(target_os = "linux")]
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments and only sets a
        // flag of this process; failure is harmless (huge pages stay on).
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
        // SAFETY: the four functions are one allocator family (mimalloc),
        // never return null for a non-zero size (they abort instead), and
        // return blocks aligned like malloc's; `Once` makes this run once,
        // and callers call it before creating any tree-sitter object.
        unsafe {
            tree_sitter::set_allocator(Some(tree_sitter::Allocator {
                malloc: ts_malloc,
                calloc: ts_calloc,
                realloc: ts_realloc,
                free: ts_free,
            }))
        }
    });
}
