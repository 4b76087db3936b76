//! A guard for mapped input: a file truncated by another program while it is mapped makes
//! reading its lost pages raise `SIGBUS`, which would kill the process with no message
//! (exit 135). [`catch_truncation`] installs a handler that finds which mapped file the
//! faulting address belongs to, prints one line naming it on stderr and exits with code 2.
//!
//! Mappings are registered by [`Bytes::open`](super::Bytes::open) in a fixed table of
//! atomics, which the handler reads without locking or allocating (it must be
//! async-signal-safe). A library user who maps nothing, or installs no handler, is not
//! affected.

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

/// Set by the first thread that reports a cut file (see `on_sigbus`).
#[cfg(target_os = "linux")]
static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Notes that `len` bytes at `start` are `path` mapped (a full table leaves the mapping
/// unguarded).
pub(crate) fn register(start: *const u8, len: usize, path: &Path) {
    let text = format!(
        "inertia: {}: the file changed while being read (it was truncated or rewritten by another program)\n",
        crate::error::clip(&path.display().to_string())
    );
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

#[cfg(target_os = "linux")]
extern "C" fn on_sigbus(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler of SIGBUS.
    let addr = unsafe { (*info).si_addr() } as usize;
    for s in &TABLE {
        let len = s.len.load(Ordering::Acquire);
        let start = s.start.load(Ordering::Acquire);
        if len != 0 && addr >= start && addr - start < len {
            // Several threads reading the cut file fault together: the first says so and
            // ends the process, the others wait for that (the line was printed twice).
            if SAID.swap(true, Ordering::AcqRel) {
                loop {
                    // SAFETY: pause is async-signal-safe; the first thread's _exit ends it.
                    unsafe { libc::pause() };
                }
            }
            let p = s.msg.load(Ordering::Acquire);
            let n = s.msg_len.load(Ordering::Acquire);
            // SAFETY: write and _exit are async-signal-safe; the message outlives the
            // mapping's registration.
            unsafe {
                if !p.is_null() {
                    libc::write(2, p.cast(), n);
                }
                libc::_exit(2);
            }
        }
    }
    // Not a mapped input: the default action, as if no handler were installed.
    // SAFETY: restoring the default disposition is async-signal-safe; returning re-runs the
    // faulting access, which then raises SIGBUS with it.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
    }
}

/// Installs the `SIGBUS` handler (Linux; elsewhere it does nothing). Call once, early, from
/// a program that reads mapped input.
pub fn catch_truncation() {
    #[cfg(target_os = "linux")]
    // SAFETY: a plain sigaction with a handler that only reads atomics and calls
    // async-signal-safe functions.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}
