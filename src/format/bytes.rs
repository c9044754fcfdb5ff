//! Questions about all the bytes of a text, answered eight bytes at a
//! time: the formatter asks them of whole files, where a byte-by-byte loop
//! would cost as much as a step of the layout.

/// `0x01` in every byte.
const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
/// The high bit of every byte.
const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);

/// Non-zero exactly when some byte of `x` is zero (the classic test; the
/// bits it sets are not all exact, whether there is one is).
#[inline(always)]
fn zero_byte(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// True if a byte of `bytes` is flagged: `word` is non-zero for eight bytes
/// (read as one word) when one of them is, `byte` tells for one byte.
#[inline(always)]
fn any(bytes: &[u8], word: impl Fn(u64) -> u64, byte: impl Fn(u8) -> bool) -> bool {
    // Four words at a time, with one branch.
    let (blocks, rest) = bytes.as_chunks::<32>();
    for block in blocks {
        let (words, _) = block.as_chunks::<8>();
        let flagged = words
            .iter()
            .fold(0, |acc, w| acc | word(u64::from_ne_bytes(*w)));
        if flagged != 0 {
            return true;
        }
    }
    let (words, rest) = rest.as_chunks::<8>();
    words.iter().any(|w| word(u64::from_ne_bytes(*w)) != 0) || rest.iter().any(|&b| byte(b))
}

/// True if `bytes` holds one of `needles`.
pub(crate) fn contains_any<const N: usize>(bytes: &[u8], needles: [u8; N]) -> bool {
    let patterns = needles.map(|b| u64::from_ne_bytes([b; 8]));
    any(
        bytes,
        |w| patterns.iter().fold(0, |acc, &p| acc | zero_byte(w ^ p)),
        |b| needles.contains(&b),
    )
}

/// True if `bytes` are all ASCII and hold no carriage return: then each
/// byte is one grapheme cluster.
pub(crate) fn ascii_without_cr(bytes: &[u8]) -> bool {
    const CR: u64 = u64::from_ne_bytes([b'\r'; 8]);
    !any(
        bytes,
        |w| (w & HIGH) | zero_byte(w ^ CR),
        |b| !b.is_ascii() || b == b'\r',
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to a few blocks, every position of the byte looked
    /// for, and bytes next to it that must not count.
    #[test]
    fn finds_a_byte_anywhere() {
        let base: Vec<u8> = b"resource \"aws\" \"web\" { # a comment, padded to some length !"
            .iter()
            .copied()
            .cycle()
            .take(100)
            .collect();
        for len in 0..=base.len() {
            let text = &base[..len];
            assert!(!contains_any(text, [b'\t']));
            assert!(!contains_any(text, [b'\r', b'\\']));
            assert!(ascii_without_cr(text));
            for at in 0..len {
                let with = |b: u8| {
                    let mut bytes = text.to_vec();
                    bytes[at] = b;
                    bytes
                };
                assert!(contains_any(&with(b'\t'), [b'\t']), "{len} {at}");
                assert!(contains_any(&with(b'\\'), [b'\r', b'\\']), "{len} {at}");
                assert!(contains_any(&with(b'\r'), [b'\r', b'\\']), "{len} {at}");
                for bad in [b'\r', 0x80, 0xc3, 0xff] {
                    assert!(!ascii_without_cr(&with(bad)), "{len} {at} {bad}");
                }
                for near in [0x08, 0x0a, 0x0c, 0x0e, 0x5b, 0x5d, 0x7f] {
                    assert!(!contains_any(&with(near), [b'\t']), "{len} {at} {near}");
                    assert!(!contains_any(&with(near), [b'\r', b'\\']));
                    assert!(ascii_without_cr(&with(near)), "{len} {at} {near}");
                }
            }
        }
    }
}
