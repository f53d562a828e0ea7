//! The allocator's settings, for the binary and the benchmarks.
//!
//! The binary uses mimalloc (loading a million papers is mostly small
//! allocations, served fast and from every core). By default mimalloc
//! hands freed memory back to the OS 10 ms after it is freed. Loading
//! streams a file of gigabytes through buffers that are freed and allocated
//! again straight away, so that memory went back and forth: on the
//! development VM each page taken back cost a fault and a clearing, which
//! was most of the loading time (13,000 page faults for a 1.5 GB file; 1,400
//! with this setting).

/// mimalloc's `mi_option_purge_delay`: its place in the option enum, the
/// same in mimalloc v2 and v3 (`libmimalloc-sys` exports no name for it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory is kept this long before it goes back to the OS.
const KEEP_MS: std::ffi::c_long = 2_000;

/// Keeps freed memory for [`KEEP_MS`] rather than 10 ms. Call it first
/// thing in `main`; it only changes a setting, so it is harmless where
/// mimalloc is not the global allocator.
pub fn keep_freed_memory() {
    // SAFETY: mi_option_set only stores an option value; the option is a
    // valid one, and it is set before other threads start.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, KEEP_MS) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_purge_delay_is_set() {
        super::keep_freed_memory();
        // SAFETY: reads the option set above.
        let got = unsafe { libmimalloc_sys::mi_option_get(super::PURGE_DELAY) };
        assert_eq!(got, super::KEEP_MS);
    }
}
