//! A linear support vector machine trained by dual coordinate descent
//! (Hsieh, Chang, Lin, Keerthi and Sundararajan, ICML 2008: liblinear's
//! L1-loss dual solver), each example with its own cost. Written here
//! rather than taken from a crate: the method is thirty lines, needs no
//! matrix library, trains straight on [`Features`]' sparse rows with
//! the weights dense over the hashed columns, and lets each example
//! weigh as its signal does (a bookmark, a skip, a paper merely listed).

use super::features::Features;

/// Sparse rows to train on: columns and values.
pub trait Rows {
    /// Row `i`: its columns and values.
    fn row(&self, i: usize) -> (&[u32], &[f32]);

    /// The dot product of row `i` with dense weights `w`.
    fn dot(&self, i: usize, w: &[f32]) -> f32 {
        let (c, v) = self.row(i);
        c.iter().zip(v).map(|(&c, &v)| w[c as usize] * v).sum()
    }
}

impl Rows for Features {
    fn row(&self, i: usize) -> (&[u32], &[f32]) {
        Features::row(self, i)
    }
}

/// The loss a margin short of 1 costs: the hinge (liblinear's L1-loss
/// SVM), or its square (L2-loss, liblinear's and scikit-learn's
/// `LinearSVC` default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    Hinge,
    SquaredHinge,
}

/// One training example: a row of the features, its side, its cost.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    pub row: u32,
    pub positive: bool,
    pub cost: f32,
}

/// A trained linear model: a weight per column and a bias.
#[derive(Clone, Debug)]
pub struct Linear {
    pub weights: Vec<f32>,
    pub bias: f32,
}

/// Passes over the examples at most; the solver usually stops sooner.
const MAX_EPOCHS: usize = 30;
/// The stopping tolerance on the projected gradient's spread.
const TOLERANCE: f32 = 0.05;

impl Linear {
    /// Trains on `examples` of `features` (`dim` columns).
    pub fn train(features: &impl Rows, examples: &[Example], dim: usize, loss: Loss) -> Linear {
        let mut w = vec![0f32; dim];
        let mut bias = 0f32;
        let mut alpha = vec![0f32; examples.len()];
        // The squared hinge's diagonal term: 1/(2C), no upper bound.
        let diag = |e: &Example| match loss {
            Loss::Hinge => 0.0,
            Loss::SquaredHinge => 0.5 / e.cost,
        };
        let bound = |e: &Example| match loss {
            Loss::Hinge => e.cost,
            Loss::SquaredHinge => f32::INFINITY,
        };
        // ‖x‖² + 1 (the bias's column) + the diagonal term.
        let q: Vec<f32> = examples
            .iter()
            .map(|e| {
                let (_, v) = features.row(e.row as usize);
                v.iter().map(|x| x * x).sum::<f32>() + 1.0 + diag(e)
            })
            .collect();
        let mut order: Vec<usize> = (0..examples.len()).collect();
        let mut rng = 0x853c_49e6_748f_ea9bu64;
        for _ in 0..MAX_EPOCHS {
            // Fisher–Yates with a fixed xorshift: the same model every run.
            for i in (1..order.len()).rev() {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                order.swap(i, (rng % (i as u64 + 1)) as usize);
            }
            let (mut hi, mut lo) = (f32::MIN, f32::MAX);
            for &k in &order {
                let e = examples[k];
                let y = if e.positive { 1.0 } else { -1.0 };
                let a = alpha[k];
                let g = y * (features.dot(e.row as usize, &w) + bias) - 1.0 + diag(&e) * a;
                let pg = if a == 0.0 {
                    g.min(0.0)
                } else if a >= bound(&e) {
                    g.max(0.0)
                } else {
                    g
                };
                hi = hi.max(pg);
                lo = lo.min(pg);
                if pg.abs() > 1e-12 {
                    let new = (a - g / q[k]).clamp(0.0, bound(&e));
                    let d = (new - a) * y;
                    alpha[k] = new;
                    let (c, v) = features.row(e.row as usize);
                    for (&c, &v) in c.iter().zip(v) {
                        w[c as usize] += d * v;
                    }
                    bias += d;
                }
            }
            if hi - lo < TOLERANCE {
                break;
            }
        }
        Linear { weights: w, bias }
    }

    /// The model's score of row `i` (positive: on the positive side).
    pub fn score(&self, features: &impl Rows, i: usize) -> f32 {
        features.dot(i, &self.weights) + self.bias
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::paper;

    #[test]
    fn separates_two_subjects() {
        let mut papers = Vec::new();
        for i in 0..10 {
            papers.push(paper(
                &format!("Galaxy survey {i}"),
                "galaxies stars redshift telescope",
            ));
            papers.push(paper(
                &format!("Graph coloring {i}"),
                "graphs vertices chromatic edges",
            ));
        }
        let f = Features::build(&papers);
        let ex: Vec<Example> = (0..6)
            .map(|i| Example {
                row: i,
                positive: i % 2 == 0,
                cost: 1.0,
            })
            .collect();
        for loss in [Loss::Hinge, Loss::SquaredHinge] {
            let m = Linear::train(&f, &ex, super::super::features::DIM, loss);
            for i in 6..20 {
                assert_eq!(m.score(&f, i) > 0.0, i % 2 == 0, "paper {i}, {loss:?}");
            }
        }
    }
}
