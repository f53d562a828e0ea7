//! The allocator's settings, for the binary and the benchmarks.
//!
//! The binary uses mimalloc (loading a million papers is mostly small
//! allocations, served fast and from every core). mimalloc hands freed
//! memory back to the OS a second after it is freed. Loading streams a
//! file of gigabytes through buffers and batches that are freed and
//! allocated again and again for longer than that, so the same memory went
//! back and forth: on the development VM each page taken back cost a fault
//! and a clearing, most of the loading time. Loading the 1.5 GB JSONL
//! faulted 13,000 times with the default, 4,100 with two seconds and 1,400
//! when memory was never given back; ten seconds covers a load of that size
//! here, and memory still goes back once it is over.

/// Both settings below: call it first thing in `main`.
pub fn configure() {
    keep_freed_memory();
    no_huge_pages();
}

/// mimalloc's `mi_option_purge_delay`: its place in the option enum, the
/// same in mimalloc v2 and v3 (`libmimalloc-sys` exports no name for it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory is kept this long before it goes back to the OS (ms).
const KEEP_MS: std::ffi::c_long = 10_000;

/// Keeps freed memory for [`KEEP_MS`] rather than a second. Call it first
/// thing in `main`; it only changes a setting, so it is harmless where
/// mimalloc is not the global allocator.
pub fn keep_freed_memory() {
    crate::sys::set_mimalloc_option(PURGE_DELAY, KEEP_MS);
}

/// Asks Linux not to back this process's memory with transparent huge
/// pages (2 MiB), which mimalloc otherwise asks for on its arenas. On the
/// development VM, touching a fresh huge page now and then took ~10 ms (a
/// ranking's vectors of a few MiB landed on one): the keys over 16 ms at
/// 100k titles were those. Loading is faster without them too, in less
/// memory (docs/PERFORMANCE.md, Load). A process-wide setting, inherited
/// by the threads; no-op elsewhere.
pub fn no_huge_pages() {
    crate::sys::no_huge_pages();
}

/// `n` zeros, each page written before it is read. Zeroed memory fresh
/// from the OS is mapped on first touch: a first read maps the kernel's
/// shared zero page, and the write that follows faults again, copies it
/// and flushes it from every core's TLB (an interprocessor interrupt,
/// costly in a VM). Scores added into a vector of a paper each
/// (`scores[i] += x`) read each page first: at 2.7M papers those faults
/// and flushes were a tenth of a warm `search`. Written first, a page
/// takes one fault and no flush.
pub fn written_zeros<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // Its zeros are written even where the allocation is known zero.
    std::hint::black_box(&mut v);
    v.fill(T::default());
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_option_set_is_the_purge_delay() {
        let get = || crate::sys::mimalloc_option(super::PURGE_DELAY);
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            // mimalloc's default purge delay (v3's options.c): this is
            // the option we mean to set.
            assert_eq!(get(), 1000);
        }
        super::keep_freed_memory();
        assert_eq!(get(), super::KEEP_MS);
    }

    #[test]
    fn written_zeros_are_zeros_of_the_length_asked() {
        for n in [0, 1, 4096, 1 << 20] {
            let v: Vec<u32> = super::written_zeros(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0));
        }
    }
}
