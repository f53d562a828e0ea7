//! An array the matcher reads: its own, or a view of bytes read back from
//! the cache (mapped), used where they lie rather than copied. A list of
//! millions of titles read back this way costs no copy and no allocation;
//! one that then changes is copied once, at its first change.

use std::ops::Deref;

use bytemuck::Pod;

use super::words::{Arr, Shared};

/// See the module's doc.
pub(super) enum Buf<T> {
    Own(Vec<T>),
    View {
        /// What the view reads: kept alive (and in place) as long as it.
        keep: Shared,
        ptr: *const T,
        len: usize,
    },
}

// SAFETY: a view only reads its bytes, which nothing changes (they are a
// read-only map or an immutable buffer) and which `keep`, itself `Send`
// and `Sync`, keeps alive.
unsafe impl<T: Send + Sync> Send for Buf<T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Send + Sync> Sync for Buf<T> {}

impl<T> Default for Buf<T> {
    fn default() -> Self {
        Buf::Own(Vec::new())
    }
}

impl<T: Clone> Clone for Buf<T> {
    fn clone(&self) -> Self {
        match self {
            Buf::Own(v) => Buf::Own(v.clone()),
            Buf::View { keep, ptr, len } => Buf::View {
                keep: keep.clone(),
                ptr: *ptr,
                len: *len,
            },
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T> Deref for Buf<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            Buf::Own(v) => v,
            // SAFETY: `ptr` and `len` were taken from a slice of `keep`'s
            // bytes (see `From<Arr<T>>`), which stay where they are and
            // unchanged while `keep` is held.
            Buf::View { ptr, len, .. } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
        }
    }
}

impl<T: Clone> Buf<T> {
    /// The array as a `Vec` to change: copied out of the bytes first if it
    /// is a view.
    pub(super) fn vec(&mut self) -> &mut Vec<T> {
        if let Buf::View { .. } = self {
            *self = Buf::Own(self.to_vec());
        }
        match self {
            Buf::Own(v) => v,
            Buf::View { .. } => unreachable!("made its own above"),
        }
    }
}

impl<T> Buf<T> {
    /// How many it holds room for without growing: a view, only itself.
    pub(super) fn capacity(&self) -> usize {
        match self {
            Buf::Own(v) => v.capacity(),
            Buf::View { len, .. } => *len,
        }
    }
}

impl<T> From<Vec<T>> for Buf<T> {
    fn from(v: Vec<T>) -> Self {
        Buf::Own(v)
    }
}

impl<T: Pod> From<Arr<T>> for Buf<T> {
    fn from(arr: Arr<T>) -> Self {
        let view = match &arr {
            Arr::View { bytes, .. } => {
                let slice = arr.as_slice();
                Some((bytes.clone(), slice.as_ptr(), slice.len()))
            }
            Arr::Owned(_) => None,
        };
        match (view, arr) {
            (Some((keep, ptr, len)), _) => Buf::View { keep, ptr, len },
            (None, Arr::Owned(v)) => Buf::Own(v),
            (None, Arr::View { .. }) => unreachable!("a view is matched above"),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn a_view_reads_its_bytes_and_is_copied_once_changed() {
        let bytes: Shared = Arc::new(vec![1u8, 2, 3, 4, 5, 6, 7, 8]);
        let view: Buf<u8> = Arr::View {
            bytes,
            start: 2,
            len: 4,
        }
        .into();
        let mut copy = view.clone();
        assert!(matches!(view, Buf::View { .. }));
        assert_eq!(&*view, &[3, 4, 5, 6]);
        copy.vec().push(9);
        assert_eq!(&*copy, &[3, 4, 5, 6, 9]);
        assert_eq!(&*view, &[3, 4, 5, 6], "the view is as it was");
        let own: Buf<u32> = vec![7u32].into();
        assert_eq!(&*own, &[7]);
    }
}
