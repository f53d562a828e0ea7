//! A count of the work the text paths do, so that tests can hold it to a
//! bound linear in the input instead of timing anything.
//!
//! The scanning loops (markup's reader and its look-ahead, sanitizing,
//! wrapping, sentence finding, haystacks) add the bytes they go over, in
//! bulk, once per call or per search rather than per byte. Each thread
//! counts on its own (the readers and the search run on several); [`total`]
//! adds up every thread's count. Only differences of totals mean anything.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Every thread's counter.
static THREADS: Mutex<Vec<Arc<AtomicU64>>> = Mutex::new(Vec::new());

thread_local! {
    static MINE: Arc<AtomicU64> = {
        let mine = Arc::new(AtomicU64::new(0));
        THREADS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::clone(&mine));
        mine
    };
}

/// Adds `n` steps to this thread's count.
#[inline]
pub fn count(n: usize) {
    // Only this thread writes its counter: a load and a store, no lock.
    let _ = MINE.try_with(|c| {
        c.store(
            c.load(Ordering::Relaxed).wrapping_add(n as u64),
            Ordering::Relaxed,
        )
    });
}

/// The steps counted so far, by every thread.
pub fn total() -> u64 {
    THREADS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|c| c.load(Ordering::Relaxed))
        .fold(0, u64::wrapping_add)
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_add_up_across_threads() {
        let before = super::total();
        super::count(5);
        std::thread::spawn(|| super::count(7)).join().unwrap();
        // Other tests count at the same time: at least ours are there.
        assert!(super::total() - before >= 12);
    }
}
