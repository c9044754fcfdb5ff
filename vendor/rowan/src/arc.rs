//! Vendored and stripped down version of triomphe
use std::{
    alloc::{self, Layout},
    cmp::Ordering,
    hash::{Hash, Hasher},
    marker::PhantomData,
    mem::{self, ManuallyDrop},
    ops::Deref,
    ptr,
    sync::atomic::{
        self,
        Ordering::{Acquire, Relaxed, Release},
    },
};

use memoffset::offset_of;

/// A soft limit on the amount of references that may be made to an `Arc`.
///
/// Going above this limit will abort your program (although not
/// necessarily) at _exactly_ `MAX_REFCOUNT + 1` references.
const MAX_REFCOUNT: usize = (isize::MAX) as usize;

/// (hclwright) The reference count of an immortal object, which `clone`
/// and `drop` leave alone: a plain load and a branch instead of an atomic
/// read-modify-write. A count can only start there (`Placement::Immortal`):
/// counts above `MAX_REFCOUNT` abort in `clone`.
const IMMORTAL: usize = usize::MAX;

/// The object allocated by an Arc<T>
#[repr(C)]
pub(crate) struct ArcInner<T: ?Sized> {
    pub(crate) count: atomic::AtomicUsize,
    pub(crate) data: T,
}

unsafe impl<T: ?Sized + Sync + Send> Send for ArcInner<T> {}
unsafe impl<T: ?Sized + Sync + Send> Sync for ArcInner<T> {}

/// An atomically reference counted shared pointer
///
/// See the documentation for [`Arc`] in the standard library. Unlike the
/// standard library `Arc`, this `Arc` does not support weak reference counting.
///
/// [`Arc`]: https://doc.rust-lang.org/stable/std/sync/struct.Arc.html
#[repr(transparent)]
pub(crate) struct Arc<T: ?Sized> {
    pub(crate) p: ptr::NonNull<ArcInner<T>>,
    pub(crate) phantom: PhantomData<T>,
}

unsafe impl<T: ?Sized + Sync + Send> Send for Arc<T> {}
unsafe impl<T: ?Sized + Sync + Send> Sync for Arc<T> {}

impl<T> Arc<T> {
    /// Reconstruct the Arc<T> from a raw pointer obtained from into_raw()
    ///
    /// Note: This raw pointer will be offset in the allocation and must be preceded
    /// by the atomic count.
    ///
    /// It is recommended to use OffsetArc for this
    #[inline]
    pub(crate) unsafe fn from_raw(ptr: *const T) -> Self {
        // To find the corresponding pointer to the `ArcInner` we need
        // to subtract the offset of the `data` field from the pointer.
        let ptr = (ptr as *const u8).sub(offset_of!(ArcInner<T>, data));
        Arc { p: ptr::NonNull::new_unchecked(ptr as *mut ArcInner<T>), phantom: PhantomData }
    }
}

impl<T: ?Sized> Arc<T> {
    #[inline]
    fn inner(&self) -> &ArcInner<T> {
        // This unsafety is ok because while this arc is alive we're guaranteed
        // that the inner pointer is valid. Furthermore, we know that the
        // `ArcInner` structure itself is `Sync` because the inner data is
        // `Sync` as well, so we're ok loaning out an immutable pointer to these
        // contents.
        unsafe { &*self.ptr() }
    }

    // Non-inlined part of `drop`. Just invokes the destructor.
    #[inline(never)]
    unsafe fn drop_slow(&mut self) {
        let inner = self.ptr();
        let layout = Layout::for_value(&*inner);
        ptr::drop_in_place(inner);
        crate::chunk::release(inner as *mut u8, layout);
    }

    /// Test pointer equality between the two Arcs, i.e. they must be the _same_
    /// allocation
    #[inline]
    pub(crate) fn ptr_eq(this: &Self, other: &Self) -> bool {
        std::ptr::addr_eq(this.ptr(), other.ptr())
    }

    pub(crate) fn ptr(&self) -> *mut ArcInner<T> {
        self.p.as_ptr()
    }
}

impl<T: ?Sized> Clone for Arc<T> {
    #[inline]
    fn clone(&self) -> Self {
        // Using a relaxed ordering is alright here, as knowledge of the
        // original reference prevents other threads from erroneously deleting
        // the object.
        //
        // As explained in the [Boost documentation][1], Increasing the
        // reference counter can always be done with memory_order_relaxed: New
        // references to an object can only be formed from an existing
        // reference, and passing an existing reference from one thread to
        // another must already provide any required synchronization.
        //
        // [1]: (www.boost.org/doc/libs/1_55_0/doc/html/atomic/usage_examples.html)
        // (hclwright) An immortal object is not counted.
        if self.inner().count.load(Relaxed) == IMMORTAL {
            return Arc { p: self.p, phantom: PhantomData };
        }
        let old_size = self.inner().count.fetch_add(1, Relaxed);

        // However we need to guard against massive refcounts in case someone
        // is `mem::forget`ing Arcs. If we don't do this the count can overflow
        // and users will use-after free. We racily saturate to `isize::MAX` on
        // the assumption that there aren't ~2 billion threads incrementing
        // the reference count at once. This branch will never be taken in
        // any realistic program.
        //
        // We abort because such a program is incredibly degenerate, and we
        // don't care to support it.
        if old_size > MAX_REFCOUNT {
            std::process::abort();
        }

        unsafe { Arc { p: ptr::NonNull::new_unchecked(self.ptr()), phantom: PhantomData } }
    }
}

impl<T: ?Sized> Deref for Arc<T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        &self.inner().data
    }
}

// (hclwright) Upstream's `get_mut` and `is_unique` are gone: a new node's
// header is written through `ThinArc::header_mut_unshared`, and nothing
// else used them.

impl<T: ?Sized> Drop for Arc<T> {
    #[inline]
    fn drop(&mut self) {
        // (hclwright) The count's part is `gives_up_last`, shared with
        // `ThinArc::into_dying`.
        if unsafe { gives_up_last(&self.inner().count) } {
            unsafe { self.drop_slow() };
        }
    }
}

/// (hclwright) Gives up one reference counted by `count` and says whether
/// it was the last, the object then to be freed. An immortal object is
/// never freed; one held once is freed without the atomic decrement (no
/// other reference exists to clone it meanwhile, and there are no weak
/// references).
///
/// # Safety
///
/// The caller held a reference, and no longer uses it.
#[inline]
unsafe fn gives_up_last(count: &atomic::AtomicUsize) -> bool {
    match count.load(Acquire) {
        IMMORTAL => return false,
        1 => return true,
        _ => {}
    }
    // Because `fetch_sub` is already atomic, we do not need to synchronize
    // with other threads unless we are going to delete the object.
    if count.fetch_sub(1, Release) != 1 {
        return false;
    }

    // FIXME(bholley): Use the updated comment when [2] is merged.
    //
    // This load is needed to prevent reordering of use of the data and
    // deletion of the data.  Because it is marked `Release`, the decreasing
    // of the reference count synchronizes with this `Acquire` load. This
    // means that use of the data happens before decreasing the reference
    // count, which happens before this load, which happens before the
    // deletion of the data.
    //
    // As explained in the [Boost documentation][1],
    //
    // > It is important to enforce any possible access to the object in one
    // > thread (through an existing reference) to *happen before* deleting
    // > the object in a different thread. This is achieved by a "release"
    // > operation after dropping a reference (any access to the object
    // > through this reference must obviously happened before), and an
    // > "acquire" operation before deleting the object.
    //
    // [1]: (www.boost.org/doc/libs/1_55_0/doc/html/atomic/usage_examples.html)
    // [2]: https://github.com/rust-lang/rust/pull/41714
    count.load(Acquire);
    true
}

impl<T: ?Sized + PartialEq> PartialEq for Arc<T> {
    fn eq(&self, other: &Arc<T>) -> bool {
        Self::ptr_eq(self, other) || *(*self) == *(*other)
    }

    fn ne(&self, other: &Arc<T>) -> bool {
        !Self::ptr_eq(self, other) && *(*self) != *(*other)
    }
}

impl<T: ?Sized + PartialOrd> PartialOrd for Arc<T> {
    fn partial_cmp(&self, other: &Arc<T>) -> Option<Ordering> {
        (**self).partial_cmp(&**other)
    }

    fn lt(&self, other: &Arc<T>) -> bool {
        *(*self) < *(*other)
    }

    fn le(&self, other: &Arc<T>) -> bool {
        *(*self) <= *(*other)
    }

    fn gt(&self, other: &Arc<T>) -> bool {
        *(*self) > *(*other)
    }

    fn ge(&self, other: &Arc<T>) -> bool {
        *(*self) >= *(*other)
    }
}

impl<T: ?Sized + Ord> Ord for Arc<T> {
    fn cmp(&self, other: &Arc<T>) -> Ordering {
        (**self).cmp(&**other)
    }
}

impl<T: ?Sized + Eq> Eq for Arc<T> {}

impl<T: ?Sized + Hash> Hash for Arc<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

#[derive(Debug, Eq, PartialEq, Hash, PartialOrd)]
#[repr(C)]
pub(crate) struct HeaderSlice<H, T: ?Sized> {
    pub(crate) header: H,
    length: usize,
    slice: T,
}

impl<H, T> HeaderSlice<H, [T]> {
    pub(crate) fn slice(&self) -> &[T] {
        &self.slice
    }
}

impl<H, T> Deref for HeaderSlice<H, [T; 0]> {
    type Target = HeaderSlice<H, [T]>;

    fn deref(&self) -> &Self::Target {
        unsafe {
            let len = self.length;
            let fake_slice: *const [T] =
                ptr::slice_from_raw_parts(self as *const _ as *const T, len);
            &*(fake_slice as *const HeaderSlice<H, [T]>)
        }
    }
}

/// A "thin" `Arc` containing dynamically sized data
///
/// This is functionally equivalent to `Arc<(H, [T])>`
///
/// When you create an `Arc` containing a dynamically sized type
/// like `HeaderSlice<H, [T]>`, the `Arc` is represented on the stack
/// as a "fat pointer", where the length of the slice is stored
/// alongside the `Arc`'s pointer. In some situations you may wish to
/// have a thin pointer instead, perhaps for FFI compatibility
/// or space efficiency.
///
/// Note that we use `[T; 0]` in order to have the right alignment for `T`.
///
/// `ThinArc` solves this by storing the length in the allocation itself,
/// via `HeaderSlice`.
#[repr(transparent)]
pub(crate) struct ThinArc<H, T> {
    ptr: ptr::NonNull<ArcInner<HeaderSlice<H, [T; 0]>>>,
    phantom: PhantomData<(H, T)>,
}

unsafe impl<H: Sync + Send, T: Sync + Send> Send for ThinArc<H, T> {}
unsafe impl<H: Sync + Send, T: Sync + Send> Sync for ThinArc<H, T> {}

// Synthesize a fat pointer from a thin pointer.
fn thin_to_thick<H, T>(
    thin: *mut ArcInner<HeaderSlice<H, [T; 0]>>,
) -> *mut ArcInner<HeaderSlice<H, [T]>> {
    let len = unsafe { (*thin).data.length };
    let fake_slice: *mut [T] = ptr::slice_from_raw_parts_mut(thin as *mut T, len);
    // Transplants metadata.
    fake_slice as *mut ArcInner<HeaderSlice<H, [T]>>
}

impl<H, T> ThinArc<H, T> {
    /// Temporarily converts |self| into a bonafide Arc and exposes it to the
    /// provided callback. The refcount is not modified.
    #[inline]
    pub(crate) fn with_arc<F, U>(&self, f: F) -> U
    where
        F: FnOnce(&Arc<HeaderSlice<H, [T]>>) -> U,
    {
        // Synthesize transient Arc, which never touches the refcount of the ArcInner.
        let transient = unsafe {
            ManuallyDrop::new(Arc {
                p: ptr::NonNull::new_unchecked(thin_to_thick(self.ptr.as_ptr())),
                phantom: PhantomData,
            })
        };

        // Expose the transient Arc to the callback, which may clone it if it wants.
        let result = f(&transient);

        // Forward the result.
        result
    }

    /// Creates a `ThinArc` for a HeaderSlice using the given header struct and
    /// iterator to generate the slice.
    ///
    /// (hclwright) Allocated where `placement` says (see `chunk.rs`); an
    /// immortal object starts with the immortal count and is never freed.
    #[inline]
    pub(crate) fn from_header_and_iter<I>(
        header: H,
        mut items: I,
        placement: crate::chunk::Placement,
    ) -> Self
    where
        I: Iterator<Item = T> + ExactSizeIterator,
    {
        let num_items = items.len();
        unsafe {
            let (ptr, mut current) = Self::allocate(header, num_items, placement);
            // Write the data.
            //
            // Note that any panics here (i.e. from the iterator) are safe, since
            // we'll just leak the uninitialized memory.
            for _ in 0..num_items {
                ptr::write(current, items.next().expect("ExactSizeIterator over-reported length"));
                current = current.offset(1);
            }
            assert!(items.next().is_none(), "ExactSizeIterator under-reported length");
            ThinArc { ptr: ptr::NonNull::new_unchecked(ptr), phantom: PhantomData }
        }
    }

    /// (hclwright) Creates a `ThinArc` whose items are moved out of
    /// `items[first..]`, each passed through `f`, leaving `items` holding
    /// its first `first`. A parser's stack of children gives each node its
    /// last children this way; draining them through an iterator checked
    /// each item's presence and the tail to move back.
    ///
    /// Panics if `first > items.len()`. Should `f` panic, the items not yet
    /// moved are leaked, never dropped twice.
    #[inline]
    pub(crate) fn from_header_and_vec_tail<S>(
        header: H,
        items: &mut Vec<S>,
        first: usize,
        mut f: impl FnMut(S) -> T,
        placement: crate::chunk::Placement,
    ) -> Self {
        let num_items = items.len().checked_sub(first).expect("tail starts past the end");
        unsafe {
            let (ptr, current) = Self::allocate(header, num_items, placement);
            let source = items.as_ptr().add(first);
            // The vector gives up the tail first: from here its items are
            // only read, each once, from a buffer nothing frees or moves.
            items.set_len(first);
            for i in 0..num_items {
                ptr::write(current.add(i), f(ptr::read(source.add(i))));
            }
            ThinArc { ptr: ptr::NonNull::new_unchecked(ptr), phantom: PhantomData }
        }
    }

    /// (hclwright) Allocates an object for `num_items` items where
    /// `placement` says, and writes its count, header and length; returns
    /// it and where its first item goes, for the caller to write them all.
    ///
    /// # Safety
    ///
    /// The items are left uninitialised: the caller writes all
    /// `num_items` of them from the returned item pointer before the object
    /// is used or dropped.
    #[inline]
    unsafe fn allocate(
        header: H,
        num_items: usize,
        placement: crate::chunk::Placement,
    ) -> (*mut ArcInner<HeaderSlice<H, [T; 0]>>, *mut T) {
        assert_ne!(mem::size_of::<T>(), 0, "Need to think about ZST");

        // Offset of the start of the slice in the allocation.
        let inner_to_data_offset = offset_of!(ArcInner<HeaderSlice<H, [T; 0]>>, data);
        let data_to_slice_offset = offset_of!(HeaderSlice<H, [T; 0]>, slice);
        let slice_offset = inner_to_data_offset + data_to_slice_offset;

        // Compute the size of the real payload.
        let slice_size = mem::size_of::<T>().checked_mul(num_items).expect("size overflows");
        let usable_size = slice_offset.checked_add(slice_size).expect("size overflows");

        // Round up size to alignment.
        let align = mem::align_of::<ArcInner<HeaderSlice<H, [T; 0]>>>();
        let size = usable_size.wrapping_add(align - 1) & !(align - 1);
        assert!(size >= usable_size, "size overflows");
        let layout = Layout::from_size_align(size, align).expect("invalid layout");

        unsafe {
            let buffer = crate::chunk::allocate(layout, placement);

            if buffer.is_null() {
                alloc::handle_alloc_error(layout);
            }

            let ptr = buffer as *mut ArcInner<HeaderSlice<H, [T; 0]>>;

            let count = atomic::AtomicUsize::new(match placement {
                crate::chunk::Placement::Immortal => IMMORTAL,
                crate::chunk::Placement::Carved(_) => 1,
            });

            ptr::write(ptr::addr_of_mut!((*ptr).count), count);
            ptr::write(ptr::addr_of_mut!((*ptr).data.header), header);
            ptr::write(ptr::addr_of_mut!((*ptr).data.length), num_items);
            let first = ptr::addr_of_mut!((*ptr).data.slice) as *mut T;
            debug_assert_eq!(first as usize - buffer as usize, slice_offset);
            (ptr, first)
        }
    }
}

impl<H, T: Copy> ThinArc<H, T> {
    /// (hclwright) Creates a `ThinArc` for a HeaderSlice from a header and a
    /// slice, copied in one `memcpy`. [`ThinArc::from_header_and_iter`] over
    /// the slice would copy its items one at a time (a token's text byte by
    /// byte): checking that the iterator has each item keeps its loop from
    /// becoming a copy.
    #[inline]
    pub(crate) fn from_header_and_slice(
        header: H,
        items: &[T],
        placement: crate::chunk::Placement,
    ) -> Self {
        unsafe {
            let (ptr, first) = Self::allocate(header, items.len(), placement);
            ptr::copy_nonoverlapping(items.as_ptr(), first, items.len());
            ThinArc { ptr: ptr::NonNull::new_unchecked(ptr), phantom: PhantomData }
        }
    }
}

impl<H, T> ThinArc<H, T> {
    /// (hclwright) Whether the object is immortal (never freed, its count
    /// never touched).
    pub(crate) fn is_immortal(&self) -> bool {
        let inner = unsafe { &*self.ptr.as_ptr() };
        inner.count.load(Relaxed) == IMMORTAL
    }
}

impl<H, T> ThinArc<H, T> {
    /// (hclwright) The header, to write before the object is shared.
    ///
    /// # Safety
    ///
    /// This must be the only reference to the object (as it is right after
    /// it is made): nothing else may read the header meanwhile.
    #[inline]
    pub(crate) unsafe fn header_mut_unshared(&mut self) -> &mut H {
        unsafe { &mut (*self.ptr.as_ptr()).data.header }
    }

    /// (hclwright) Gives up this reference without dropping anything: if it
    /// was the last one, the object is returned as [`Dying`], whose items
    /// the caller moves out (each once) before freeing it. A node that
    /// drops its subtree this way needs no call per node (see
    /// `GreenNode`'s `Drop`).
    #[inline]
    pub(crate) fn into_dying(self) -> Option<Dying<H, T>> {
        let ptr = self.ptr;
        mem::forget(self);
        // SAFETY: this reference is given up here.
        unsafe { gives_up_last(&(*ptr.as_ptr()).count) }.then_some(Dying { ptr })
    }
}

/// (hclwright) An object whose last reference is gone, still allocated:
/// the caller moves its items out (each exactly once) and then calls
/// [`Dying::free`], which drops the header and frees the memory without
/// reading the items again. Forgetting one leaks it.
pub(crate) struct Dying<H, T> {
    ptr: ptr::NonNull<ArcInner<HeaderSlice<H, [T; 0]>>>,
}

impl<H, T> Dying<H, T> {
    /// The items, for the caller to move out (or drop in place).
    #[inline]
    pub(crate) fn items(&self) -> *mut [T] {
        let thick = thin_to_thick(self.ptr.as_ptr());
        unsafe { ptr::addr_of_mut!((*thick).data.slice) }
    }

    /// Makes `self` the head of a list of dying objects whose rest is
    /// `rest`: the link is kept in the object's own reference count, which
    /// nothing reads any more. A list of any length needs no memory of its
    /// own.
    #[inline]
    pub(crate) fn push_onto(self, rest: Option<Dying<H, T>>) -> Dying<H, T> {
        let next = rest.map_or(ptr::null_mut(), |rest| rest.ptr.as_ptr());
        unsafe { (*self.ptr.as_ptr()).count.store(next as usize, Relaxed) };
        self
    }

    /// The rest of the list `self` heads (see [`Dying::push_onto`]); `self`
    /// must have been pushed.
    #[inline]
    pub(crate) fn rest(&self) -> Option<Dying<H, T>> {
        let next = unsafe { (*self.ptr.as_ptr()).count.load(Relaxed) };
        ptr::NonNull::new(next as *mut ArcInner<HeaderSlice<H, [T; 0]>>).map(|ptr| Dying { ptr })
    }

    /// Drops the header and frees the object.
    ///
    /// # Safety
    ///
    /// Every item has been moved out (or needs no drop).
    #[inline]
    pub(crate) unsafe fn free(self) {
        let thick = thin_to_thick(self.ptr.as_ptr());
        unsafe {
            let layout = Layout::for_value(&*thick);
            ptr::drop_in_place(ptr::addr_of_mut!((*thick).data.header));
            crate::chunk::release(thick as *mut u8, layout);
        }
    }
}

impl<H, T> Deref for ThinArc<H, T> {
    type Target = HeaderSlice<H, [T]>;

    #[inline]
    fn deref(&self) -> &Self::Target {
        unsafe { &(*thin_to_thick(self.ptr.as_ptr())).data }
    }
}

impl<H, T> Clone for ThinArc<H, T> {
    #[inline]
    fn clone(&self) -> Self {
        ThinArc::with_arc(self, |a| Arc::into_thin(a.clone()))
    }
}

impl<H, T> Drop for ThinArc<H, T> {
    #[inline]
    fn drop(&mut self) {
        let _ = Arc::from_thin(ThinArc { ptr: self.ptr, phantom: PhantomData });
    }
}

impl<H, T> Arc<HeaderSlice<H, [T]>> {
    /// Converts an `Arc` into a `ThinArc`. This consumes the `Arc`, so the refcount
    /// is not modified.
    #[inline]
    pub(crate) fn into_thin(a: Self) -> ThinArc<H, T> {
        assert_eq!(a.length, a.slice.len(), "Length needs to be correct for ThinArc to work");
        let fat_ptr: *mut ArcInner<HeaderSlice<H, [T]>> = a.ptr();
        mem::forget(a);
        let thin_ptr = fat_ptr as *mut [usize] as *mut usize;
        ThinArc {
            ptr: unsafe {
                ptr::NonNull::new_unchecked(thin_ptr as *mut ArcInner<HeaderSlice<H, [T; 0]>>)
            },
            phantom: PhantomData,
        }
    }

    /// Converts a `ThinArc` into an `Arc`. This consumes the `ThinArc`, so the refcount
    /// is not modified.
    #[inline]
    pub(crate) fn from_thin(a: ThinArc<H, T>) -> Self {
        let ptr = thin_to_thick(a.ptr.as_ptr());
        mem::forget(a);
        unsafe { Arc { p: ptr::NonNull::new_unchecked(ptr), phantom: PhantomData } }
    }
}

impl<H: PartialEq, T: PartialEq> PartialEq for ThinArc<H, T> {
    #[inline]
    fn eq(&self, other: &ThinArc<H, T>) -> bool {
        **self == **other
    }
}

impl<H: Eq, T: Eq> Eq for ThinArc<H, T> {}

impl<H: Hash, T: Hash> Hash for ThinArc<H, T> {
    fn hash<HSR: Hasher>(&self, state: &mut HSR) {
        (**self).hash(state)
    }
}
