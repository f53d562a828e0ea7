//! The calls into the operating system and the C libraries that the
//! standard library has no safe form of: mapping a file into memory, the
//! machine's memory, a thread's priority, the process's huge pages, the
//! allocator's options, standard output sent nowhere, local midnight.
//!
//! Each is a safe function here, its `unsafe` block beside the reason it
//! holds, so that no other module of the project calls C or maps a file
//! itself.

use std::fs::File;
use std::io;
use std::ops::Range;

pub use memmap2::Mmap;

/// `file` mapped into memory, read-only: its bytes read where the page
/// cache holds them, with no copy.
///
/// The files mapped are the cache's entries (written whole to a fresh
/// file and renamed into place, never changed in place) and files the
/// program wrote itself. Every byte read from a map is bounds-checked
/// and, in the cache, checksummed before use: a file someone else cut
/// short or rewrote would be refused by those checks, as far as they can
/// see it.
pub fn map(file: &File) -> io::Result<Mmap> {
    // SAFETY: memmap2's one requirement is that the file is not changed
    // while mapped; the files mapped are only ever replaced (renamed
    // over) or removed, never changed in place (see above).
    unsafe { Mmap::map(file) }
}

/// Gives back the memory `range` of `map` took once it is read: the
/// process's share of it goes, the page cache keeps it, and it is read
/// again from the file if touched. A range past the map's end is left.
pub fn release(map: &Mmap, range: Range<usize>) {
    if range.start > range.end || range.end > map.len() {
        return;
    }
    // SAFETY: a read-only file mapping given up this way reads again from
    // the file if touched: its bytes stay what they were, so nothing
    // borrowed from it changes.
    let _ = unsafe {
        map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, range.start, range.len())
    };
}

/// The machine's memory in bytes, where it can be told.
pub fn memory() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf takes a plain integer and only reads system
        // values.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page > 0 {
            return Some(pages as u64 * page as u64);
        }
    }
    None
}

/// Lowers the calling thread's priority (nice 10); no-op off Linux.
pub fn lower_thread_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes plain integers and has no memory-safety
    // preconditions; on Linux, `who == 0` with PRIO_PROCESS names the
    // calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Asks Linux not to back this process's memory with transparent huge
/// pages; no-op elsewhere.
pub fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes plain integers and only
    // sets a flag on the process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// mimalloc's option `option` set to `value`: it only stores a number,
/// harmless where mimalloc is not the global allocator.
pub fn set_mimalloc_option(option: libmimalloc_sys::mi_option_t, value: std::ffi::c_long) {
    // SAFETY: mi_option_set only stores an option value, for an option
    // number mimalloc checks.
    unsafe { libmimalloc_sys::mi_option_set(option, value) }
}

/// mimalloc's option `option`.
pub fn mimalloc_option(option: libmimalloc_sys::mi_option_t) -> std::ffi::c_long {
    // SAFETY: mi_option_get only reads an option value, for an option
    // number mimalloc checks.
    unsafe { libmimalloc_sys::mi_option_get(option) }
}

/// Standard output sent to /dev/null from now on: the pipe or file it was
/// is closed when nothing else holds it, so that a reader of it sees its
/// end. Off Linux, nothing is done.
pub fn stdout_to_null() {
    #[cfg(target_os = "linux")]
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        use std::os::fd::AsRawFd;
        // SAFETY: dup2 takes two descriptors, both open (`null` is held
        // for the call); the standard output's now refers to /dev/null.
        unsafe { libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO) };
    }
}

/// Seconds since the epoch at the start of day `d` of month `m` (1-12) of
/// year `y`, in local time: the C library's `mktime`, which reads the
/// system's time zone (and `TZ`). In UTC where the C library is not at
/// hand.
pub fn local_midnight(y: i32, m: u32, d: u32) -> Option<i64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `tm` is a plain C struct, zeroed (a valid value of it)
        // then filled; `mktime` reads and normalizes it and returns -1 on
        // failure.
        let t = unsafe {
            let mut tm: libc::tm = std::mem::zeroed();
            tm.tm_year = y - 1900;
            tm.tm_mon = m as i32 - 1;
            tm.tm_mday = d as i32;
            tm.tm_isdst = -1;
            libc::mktime(&mut tm)
        };
        (t != -1).then_some(t as i64)
    }
    #[cfg(not(target_os = "linux"))]
    {
        // Days from civil, after Howard Hinnant's algorithm.
        let y = if m <= 2 { y - 1 } else { y } as i64;
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m as i64 + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some((era * 146_097 + doe - 719_468) * 86_400)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_file_reads_its_bytes_and_gives_memory_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let bytes: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let map = map(&File::open(&path).unwrap()).unwrap();
        assert_eq!(&map[..], &bytes[..]);
        release(&map, 4096..12_288);
        // Read again from the file once given back.
        assert_eq!(&map[..], &bytes[..]);
        // A range past the end is left alone.
        release(&map, 0..30_000);
        assert_eq!(map.len(), bytes.len());
    }

    #[test]
    fn an_empty_file_maps_to_no_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty");
        std::fs::write(&path, b"").unwrap();
        assert!(map(&File::open(&path).unwrap()).unwrap().is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_machine_has_memory() {
        let m = memory().unwrap();
        assert!(m >= 64 << 20, "{m}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn midnight_of_a_day_is_a_day_after_the_one_before() {
        let a = local_midnight(2024, 2, 28).unwrap();
        let b = local_midnight(2024, 2, 29).unwrap();
        let c = local_midnight(2024, 3, 1).unwrap();
        // A day, give or take a change of clocks.
        for (x, y) in [(a, b), (b, c)] {
            assert!((82_800..=90_000).contains(&(y - x)), "{x} {y}");
        }
    }
}
