//! Runs of bytes of one class, measured many bytes at a time.
//!
//! Identifiers and whitespace are the most frequent tokens; a byte-by-byte
//! loop pays a mispredicted branch at the end of nearly every run, since
//! run lengths vary. Here a run is read off a bit mask of the bytes in the
//! class: [`Classes`] keeps the identifier and space masks of a 64-byte
//! block (computed with SSE2, part of every x86-64 CPU, or AVX2 where the
//! CPU has it), and template text, comments and the like are scanned 16
//! bytes at a time. Other targets build the same masks with a plain loop,
//! as do the last bytes of the text.

/// Identifier and whitespace bytes of a text as bit masks, one 64-byte
/// block at a time.
///
/// The lexer's main loop measures a run of identifier bytes or of spaces
/// from its start with a shift and a count of trailing zeros over the
/// masks of the block, which were computed once for the block, off the
/// chain of dependent steps from one token to the next.
pub(super) struct Classes<'a> {
    src: &'a [u8],
    /// Start of the block the masks describe (`usize::MAX`: none yet).
    base: usize,
    /// Bit `i` set: `src[base + i]` continues an ASCII identifier.
    ident: u64,
    /// Bit `i` set: `src[base + i]` is a space or a tab.
    space: u64,
    /// True if the CPU has AVX2 (32 bytes at a time), checked once.
    #[cfg(target_arch = "x86_64")]
    wide: bool,
}

impl<'a> Classes<'a> {
    /// Masks over `src`, computed as the blocks are reached.
    pub(super) fn new(src: &'a [u8]) -> Classes<'a> {
        Classes {
            src,
            base: usize::MAX,
            ident: 0,
            space: 0,
            #[cfg(target_arch = "x86_64")]
            wide: std::arch::is_x86_feature_detected!("avx2"),
        }
    }

    /// Number of identifier bytes from `pos` on.
    #[inline]
    pub(super) fn ident_run(&mut self, pos: usize) -> usize {
        self.run(pos, |c| c.ident)
    }

    /// Number of spaces and tabs from `pos` on.
    #[inline]
    pub(super) fn space_run(&mut self, pos: usize) -> usize {
        self.run(pos, |c| c.space)
    }

    #[inline]
    fn run(&mut self, pos: usize, mask: impl Fn(&Self) -> u64) -> usize {
        let mut at = pos;
        loop {
            let base = at & !63;
            if base != self.base {
                self.load(base);
            }
            let offset = at - base;
            // Bits past the block shift in as zeros, so the count stops at
            // the block's end at the latest.
            let run = (!(mask(self) >> offset)).trailing_zeros() as usize;
            at += run;
            // Past the text, the masks are zero: the run ends there.
            if offset + run < 64 {
                return at - pos;
            }
        }
    }

    /// Computes the masks of the block at `base` (bytes past the end of
    /// the text belong to no class).
    #[inline(never)]
    fn load(&mut self, base: usize) {
        let mut padded = [0u8; 64];
        let block: &[u8; 64] = match self.src.get(base..).and_then(|b| b.first_chunk::<64>()) {
            Some(block) => block,
            None => {
                let bytes = self.src.get(base..).unwrap_or_default();
                padded[..bytes.len()].copy_from_slice(bytes);
                &padded
            }
        };
        #[cfg(target_arch = "x86_64")]
        let (ident, space) = if self.wide {
            // SAFETY: the CPU has AVX2 (checked in `new`).
            unsafe { simd::block_masks_avx2(block) }
        } else {
            block_masks(block)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let (ident, space) = block_masks(block);
        self.base = base;
        self.ident = ident;
        self.space = space;
    }
}

/// The identifier and space masks of 64 bytes, 16 at a time.
fn block_masks(block: &[u8; 64]) -> (u64, u64) {
    let (mut ident, mut space) = (0u64, 0u64);
    for (i, chunk) in block.chunks_exact(16).enumerate() {
        let chunk: &[u8; 16] = chunk.try_into().expect("16-byte chunks");
        let (id, sp) = chunk_masks(chunk);
        ident |= u64::from(id) << (16 * i);
        space |= u64::from(sp) << (16 * i);
    }
    (ident, space)
}

/// The identifier and space masks of 16 bytes.
#[inline]
fn chunk_masks(chunk: &[u8; 16]) -> (u32, u32) {
    (masks::ident_mask(chunk), masks::space_mask(chunk))
}

/// Number of bytes at the start of `bytes` that continue an ASCII
/// identifier: letters, digits, `_` and `-`.
#[inline]
pub(super) fn ident_run(bytes: &[u8]) -> usize {
    run(bytes, masks::ident_mask, is_ident_byte)
}

/// Number of bytes at the start of `bytes` that are plain template text:
/// anything but `"`, `\\`, `$`, `%`, a newline or a carriage return.
#[inline]
pub(super) fn literal_run(bytes: &[u8]) -> usize {
    run(bytes, masks::literal_mask, is_literal_byte)
}

/// Number of bytes at the start of `bytes` before the first newline (all
/// of them if there is none).
#[inline]
pub(super) fn line_run(bytes: &[u8]) -> usize {
    run(
        bytes,
        |chunk| !masks::newline_mask(chunk) & 0xFFFF,
        |b| b != b'\n',
    )
}

/// Number of bytes at the start of `bytes` before the first `*` (all of
/// them if there is none).
#[inline]
pub(super) fn star_run(bytes: &[u8]) -> usize {
    run(
        bytes,
        |chunk| !masks::star_mask(chunk) & 0xFFFF,
        |b| b != b'*',
    )
}

/// Number of bytes at the start of `bytes` in a class: `mask` gives the
/// class of 16 bytes as bits, `in_class` of one byte (for the last bytes).
#[inline]
fn run(bytes: &[u8], mask: impl Fn(&[u8; 16]) -> u32, in_class: impl Fn(u8) -> bool) -> usize {
    let mut n = 0;
    while let Some(chunk) = bytes[n..].first_chunk::<16>() {
        let bits = mask(chunk);
        if bits != 0xFFFF {
            return n + (!bits).trailing_zeros() as usize;
        }
        n += 16;
    }
    n + bytes[n..]
        .iter()
        .position(|&b| !in_class(b))
        .unwrap_or(bytes.len() - n)
}

/// True for bytes that cannot end a run of template text.
#[inline]
fn is_literal_byte(b: u8) -> bool {
    !matches!(b, b'"' | b'\\' | b'$' | b'%' | b'\n' | b'\r')
}

/// True for the ASCII bytes that continue an identifier.
#[inline]
pub(super) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

#[cfg(target_arch = "x86_64")]
use simd as masks;

#[cfg(not(target_arch = "x86_64"))]
use portable as masks;

/// The masks with a loop, where there is no SIMD code for the target
/// (compiled everywhere, so that tests compare it with the SIMD code).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
    use super::{is_ident_byte, is_literal_byte};

    fn mask(chunk: &[u8; 16], in_class: impl Fn(u8) -> bool) -> u32 {
        chunk
            .iter()
            .enumerate()
            .fold(0, |bits, (i, &b)| bits | u32::from(in_class(b)) << i)
    }

    pub(super) fn ident_mask(chunk: &[u8; 16]) -> u32 {
        mask(chunk, is_ident_byte)
    }

    pub(super) fn literal_mask(chunk: &[u8; 16]) -> u32 {
        mask(chunk, is_literal_byte)
    }

    pub(super) fn newline_mask(chunk: &[u8; 16]) -> u32 {
        mask(chunk, |b| b == b'\n')
    }

    pub(super) fn space_mask(chunk: &[u8; 16]) -> u32 {
        mask(chunk, |b| b == b' ' || b == b'\t')
    }

    pub(super) fn star_mask(chunk: &[u8; 16]) -> u32 {
        mask(chunk, |b| b == b'*')
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    /// Bit `i` is set when `chunk[i]` continues an ASCII identifier.
    #[inline]
    pub(super) fn ident_mask(chunk: &[u8; 16]) -> u32 {
        // SAFETY: SSE2 is available on every x86-64 CPU, and the unaligned
        // load reads exactly the 16 bytes of `chunk`.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            // Bytes >= 0x80 are negative as i8, so they fail every range.
            let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
            let letter = _mm_and_si128(
                _mm_cmpgt_epi8(lower, _mm_set1_epi8(b'a' as i8 - 1)),
                _mm_cmplt_epi8(lower, _mm_set1_epi8(b'z' as i8 + 1)),
            );
            let digit = _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(b'0' as i8 - 1)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(b'9' as i8 + 1)),
            );
            let under = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'_' as i8));
            let dash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'-' as i8));
            let any = _mm_or_si128(_mm_or_si128(letter, digit), _mm_or_si128(under, dash));
            _mm_movemask_epi8(any) as u32
        }
    }

    /// [`block_masks`](super::block_masks) with 32-byte AVX2 registers.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn block_masks_avx2(block: &[u8; 64]) -> (u64, u64) {
        let half = |v: __m256i| {
            // Bytes >= 0x80 are negative as i8, so they fail every range.
            let lower = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
            let letter = _mm256_and_si256(
                _mm256_cmpgt_epi8(lower, _mm256_set1_epi8(b'a' as i8 - 1)),
                _mm256_cmpgt_epi8(_mm256_set1_epi8(b'z' as i8 + 1), lower),
            );
            let digit = _mm256_and_si256(
                _mm256_cmpgt_epi8(v, _mm256_set1_epi8(b'0' as i8 - 1)),
                _mm256_cmpgt_epi8(_mm256_set1_epi8(b'9' as i8 + 1), v),
            );
            let under = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'_' as i8));
            let dash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'-' as i8));
            let ident =
                _mm256_or_si256(_mm256_or_si256(letter, digit), _mm256_or_si256(under, dash));
            let space = _mm256_or_si256(
                _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b' ' as i8)),
                _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\t' as i8)),
            );
            (
                u64::from(_mm256_movemask_epi8(ident) as u32),
                u64::from(_mm256_movemask_epi8(space) as u32),
            )
        };
        // SAFETY: the two unaligned loads read the 64 bytes of `block`.
        let (low, high) = unsafe {
            (
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block.as_ptr().add(32).cast()),
            )
        };
        let (ident_low, space_low) = half(low);
        let (ident_high, space_high) = half(high);
        (ident_low | ident_high << 32, space_low | space_high << 32)
    }

    /// Bit `i` is set when `chunk[i]` is plain template text.
    #[inline]
    pub(super) fn literal_mask(chunk: &[u8; 16]) -> u32 {
        // SAFETY: as in `ident_mask`.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let stop = _mm_or_si128(
                _mm_or_si128(eq(b'"'), eq(b'\\')),
                _mm_or_si128(
                    _mm_or_si128(eq(b'$'), eq(b'%')),
                    _mm_or_si128(eq(b'\n'), eq(b'\r')),
                ),
            );
            !(_mm_movemask_epi8(stop) as u32) & 0xFFFF
        }
    }

    /// Bit `i` is set when `chunk[i]` is `*`.
    #[inline]
    pub(super) fn star_mask(chunk: &[u8; 16]) -> u32 {
        // SAFETY: as in `ident_mask`.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'*' as i8))) as u32
        }
    }

    /// Bit `i` is set when `chunk[i]` is a newline.
    #[inline]
    pub(super) fn newline_mask(chunk: &[u8; 16]) -> u32 {
        // SAFETY: as in `ident_mask`.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8))) as u32
        }
    }

    /// Bit `i` is set when `chunk[i]` is a space or a tab.
    #[inline]
    pub(super) fn space_mask(chunk: &[u8; 16]) -> u32 {
        // SAFETY: as in `ident_mask`.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let space = _mm_cmpeq_epi8(v, _mm_set1_epi8(b' ' as i8));
            let tab = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\t' as i8));
            _mm_movemask_epi8(_mm_or_si128(space, tab)) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 16-byte scan agrees with a plain loop at every offset and
    /// length, whatever the bytes around the run.
    #[test]
    fn runs_match_a_plain_loop() {
        let samples: [&[u8]; 8] = [
            b"/* a ** b * c */ d * e",
            b"abc_DEF-123 xyz",
            b"a_very_long_identifier-with-dashes_and_digits_0123456789.rest",
            b"                          \t\t  \t   x",
            b"\xC3\xA9t\xC3\xA9 ident\xFF\x80zz",
            b"`@[{/:",
            b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            b"some template text with $ and % signs, \\\"quotes\" and\r\nlines\n",
        ];
        for s in samples {
            for start in 0..s.len() {
                for end in start..=s.len() {
                    let bytes = &s[start..end];
                    let ident = bytes.iter().take_while(|&&b| is_ident_byte(b)).count();
                    let literal = bytes.iter().take_while(|&&b| is_literal_byte(b)).count();
                    let line = bytes.iter().take_while(|&&b| b != b'\n').count();
                    let star = bytes.iter().take_while(|&&b| b != b'*').count();
                    assert_eq!(star_run(bytes), star, "{bytes:?}");
                    assert_eq!(ident_run(bytes), ident, "{bytes:?}");
                    assert_eq!(literal_run(bytes), literal, "{bytes:?}");
                    assert_eq!(line_run(bytes), line, "{bytes:?}");
                }
            }
        }
        for s in samples {
            for start in 0..s.len() {
                let mut classes = Classes::new(s);
                let ident = s[start..].iter().take_while(|&&b| is_ident_byte(b)).count();
                let space = s[start..]
                    .iter()
                    .take_while(|&&b| b == b' ' || b == b'\t')
                    .count();
                assert_eq!(classes.ident_run(start), ident, "{s:?} at {start}");
                assert_eq!(classes.space_run(start), space, "{s:?} at {start}");
            }
        }
        // The 32-byte path agrees with the 16-byte one on every byte value
        // at every position.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            for b in 0..=255u8 {
                for at in 0..64 {
                    let mut block = [b'a'; 64];
                    block[at] = b;
                    block[(at * 7 + 3) % 64] = 255 - b;
                    // SAFETY: the CPU has AVX2 (checked above).
                    let wide = unsafe { simd::block_masks_avx2(&block) };
                    assert_eq!(wide, block_masks(&block), "byte {b} at {at}");
                }
            }
        }
        // The SIMD masks agree with the portable ones.
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut chunk = [b'a'; 16];
                chunk[at] = b;
                chunk[(at * 5 + 2) % 16] = b' ';
                assert_eq!(masks::ident_mask(&chunk), portable::ident_mask(&chunk));
                assert_eq!(masks::space_mask(&chunk), portable::space_mask(&chunk));
                assert_eq!(masks::literal_mask(&chunk), portable::literal_mask(&chunk));
                assert_eq!(masks::newline_mask(&chunk), portable::newline_mask(&chunk));
                assert_eq!(masks::star_mask(&chunk), portable::star_mask(&chunk));
            }
        }
        // Runs across block boundaries, from every offset.
        let long: Vec<u8> = (0..300)
            .map(|i| if i % 97 == 96 { b'.' } else { b'a' })
            .collect();
        let mut classes = Classes::new(&long);
        for start in 0..long.len() {
            let expected = long[start..].iter().take_while(|&&b| b == b'a').count();
            assert_eq!(classes.ident_run(start), expected, "at {start}");
        }
        for b in 0..=255u8 {
            let bytes = [b; 40];
            let expected = if is_ident_byte(b) { 40 } else { 0 };
            assert_eq!(ident_run(&bytes), expected, "byte {b}");
            let expected = if b == b' ' || b == b'\t' { 40 } else { 0 };
            assert_eq!(Classes::new(&bytes).space_run(0), expected, "byte {b}");
            let expected = if is_literal_byte(b) { 40 } else { 0 };
            assert_eq!(literal_run(&bytes), expected, "byte {b}");
            let expected = if b == b'\n' { 0 } else { 40 };
            assert_eq!(line_run(&bytes), expected, "byte {b}");
        }
    }
}
