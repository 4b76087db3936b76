//! Fast scanning of text formats (ASCII STL, OBJ), split across threads at line starts.
//!
//! The parallel readers accept only well-formed input and say `None` at the first surprise;
//! their callers then run the sequential reader, which names the line at fault. Chunk
//! boundaries depend on the bytes alone, and chunks are joined in file order, so the result
//! does not depend on the number of threads.

/// Bytes per chunk, about: large enough to amortise a thread's start, small enough to share
/// work between cores.
pub(crate) const CHUNK: usize = 1 << 20;

/// Chunk boundaries: `0`, then, after every `CHUNK` bytes, the start of the first line at
/// or after it for which `starts` holds, then `bytes.len()`.
pub(crate) fn split(bytes: &[u8], starts: impl Fn(&[u8]) -> bool) -> Vec<usize> {
    let mut cuts = vec![0];
    let mut at = CHUNK;
    while at < bytes.len() {
        // The next line start at or after `at` that may begin a chunk.
        let mut pos = at;
        let found = loop {
            match bytes[pos - 1..].iter().position(|&b| b == b'\n') {
                Some(nl) => {
                    pos += nl;
                    if pos >= bytes.len() {
                        break None;
                    }
                    if starts(&bytes[pos..]) {
                        break Some(pos);
                    }
                    pos += 1;
                }
                None => break None,
            }
        };
        match found {
            Some(p) => {
                cuts.push(p);
                at = p + CHUNK;
            }
            None => break,
        }
    }
    cuts.push(bytes.len());
    cuts
}

/// Whether `line`'s first word (after blanks) is `word`, in any case.
pub(crate) fn first_word_is(line: &[u8], word: &[u8]) -> bool {
    let start = line
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(line.len());
    let rest = &line[start..];
    rest.len() > word.len()
        && rest[..word.len()].eq_ignore_ascii_case(word)
        && rest[word.len()].is_ascii_whitespace()
}

/// A cursor over whitespace-separated words.
pub(crate) struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Self {
        Scanner { b, i: 0 }
    }

    /// Skips blanks and line ends.
    #[inline]
    fn skip_space(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    /// The next word, across lines.
    #[inline]
    pub(crate) fn word(&mut self) -> Option<&'a [u8]> {
        self.skip_space();
        let start = self.i;
        while self.i < self.b.len() && !self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        (self.i > start).then(|| &self.b[start..self.i])
    }

    /// Whether the next word is `word`, in any case.
    #[inline]
    pub(crate) fn expect(&mut self, word: &[u8]) -> Option<()> {
        self.word()?.eq_ignore_ascii_case(word).then_some(())
    }

    /// The next word as a number (finite or not), across lines; it must end at a blank,
    /// a line end, `#` (when `hash_ends` is set) or the end of the input.
    #[inline]
    pub(crate) fn number(&mut self, hash_ends: bool) -> Option<f64> {
        self.skip_space();
        let (v, n) = fast_float2::parse_partial::<f64, _>(&self.b[self.i..]).ok()?;
        self.i += n;
        match self.b.get(self.i) {
            None => Some(v),
            Some(c) if c.is_ascii_whitespace() || (hash_ends && *c == b'#') => Some(v),
            _ => None,
        }
    }

    /// Skips the rest of the current line and its line end; whether there was one.
    #[inline]
    pub(crate) fn next_line(&mut self) -> bool {
        match self.b[self.i..].iter().position(|&c| c == b'\n') {
            Some(p) => {
                self.i += p + 1;
                true
            }
            None => {
                self.i = self.b.len();
                false
            }
        }
    }

    /// The first word of the current line (blanks skipped, `#` ends it), if any.
    #[inline]
    pub(crate) fn word_in_line(&mut self) -> Option<&'a [u8]> {
        self.peek_in_line()?;
        let start = self.i;
        while self.i < self.b.len()
            && !self.b[self.i].is_ascii_whitespace()
            && self.b[self.i] != b'#'
        {
            self.i += 1;
        }
        Some(&self.b[start..self.i])
    }

    /// Whether nothing is left.
    #[inline]
    pub(crate) fn at_end(&self) -> bool {
        self.i >= self.b.len()
    }

    /// Skips blanks (not line ends); the next byte of the line, if any (`#` ends a line).
    #[inline]
    pub(crate) fn peek_in_line(&mut self) -> Option<u8> {
        while self.i < self.b.len() && (self.b[self.i] == b' ' || self.b[self.i] == b'\t') {
            self.i += 1;
        }
        match self.b.get(self.i) {
            None | Some(b'\n' | b'\r' | b'#') => None,
            Some(&c) => Some(c),
        }
    }

    /// A vertex reference of an OBJ face: a signed integer, then anything up to the next
    /// blank (`/t/n` parts).
    #[inline]
    pub(crate) fn reference(&mut self) -> Option<i64> {
        let neg = self.b.get(self.i) == Some(&b'-');
        if neg || self.b.get(self.i) == Some(&b'+') {
            self.i += 1;
        }
        let start = self.i;
        let mut v: i64 = 0;
        while let Some(&c) = self.b.get(self.i) {
            if !c.is_ascii_digit() {
                break;
            }
            v = v.checked_mul(10)?.checked_add((c - b'0') as i64)?;
            self.i += 1;
        }
        if self.i == start {
            return None;
        }
        match self.b.get(self.i) {
            None => {}
            Some(b'/') => {
                while self.i < self.b.len() && !self.b[self.i].is_ascii_whitespace() {
                    if self.b[self.i] == b'#' {
                        break;
                    }
                    self.i += 1;
                }
            }
            Some(c) if c.is_ascii_whitespace() || *c == b'#' => {}
            _ => return None,
        }
        Some(if neg { -v } else { v })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_line_starts_that_qualify() {
        let mut text = Vec::new();
        while text.len() < 3 * CHUNK {
            text.extend_from_slice(b"facet normal 0 0 1\n  vertex 1 2 3\n");
        }
        let cuts = split(&text, |l| first_word_is(l, b"facet"));
        assert!(cuts.len() >= 4);
        assert_eq!((cuts[0], *cuts.last().unwrap()), (0, text.len()));
        for c in &cuts[1..cuts.len() - 1] {
            assert!(text[*c..].starts_with(b"facet "));
        }
        // Nowhere to cut: one chunk.
        assert_eq!(split(&vec![b'x'; 3 * CHUNK], |_| true), vec![0, 3 * CHUNK]);
    }

    #[test]
    fn scans_words_numbers_and_references() {
        let mut s = Scanner::new(b"  Facet 1.5e3\n-2 nan 3x 7/8/9 -4//2 5#c");
        assert_eq!(s.word(), Some(&b"Facet"[..]));
        assert_eq!(s.number(false), Some(1500.0));
        assert_eq!(s.number(false), Some(-2.0));
        assert!(s.number(false).unwrap().is_nan());
        assert_eq!(s.number(false), None); // 3x
        let mut s = Scanner::new(b"7/8/9 -4//2 5#c\n");
        assert_eq!(s.reference(), Some(7));
        assert_eq!(s.peek_in_line(), Some(b'-'));
        assert_eq!(s.reference(), Some(-4));
        assert_eq!(s.peek_in_line(), Some(b'5'));
        assert_eq!(s.reference(), Some(5));
        assert_eq!(s.peek_in_line(), None);
        assert!(first_word_is(b"\t FACET normal", b"facet"));
        assert!(!first_word_is(b"facets", b"facet"));
    }
}
