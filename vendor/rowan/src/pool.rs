//! A per-thread cache of freed syntax nodes, by size.
//!
//! (hclwright's addition to its copy of rowan, see HCLWRIGHT.md.) Every
//! syntax node (`cursor::NodeData`) is an allocation of its own, made and
//! freed by the million in a walk: with the system allocator those calls
//! cost as much as the walk. (Green nodes and tokens were cached here
//! too, until they were carved from chunks instead: see chunk.rs.) Freed
//! blocks of up to
//! `MAX_CACHED_SIZE` bytes are kept here, one free list per size, and the
//! next tree built on the thread takes them back without calling the
//! allocator. The cache holds at most `MAX_CACHED_BYTES` per thread; past
//! that, blocks go back to the allocator, and the thread's cache is handed
//! back when the thread ends. A block freed on another thread than the one
//! that took it joins the freeing thread's cache: all blocks of a size are
//! alike.
use std::{
    alloc::{self, Layout},
    cell::UnsafeCell,
    ptr,
};

/// Every block cached is aligned to a word.
const WORD: usize = std::mem::size_of::<usize>();
/// Sizes up to this many words are cached. Only syntax nodes come here
/// now (one size); the classes are kept from when green nodes of every
/// size did, and cost nothing unused.
const CLASSES: usize = 32;
/// The largest block cached.
const MAX_CACHED_SIZE: usize = CLASSES * WORD;
/// The most bytes one thread's cache holds.
const MAX_CACHED_BYTES: usize = 4 << 20;

struct Cache {
    /// Free blocks of `i` words, linked through their first word.
    heads: [*mut u8; CLASSES + 1],
    /// Bytes held in all the lists.
    bytes: usize,
}

impl Drop for Cache {
    fn drop(&mut self) {
        for (class, head) in self.heads.iter_mut().enumerate() {
            let mut block = std::mem::replace(head, ptr::null_mut());
            while !block.is_null() {
                // SAFETY: each block in list `class` was allocated with a
                // layout of `class` words, word-aligned, and its first word
                // holds the next block.
                unsafe {
                    let next = *(block as *mut *mut u8);
                    alloc::dealloc(block, Layout::from_size_align_unchecked(class * WORD, WORD));
                    block = next;
                }
            }
        }
        self.bytes = 0;
    }
}

thread_local! {
    static CACHE: UnsafeCell<Cache> = const {
        UnsafeCell::new(Cache { heads: [ptr::null_mut(); CLASSES + 1], bytes: 0 })
    };
}

/// Asks the processor to bring the line at `block` into the cache (no
/// effect on other targets; a prefetch of any address is harmless).
#[inline(always)]
fn prefetch(block: *mut u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch does not access memory and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(block as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = block;
}

#[inline]
fn cached_class(layout: Layout) -> Option<usize> {
    (layout.align() == WORD && layout.size() <= MAX_CACHED_SIZE && layout.size() % WORD == 0)
        .then(|| layout.size() / WORD)
}

/// Allocates a block for `layout`, from the thread's cache if it has one.
///
/// # Safety
/// As `std::alloc::alloc`.
#[inline]
pub(crate) unsafe fn allocate(layout: Layout) -> *mut u8 {
    if let Some(class) = cached_class(layout) {
        let block = CACHE
            .try_with(|cache| {
                // SAFETY: the cache is only reached here and in `release`,
                // which do not call each other or anything that could.
                let cache = unsafe { &mut *cache.get() };
                let block = cache.heads[class];
                if !block.is_null() {
                    // SAFETY: a cached block's first word links the next.
                    let next = unsafe { *(block as *mut *mut u8) };
                    cache.heads[class] = next;
                    // The next block of this size is read when it is
                    // taken (its link) and then written over: bring it
                    // into the cache now, while this one is being filled.
                    prefetch(next);
                    cache.bytes -= layout.size();
                }
                block
            })
            .unwrap_or(ptr::null_mut());
        if !block.is_null() {
            return block;
        }
    }
    alloc::alloc(layout)
}

/// Frees a block that `allocate` gave for `layout`, into the thread's
/// cache while it has room.
///
/// # Safety
/// As `std::alloc::dealloc`.
#[inline]
pub(crate) unsafe fn release(block: *mut u8, layout: Layout) {
    if let Some(class) = cached_class(layout) {
        let kept = CACHE
            .try_with(|cache| {
                // SAFETY: as in `allocate`.
                let cache = unsafe { &mut *cache.get() };
                if cache.bytes + layout.size() > MAX_CACHED_BYTES {
                    return false;
                }
                // SAFETY: the block is at least a word long and ours now.
                unsafe { *(block as *mut *mut u8) = cache.heads[class] };
                cache.heads[class] = block;
                cache.bytes += layout.size();
                true
            })
            .unwrap_or(false);
        if kept {
            return;
        }
    }
    alloc::dealloc(block, layout)
}
