//! Every kernel against its reference, on bytes drawn to hit the classes
//! it tells apart (and any byte besides), and for the AVX2 kernels on
//! processors that have it.

use super::*;
use proptest::prelude::*;

/// Bytes of the classes the kernels ask about, more often than chance
/// would draw them, among any others.
fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        proptest::sample::select(
            b"\"\\aAzZ09sSpPtT x1X\t\n\r\x0c\x1f\x00\x7f\x80\xff:,[]{}`@/_-".to_vec()
        ),
        any::<u8>(),
    ]
}

fn bytes<const N: usize>() -> impl Strategy<Value = [u8; N]> {
    proptest::collection::vec(byte(), N).prop_map(|v| v.try_into().unwrap())
}

#[test]
fn the_references_answer_as_their_documentation_says() {
    let mut b = [b'a'; 64];
    b[3] = b'"';
    b[63] = b'\\';
    assert_eq!(quotes_and_slashes_scalar(&b), (1 << 3, 1 << 63));
    let s: &[u8; 16] = b"a\"b\\c\x01d\x80\xffzZ09 \t\n";
    assert_eq!(
        string_stops_scalar(s),
        1 << 1 | 1 << 3 | 1 << 5 | 1 << 14 | 1 << 15
    );
    let c = classes_scalar(s);
    assert_eq!(c.lower, 1 | 1 << 2 | 1 << 4 | 1 << 6 | 1 << 9);
    assert_eq!(c.upper, 1 << 10);
    assert_eq!(c.digit, 1 << 11 | 1 << 12);
    assert_eq!(c.white, 1 << 13 | 1 << 14 | 1 << 15);
    assert_eq!(
        equal_folded_scalar(b"aAbBa...........", b'a', 0x20),
        0b1_0011
    );
    assert_eq!(equal_folded_scalar(b"aAbBa...........", b'A', 0), 0b10);
    let mut w = [b'x'; 32];
    w[0] = b'"';
    w[5] = 0x80;
    w[31] = b'\\';
    assert_eq!(quotes_and_stops_scalar(&w), (1, 1 << 5 | 1 << 31));
    assert_eq!(ascii_str(b"plain"), Some("plain"));
    assert_eq!(ascii_str("été".as_bytes()), None);
}

/// The word masks by every way of telling candidates, with and without
/// backslashes, SSE2 and AVX2 (where the processor has it) against the
/// reference.
fn check_word_masks(bytes: &[u8; 65]) {
    let block: &[u8; 64] = bytes[..64].try_into().unwrap();
    let next: &[u8; 64] = bytes[1..].try_into().unwrap();
    let pairs = [*b"ab", *b"sp", *b"at", *b"9b", *b"x1"];
    let ways = [
        Candidates::Every,
        Candidates::Firsts(b""),
        Candidates::Firsts(b"a"),
        Candidates::Firsts(b"s9z"),
        Candidates::Firsts(b"abcdefgh"),
        Candidates::Pairs(&[]),
        Candidates::Pairs(&pairs[..1]),
        Candidates::Pairs(&pairs),
    ];
    for by in ways {
        let want = word_masks_scalar::<true>(block, next, by);
        assert_eq!(
            word_masks::<true>(block, next, by),
            want,
            "{by:?} {bytes:?}"
        );
        let plain = word_masks_scalar::<false>(block, next, by);
        assert_eq!(
            word_masks::<false>(block, next, by),
            plain,
            "{by:?} {bytes:?}"
        );
        if let Some(avx2) = Avx2::detect() {
            let got = word_masks_avx2::<true>(avx2, block, next, by);
            assert_eq!(got, want, "{by:?} {bytes:?}");
            let got = word_masks_avx2::<false>(avx2, block, next, by);
            assert_eq!(got, plain, "{by:?} {bytes:?}");
        }
    }
}

#[test]
fn word_masks_of_every_ascii_byte_are_the_references() {
    let mut bytes = [0u8; 65];
    for start in 0..4u8 {
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = start.wrapping_mul(64).wrapping_add(i as u8);
        }
        check_word_masks(&bytes);
    }
}

#[test]
fn avx2_or_gives_the_same_answer_either_way() {
    let sum = |b: &[u8]| b.iter().map(|&x| u64::from(x)).sum::<u64>();
    let b: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
    assert_eq!(avx2_or(|_| sum(&b), || sum(&b)), sum(&b));
    // Where the processor has AVX2, the fast way is taken.
    let fast = avx2_or(|_| true, || false);
    assert_eq!(fast, Avx2::detect().is_some());
}

proptest! {
    #[test]
    fn quotes_and_slashes_are_the_reference(b in bytes::<64>()) {
        prop_assert_eq!(quotes_and_slashes(&b), quotes_and_slashes_scalar(&b));
    }

    #[test]
    fn string_stops_are_the_reference(b in bytes::<16>()) {
        prop_assert_eq!(string_stops(&b), string_stops_scalar(&b));
    }

    #[test]
    fn quotes_and_stops_are_the_reference(b in bytes::<32>()) {
        prop_assert_eq!(quotes_and_stops(&b), quotes_and_stops_scalar(&b));
    }

    #[test]
    fn equal_folded_is_the_reference(b in bytes::<16>(), c in byte(), fold in prop_oneof![Just(0u8), Just(0x20u8), any::<u8>()]) {
        prop_assert_eq!(equal_folded(&b, c, fold), equal_folded_scalar(&b, c, fold));
    }

    #[test]
    fn classes_are_the_reference(b in bytes::<16>()) {
        prop_assert_eq!(classes(&b), classes_scalar(&b));
    }

    #[test]
    fn word_masks_are_the_reference(b in bytes::<65>()) {
        check_word_masks(&b);
    }

    #[test]
    fn ascii_str_is_the_text_exactly_when_ascii(b in proptest::collection::vec(byte(), 0..40)) {
        let want = b.is_ascii().then(|| std::str::from_utf8(&b).unwrap());
        prop_assert_eq!(ascii_str(&b), want);
    }
}
