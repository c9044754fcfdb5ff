//! Buffers kept per thread from one file to the next.
//!
//! Lexing, parsing and formatting a file need vectors proportional to its
//! size. A tool that goes through thousands of files (`fmt -recursive`,
//! `check`) would otherwise ask the allocator for fresh memory for each,
//! and fresh memory costs page faults (zeroing whole huge pages, where the
//! system uses them). Here the vectors of a finished file are kept, emptied,
//! for the next one on the same thread. Only one vector per slot is kept,
//! and none larger than [`MAX_KEPT_BYTES`], so the memory held stays small.

use std::cell::Cell;
use std::thread::LocalKey;

/// A thread's kept vector of `T`.
pub(crate) type Slot<T> = LocalKey<Cell<Vec<T>>>;

/// Vectors whose capacity takes more bytes than this are not kept.
pub(crate) const MAX_KEPT_BYTES: usize = 16 << 20;

/// An empty vector with room for at least `capacity` items: the one kept
/// in `slot` if there is one, else a new one.
pub(crate) fn take<T: 'static>(slot: &'static Slot<T>, capacity: usize) -> Vec<T> {
    let mut buffer = slot.try_with(Cell::take).unwrap_or_default();
    buffer.reserve(capacity);
    buffer
}

/// Keeps `buffer`, emptied, for the next [`take`] on this thread (unless it
/// is too large, or smaller than the one already kept).
pub(crate) fn give_back<T: 'static>(slot: &'static Slot<T>, mut buffer: Vec<T>) {
    if buffer.capacity() == 0 || buffer.capacity() * size_of::<T>().max(1) > MAX_KEPT_BYTES {
        return;
    }
    buffer.clear();
    let _ = slot.try_with(|kept| {
        let previous = kept.take();
        kept.set(if previous.capacity() > buffer.capacity() {
            previous
        } else {
            buffer
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static NUMBERS: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    }

    #[test]
    fn a_buffer_given_back_is_taken_again_empty() {
        let mut first = take(&NUMBERS, 100);
        first.extend([1, 2, 3]);
        let ptr = first.as_ptr();
        give_back(&NUMBERS, first);
        let second = take(&NUMBERS, 50);
        assert!(second.is_empty());
        assert_eq!(second.as_ptr(), ptr, "the same allocation is reused");
        assert!(second.capacity() >= 100);
    }

    #[test]
    fn the_larger_buffer_is_kept_and_huge_ones_are_not() {
        give_back(&NUMBERS, Vec::with_capacity(10));
        give_back(&NUMBERS, Vec::with_capacity(1000));
        give_back(&NUMBERS, Vec::with_capacity(20));
        assert!(take(&NUMBERS, 0).capacity() >= 1000);
        give_back(&NUMBERS, Vec::with_capacity(MAX_KEPT_BYTES / 8 + 1));
        assert_eq!(take(&NUMBERS, 0).capacity(), 0);
    }
}
