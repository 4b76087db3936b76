//! Scratch memory for the parallel passes: large, zeroed, written by several threads at
//! disjoint places.

/// A pointer that may be shared by threads writing to disjoint places.
#[derive(Clone, Copy)]
pub(crate) struct Shared<T>(pub(crate) *mut T);
// SAFETY: used only where every thread writes a disjoint set of indices (see the callers).
unsafe impl<T: Send> Send for Shared<T> {}
unsafe impl<T: Send> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// The place of element `i`.
    ///
    /// # Safety
    /// `i` must lie within the allocation the pointer came from.
    pub(crate) unsafe fn at(&self, i: usize) -> *mut T {
        // SAFETY: the caller keeps `i` in bounds.
        unsafe { self.0.add(i) }
    }
}

/// Scratch memory, zeroed: an anonymous map, asked (on Linux) for huge pages, so that
/// touching 60 MB costs tens of page faults rather than fifteen thousand. Only for
/// plain integer data, for which zeroed memory is a valid value.
pub(crate) struct Scratch<T> {
    map: memmap2::MmapMut,
    len: usize,
    _type: std::marker::PhantomData<T>,
}

impl<T: Copy> Scratch<T> {
    /// `dense`: every value will be written, so huge pages pay; sparse memory is better
    /// left to small pages, of which only those touched are zeroed.
    pub(crate) fn new(len: usize, dense: bool) -> Option<Self> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let map = memmap2::MmapMut::map_anon(bytes.max(1)).ok()?;
        #[cfg(target_os = "linux")]
        if dense {
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Some(Scratch {
            map,
            len,
            _type: std::marker::PhantomData,
        })
    }

    pub(crate) fn uninit(&mut self) -> &mut [std::mem::MaybeUninit<T>] {
        // SAFETY: the map is page-aligned (more than T's alignment) and `len` values long;
        // MaybeUninit asks nothing of the bytes.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast(), self.len) }
    }

    /// The values, once every one of them has been written (or zero is a valid `T`).
    ///
    /// # Safety
    /// Every value must have been written, or zeroed memory must be a valid `T`.
    pub(crate) unsafe fn assume_init(&self) -> &[T] {
        // SAFETY: as for `uninit`, and the caller vouches for the contents.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast(), self.len) }
    }

    /// The values, mutable, once every one has been written (or zero is a valid `T`).
    ///
    /// # Safety
    /// As for [`Scratch::assume_init`].
    pub(crate) unsafe fn assume_init_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `uninit`, and the caller vouches for the contents.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast(), self.len) }
    }
}
