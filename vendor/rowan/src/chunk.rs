//! Green nodes and tokens carved from 64 KiB chunks, one after the other.
//!
//! (hclwright's addition to its copy of rowan, see HCLWRIGHT.md.) A tree is
//! built in one go and, most often, dropped in one go; its blocks are
//! carved here in the order they are made, side by side, from a chunk the
//! thread owns, and a chunk is used again once every block carved from it
//! is freed. Carving reads nothing (a free list has to read each block's
//! link before handing it out, and that read waited on memory in a
//! profile of parsing), and a tree's blocks lie in the order a walk
//! visits them.
//!
//! Each chunk counts its live blocks in its first word. While a thread
//! carves from a chunk, the count holds a large reservation instead of the
//! blocks carved, so carving touches no count; the reservation, less the
//! blocks carved, is given back when the chunk is full. Freeing a block
//! subtracts one, but the subtractions are gathered: a thread freeing
//! blocks of the same chunk in a row (dropping a tree) counts them in a
//! local and subtracts them together when it frees a block of another
//! chunk, carves a new chunk, or ends. A count only ever lags behind the
//! frees, so a chunk is never reused while a block carved from it lives;
//! the thread whose subtraction brings a count to zero takes the chunk.
//!
//! Two streams are carved on each thread: trees, and the tokens that a
//! table shares between trees (`GreenToken::new_shared`), which outlive
//! the tree that made them and would keep its chunks alive. Tokens that
//! are never freed (`GreenToken::new_immortal`) come from the system
//! allocator. Blocks above [`MAX_BLOCK`] bytes come from the system
//! allocator too.
//!
//! Up to [`MAX_SPARE`] empty chunks are kept per thread for the next
//! trees; the others, and all of them when the thread ends, go back to
//! the system allocator.
use std::{
    alloc::{self, Layout},
    cell::UnsafeCell,
    ptr,
    sync::atomic::{self, AtomicUsize, Ordering},
};

/// The size of a chunk, which is also its alignment: a block's chunk is
/// its address with the low bits cleared.
const CHUNK_SIZE: usize = 64 << 10;
/// Where the first block starts: the count gets a cache line of its own.
const HEADER_SIZE: usize = 64;
/// Every green allocation is aligned to a word (its reference count).
const WORD: usize = std::mem::size_of::<usize>();
/// The largest block carved from a chunk (a node of 62 children).
const MAX_BLOCK: usize = 1024;
/// A chunk's count while blocks are carved from it: more than it can hold.
const RESERVATION: usize = usize::MAX / 2;
/// Empty chunks kept per thread: with the two being carved, 4 MiB.
const MAX_SPARE: usize = 62;

const _: () = assert!(RESERVATION > CHUNK_SIZE / WORD);

/// Which stream of chunks a block is carved from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    /// Nodes and tokens of trees.
    Tree = 0,
    /// Tokens a table shares between trees.
    Shared = 1,
}

/// Where a green allocation goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Carved from a stream of chunks (when small enough).
    Carved(Stream),
    /// From the system allocator, never freed.
    Immortal,
}

/// The chunk a stream is being carved from.
struct Carving {
    /// The chunk (null: none yet).
    chunk: *mut u8,
    /// Offset of the next block in it.
    next: usize,
    /// Blocks carved from it so far.
    carved: usize,
}

const NO_CARVING: Carving = Carving { chunk: ptr::null_mut(), next: CHUNK_SIZE, carved: 0 };

struct Local {
    carvings: [Carving; 2],
    /// The chunk whose frees are being gathered.
    pending_chunk: *mut u8,
    /// Frees of `pending_chunk` not yet subtracted from its count.
    pending: usize,
    /// Empty chunks.
    spare: Vec<*mut u8>,
}

thread_local! {
    static LOCAL: UnsafeCell<Local> = const {
        UnsafeCell::new(Local {
            carvings: [NO_CARVING, NO_CARVING],
            pending_chunk: ptr::null_mut(),
            pending: 0,
            spare: Vec::new(),
        })
    };
}

/// The bytes of chunks mapped and not yet unmapped, in the whole process.
static MAPPED: AtomicUsize = AtomicUsize::new(0);

/// The bytes the process holds in chunks of green blocks: those in use and
/// the spare ones its threads keep. Chunks are mapped from the system
/// directly, so a global allocator does not see them.
pub fn chunk_bytes() -> usize {
    MAPPED.load(Ordering::Relaxed)
}

/// The count of live blocks of `chunk`.
///
/// # Safety
/// `chunk` is a chunk from `new_chunk`, not yet freed.
#[inline(always)]
unsafe fn count<'a>(chunk: *mut u8) -> &'a AtomicUsize {
    unsafe { &*(chunk as *const AtomicUsize) }
}

/// A new chunk whose count is `live`.
fn new_chunk(live: usize) -> *mut u8 {
    let chunk = os::map();
    MAPPED.fetch_add(CHUNK_SIZE, Ordering::Relaxed);
    // SAFETY: the chunk is ours and aligned for a word.
    unsafe { ptr::write(chunk as *mut AtomicUsize, AtomicUsize::new(live)) };
    chunk
}

/// Gives an empty chunk back to the system.
///
/// # Safety
/// `chunk` is a chunk from `new_chunk` that no block is carved from.
unsafe fn free_chunk(chunk: *mut u8) {
    MAPPED.fetch_sub(CHUNK_SIZE, Ordering::Relaxed);
    unsafe { os::unmap(chunk) };
}

/// Chunks straight from the system where it maps memory (`mmap`), so that
/// they do not change how the C allocator manages its heap (glibc, asked
/// for aligned blocks this large, maps each one itself and, when one is
/// freed, raises the size from which it maps: measured, that changed the
/// speed of unrelated code from one run to the next). Elsewhere, the
/// global allocator.
#[cfg(unix)]
mod os {
    use super::CHUNK_SIZE;
    use std::ptr;

    /// A chunk of `CHUNK_SIZE` bytes aligned to its size: twice that is
    /// mapped and the ends around the aligned middle unmapped.
    pub(super) fn map() -> *mut u8 {
        let len = 2 * CHUNK_SIZE;
        // SAFETY: an anonymous private mapping at an address of the
        // system's choice has no preconditions.
        let start = unsafe {
            libc::mmap(
                ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            std::alloc::handle_alloc_error(super::chunk_layout());
        }
        let start = start as usize;
        let chunk = (start + CHUNK_SIZE - 1) & !(CHUNK_SIZE - 1);
        // SAFETY: both ends lie in the mapping just made, outside the
        // chunk, and start on page boundaries (the mapping and the chunk
        // do).
        unsafe {
            if chunk > start {
                libc::munmap(start as *mut libc::c_void, chunk - start);
            }
            let end = chunk + CHUNK_SIZE;
            if start + len > end {
                libc::munmap(end as *mut libc::c_void, start + len - end);
            }
        }
        chunk as *mut u8
    }

    /// # Safety
    /// `chunk` came from `map` and is not used any more.
    pub(super) unsafe fn unmap(chunk: *mut u8) {
        // SAFETY: as the caller promises.
        unsafe { libc::munmap(chunk as *mut libc::c_void, CHUNK_SIZE) };
    }
}

#[cfg(not(unix))]
mod os {
    pub(super) fn map() -> *mut u8 {
        // SAFETY: the layout has a non-zero size.
        let chunk = unsafe { std::alloc::alloc(super::chunk_layout()) };
        if chunk.is_null() {
            std::alloc::handle_alloc_error(super::chunk_layout());
        }
        chunk
    }

    /// # Safety
    /// `chunk` came from `map` and is not used any more.
    pub(super) unsafe fn unmap(chunk: *mut u8) {
        unsafe { std::alloc::dealloc(chunk, super::chunk_layout()) };
    }
}

fn chunk_layout() -> Layout {
    // SAFETY: a power of two, and not above isize::MAX.
    unsafe { Layout::from_size_align_unchecked(CHUNK_SIZE, CHUNK_SIZE) }
}

/// Subtracts `n` frees from the count of `chunk`; true when that was the
/// last of its blocks (the caller owns the chunk then).
///
/// # Safety
/// `chunk` holds at least `n` blocks not yet subtracted.
#[inline]
unsafe fn subtract(chunk: *mut u8, n: usize) -> bool {
    // As an `Arc`'s count: the writes to the blocks happen before the
    // chunk is reused by whichever thread takes it.
    if unsafe { count(chunk) }.fetch_sub(n, Ordering::Release) != n {
        return false;
    }
    atomic::fence(Ordering::Acquire);
    true
}

/// True for a block carved from a chunk (the same answer for its
/// allocation and its release).
#[inline(always)]
fn fits(layout: Layout) -> bool {
    layout.size() <= MAX_BLOCK && layout.align() <= WORD && layout.size() % WORD == 0
}

impl Local {
    #[inline(always)]
    fn carve(&mut self, stream: Stream, size: usize) -> *mut u8 {
        if self.carvings[stream as usize].next + size > CHUNK_SIZE {
            self.refill(stream);
        }
        let carving = &mut self.carvings[stream as usize];
        // SAFETY: the block lies inside the chunk (checked above).
        let block = unsafe { carving.chunk.add(carving.next) };
        carving.next += size;
        carving.carved += 1;
        block
    }

    /// A new chunk to carve `stream` from: the full one again if every
    /// block carved from it is free by now, or else a spare or a new one.
    #[cold]
    #[inline(never)]
    fn refill(&mut self, stream: Stream) {
        let full = &self.carvings[stream as usize];
        let (chunk, carved) = (full.chunk, full.carved);
        if !chunk.is_null() {
            if self.pending_chunk == chunk {
                self.flush();
            }
            // SAFETY: the reservation is held, and it exceeds the blocks
            // carved.
            if unsafe { subtract(chunk, RESERVATION - carved) } {
                // SAFETY: the chunk is ours again.
                unsafe { count(chunk) }.store(RESERVATION, Ordering::Relaxed);
                self.carvings[stream as usize] = Carving { chunk, next: HEADER_SIZE, carved: 0 };
                return;
            }
        }
        let chunk = match self.spare.pop() {
            Some(chunk) => {
                // SAFETY: a spare chunk is ours.
                unsafe { count(chunk) }.store(RESERVATION, Ordering::Relaxed);
                chunk
            }
            None => new_chunk(RESERVATION),
        };
        self.carvings[stream as usize] = Carving { chunk, next: HEADER_SIZE, carved: 0 };
    }

    /// Subtracts the gathered frees.
    #[inline]
    fn flush(&mut self) {
        if self.pending != 0 {
            let (chunk, n) = (self.pending_chunk, self.pending);
            self.pending = 0;
            // SAFETY: the `n` blocks were live until freed here.
            if unsafe { subtract(chunk, n) } {
                self.keep(chunk);
            }
        }
    }

    /// Keeps an empty chunk for later, or frees it.
    fn keep(&mut self, chunk: *mut u8) {
        if self.spare.len() < MAX_SPARE {
            self.spare.push(chunk);
        } else {
            // SAFETY: an empty chunk is ours.
            unsafe { free_chunk(chunk) };
        }
    }
}

impl Drop for Local {
    fn drop(&mut self) {
        self.flush();
        for carving in &mut self.carvings {
            let chunk = std::mem::replace(carving, NO_CARVING);
            // SAFETY: the reservation is held, and it exceeds the blocks
            // carved.
            if !chunk.chunk.is_null()
                && unsafe { subtract(chunk.chunk, RESERVATION - chunk.carved) }
            {
                self.spare.push(chunk.chunk);
            }
        }
        for chunk in self.spare.drain(..) {
            // SAFETY: an empty chunk is ours.
            unsafe { free_chunk(chunk) };
        }
    }
}

/// Allocates a green block for `layout`, placed as asked.
///
/// # Safety
/// As `std::alloc::alloc`.
#[inline]
pub(crate) unsafe fn allocate(layout: Layout, placement: Placement) -> *mut u8 {
    match placement {
        Placement::Carved(stream) if fits(layout) => LOCAL
            .try_with(|local| {
                // SAFETY: `LOCAL` is only reached in this module, by
                // functions that do not call each other while they hold it.
                unsafe { &mut *local.get() }.carve(stream, layout.size())
            })
            .unwrap_or_else(|_| lone_block()),
        _ => unsafe { alloc::alloc(layout) },
    }
}

/// A block in a chunk of its own, when the thread's chunks are gone (its
/// thread-local values are being destroyed).
#[cold]
fn lone_block() -> *mut u8 {
    // SAFETY: the block lies inside the new chunk.
    unsafe { new_chunk(1).add(HEADER_SIZE) }
}

/// Frees a block that [`allocate`] gave for `layout` (not an immortal one).
///
/// # Safety
/// As `std::alloc::dealloc`.
#[inline]
pub(crate) unsafe fn release(block: *mut u8, layout: Layout) {
    if !fits(layout) {
        return unsafe { alloc::dealloc(block, layout) };
    }
    let chunk = (block as usize & !(CHUNK_SIZE - 1)) as *mut u8;
    let gathered = LOCAL.try_with(|local| {
        // SAFETY: as in `allocate`.
        let local = unsafe { &mut *local.get() };
        if local.pending_chunk == chunk {
            local.pending += 1;
        } else {
            local.flush();
            local.pending_chunk = chunk;
            local.pending = 1;
        }
    });
    // SAFETY: the block was live.
    if gathered.is_err() && unsafe { subtract(chunk, 1) } {
        // SAFETY: an empty chunk is ours.
        unsafe { free_chunk(chunk) };
    }
}
