//! The ISO/IEC 18004 mask penalty (§7.8.3), computed bit-parallel on whole lines:
//!
//! * N1: each run of 5 or more same-coloured modules in a row or column scores `3 + (run − 5)`;
//! * N2: each 2×2 block of one colour scores 3;
//! * N3: each `1011101` finder-like pattern with 4 light modules on one side scores 40;
//! * N4: 10 for every 5 % the dark share strays from 50 %.
//!
//! The encoder keeps the mask with the lowest total (the first one on ties).

use super::line::{self, Line};

/// The "module in range" masks a line of a given size needs, computed once per symbol.
pub(crate) struct Ranges<const N: usize> {
    size: usize,
    /// Modules that have a right neighbour.
    pairs: Line<N>,
    /// Modules where a 5-run can start.
    fives: Line<N>,
    /// Modules where an 11-module finder-like window can start.
    elevens: Line<N>,
}

impl<const N: usize> Ranges<N> {
    pub(crate) fn new(size: usize) -> Self {
        Self {
            size,
            pairs: line::ones(size - 1),
            fives: line::ones(size.saturating_sub(4)),
            elevens: line::ones(size.saturating_sub(10)),
        }
    }
}

/// N1 + N3 for one row or column.
pub(crate) fn line_penalty<const N: usize>(l: &Line<N>, ranges: &Ranges<N>) -> u32 {
    let s1 = line::shr(l, 1);
    let s2 = line::shr(l, 2);
    let s3 = line::shr(l, 3);
    let s4 = line::shr(l, 4);
    // Bit i: modules i..i+4 all have one colour, i.e. a 5-window inside a run.
    let all_dark = line::and(&line::and(l, &s1), &line::and(&line::and(&s2, &s3), &s4));
    let all_light = line::not(&line::or(
        &line::or(l, &s1),
        &line::or(&line::or(&s2, &s3), &s4),
    ));
    let five = line::and(&line::or(&all_dark, &all_light), &ranges.fives);
    // A run of length L ≥ 5 holds L − 4 windows and scores L − 2: add 2 per run start.
    let run_starts = line::and_not(&five, &line::shl1(&five));
    let n1 = line::count(&five) + 2 * line::count(&run_starts);

    // Bit i: modules i..i+6 read dark-light-dark-dark-dark-light-dark.
    let core = line::and_not(
        &line::and(
            &line::and(l, &s2),
            &line::and(&line::and(&s3, &s4), &line::shr(l, 6)),
        ),
        &line::or(&s1, &line::shr(l, 5)),
    );
    // Bit i: modules i..i+3 are light.
    let light4 = line::not(&line::or(&line::or(l, &s1), &line::or(&s2, &s3)));
    let finder_then_light = line::and(&core, &line::shr(&light4, 7));
    let light_then_finder = line::and(&light4, &line::shr(&core, 4));
    let windows = line::and(
        &line::or(&finder_then_light, &light_then_finder),
        &ranges.elevens,
    );
    // The two shapes cannot both start at one module, so one count covers both.
    let n3 = 40 * line::count(&windows);
    n1 + n3
}

/// The whole penalty of a symbol given its rows and its columns (the same modules, transposed).
pub(crate) fn penalty<const N: usize>(
    rows: &[Line<N>],
    cols: &[Line<N>],
    ranges: &Ranges<N>,
) -> u32 {
    let mut total = 0;
    for l in rows.iter().chain(cols) {
        total += line_penalty(l, ranges);
    }
    for pair in rows.windows(2) {
        let (upper, lower) = (&pair[0], &pair[1]);
        let same_below = line::not(&line::xor(upper, lower));
        let same_right = line::not(&line::xor(upper, &line::shr(upper, 1)));
        let block = line::and(
            &line::and(&same_below, &line::shr(&same_below, 1)),
            &line::and(&same_right, &ranges.pairs),
        );
        total += 3 * line::count(&block);
    }
    let dark: u32 = rows.iter().map(line::count).sum();
    let all = (ranges.size * ranges.size) as u32;
    let k = (20 * dark).abs_diff(10 * all) / all;
    total + 10 * k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of(modules: &str) -> Line<1> {
        let mut l = [0u64; 1];
        for (x, c) in modules.chars().enumerate() {
            if c == '#' {
                line::set(&mut l, x);
            }
        }
        l
    }

    /// The same rules, one module at a time.
    fn slow_line_penalty(modules: &[bool]) -> u32 {
        let mut n1 = 0;
        let mut run = 1;
        for i in 1..=modules.len() {
            if i < modules.len() && modules[i] == modules[i - 1] {
                run += 1;
            } else {
                if run >= 5 {
                    n1 += run - 2;
                }
                run = 1;
            }
        }
        let pattern_a = [
            true, false, true, true, true, false, true, false, false, false, false,
        ];
        let pattern_b = [
            false, false, false, false, true, false, true, true, true, false, true,
        ];
        let n3 = modules
            .windows(11)
            .filter(|w| *w == pattern_a || *w == pattern_b)
            .count() as u32
            * 40;
        n1 + n3
    }

    #[test]
    fn scores_runs_of_five_or_more() {
        let r = Ranges::new(9);
        assert_eq!(line_penalty(&line_of("#####...."), &r), 3);
        assert_eq!(line_penalty(&line_of("#######.#"), &r), 5);
        assert_eq!(line_penalty(&line_of("#.#.#.#.#"), &r), 0);
    }

    #[test]
    fn scores_finder_like_patterns_with_four_light_modules() {
        let r = Ranges::new(11);
        assert_eq!(line_penalty(&line_of("#.###.#...."), &r), 40);
        assert_eq!(line_penalty(&line_of("....#.###.#"), &r), 40);
    }

    #[test]
    fn agrees_with_the_module_by_module_rules_on_every_pattern_of_16() {
        let r = Ranges::new(16);
        for bits in 0u32..(1 << 16) {
            let modules: Vec<bool> = (0..16).map(|i| bits >> i & 1 == 1).collect();
            let l = [u64::from(bits)];
            assert_eq!(
                line_penalty(&l, &r),
                slow_line_penalty(&modules),
                "{bits:016b}"
            );
        }
    }

    #[test]
    fn agrees_with_the_module_by_module_rules_across_word_boundaries() {
        // Lines of 150 modules (three words) built from a simple generator.
        let r = Ranges::<3>::new(150);
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            let mut l = [0u64; 3];
            let mut modules: Vec<bool> = Vec::with_capacity(150);
            for x in 0..150 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Long runs and finder shapes need a biased source: keep the colour 3/4 of the time.
                let dark = if x == 0 {
                    seed & 1 == 1
                } else if seed.is_multiple_of(4) {
                    !modules[x - 1]
                } else {
                    modules[x - 1]
                };
                if dark {
                    line::set(&mut l, x);
                }
                modules.push(dark);
            }
            assert_eq!(line_penalty(&l, &r), slow_line_penalty(&modules));
        }
    }
}
