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

/// Scratch memory, zeroed: an anonymous map whose pages come as [`Pages`] says, so that
/// memory every value of which will be written costs tens of page faults, or one system
/// call, rather than one fault for each 4 KB. Only for plain integer data, for which
/// zeroed memory is a valid value.
pub(crate) struct Scratch<T> {
    memory: Memory,
    len: usize,
    _type: std::marker::PhantomData<T>,
}

/// Where scratch memory lives.
enum Memory {
    /// An anonymous map, for large scratch.
    Map(memmap2::MmapMut),
    /// The heap, for small scratch: mapping and unmapping costs a system call and, with
    /// several threads, a message to every core; a build of thousands of small bodies
    /// would spend its time there. `u128`s, for their alignment.
    Heap(Vec<u128>),
}

/// Scratch smaller than this lives on the heap.
const SMALL: usize = 1 << 20;

/// How a large scratch map gets its pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pages {
    /// Every value will be written, by several threads at once: huge pages asked for (on
    /// Linux), tens of faults for the whole map.
    Huge,
    /// Every value will be written, but huge pages would not pay (the writers come one
    /// after another, or direct compaction of fragmented memory would cost more than it
    /// saves): the pages are made at once by the system call that maps them
    /// (`MAP_POPULATE`), not one fault each. On the 10^6-triangle sphere this is 0.95 of
    /// the whole process's wall time (paired with faulting the same maps page by page).
    Populated,
    /// Only some values will be written: pages are made (and zeroed) when first touched.
    Lazy,
}

impl Memory {
    fn ptr(&mut self) -> *mut u8 {
        match self {
            Memory::Map(m) => m.as_mut_ptr(),
            Memory::Heap(v) => v.as_mut_ptr().cast(),
        }
    }
}

impl<T: Copy> Scratch<T> {
    /// `len` zeroed values, their pages made as `pages` says (see [`Pages`]).
    pub(crate) fn new(len: usize, pages: Pages) -> Option<Self> {
        assert!(std::mem::align_of::<T>() <= std::mem::align_of::<u128>());
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let memory = if bytes < SMALL {
            Memory::Heap(vec![0u128; bytes.div_ceil(16)])
        } else {
            let map = match pages {
                Pages::Populated => memmap2::MmapOptions::new()
                    .len(bytes)
                    .populate()
                    .map_anon()
                    .ok()?,
                Pages::Huge | Pages::Lazy => memmap2::MmapMut::map_anon(bytes).ok()?,
            };
            #[cfg(target_os = "linux")]
            if pages == Pages::Huge {
                let _ = map.advise(memmap2::Advice::HugePage);
            }
            Memory::Map(map)
        };
        Some(Scratch {
            memory,
            len,
            _type: std::marker::PhantomData,
        })
    }

    pub(crate) fn uninit(&mut self) -> &mut [std::mem::MaybeUninit<T>] {
        // SAFETY: the memory is aligned for T (a page, or u128s) and `len` values long;
        // MaybeUninit asks nothing of the bytes.
        unsafe { std::slice::from_raw_parts_mut(self.memory.ptr().cast(), self.len) }
    }

    /// The values, once every one of them has been written (or zero is a valid `T`).
    ///
    /// # Safety
    /// Every value must have been written, or zeroed memory must be a valid `T`.
    pub(crate) unsafe fn assume_init(&self) -> &[T] {
        let ptr: *const u8 = match &self.memory {
            Memory::Map(m) => m.as_ptr(),
            Memory::Heap(v) => v.as_ptr().cast(),
        };
        // SAFETY: as for `uninit`, and the caller vouches for the contents.
        unsafe { std::slice::from_raw_parts(ptr.cast(), self.len) }
    }

    /// The values, mutable, once every one has been written (or zero is a valid `T`).
    ///
    /// # Safety
    /// As for [`Scratch::assume_init`].
    pub(crate) unsafe fn assume_init_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `uninit`, and the caller vouches for the contents.
        unsafe { std::slice::from_raw_parts_mut(self.memory.ptr().cast(), self.len) }
    }
}
