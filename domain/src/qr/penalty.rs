//! The ISO/IEC 18004 mask penalty (§7.8.3), computed bit-parallel on whole lines:
//!
//! * N1: each run of 5 or more same-coloured modules in a row or column scores `3 + (run − 5)`;
//! * N2: each 2×2 block of one colour scores 3;
//! * N3: each `1011101` finder-like pattern with 4 light modules on one side scores 40;
//! * N4: 10 for every 5 % the dark share strays from 50 %.
//!
//! The encoder keeps the mask with the lowest total (the first one on ties).

use super::line::{self, Line};

/// `dark light dark dark dark light dark` then 4 light, read from bit 0.
const FINDER_THEN_LIGHT: u16 = 0b000_0101_1101;
/// 4 light then `dark light dark dark dark light dark`, read from bit 0.
const LIGHT_THEN_FINDER: u16 = 0b101_1101_0000;

/// N1 + N3 for one row or column of `size` modules.
pub(crate) fn line_penalty<const N: usize>(l: &Line<N>, size: usize) -> u32 {
    // Bit i: module i has the same colour as module i + 1.
    let same_next = line::and(&line::not(&line::xor(l, &line::shr(l, 1))), &line::ones(size - 1));
    // Bit i: modules i..i+4 all have one colour, i.e. a 5-window inside a run.
    let mut five = same_next;
    for k in 1..4 {
        five = line::and(&five, &line::shr(&same_next, k));
    }
    // A run of length L ≥ 5 holds L − 4 windows and scores L − 2: add 2 per run start.
    let run_starts = line::and_not(&five, &line::shl1(&five));
    let n1 = line::count(&five) + 2 * line::count(&run_starts);

    let windows = line::ones::<N>(size.saturating_sub(10));
    let (mut a, mut b) = (windows, windows);
    for i in 0..11 {
        let shifted = line::shr(l, i);
        a = if FINDER_THEN_LIGHT >> i & 1 == 1 { line::and(&a, &shifted) } else { line::and_not(&a, &shifted) };
        b = if LIGHT_THEN_FINDER >> i & 1 == 1 { line::and(&b, &shifted) } else { line::and_not(&b, &shifted) };
    }
    let n3 = 40 * (line::count(&a) + line::count(&b));
    n1 + n3
}

/// The whole penalty of a symbol given its rows and its columns (the same modules, transposed).
pub(crate) fn penalty<const N: usize>(rows: &[Line<N>], cols: &[Line<N>], size: usize) -> u32 {
    let mut total = 0;
    for l in rows.iter().chain(cols) {
        total += line_penalty(l, size);
    }
    let inner = line::ones::<N>(size - 1);
    for pair in rows.windows(2) {
        let (upper, lower) = (&pair[0], &pair[1]);
        let same_below = line::not(&line::xor(upper, lower));
        let same_right = line::not(&line::xor(upper, &line::shr(upper, 1)));
        let block = line::and(&line::and(&same_below, &line::shr(&same_below, 1)), &line::and(&same_right, &inner));
        total += 3 * line::count(&block);
    }
    let dark: u32 = rows.iter().map(line::count).sum();
    let all = (size * size) as u32;
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
        let pattern_a = [true, false, true, true, true, false, true, false, false, false, false];
        let pattern_b = [false, false, false, false, true, false, true, true, true, false, true];
        let n3 = modules
            .windows(11)
            .filter(|w| *w == pattern_a || *w == pattern_b)
            .count() as u32
            * 40;
        n1 + n3
    }

    #[test]
    fn scores_runs_of_five_or_more() {
        assert_eq!(line_penalty(&line_of("#####...."), 9), 3);
        assert_eq!(line_penalty(&line_of("#######.#"), 9), 5);
        assert_eq!(line_penalty(&line_of("#.#.#.#.#"), 9), 0);
    }

    #[test]
    fn scores_finder_like_patterns_with_four_light_modules() {
        assert_eq!(line_penalty(&line_of("#.###.#...."), 11), 40);
        assert_eq!(line_penalty(&line_of("....#.###.#"), 11), 40);
    }

    #[test]
    fn agrees_with_the_module_by_module_rules_on_every_pattern_of_16() {
        for bits in 0u32..(1 << 16) {
            let modules: Vec<bool> = (0..16).map(|i| bits >> i & 1 == 1).collect();
            let l = [u64::from(bits)];
            assert_eq!(line_penalty(&l, 16), slow_line_penalty(&modules), "{bits:016b}");
        }
    }
}
