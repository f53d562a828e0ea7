//! The cache's small records (keys, what an entry says of its input,
//! blocks' heads, reports, section tables) as postcard: serde's derive
//! says what is written, postcard writes it (LEB128 numbers, strings
//! length-first, one byte for a bool or an option), so that a field added
//! to a record is one line, not an encoder and a decoder kept in step.
//! What is read must be the whole of its bytes.

use serde::{Deserialize, Serialize};

use super::papers::Bad;

/// `value` as postcard.
pub(super) fn encode<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    // Writing to a `Vec` fails only when serde's derive is told to fail
    // (a map of unknown length, a custom error), which none of ours does.
    postcard::to_stdvec(value).unwrap_or_default()
}

/// A `T` read from the whole of `bytes`: bytes left over are an error too.
pub(super) fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, Bad> {
    match postcard::take_from_bytes(bytes) {
        Ok((value, [])) => Ok(value),
        _ => Err(Bad),
    }
}

/// A `T` read from the start of `bytes`, and the bytes after it.
pub(super) fn decode_head<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<(T, &'a [u8]), Bad> {
    postcard::take_from_bytes(bytes).map_err(|_| Bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Sample<'a> {
        n: u64,
        flag: bool,
        name: &'a str,
        pairs: Option<Vec<(u64, u64)>>,
    }

    #[test]
    fn a_record_reads_back_whole_and_nothing_else_does() {
        let s = Sample {
            n: 300,
            flag: true,
            name: "é",
            pairs: Some(vec![(1, u64::MAX)]),
        };
        let bytes = encode(&s);
        assert_eq!(decode::<Sample>(&bytes), Ok(s));
        for cut in 0..bytes.len() {
            assert_eq!(decode::<Sample>(&bytes[..cut]), Err(Bad), "{cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode::<Sample>(&longer), Err(Bad));
        let (head, rest) = decode_head::<Sample>(&longer).unwrap();
        assert_eq!((head.n, rest), (300, &[0][..]));
        // A bool is 0 or 1, nothing else.
        let mut b = bytes.clone();
        b[2] = 2;
        assert_eq!(decode::<Sample>(&b), Err(Bad));
    }
}
