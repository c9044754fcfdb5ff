//! Timing two implementations side by side, in one run: alternating
//! rounds, so that a noisy neighbour slows both alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The outcome of [`compare`].
pub struct Comparison {
    /// hclwright's best pass.
    pub ours: Duration,
    /// The other implementation's best pass.
    pub theirs: Duration,
    /// Each round's ratio (their time over ours), sorted.
    pub ratios: Vec<f64>,
}

/// Runs each pass once to warm up, then `rounds` rounds of one pass of
/// each, alternating which goes first.
pub fn compare<A, B>(
    rounds: usize,
    mut ours: impl FnMut() -> A,
    mut theirs: impl FnMut() -> B,
) -> Comparison {
    time(&mut ours);
    time(&mut theirs);
    let (mut best_ours, mut best_theirs) = (Duration::MAX, Duration::MAX);
    let mut ratios = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let (a, b) = if round % 2 == 0 {
            let a = time(&mut ours);
            (a, time(&mut theirs))
        } else {
            let b = time(&mut theirs);
            (time(&mut ours), b)
        };
        best_ours = best_ours.min(a);
        best_theirs = best_theirs.min(b);
        ratios.push(b.as_secs_f64() / a.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    Comparison {
        ours: best_ours,
        theirs: best_theirs,
        ratios,
    }
}

impl Comparison {
    /// The median of the rounds' ratios.
    pub fn median(&self) -> f64 {
        self.ratios[self.ratios.len() / 2]
    }

    /// The verdict line: the ratio of the best passes, the median and
    /// range of the rounds' ratios, and whether the median meets `target`.
    pub fn verdict(&self, target: f64) -> String {
        let ratio = self.theirs.as_secs_f64() / self.ours.as_secs_f64();
        let median = self.median();
        let verdict = if median >= target { "met" } else { "NOT met" };
        format!(
            "hclwright is {ratio:.2}x as fast (best passes); median of the rounds' ratios {median:.2}x \
             (range {:.2}x to {:.2}x); target >= {target}x: {verdict}",
            self.ratios[0],
            self.ratios[self.ratios.len() - 1]
        )
    }
}

/// How long `f` takes; what it returns is freed after the clock stops.
pub fn time<T>(mut f: impl FnMut() -> T) -> Duration {
    let start = Instant::now();
    let out = black_box(f());
    let elapsed = start.elapsed();
    drop(out);
    elapsed
}
