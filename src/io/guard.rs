//! A guard for mapped input: a file truncated by another program while it is mapped makes
//! reading its lost pages raise `SIGBUS`, which kills the process with no message (exit
//! 135). The library installs no signal handler, prints nothing and exits nothing: it keeps
//! a table of what it has mapped, with each file's [`Error::FileChanged`] message prepared,
//! and [`fault_message`] finds the message of the file a faulting address belongs to. A
//! program that wants one line instead of the signal installs its own `SIGBUS` handler
//! calling it (the `inertia` binary prints the message and exits with code 2).
//!
//! Mappings are registered by [`Bytes::open`](super::Bytes::open) in a fixed table of
//! atomics, which a handler reads without locking or allocating (it must be
//! async-signal-safe). A library user who maps nothing, or installs no handler, is not
//! affected.
//!
//! [`Error::FileChanged`]: crate::Error::FileChanged

use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

const SLOTS: usize = 256;

struct Slot {
    start: AtomicUsize,
    len: AtomicUsize,
    msg: AtomicPtr<u8>,
    msg_len: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Slot = Slot {
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    msg: AtomicPtr::new(std::ptr::null_mut()),
    msg_len: AtomicUsize::new(0),
};

static TABLE: [Slot; SLOTS] = [EMPTY; SLOTS];

/// Notes that `len` bytes at `start` are `path` mapped (a full table leaves the mapping
/// unguarded).
pub(crate) fn register(start: *const u8, len: usize, path: &Path) {
    let text = crate::Error::FileChanged {
        path: path.to_path_buf(),
    }
    .to_string();
    let msg: Box<[u8]> = text.into_bytes().into_boxed_slice();
    let msg_len = msg.len();
    for s in &TABLE {
        if s.start
            .compare_exchange(0, start as usize, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            s.msg
                .store(Box::into_raw(msg).cast::<u8>(), Ordering::Release);
            s.msg_len.store(msg_len, Ordering::Release);
            s.len.store(len, Ordering::Release);
            return;
        }
    }
}

/// Forgets the mapping at `start` (it is being unmapped).
pub(crate) fn unregister(start: *const u8) {
    for s in &TABLE {
        if s.start.load(Ordering::Acquire) == start as usize && s.len.load(Ordering::Acquire) != 0 {
            s.len.store(0, Ordering::Release);
            let p = s.msg.swap(std::ptr::null_mut(), Ordering::AcqRel);
            let n = s.msg_len.swap(0, Ordering::AcqRel);
            if !p.is_null() {
                // SAFETY: `p` and `n` came from the boxed slice leaked in `register`.
                drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)) });
            }
            s.start.store(0, Ordering::Release);
            return;
        }
    }
}

/// The registered mapping that holds all of `bytes`, as its start and length.
fn mapping_of(bytes: &[u8]) -> Option<(usize, usize)> {
    let (lo, hi) = (
        bytes.as_ptr() as usize,
        bytes.as_ptr() as usize + bytes.len(),
    );
    TABLE.iter().find_map(|s| {
        let len = s.len.load(Ordering::Acquire);
        let start = s.start.load(Ordering::Acquire);
        (len != 0 && lo >= start && hi <= start + len).then_some((start, len))
    })
}

/// Whether `bytes` lie in a mapped input (see [`release`]).
pub(crate) fn is_mapped(bytes: &[u8]) -> bool {
    !bytes.is_empty() && mapping_of(bytes).is_some()
}

/// Lets this process's pages of `bytes` go, if they lie in a mapped input: the file's
/// pages stay in the system's cache, and a later read maps them again (so a caller that
/// will not read most of them again saves their memory). Bytes outside every mapped input
/// (memory of the process's own, which letting go would clear) are left alone.
pub(crate) fn release(bytes: &[u8]) {
    if !is_mapped(bytes) {
        return;
    }
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let page = if page > 0 { page as usize } else { 4096 };
        // A mapping starts on a page boundary, so the page that holds the first byte lies in
        // it; the length is rounded up to whole pages, which the mapping also covers.
        let start = bytes.as_ptr() as usize / page * page;
        let len = bytes.as_ptr() as usize + bytes.len() - start;
        // SAFETY: the range lies in a read-only private mapping of a file (registered by
        // `Bytes::open` until unmapped), whose pages `MADV_DONTNEED` drops from this
        // process; a later read faults them in again from the file, unchanged. The result is
        // ignored: the call only saves memory.
        unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_DONTNEED) };
    }
}

/// The message of the mapped file that holds address `addr`: [`Error::FileChanged`]'s
/// message, prepared when the file was mapped. For a `SIGBUS` handler: it only reads
/// atomics and allocates nothing (async-signal-safe). `None` when `addr` is in no mapped
/// input (the fault is not a truncated file's).
///
/// # Safety
/// The slice is valid while the mapping stays registered: call this only from a handler
/// of a `SIGBUS` raised by a read of a mapped input (the faulting read keeps its mapping
/// alive), and do not keep the slice past the handler.
///
/// # Examples
/// ```
/// // No file is mapped at address 1.
/// assert!(unsafe { inertia::details::fault_message(1) }.is_none());
/// ```
///
/// [`Error::FileChanged`]: crate::Error::FileChanged
pub unsafe fn fault_message(addr: usize) -> Option<&'static [u8]> {
    for s in &TABLE {
        let len = s.len.load(Ordering::Acquire);
        let start = s.start.load(Ordering::Acquire);
        if len != 0 && addr >= start && addr - start < len {
            let p = s.msg.load(Ordering::Acquire);
            let n = s.msg_len.load(Ordering::Acquire);
            if p.is_null() {
                return None;
            }
            // SAFETY: `p` and `n` came from the boxed slice leaked in `register`, freed
            // only by `unregister` (which the caller's contract excludes meanwhile).
            return Some(unsafe { std::slice::from_raw_parts(p, n) });
        }
    }
    None
}
