//! One line instead of a signal when a mapped input is truncated by another program while
//! it is read: the binary's `SIGBUS` handler, over the library's table of mapped files
//! ([`inertia::details::fault_message`]).

/// Set by the first thread whose read of a mapped file faulted: only it prints.
#[cfg(target_os = "linux")]
static REPORTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
extern "C" fn on_sigbus(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    use std::sync::atomic::Ordering;
    // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler of SIGBUS.
    let addr = unsafe { (*info).si_addr() } as usize;
    // SAFETY: called from the handler of the fault, the slice not kept past it.
    if let Some(msg) = unsafe { inertia::details::fault_message(addr) } {
        // Threads reading the file in parallel may all fault at once: one prints, the
        // others wait for its `_exit` (returning would fault again).
        if REPORTING.swap(true, Ordering::AcqRel) {
            loop {
                // SAFETY: pause is async-signal-safe.
                unsafe {
                    libc::pause();
                }
            }
        }
        const PREFIX: &[u8] = b"inertia: ";
        // SAFETY: write and _exit are async-signal-safe; the message outlives the
        // mapping's registration.
        unsafe {
            libc::write(2, PREFIX.as_ptr().cast(), PREFIX.len());
            libc::write(2, msg.as_ptr().cast(), msg.len());
            libc::write(2, b"\n".as_ptr().cast(), 1);
            libc::_exit(2);
        }
    }
    // Not a mapped input: the default action, as if no handler were installed.
    // SAFETY: restoring the default disposition is async-signal-safe; returning re-runs the
    // faulting access, which then raises SIGBUS with it.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
    }
}

/// Installs the `SIGBUS` handler (Linux; elsewhere it does nothing). Called once, first
/// thing in `main`.
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
