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
//! When the frees a thread has gathered are every block carved from the
//! chunk it is carving trees from, it carves that chunk from its start
//! again: a program that parses a file and drops its tree before the next
//! builds every tree in the same memory.
//!
//! A thread's carving state is a thread-local without a destructor, so
//! reaching it checks nothing; the empty chunks it keeps are in another,
//! whose destructor hands everything back when the thread ends and closes
//! the carving: frees after that are subtracted one by one, and blocks
//! made after that get a chunk each.
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
//! the system.
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

/// A thread's carving and gathering. It has no destructor, so reaching it
/// costs no check of whether the thread is ending; [`Spare`]'s destructor
/// closes it when the thread ends.
struct Local {
    carvings: [Carving; 2],
    /// The chunk whose frees are being gathered ([`CLOSED`] once the
    /// thread's chunks are handed back).
    pending_chunk: *mut u8,
    /// Frees of `pending_chunk` not yet subtracted from its count.
    pending: usize,
}

/// `Local::pending_chunk` once the thread is ending: no chunk is there
/// (chunks are aligned to their size), so every free takes the slow path,
/// which subtracts it at once.
const CLOSED: *mut u8 = 1 as *mut u8;

/// A thread's empty chunks. Its destructor hands them back, with the
/// chunks being carved, when the thread ends.
struct Spare(Vec<*mut u8>);

thread_local! {
    static LOCAL: UnsafeCell<Local> = const {
        UnsafeCell::new(Local {
            carvings: [NO_CARVING, NO_CARVING],
            pending_chunk: ptr::null_mut(),
            pending: 0,
        })
    };
    static SPARE: UnsafeCell<Spare> = const { UnsafeCell::new(Spare(Vec::new())) };
}

/// Runs `f` on the thread's `Local`.
#[inline(always)]
fn with_local<R>(f: impl FnOnce(&mut Local) -> R) -> R {
    // SAFETY: `LOCAL` is only reached through here, by functions that do
    // not call each other while they hold it; it has no destructor, so it
    // is there for as long as the thread runs.
    LOCAL.with(|local| f(unsafe { &mut *local.get() }))
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
            self.refill(stream, size);
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
    /// Once the thread is ending, a chunk for the next block (of `size`
    /// bytes) alone.
    #[cold]
    #[inline(never)]
    fn refill(&mut self, stream: Stream, size: usize) {
        if self.pending_chunk == CLOSED {
            self.carvings[stream as usize] = lone_carving(size);
            return;
        }
        let full = std::mem::replace(&mut self.carvings[stream as usize], NO_CARVING);
        if !full.chunk.is_null() {
            if self.pending_chunk == full.chunk {
                self.flush();
            }
            // SAFETY: the reservation is held, and it exceeds the blocks
            // carved.
            if unsafe { subtract(full.chunk, RESERVATION - full.carved) } {
                // SAFETY: the chunk is ours again.
                unsafe { count(full.chunk) }.store(RESERVATION, Ordering::Relaxed);
                self.carvings[stream as usize] =
                    Carving { chunk: full.chunk, next: HEADER_SIZE, carved: 0 };
                return;
            }
        }
        let spare = SPARE.try_with(|spare| {
            // SAFETY: `SPARE` is only reached in `refill` and `keep`, which
            // do not call each other.
            unsafe { &mut *spare.get() }.0.pop()
        });
        let chunk = match spare {
            Ok(Some(chunk)) => {
                // SAFETY: a spare chunk is ours.
                unsafe { count(chunk) }.store(RESERVATION, Ordering::Relaxed);
                chunk
            }
            Ok(None) => new_chunk(RESERVATION),
            Err(_) => {
                // `Spare` is gone, so the thread is ending.
                for chunk in self.close() {
                    // SAFETY: an empty chunk is ours.
                    unsafe { free_chunk(chunk) };
                }
                self.carvings[stream as usize] = lone_carving(size);
                return;
            }
        };
        self.carvings[stream as usize] = Carving { chunk, next: HEADER_SIZE, carved: 0 };
    }

    /// Carves the tree stream's chunk from its start again when `chunk`
    /// is that chunk and the frees gathered here are every block carved
    /// from it: then nothing was subtracted from its count (which holds
    /// the reservation exactly) and no block of it is alive. A program
    /// that parses a file and drops its tree before the next one carves
    /// every tree from the same memory, still in the cache.
    #[inline(always)]
    fn restart_if_free(&mut self, chunk: *mut u8) {
        let carving = &mut self.carvings[Stream::Tree as usize];
        if carving.chunk == chunk && carving.carved == self.pending {
            carving.next = HEADER_SIZE;
            carving.carved = 0;
            self.pending = 0;
        }
    }

    /// Subtracts the frees gathered so far and starts gathering those of
    /// `chunk` with the one freed now (once the thread is ending, subtracts
    /// that one at once).
    #[inline(never)]
    fn gather_from(&mut self, chunk: *mut u8) {
        // Frees gathered are subtracted at the latest by `Spare`'s
        // destructor, which this reaching registers on a thread that
        // frees blocks without ever carving one.
        if self.pending_chunk == CLOSED || SPARE.try_with(|_| ()).is_err() {
            // SAFETY: the block was live.
            if unsafe { subtract(chunk, 1) } {
                // SAFETY: an empty chunk is ours.
                unsafe { free_chunk(chunk) };
            }
            return;
        }
        self.flush();
        self.pending_chunk = chunk;
        self.pending = 1;
    }

    /// Subtracts the gathered frees.
    fn flush(&mut self) {
        if self.pending != 0 {
            let (chunk, n) = (self.pending_chunk, self.pending);
            self.pending = 0;
            // SAFETY: the `n` blocks were live until freed here.
            if unsafe { subtract(chunk, n) } {
                keep(chunk);
            }
        }
    }

    /// Subtracts the gathered frees and gives back the reservations of the
    /// chunks being carved; later frees are subtracted one by one, and
    /// later blocks get chunks of their own. Returns the chunks found empty.
    fn close(&mut self) -> Vec<*mut u8> {
        let mut empty = Vec::new();
        if self.pending_chunk == CLOSED {
            return empty;
        }
        if self.pending != 0 {
            // SAFETY: the blocks were live until freed here.
            if unsafe { subtract(self.pending_chunk, self.pending) } {
                empty.push(self.pending_chunk);
            }
        }
        self.pending = 0;
        self.pending_chunk = CLOSED;
        for carving in &mut self.carvings {
            let carving = std::mem::replace(carving, NO_CARVING);
            // SAFETY: the reservation is held, and it exceeds the blocks
            // carved.
            if !carving.chunk.is_null()
                && unsafe { subtract(carving.chunk, RESERVATION - carving.carved) }
            {
                empty.push(carving.chunk);
            }
        }
        empty
    }
}

/// Keeps an empty chunk for later, or gives it back.
fn keep(chunk: *mut u8) {
    let kept = SPARE.try_with(|spare| {
        // SAFETY: as in `refill`.
        let spare = unsafe { &mut *spare.get() };
        if spare.0.len() < MAX_SPARE {
            spare.0.push(chunk);
            true
        } else {
            false
        }
    });
    if kept != Ok(true) {
        // SAFETY: an empty chunk is ours.
        unsafe { free_chunk(chunk) };
    }
}

impl Drop for Spare {
    fn drop(&mut self) {
        let empty = with_local(Local::close);
        for chunk in self.0.drain(..).chain(empty) {
            // SAFETY: an empty chunk is ours.
            unsafe { free_chunk(chunk) };
        }
    }
}

/// Allocates a green block for `layout`, placed as asked.
///
/// # Safety
/// As `std::alloc::alloc`.
#[inline(always)]
pub(crate) unsafe fn allocate(layout: Layout, placement: Placement) -> *mut u8 {
    match placement {
        Placement::Carved(stream) if fits(layout) => {
            with_local(|local| local.carve(stream, layout.size()))
        }
        _ => unsafe { alloc::alloc(layout) },
    }
}

/// A chunk for one block of `size` bytes, when the thread is ending: its
/// count is one, the block lies at its end (so that the next block gets a
/// chunk of its own too), and the block's free gives the chunk back.
#[cold]
fn lone_carving(size: usize) -> Carving {
    Carving { chunk: new_chunk(1), next: CHUNK_SIZE - size, carved: 0 }
}

/// Frees a block that [`allocate`] gave for `layout` (not an immortal one).
///
/// # Safety
/// As `std::alloc::dealloc`.
#[inline(always)]
pub(crate) unsafe fn release(block: *mut u8, layout: Layout) {
    if !fits(layout) {
        return unsafe { alloc::dealloc(block, layout) };
    }
    let chunk = (block as usize & !(CHUNK_SIZE - 1)) as *mut u8;
    with_local(|local| {
        if local.pending_chunk == chunk {
            local.pending += 1;
            local.restart_if_free(chunk);
        } else {
            local.gather_from(chunk);
        }
    });
}
