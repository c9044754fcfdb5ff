//! The table of identifier tokens a thread has met, found by their text.
//!
//! Identifiers are a sixth of all tokens and most of them recur, within a
//! file and across the files of a project, so the tree builder shares one
//! green token per name. Looking names up is on the parser's hot path: this
//! table is open addressing with linear probing over 32-byte entries, and
//! hashes and compares names of at most [`MAX_LEN`] bytes with a few
//! overlapping word loads instead of a byte loop or a call to `memcmp`.
//!
//! An entry keeps a name of up to 16 bytes itself, and whether its token
//! is immortal: finding a name, handing out its immortal token
//! (`GreenToken::copy_immortal`), placing it in a node (the builder gives
//! the length) and dropping that node (an immortal token's entry is
//! skipped) then read nothing of the token. Taking away only the reads
//! of finishing or of dropping a node measured nothing (the next reader
//! waited on the token instead); taking them all away, parse-and-drop of a second set of files was 1–3%
//! faster (session 25 in `docs/parse-ceiling.md`).

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rowan::GreenToken;

/// Names longer than this are not looked up (they rarely recur).
pub(crate) const MAX_LEN: usize = 24;

/// How many identifier tokens a process makes immortal at most.
///
/// An identifier token is at most 48 bytes (rowan's 24-byte header: the
/// count, the kind and the length; then at most [`MAX_LEN`] bytes of
/// text), so the tokens never freed take 3 MiB at most. The whole shared
/// corpus, 2 554 files from many projects, has 11 574 distinct words of
/// at most 24 bytes (see `docs/parse-ceiling.md`).
pub(crate) const MAX_IMMORTAL: usize = 1 << 16;

/// The identifier tokens this process may still make immortal.
pub(crate) static IMMORTAL: ImmortalBudget = ImmortalBudget::new(MAX_IMMORTAL);

/// A process-wide allowance of immortal tokens (our rowan's
/// `GreenToken::new_immortal`).
///
/// Using or dropping an immortal token touches no reference count, and so
/// does no atomic operation; on x86 each of those waits for the writes
/// before it, and a parse has just written a tree. But an immortal token is
/// never freed, and a thread's identifier table is emptied when full (the
/// trees built from it may still hold its tokens), so the tokens made
/// immortal are counted here and bounded: past the allowance, identifiers
/// are counted as before.
pub(crate) struct ImmortalBudget {
    /// How many places were asked for; past `max` it also counts the
    /// asks that were refused.
    asked: AtomicUsize,
    max: usize,
}

impl ImmortalBudget {
    /// An allowance of `max` tokens.
    pub(crate) const fn new(max: usize) -> ImmortalBudget {
        ImmortalBudget {
            asked: AtomicUsize::new(0),
            max,
        }
    }

    /// Takes a place if the allowance has one left, and says whether it
    /// did. At most `max` places are handed out, whichever threads ask.
    pub(crate) fn take(&self) -> bool {
        // The load keeps the counter from growing once the allowance is
        // spent; the increment hands out each place once.
        self.asked.load(Relaxed) < self.max && self.asked.fetch_add(1, Relaxed) < self.max
    }
}

/// Identifier tokens by text.
pub(crate) struct Identifiers {
    /// Capacity a power of two; a zero tag is an empty entry.
    entries: Vec<Entry>,
    /// Entries in use.
    len: usize,
}

/// One slot: the upper bits of the name's hash (never zero when in use),
/// the name when it fits (so that finding it reads no token), whether its
/// token is immortal, and the token.
struct Entry {
    tag: u32,
    len: u8,
    immortal: bool,
    name: [u8; INLINE],
    token: Option<GreenToken>,
}

/// Names up to this length are kept in their slot.
const INLINE: usize = 16;

/// The slot count a table starts with.
const INITIAL_CAPACITY: usize = 1024;

impl Identifiers {
    /// An empty table that allocates nothing until the first insertion.
    pub(crate) const fn new() -> Identifiers {
        Identifiers {
            entries: Vec::new(),
            len: 0,
        }
    }

    /// How many identifiers the table holds.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Forgets every identifier (and frees their tokens, unless a tree
    /// still holds them).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.len = 0;
    }

    /// The token for `name` (at most [`MAX_LEN`] bytes), made by `make` and
    /// kept if the table does not have it yet.
    #[inline]
    pub(crate) fn get_or_insert(
        &mut self,
        name: &[u8],
        make: impl FnOnce() -> GreenToken,
    ) -> (GreenToken, bool) {
        debug_assert!(name.len() <= MAX_LEN);
        if self.entries.is_empty() {
            self.entries.resize_with(INITIAL_CAPACITY, Entry::empty);
        }
        let hash = hash(name);
        let tag = (hash >> 32) as u32 | 1;
        let mask = self.entries.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let entry = &self.entries[i];
            if entry.tag == 0 {
                break;
            }
            if entry.tag == tag
                && usize::from(entry.len) == name.len()
                && let Some(token) = &entry.token
                && (if name.len() <= INLINE {
                    same_bytes(&entry.name[..name.len()], name)
                } else {
                    same_bytes(token.text().as_bytes(), name)
                })
            {
                if entry.immortal {
                    // SAFETY: the token is immortal (noted when it was
                    // made), so the copy reads nothing of it.
                    return (unsafe { token.copy_immortal() }, true);
                }
                return (token.clone(), false);
            }
            i = (i + 1) & mask;
        }
        let token = make();
        let immortal = token.is_immortal();
        let mut inline = [0u8; INLINE];
        if name.len() <= INLINE {
            inline[..name.len()].copy_from_slice(name);
        }
        self.entries[i] = Entry {
            tag,
            len: name.len() as u8,
            immortal,
            name: inline,
            token: Some(token.clone()),
        };
        self.len += 1;
        if self.len * 4 > self.entries.len() * 3 {
            self.grow();
        }
        (token, immortal)
    }

    /// Doubles the capacity, moving every entry (by its stored tag and a
    /// new hash of its text).
    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.entries);
        self.entries.resize_with(old.len() * 2, Entry::empty);
        let mask = self.entries.len() - 1;
        for entry in old {
            let Some(token) = &entry.token else { continue };
            let mut i = hash(token.text().as_bytes()) as usize & mask;
            while self.entries[i].tag != 0 {
                i = (i + 1) & mask;
            }
            self.entries[i] = entry;
        }
    }
}

impl Entry {
    fn empty() -> Entry {
        Entry {
            tag: 0,
            len: 0,
            immortal: false,
            name: [0; INLINE],
            token: None,
        }
    }
}

/// The `n` bytes of `bytes` at `at` as a little-endian number (`n` ≤ 8).
#[inline]
fn word(bytes: &[u8], at: usize, n: usize) -> u64 {
    let mut buf = [0u8; 8];
    buf[..n].copy_from_slice(&bytes[at..at + n]);
    u64::from_le_bytes(buf)
}

/// Up to three words covering all of `bytes` (at most [`MAX_LEN`]),
/// overlapping when the length is not a multiple of the word size; the
/// words are a function of the bytes alone.
#[inline]
fn words(bytes: &[u8]) -> (u64, u64, u64) {
    let n = bytes.len();
    if n >= 8 {
        let middle = if n > 16 { word(bytes, 8, 8) } else { 0 };
        (word(bytes, 0, 8), middle, word(bytes, n - 8, 8))
    } else if n >= 4 {
        (word(bytes, 0, 4), 0, word(bytes, n - 4, 4))
    } else if n > 0 {
        let small =
            u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16;
        (small, 0, 0)
    } else {
        (0, 0, 0)
    }
}

/// The high and low halves of the full product, folded together.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    (full as u64) ^ ((full >> 64) as u64)
}

/// A hash of a name of at most [`MAX_LEN`] bytes.
#[inline]
fn hash(bytes: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x243f_6a88_85a3_08d3,
        0x1319_8a2e_0370_7344,
        0xa409_3822_299f_31d0,
        0x082e_fa98_ec4e_6c89,
    ];
    let (first, middle, last) = words(bytes);
    folded_multiply(first ^ K[0], last ^ K[1] ^ bytes.len() as u64)
        ^ folded_multiply(middle ^ K[2], K[3])
}

/// `a == b`, for names of at most [`MAX_LEN`] bytes, by words.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && words(a) == words(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SyntaxKind;

    fn ident(text: &str) -> GreenToken {
        GreenToken::new_shared(SyntaxKind::IDENT.into(), text)
    }

    #[test]
    fn the_immortal_budget_is_exact() {
        let budget = ImmortalBudget::new(3);
        let taken: Vec<bool> = (0..5).map(|_| budget.take()).collect();
        assert_eq!(taken, [true, true, true, false, false]);
        let budget = ImmortalBudget::new(0);
        assert!(!budget.take());
        // Threads racing for the last places: exactly `max` win.
        let budget = ImmortalBudget::new(50);
        let won: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|_| {
                    let budget = &budget;
                    scope.spawn(move || (0..100).filter(|_| budget.take()).count())
                })
                .collect();
            workers.into_iter().map(|w| w.join().expect("worker")).sum()
        });
        assert_eq!(won, 50);
    }

    #[test]
    fn words_see_every_byte() {
        // Two names that differ in any one byte have different words.
        for n in 1..=MAX_LEN {
            let base = vec![b'a'; n];
            for at in 0..n {
                let mut other = base.clone();
                other[at] = b'b';
                assert!(!same_bytes(&base, &other), "length {n}, byte {at}");
                assert!(same_bytes(&other, &other.clone()));
            }
        }
        assert!(!same_bytes(b"ab", b"abc"));
        assert!(same_bytes(b"", b""));
    }

    #[test]
    fn finds_what_it_kept() {
        let mut table = Identifiers::new();
        let names: Vec<String> = (0..10_000).map(|i| format!("name_{i}")).collect();
        for name in &names {
            let token = table.get_or_insert(name.as_bytes(), || ident(name)).0;
            assert_eq!(token.text(), name);
        }
        assert_eq!(table.len(), names.len());
        for name in &names {
            let token = table
                .get_or_insert(name.as_bytes(), || panic!("{name} was kept"))
                .0;
            assert_eq!(token.text(), name);
        }
        table.clear();
        assert_eq!(table.len(), 0);
        let token = table.get_or_insert(b"name_1", || ident("name_1")).0;
        assert_eq!(token.text(), "name_1");
    }

    #[test]
    fn the_table_says_which_tokens_are_immortal() {
        let mut table = Identifiers::new();
        let immortal = |name: &str| GreenToken::new_immortal(SyntaxKind::IDENT.into(), name);
        // Short names are kept in their slot, longer ones compared with
        // their token's text: both kinds, immortal or not.
        for name in [
            "short",
            "exactly_16_bytes",
            "seventeen_bytes_x",
            "twenty_three_bytes_long",
        ] {
            assert!(name.len() < MAX_LEN);
            let (token, is_immortal) = table.get_or_insert(name.as_bytes(), || immortal(name));
            assert!(is_immortal && token.is_immortal(), "{name}");
            let (again, is_immortal) =
                table.get_or_insert(name.as_bytes(), || panic!("{name} was kept"));
            assert!(is_immortal, "{name}");
            assert_eq!(again.text(), name);
            let counted = format!("{name}_");
            let (_, is_immortal) = table.get_or_insert(counted.as_bytes(), || ident(&counted));
            assert!(!is_immortal, "{counted}");
            let (again, is_immortal) =
                table.get_or_insert(counted.as_bytes(), || panic!("{counted} was kept"));
            assert!(!is_immortal && !again.is_immortal());
            assert_eq!(again.text(), counted);
        }
        // Long names alike in their first 16 bytes stay apart.
        let a = "abcdefghijklmnop_one";
        let b = "abcdefghijklmnop_two";
        table.get_or_insert(a.as_bytes(), || ident(a));
        let (token, _) = table.get_or_insert(b.as_bytes(), || ident(b));
        assert_eq!(token.text(), b);
        let (token, _) = table.get_or_insert(a.as_bytes(), || panic!("kept"));
        assert_eq!(token.text(), a);
    }

    #[test]
    fn names_that_share_words_stay_apart() {
        // Same first and last word, different middle; same bytes at the
        // probes of short names.
        let mut table = Identifiers::new();
        let names = [
            "abcdefgh_middle1_stuvwxyz",
            "abcdefgh_middle2_stuvwxyz",
            "abcdefghstuvwxyz",
            "abcdefgh",
            "aXc",
            "abc",
            "a",
            "",
        ];
        for name in names {
            let name = &name[..name.len().min(MAX_LEN)];
            table.get_or_insert(name.as_bytes(), || ident(name));
        }
        for name in names {
            let name = &name[..name.len().min(MAX_LEN)];
            let token = table
                .get_or_insert(name.as_bytes(), || panic!("{name} was kept"))
                .0;
            assert_eq!(token.text(), name);
        }
    }
}
