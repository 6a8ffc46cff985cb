//! A row (or column) of QR modules as a bitset of `N` 64-bit words: bit `x` is module `x`, set
//! when dark. Mask scoring works on whole lines at once with shifts and popcounts, which is what
//! makes the encoder fast (see `penalty.rs`).

/// One line of up to `64 × N` modules.
pub(crate) type Line<const N: usize> = [u64; N];

/// The line with modules `0..len` set.
pub(crate) fn ones<const N: usize>(len: usize) -> Line<N> {
    let mut line = [0; N];
    for (i, word) in line.iter_mut().enumerate() {
        let start = i * 64;
        *word = match len.saturating_sub(start) {
            0 => 0,
            n if n >= 64 => u64::MAX,
            n => (1u64 << n) - 1,
        };
    }
    line
}

/// Module `x` of the line.
pub(crate) fn get<const N: usize>(line: &Line<N>, x: usize) -> bool {
    line[x / 64] >> (x % 64) & 1 == 1
}

/// Makes module `x` dark.
pub(crate) fn set<const N: usize>(line: &mut Line<N>, x: usize) {
    line[x / 64] |= 1 << (x % 64);
}

/// Makes module `x` light.
pub(crate) fn clear<const N: usize>(line: &mut Line<N>, x: usize) {
    line[x / 64] &= !(1 << (x % 64));
}

/// Bit `x` of the result is module `x + k` of the line (`k < 64`).
pub(crate) fn shr<const N: usize>(line: &Line<N>, k: usize) -> Line<N> {
    if k == 0 {
        return *line;
    }
    let mut out = [0; N];
    for i in 0..N {
        out[i] = line[i] >> k;
        if i + 1 < N {
            out[i] |= line[i + 1] << (64 - k);
        }
    }
    out
}

/// Bit `x` of the result is module `x − 1` of the line (bit 0 is light).
pub(crate) fn shl1<const N: usize>(line: &Line<N>) -> Line<N> {
    let mut out = [0; N];
    for i in 0..N {
        out[i] = line[i] << 1;
        if i > 0 {
            out[i] |= line[i - 1] >> 63;
        }
    }
    out
}

/// Word-by-word AND.
pub(crate) fn and<const N: usize>(a: &Line<N>, b: &Line<N>) -> Line<N> {
    std::array::from_fn(|i| a[i] & b[i])
}

/// Word-by-word AND NOT (`a & !b`).
pub(crate) fn and_not<const N: usize>(a: &Line<N>, b: &Line<N>) -> Line<N> {
    std::array::from_fn(|i| a[i] & !b[i])
}

/// Word-by-word OR.
pub(crate) fn or<const N: usize>(a: &Line<N>, b: &Line<N>) -> Line<N> {
    std::array::from_fn(|i| a[i] | b[i])
}

/// Word-by-word XOR.
pub(crate) fn xor<const N: usize>(a: &Line<N>, b: &Line<N>) -> Line<N> {
    std::array::from_fn(|i| a[i] ^ b[i])
}

/// Word-by-word complement.
pub(crate) fn not<const N: usize>(a: &Line<N>) -> Line<N> {
    std::array::from_fn(|i| !a[i])
}

/// Dark modules in the line.
pub(crate) fn count<const N: usize>(a: &Line<N>) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_across_word_boundaries() {
        let mut line: Line<3> = [0; 3];
        set(&mut line, 64);
        set(&mut line, 130);
        let right = shr(&line, 3);
        assert!(get(&right, 61) && get(&right, 127));
        assert_eq!(count(&right), 2);
        let left = shl1(&line);
        assert!(get(&left, 65) && get(&left, 131));
    }

    #[test]
    fn masks_exactly_the_first_len_modules() {
        let m: Line<3> = ones(130);
        assert_eq!(count(&m), 130);
        assert!(get(&m, 129) && !get(&m, 130));
        let mut line = m;
        clear(&mut line, 0);
        assert_eq!(count(&line), 129);
    }
}
