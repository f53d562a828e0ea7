//! The vector kernels: classes of bytes (quotes, backslashes, control
//! characters, letters, digits, white space) told apart sixteen, thirty-two
//! or sixty-four bytes at a time, each a mask with a bit per byte.
//!
//! Reading JSON, cutting abstracts into words and scoring titles all spend
//! most of their time asking such questions of every byte; asked a byte at
//! a time they were each the largest part of loading or of a keystroke
//! (docs/PERFORMANCE.md). The vector code lives here and nowhere else, so
//! that the only `unsafe` it needs (entering a function compiled for a
//! processor feature) sits in one file, each kernel beside the plain code
//! it must equal, and the tests below hold every kernel to that reference
//! on any bytes.
//!
//! On x86-64 the kernels use SSE2 (part of every x86-64 processor), and
//! AVX2 where [`Avx2::detect`] finds it; elsewhere the references
//! themselves are the kernels. Loads go through `bytemuck::cast` of a
//! fixed-size array: no pointer is read, so the bytes read are the array's
//! by construction.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_max_epu8,
    _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm256_and_si256,
    _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    _mm256_setzero_si256,
};

/// Proof that the processor has AVX2 and POPCNT: made only by
/// [`Avx2::detect`], and taken by the kernels that use them.
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

impl Avx2 {
    /// The proof, where the processor has both (asked once, then
    /// remembered by the standard library).
    #[inline]
    pub fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            return Some(Avx2(()));
        }
        None
    }
}

/// `fast` compiled for AVX2 and POPCNT where the processor has them (the
/// compiler then makes its loops twice as wide, and counts bits in one
/// instruction), else `slow`. Both must give the same answer; `fast` is
/// inlined into a function compiled for AVX2, and whatever it calls that
/// is `#[inline(always)]` with it.
#[inline(always)]
pub fn avx2_or<R>(fast: impl FnOnce(Avx2) -> R, slow: impl FnOnce() -> R) -> R {
    match Avx2::detect() {
        Some(avx2) => with_avx2(avx2, fast),
        None => slow(),
    }
}

/// `f` compiled for AVX2 and POPCNT, which `avx2` proves the processor
/// has (as [`avx2_or`], for a caller that holds the proof).
#[inline(always)]
pub fn with_avx2<R>(avx2: Avx2, f: impl FnOnce(Avx2) -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `avx2` proves the processor has AVX2 and POPCNT, all
        // that `in_avx2` is compiled for.
        unsafe { in_avx2(avx2, f) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    f(avx2)
}

/// `f`, compiled for AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn in_avx2<R>(avx2: Avx2, f: impl FnOnce(Avx2) -> R) -> R {
    f(avx2)
}

/// Asks the processor to start fetching the cache line of `p`; only a
/// hint, which reads nothing the program sees.
#[inline(always)]
pub fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE, all that `prefetch_sse` is compiled for, is part of
    // every x86-64 processor.
    unsafe {
        prefetch_sse(p)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse")]
#[inline]
fn prefetch_sse<T>(p: &T) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    _mm_prefetch::<_MM_HINT_T0>((p as *const T).cast());
}

/// `bytes` as text, when they are ASCII (and so UTF-8): told a word at a
/// time, where checking them as UTF-8 took more than twice the
/// instructions on the short strings of a cache, a title or an abstract.
#[inline]
pub fn ascii_str(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes, just checked, are UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        None
    }
}

/// A bit per byte of the sixteen that `f` holds for.
#[inline]
fn bits16(b: &[u8; 16], f: impl Fn(u8) -> bool) -> u32 {
    b.iter()
        .enumerate()
        .fold(0, |m, (k, &c)| m | (u32::from(f(c)) << k))
}

/// A bit per byte of the sixty-four that `f` holds for.
#[inline]
fn bits64(b: &[u8; 64], f: impl Fn(u8) -> bool) -> u64 {
    b.iter()
        .enumerate()
        .fold(0, |m, (k, &c)| m | (u64::from(f(c)) << k))
}

/// The sixteen bytes of `b` from `16 * k`, as one vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn load16<const N: usize>(b: &[u8; N], k: usize) -> __m128i {
    let mut v = [0u8; 16];
    v.copy_from_slice(&b[16 * k..16 * k + 16]);
    bytemuck::cast(v)
}

/// The thirty-two bytes of `b` from `32 * k`, as one vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn load32<const N: usize>(b: &[u8; N], k: usize) -> __m256i {
    let mut v = [0u8; 32];
    v.copy_from_slice(&b[32 * k..32 * k + 32]);
    bytemuck::cast(v)
}

/// A vector's sign bits, a bit a byte.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn mask16(v: __m128i) -> u32 {
    _mm_movemask_epi8(v) as u32 & 0xffff
}

/// Calls a kernel compiled for SSE2 from code that is not: `$call` is a
/// call to a function with `#[target_feature(enable = "sse2")]`.
#[cfg(target_arch = "x86_64")]
macro_rules! sse2 {
    ($call:expr) => {
        // SAFETY: SSE2, all that the function called is compiled for, is
        // part of every x86-64 processor (the target's baseline).
        unsafe { $call }
    };
}

/// The quotes and the backslashes of the 64 bytes `b`, a bit a byte
/// (finding where a JSON string ends).
#[inline]
pub fn quotes_and_slashes(b: &[u8; 64]) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    return sse2!(quotes_and_slashes_sse2(b));
    #[cfg(not(target_arch = "x86_64"))]
    quotes_and_slashes_scalar(b)
}

/// [`quotes_and_slashes`] a byte at a time: its reference.
pub fn quotes_and_slashes_scalar(b: &[u8; 64]) -> (u64, u64) {
    (bits64(b, |c| c == b'"'), bits64(b, |c| c == b'\\'))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn quotes_and_slashes_sse2(b: &[u8; 64]) -> (u64, u64) {
    let (quote, slash) = (_mm_set1_epi8(b'"' as i8), _mm_set1_epi8(b'\\' as i8));
    let (mut quotes, mut slashes) = (0u64, 0u64);
    for k in 0..4 {
        let v = load16(b, k);
        quotes |= u64::from(mask16(_mm_cmpeq_epi8(v, quote))) << (16 * k);
        slashes |= u64::from(mask16(_mm_cmpeq_epi8(v, slash))) << (16 * k);
    }
    (quotes, slashes)
}

/// For the 16 bytes `b`: a bit per quote, backslash or control character
/// (below 0x20; bytes past ASCII are none): where a plain JSON string
/// ends or stops being plain.
#[inline]
pub fn string_stops(b: &[u8; 16]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    return sse2!(string_stops_sse2(b));
    #[cfg(not(target_arch = "x86_64"))]
    string_stops_scalar(b)
}

/// [`string_stops`] a byte at a time: its reference.
pub fn string_stops_scalar(b: &[u8; 16]) -> u32 {
    bits16(b, |c| c == b'"' || c == b'\\' || c < 0x20)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn string_stops_sse2(b: &[u8; 16]) -> u32 {
    let v = load16(b, 0);
    // Unsigned: a byte is a control character when the larger of it and
    // 0x1F is 0x1F.
    let low = _mm_set1_epi8(0x1F);
    let control = _mm_cmpeq_epi8(_mm_max_epu8(v, low), low);
    let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
    let slash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
    mask16(_mm_or_si128(_mm_or_si128(quote, slash), control))
}

/// For the 32 bytes `w`: a bit per quote, and a bit per byte that no
/// plain ASCII string holds as it is (a backslash, a control character, a
/// byte past ASCII).
#[inline]
pub fn quotes_and_stops(w: &[u8; 32]) -> (u32, u32) {
    #[cfg(target_arch = "x86_64")]
    return sse2!(quotes_and_stops_sse2(w));
    #[cfg(not(target_arch = "x86_64"))]
    quotes_and_stops_scalar(w)
}

/// [`quotes_and_stops`] a byte at a time: its reference.
pub fn quotes_and_stops_scalar(w: &[u8; 32]) -> (u32, u32) {
    let bits = |f: fn(u8) -> bool| (0..32).fold(0u32, |m, k| m | (u32::from(f(w[k])) << k));
    (
        bits(|c| c == b'"'),
        bits(|c| c == b'\\' || !(0x20..0x80).contains(&c)),
    )
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn quotes_and_stops_sse2(w: &[u8; 32]) -> (u32, u32) {
    let (mut quotes, mut stops) = (0u32, 0u32);
    for k in 0..2 {
        let v = load16(w, k);
        // Signed: bytes past ASCII are below 0x20 too.
        let stop = _mm_or_si128(
            _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)),
            _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
        );
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        quotes |= mask16(quote) << (16 * k);
        stops |= mask16(stop) << (16 * k);
    }
    (quotes, stops)
}

/// A bit per byte `x` of the 16 bytes `b` where `x | fold == c`: with
/// `fold` 0x20 and `c` a lower-case letter, the places of that letter in
/// either case.
#[inline]
pub fn equal_folded(b: &[u8; 16], c: u8, fold: u8) -> u32 {
    #[cfg(target_arch = "x86_64")]
    return sse2!(equal_folded_sse2(b, c, fold));
    #[cfg(not(target_arch = "x86_64"))]
    equal_folded_scalar(b, c, fold)
}

/// [`equal_folded`] a byte at a time: its reference.
pub fn equal_folded_scalar(b: &[u8; 16], c: u8, fold: u8) -> u32 {
    bits16(b, |x| x | fold == c)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn equal_folded_sse2(b: &[u8; 16], c: u8, fold: u8) -> u32 {
    let v = _mm_or_si128(load16(b, 0), _mm_set1_epi8(fold as i8));
    mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)))
}

/// The classes of sixteen bytes that title scoring asks about, a bit a
/// byte: ASCII lower-case and upper-case letters, digits, and white space
/// as nucleo classes it (space, tab, line feed, form feed, carriage
/// return).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classes {
    pub lower: u32,
    pub upper: u32,
    pub digit: u32,
    pub white: u32,
}

/// The [`Classes`] of the 16 bytes `b`.
#[inline]
pub fn classes(b: &[u8; 16]) -> Classes {
    #[cfg(target_arch = "x86_64")]
    return sse2!(classes_sse2(b));
    #[cfg(not(target_arch = "x86_64"))]
    classes_scalar(b)
}

/// [`classes`] a byte at a time: its reference.
pub fn classes_scalar(b: &[u8; 16]) -> Classes {
    Classes {
        lower: bits16(b, |c| c.is_ascii_lowercase()),
        upper: bits16(b, |c| c.is_ascii_uppercase()),
        digit: bits16(b, |c| c.is_ascii_digit()),
        white: bits16(b, |c| matches!(c, b' ' | b'\t' | b'\n' | 0x0C | b'\r')),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn classes_sse2(b: &[u8; 16]) -> Classes {
    let v = load16(b, 0);
    // Signed: bytes past ASCII are below every bound, in no range.
    let range = |lo: u8, hi: u8| {
        let above = _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1));
        let below = _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1));
        mask16(_mm_and_si128(above, below))
    };
    let eq = |c: u8| mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
    Classes {
        lower: range(b'a', b'z'),
        upper: range(b'A', b'Z'),
        digit: range(b'0', b'9'),
        white: eq(b' ') | eq(b'\t') | eq(b'\n') | eq(0x0C) | eq(b'\r'),
    }
}

/// Which word starts of a block are candidates, to be checked one by one:
/// every one, those that are one of these bytes (lower-case letters or
/// digits) whatever their case, or those that are a pair's first byte
/// followed by its second, whatever their case.
#[derive(Clone, Copy, Debug)]
pub enum Candidates<'a> {
    Every,
    Firsts(&'a [u8]),
    Pairs(&'a [[u8; 2]]),
}

/// For 64 bytes `block`, and `next`, the 64 bytes one on from them: a
/// bit per byte that is an ASCII letter or digit, a bit per byte that
/// `by` makes a candidate, and (when `SLASHES`) a bit per backslash.
#[inline]
pub fn word_masks<const SLASHES: bool>(
    block: &[u8; 64],
    next: &[u8; 64],
    by: Candidates<'_>,
) -> (u64, u64, u64) {
    #[cfg(target_arch = "x86_64")]
    return sse2!(word_masks_sse2::<SLASHES>(block, next, by));
    #[cfg(not(target_arch = "x86_64"))]
    word_masks_scalar::<SLASHES>(block, next, by)
}

/// [`word_masks`] a byte at a time: its reference.
pub fn word_masks_scalar<const SLASHES: bool>(
    block: &[u8; 64],
    next: &[u8; 64],
    by: Candidates<'_>,
) -> (u64, u64, u64) {
    let (mut alnum, mut candidate, mut slashes) = (0u64, 0u64, 0u64);
    for (i, (&b, &n)) in block.iter().zip(next).enumerate() {
        alnum |= u64::from(b.is_ascii_alphanumeric()) << i;
        slashes |= u64::from(SLASHES && b == b'\\') << i;
        let is = match by {
            Candidates::Every => true,
            Candidates::Firsts(firsts) => firsts.contains(&(b | 0x20)),
            Candidates::Pairs(pairs) => pairs.contains(&[b | 0x20, n | 0x20]),
        };
        candidate |= u64::from(is) << i;
    }
    (alnum, candidate, slashes)
}

/// [`word_masks`] sixteen bytes at a time. SSE2's comparisons are signed:
/// bytes past ASCII fall below every bound, as they are no letter or
/// digit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn word_masks_sse2<const SLASHES: bool>(
    block: &[u8; 64],
    next: &[u8; 64],
    by: Candidates<'_>,
) -> (u64, u64, u64) {
    let splat = |b: u8| _mm_set1_epi8(b as i8);
    let (mut alnum, mut candidate, mut slashes) = (0u64, 0u64, 0u64);
    for k in 0..4 {
        let (v, n) = (load16(block, k), load16(next, k));
        let lower = _mm_or_si128(v, splat(0x20));
        let letter = _mm_and_si128(
            _mm_cmpgt_epi8(lower, splat(b'a' - 1)),
            _mm_cmpgt_epi8(splat(b'z' + 1), lower),
        );
        let digit = _mm_and_si128(
            _mm_cmpgt_epi8(v, splat(b'0' - 1)),
            _mm_cmpgt_epi8(splat(b'9' + 1), v),
        );
        let hit = match by {
            Candidates::Every => splat(0xff),
            Candidates::Firsts(firsts) => firsts.iter().fold(_mm_setzero_si128(), |m, &c| {
                _mm_or_si128(m, _mm_cmpeq_epi8(lower, splat(c)))
            }),
            Candidates::Pairs(pairs) => {
                let second = _mm_or_si128(n, splat(0x20));
                pairs.iter().fold(_mm_setzero_si128(), |m, &[a, b]| {
                    let both = _mm_and_si128(
                        _mm_cmpeq_epi8(lower, splat(a)),
                        _mm_cmpeq_epi8(second, splat(b)),
                    );
                    _mm_or_si128(m, both)
                })
            }
        };
        let bits = |x: __m128i| u64::from(mask16(x)) << (16 * k);
        alnum |= bits(_mm_or_si128(letter, digit));
        candidate |= bits(hit);
        if SLASHES {
            slashes |= bits(_mm_cmpeq_epi8(v, splat(b'\\')));
        }
    }
    (alnum, candidate, slashes)
}

/// [`word_masks`] thirty-two bytes at a time, given the proof that the
/// processor can.
#[inline(always)]
pub fn word_masks_avx2<const SLASHES: bool>(
    avx2: Avx2,
    block: &[u8; 64],
    next: &[u8; 64],
    by: Candidates<'_>,
) -> (u64, u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let _ = avx2;
        // SAFETY: `avx2` proves the processor has AVX2.
        unsafe { word_masks_in_avx2::<SLASHES>(block, next, by) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = avx2;
        word_masks_scalar::<SLASHES>(block, next, by)
    }
}

/// `x`, which the compiler cannot see into. A mask of 64 bits made of
/// two 32-bit vector masks is otherwise taken for a vector of 64 bits,
/// and shifting it by one (as word starts are found) became a vector
/// shuffle done bit by bit, slower than SSE2's masks.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn opaque(mut x: u64) -> u64 {
    // SAFETY: an empty instruction sequence, which reads and writes
    // nothing but the register holding `x`.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags))
    };
    x
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn word_masks_in_avx2<const SLASHES: bool>(
    block: &[u8; 64],
    next: &[u8; 64],
    by: Candidates<'_>,
) -> (u64, u64, u64) {
    let splat = |b: u8| _mm256_set1_epi8(b as i8);
    let (mut alnum, mut candidate, mut slashes) = (0u64, 0u64, 0u64);
    for k in 0..2 {
        let (v, n) = (load32(block, k), load32(next, k));
        let lower = _mm256_or_si256(v, splat(0x20));
        let letter = _mm256_and_si256(
            _mm256_cmpgt_epi8(lower, splat(b'a' - 1)),
            _mm256_cmpgt_epi8(splat(b'z' + 1), lower),
        );
        let digit = _mm256_and_si256(
            _mm256_cmpgt_epi8(v, splat(b'0' - 1)),
            _mm256_cmpgt_epi8(splat(b'9' + 1), v),
        );
        let hit = match by {
            Candidates::Every => splat(0xff),
            Candidates::Firsts(firsts) => firsts.iter().fold(_mm256_setzero_si256(), |m, &c| {
                _mm256_or_si256(m, _mm256_cmpeq_epi8(lower, splat(c)))
            }),
            Candidates::Pairs(pairs) => {
                let second = _mm256_or_si256(n, splat(0x20));
                pairs.iter().fold(_mm256_setzero_si256(), |m, &[a, b]| {
                    let both = _mm256_and_si256(
                        _mm256_cmpeq_epi8(lower, splat(a)),
                        _mm256_cmpeq_epi8(second, splat(b)),
                    );
                    _mm256_or_si256(m, both)
                })
            }
        };
        let bits = |x: __m256i| opaque(u64::from(_mm256_movemask_epi8(x) as u32)) << (32 * k);
        alnum |= bits(_mm256_or_si256(letter, digit));
        candidate |= bits(hit);
        if SLASHES {
            slashes |= bits(_mm256_cmpeq_epi8(v, splat(b'\\')));
        }
    }
    (alnum, candidate, slashes)
}

#[cfg(test)]
mod tests;
