//! An input's bytes: a file mapped or read into memory, or a stream read up to a limit.

use super::guard;
use std::ops::Deref;
use std::path::Path;

/// An input's bytes: a memory-mapped file, or bytes read from a stream.
///
/// # Examples
/// ```
/// let b = inertia::io::Bytes::Owned(b"[[0,0],[1,0],[0,1]]".to_vec());
/// assert_eq!(b.len(), 19);
/// ```
pub enum Bytes {
    /// A mapped file (no copy).
    Mapped(memmap2::Mmap),
    /// Bytes in memory (standard input, or an empty file).
    Owned(Vec<u8>),
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        if let Bytes::Mapped(m) = self {
            guard::unregister(m.as_ptr());
        }
    }
}

/// Files smaller than this are read into memory; larger ones are mapped (and guarded: a
/// `SIGBUS` handler can find the message of a file truncated meanwhile).
pub const MAP_THRESHOLD: u64 = 32 << 20;

/// The most [`Bytes::open`] reads from a stream: 4 GiB.
pub const DEFAULT_MAX_STREAM_BYTES: u64 = 4 << 30;

impl Bytes {
    /// Maps the file at `path` (reads it if it cannot be mapped), or reads standard input
    /// when `path` is `-`.
    ///
    /// # Errors
    /// The file cannot be opened, read or mapped.
    ///
    /// # Examples
    /// ```
    /// let b = inertia::io::Bytes::open("fixtures/polygon/unit_square.json".as_ref())?;
    /// assert!(b.starts_with(b"[[0,0]"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open(path: &Path) -> std::io::Result<Bytes> {
        Self::open_limited(path, DEFAULT_MAX_STREAM_BYTES)
    }

    /// [`Bytes::open`], reading at most `max` bytes from a stream (standard input, a pipe,
    /// a device): an endless one (`/dev/zero`, `yes |`) is refused at that size instead of
    /// being read until memory runs out. Regular files are mapped whatever their size.
    ///
    /// # Errors
    /// The file cannot be opened, read or mapped, or a stream holds more than `max` bytes
    /// (an I/O error wrapping [`Error::TooLarge`](crate::Error::TooLarge)).
    ///
    /// # Examples
    /// ```
    /// let e = inertia::io::Bytes::open_limited(std::path::Path::new("/dev/zero"), 1000).err().unwrap();
    /// assert_eq!(e.to_string(), "the stream goes on past 1000 bytes");
    /// // The limit is a typed error inside the I/O error.
    /// let inner = e.get_ref().and_then(|e| e.downcast_ref::<inertia::Error>());
    /// assert!(matches!(
    ///     inner,
    ///     Some(inertia::Error::TooLarge { excess: inertia::error::Excess::Stream { max: 1000 } })
    /// ));
    /// ```
    pub fn open_limited(path: &Path, max: u64) -> std::io::Result<Bytes> {
        use std::io::Read;
        let bounded = |r: &mut dyn Read| -> std::io::Result<Bytes> {
            let mut v = Vec::new();
            r.take(max.saturating_add(1)).read_to_end(&mut v)?;
            if v.len() as u64 > max {
                return Err(std::io::Error::other(crate::Error::TooLarge {
                    excess: crate::error::Excess::Stream { max },
                }));
            }
            Ok(Bytes::Owned(v))
        };
        if path.as_os_str() == "-" {
            return bounded(&mut std::io::stdin());
        }
        let file = std::fs::File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(std::io::Error::other("is a directory"));
        }
        if meta.len() == 0 || !meta.is_file() {
            return bounded(&mut &file);
        }
        if meta.len() < MAP_THRESHOLD {
            // Read outright: a file that shrinks meanwhile gives a short read, not a signal.
            let mut v = Vec::with_capacity(meta.len() as usize);
            (&file).take(MAP_THRESHOLD).read_to_end(&mut v)?;
            return Ok(Bytes::Owned(v));
        }
        // SAFETY: the map is read-only and private to this process. A file truncated by
        // another process while we read it raises SIGBUS on the lost pages: the mapping is
        // registered with `guard`, whose handler (installed by the program) names the file
        // and exits with code 2.
        match unsafe { memmap2::Mmap::map(&file) } {
            Ok(m) => {
                guard::register(m.as_ptr(), m.len(), path);
                Ok(Bytes::Mapped(m))
            }
            Err(_) => {
                let mut v = Vec::new();
                (&file).read_to_end(&mut v)?;
                Ok(Bytes::Owned(v))
            }
        }
    }
}
