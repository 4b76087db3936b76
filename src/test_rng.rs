//! A seeded generator for the unit tests: the same numbers on every machine and thread
//! count, so that a failing random case is found again from its seed.

/// A linear congruential generator (Knuth's MMIX constants), its state the last number.
pub(crate) struct Lcg(pub(crate) u64);

impl Lcg {
    /// The next state.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }

    /// An integer below `m`, from the state's high bits.
    pub(crate) fn below(&mut self, m: u64) -> u64 {
        (self.next() >> 33) % m
    }

    /// A float in [0, 1), from the state's 53 high bits.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
