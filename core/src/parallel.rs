//! Work split over the cores: a slice cut into pieces, each handled on a
//! scoped thread, the results in order. A panic in a piece is the caller's.

/// Threads worth using: the machine's cores, at least one.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `f(offset, piece)` for each `len`-long piece of `items` (the last may
/// be shorter), each on its own thread, results in piece order. A slice
/// that is one piece is handled on the caller's thread.
pub fn map_pieces<T: Sync, R: Send>(
    items: &[T],
    len: usize,
    f: impl Fn(usize, &[T]) -> R + Sync,
) -> Vec<R> {
    let len = len.max(1);
    if items.len() <= len {
        return vec![f(0, items)];
    }
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(len)
            .enumerate()
            .map(|(k, piece)| s.spawn(move || f(k * len, piece)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// [`map_pieces`] with one piece per thread (of `threads`).
pub fn map_split<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(usize, &[T]) -> R + Sync,
) -> Vec<R> {
    map_pieces(items, items.len().div_ceil(threads.max(1)), f)
}

/// Asks the OS to run the calling thread (and threads it starts) after
/// others: work that waits for what the UI and the matcher leave over
/// (the word index built, rankings sorted past their first page, papers
/// decoded from the cache). Lowered, not idle: a thread run only when
/// nothing else wants a core (SCHED_IDLE) did no better, and under
/// another program's load it could hold up the worker waiting on it for
/// a long time.
pub fn lower_priority() {
    crate::sys::lower_thread_priority();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_come_back_in_order_with_their_offsets() {
        let items: Vec<u32> = (0..1000).collect();
        let sums = map_pieces(&items, 300, |at, piece| (at, piece.iter().sum::<u32>()));
        let offsets: Vec<usize> = sums.iter().map(|&(at, _)| at).collect();
        assert_eq!(offsets, vec![0, 300, 600, 900]);
        assert_eq!(sums.iter().map(|&(_, s)| s).sum::<u32>(), 499_500);
        assert_eq!(map_split(&items, 3, |_, p| p.len()), vec![334, 334, 332]);
        assert_eq!(map_split(&[] as &[u32], 4, |_, p| p.len()), vec![0]);
    }
}
