//! An array the search reads: its own, or a view of the bytes it was read
//! back from (a memory map of the cache, or a buffer), used where they lie
//! rather than copied. A list of millions of titles or a word index read
//! back this way costs no copy and no allocation; one that then changes is
//! copied once, at its first change.
//!
//! A view is a slice kept beside what holds its bytes (a `yoke::Yoke`):
//! reading it is a field read, as for a `Vec`, with no check on each read;
//! the bytes are checked once, when the view is made, to be aligned for
//! `T` (else they are copied).

use std::ops::{Deref, Range};
use std::sync::Arc;

use bytemuck::Pod;
use yoke::Yoke;

/// Bytes shared between threads: a memory map or a `Vec`.
pub type Shared = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// See the module's doc.
pub(in crate::search) enum Arr<T: 'static> {
    Owned(Vec<T>),
    View(Yoke<&'static [T], Shared>),
}

impl<T: 'static> Default for Arr<T> {
    fn default() -> Self {
        Arr::Owned(Vec::new())
    }
}

impl<T: Clone + 'static> Clone for Arr<T> {
    fn clone(&self) -> Self {
        match self {
            Arr::Owned(v) => Arr::Owned(v.clone()),
            Arr::View(y) => Arr::View(y.clone()),
        }
    }
}

impl<T: std::fmt::Debug + 'static> std::fmt::Debug for Arr<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: 'static> Deref for Arr<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            Arr::Owned(v) => v,
            Arr::View(y) => y.get(),
        }
    }
}

impl<T: 'static> From<Vec<T>> for Arr<T> {
    fn from(v: Vec<T>) -> Self {
        Arr::Owned(v)
    }
}

impl<T: Pod> Arr<T> {
    /// The items in `range` of `bytes`: a view where they are aligned for
    /// `T`, else a copy. `None` when the range is outside the bytes or not
    /// a whole number of items.
    pub(in crate::search) fn of_bytes(bytes: Shared, range: Range<usize>) -> Option<Arr<T>> {
        let slice = (*bytes).as_ref().get(range.clone())?;
        if !slice.len().is_multiple_of(size_of::<T>().max(1)) {
            return None;
        }
        if bytemuck::try_cast_slice::<u8, T>(slice).is_err() {
            let mut v = vec![T::zeroed(); slice.len() / size_of::<T>().max(1)];
            bytemuck::cast_slice_mut::<T, u8>(&mut v).copy_from_slice(slice);
            return Some(Arr::Owned(v));
        }
        Yoke::try_attach_to_cart(bytes, |b| {
            b.as_ref()
                .get(range)
                .and_then(|s| bytemuck::try_cast_slice::<u8, T>(s).ok())
                .ok_or(())
        })
        .ok()
        .map(Arr::View)
    }

    /// Heap bytes of its own (a view has none).
    pub(in crate::search) fn owned_bytes(&self) -> usize {
        match self {
            Arr::Owned(v) => v.capacity() * size_of::<T>(),
            Arr::View(_) => 0,
        }
    }

    /// Bytes it reads where they lie.
    pub(in crate::search) fn viewed_bytes(&self) -> usize {
        match self {
            Arr::Owned(_) => 0,
            Arr::View(y) => size_of_val(*y.get()),
        }
    }
}

impl<T: Clone + 'static> Arr<T> {
    /// The array as a `Vec` to change: copied out of the bytes first if it
    /// is a view.
    pub(in crate::search) fn vec_mut(&mut self) -> &mut Vec<T> {
        if let Arr::View(y) = self {
            *self = Arr::Owned(y.get().to_vec());
        }
        match self {
            Arr::Owned(v) => v,
            Arr::View(_) => unreachable!("made its own above"),
        }
    }

    /// How many it holds room for without growing: a view, only itself.
    pub(in crate::search) fn capacity(&self) -> usize {
        match self {
            Arr::Owned(v) => v.capacity(),
            Arr::View(y) => y.get().len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_reads_its_bytes_and_is_copied_once_changed() {
        let bytes: Shared = Arc::new(vec![1u8, 2, 3, 4, 5, 6, 7, 8]);
        let view: Arr<u8> = Arr::of_bytes(bytes.clone(), 2..6).unwrap();
        let mut copy = view.clone();
        assert!(matches!(view, Arr::View(_)));
        assert_eq!((view.viewed_bytes(), view.owned_bytes()), (4, 0));
        assert_eq!(&*view, &[3, 4, 5, 6]);
        copy.vec_mut().push(9);
        assert_eq!(&*copy, &[3, 4, 5, 6, 9]);
        assert_eq!(&*view, &[3, 4, 5, 6], "the view is as it was");
        let own: Arr<u32> = vec![7u32].into();
        assert_eq!(&*own, &[7]);
    }

    #[test]
    fn bytes_not_aligned_are_copied_and_bad_ranges_refused() {
        // A `Vec<u64>`'s bytes are aligned for `u32`; one byte on, not.
        let words: Vec<u8> = bytemuck::cast_slice(&[0x0102_0304_0506_0708u64; 3]).to_vec();
        let bytes: Shared = Arc::new(words.clone());
        let aligned: Arr<u32> = Arr::of_bytes(bytes.clone(), 0..8).unwrap();
        let expected: &[u32] = bytemuck::cast_slice(&words[..8]);
        assert_eq!(&*aligned, expected);
        let base = (*bytes).as_ref().as_ptr() as usize;
        if base.is_multiple_of(4) {
            assert!(matches!(aligned, Arr::View(_)));
            let off: Arr<u32> = Arr::of_bytes(bytes.clone(), 1..9).unwrap();
            assert!(matches!(off, Arr::Owned(_)));
            let want: Vec<u32> = words[1..9]
                .chunks(4)
                .map(|c| u32::from_ne_bytes(c.try_into().unwrap()))
                .collect();
            assert_eq!(&*off, &want[..]);
        }
        assert!(
            Arr::<u32>::of_bytes(bytes.clone(), 0..7).is_none(),
            "not whole"
        );
        assert!(
            Arr::<u32>::of_bytes(bytes, 20..28).is_none(),
            "past the end"
        );
    }
}
