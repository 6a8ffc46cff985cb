//! A QR Code Model 2 encoder (ISO/IEC 18004) for what Balcão needs: byte mode, levels M and Q,
//! versions 1–40, automatic or fixed version and mask.
//!
//! Why our own: BR Codes are short and Balcão renders one per request; the general-purpose
//! encoders spend most of their time scoring the 8 masks module by module. Here the symbol is
//! held as bitset lines and scored with shifts and popcounts (`penalty.rs`), which makes the
//! whole encode a few microseconds. Tests compare every version, level and mask module for
//! module with the independent `fast_qr` encoder and decode the results with `rqrr`.

use super::EcLevel;
use super::line::{self, Line};
use super::penalty::{Ranges, penalty};

/// Error-correction codewords per block, versions 1–40 (ISO/IEC 18004 table 9), level M.
const ECC_PER_BLOCK_M: [u8; 40] = [
    10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
/// Error-correction codewords per block, level Q.
const ECC_PER_BLOCK_Q: [u8; 40] = [
    13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30,
    30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
];
/// Error-correction blocks, level M.
const BLOCKS_M: [u8; 40] = [
    1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25,
    26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];
/// Error-correction blocks, level Q.
const BLOCKS_Q: [u8; 40] = [
    1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34,
    34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
];

/// GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1: antilog table, doubled so products of
/// two logs index it without a modulo.
static EXP: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut x: u16 = 1;
    let mut i = 0;
    while i < 255 {
        table[i] = x as u8;
        table[i + 255] = x as u8;
        x <<= 1;
        if x & 0x100 != 0 {
            x ^= 0x11D;
        }
        i += 1;
    }
    table
};

/// GF(256) logarithms (`LOG[0]` unused).
static LOG: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 255 {
        table[EXP[i] as usize] = i as u8;
        i += 1;
    }
    table
};

fn gf_mul(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else {
        EXP[usize::from(LOG[usize::from(a)]) + usize::from(LOG[usize::from(b)])]
    }
}

/// An encoded symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    /// 1–40.
    pub(crate) version: u8,
    /// 0–7.
    pub(crate) mask: u8,
    /// Modules per side.
    pub(crate) size: usize,
    /// One bitset per row, bit `x` of row `y` set when the module is dark.
    pub(crate) rows: Vec<[u64; 3]>,
}

fn ecc_table(level: EcLevel) -> (&'static [u8; 40], &'static [u8; 40]) {
    match level {
        EcLevel::M => (&ECC_PER_BLOCK_M, &BLOCKS_M),
        EcLevel::Q => (&ECC_PER_BLOCK_Q, &BLOCKS_Q),
    }
}

/// Modules left for data and error correction once every function pattern is drawn.
fn raw_data_modules(version: usize) -> usize {
    let mut modules = (16 * version + 128) * version + 64;
    if version >= 2 {
        let aligns = version / 7 + 2;
        modules -= (25 * aligns - 10) * aligns - 55;
        if version >= 7 {
            modules -= 36;
        }
    }
    modules
}

/// Data codewords a version holds at a level.
pub(crate) fn data_codewords(version: usize, level: EcLevel) -> usize {
    let (ecc, blocks) = ecc_table(level);
    raw_data_modules(version) / 8 - usize::from(ecc[version - 1]) * usize::from(blocks[version - 1])
}

/// Bits of the byte-mode character count.
fn count_bits(version: usize) -> usize {
    if version <= 9 { 8 } else { 16 }
}

/// The most bytes a version holds in byte mode at a level.
pub(crate) fn byte_capacity(version: usize, level: EcLevel) -> usize {
    let bits = data_codewords(version, level) * 8 - 4 - count_bits(version);
    (bits / 8).min((1 << count_bits(version)) - 1)
}

/// The smallest version that holds `len` bytes, if any.
fn smallest_version(len: usize, level: EcLevel) -> Option<usize> {
    (1..=40).find(|v| byte_capacity(*v, level) >= len)
}

/// Mode, count, data, terminator and padding: the data codewords.
///
/// Byte mode puts a 4-bit mode and an 8- or 16-bit count before the data, so every data byte
/// straddles two codewords; they are assembled a byte at a time rather than bit by bit.
fn data_stream(data: &[u8], version: usize, level: EcLevel) -> Vec<u8> {
    let capacity = data_codewords(version, level);
    let mut out = Vec::with_capacity(capacity);
    // Header nibbles: mode 0100, then the count; the data follows shifted by half a byte.
    let count = data.len();
    let mut carry: u8 = if count_bits(version) == 8 {
        out.push(0x40 | (count >> 4) as u8);
        (count & 0x0F) as u8
    } else {
        out.push(0x40 | (count >> 12) as u8);
        out.push((count >> 4) as u8);
        (count & 0x0F) as u8
    };
    for byte in data {
        out.push(carry << 4 | byte >> 4);
        carry = byte & 0x0F;
    }
    // The last nibble of data, then the 4-bit terminator (zeros) completes the byte.
    if out.len() < capacity {
        out.push(carry << 4);
    }
    for pad in [0xEC, 0x11].into_iter().cycle() {
        if out.len() >= capacity {
            break;
        }
        out.push(pad);
    }
    out
}

/// The Reed–Solomon generator polynomial of a degree, highest coefficient (always 1) dropped.
fn generator(degree: usize) -> Vec<u8> {
    let mut poly = vec![0u8; degree];
    poly[degree - 1] = 1;
    let mut root = 1u8;
    for _ in 0..degree {
        for j in 0..degree {
            poly[j] = gf_mul(poly[j], root);
            if j + 1 < degree {
                poly[j] ^= poly[j + 1];
            }
        }
        root = gf_mul(root, 2);
    }
    poly
}

/// Splits the data into blocks, adds each block's error correction and interleaves them.
fn codewords(data: &[u8], version: usize, level: EcLevel) -> Vec<u8> {
    let (ecc_table, blocks_table) = ecc_table(level);
    let ecc_len = usize::from(ecc_table[version - 1]);
    let blocks = usize::from(blocks_table[version - 1]);
    let raw = raw_data_modules(version) / 8;
    let short_blocks = blocks - raw % blocks;
    let short_len = raw / blocks;
    // The generator's coefficients are never zero, so keep their logarithms.
    let generator_logs: Vec<u8> = generator(ecc_len)
        .iter()
        .map(|g| LOG[usize::from(*g)])
        .collect();
    let mut data_blocks = Vec::with_capacity(blocks);
    let mut ecc_blocks = Vec::with_capacity(blocks);
    let mut at = 0;
    for i in 0..blocks {
        let len = short_len - ecc_len + usize::from(i >= short_blocks);
        let block = &data[at..at + len];
        at += len;
        let mut remainder = [0u8; 30];
        for byte in block {
            let factor = byte ^ remainder[0];
            remainder.copy_within(1..ecc_len, 0);
            remainder[ecc_len - 1] = 0;
            if factor != 0 {
                let log_factor = usize::from(LOG[usize::from(factor)]);
                for (r, g) in remainder[..ecc_len].iter_mut().zip(&generator_logs) {
                    *r ^= EXP[log_factor + usize::from(*g)];
                }
            }
        }
        data_blocks.push(block);
        ecc_blocks.push(remainder);
    }
    let mut out = Vec::with_capacity(raw);
    for i in 0..=short_len - ecc_len {
        for block in &data_blocks {
            if let Some(byte) = block.get(i) {
                out.push(*byte);
            }
        }
    }
    for i in 0..ecc_len {
        for block in &ecc_blocks {
            out.push(block[i]);
        }
    }
    debug_assert_eq!(out.len(), raw);
    out
}

/// Centres of the alignment patterns along one axis.
fn alignment_positions(version: usize, size: usize) -> Vec<usize> {
    if version == 1 {
        return Vec::new();
    }
    let count = version / 7 + 2;
    let step = if version == 32 {
        26
    } else {
        (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
    };
    let mut positions: Vec<usize> = (0..count - 1).map(|i| size - 7 - i * step).collect();
    positions.push(6);
    positions.reverse();
    positions
}

/// The 15 format bits (level and mask, BCH-protected, XOR-masked).
fn format_bits(level: EcLevel, mask: u8) -> u32 {
    let level_bits: u32 = match level {
        EcLevel::M => 0b00,
        EcLevel::Q => 0b11,
    };
    let data = level_bits << 3 | u32::from(mask);
    let mut rem = data;
    for _ in 0..10 {
        rem = (rem << 1) ^ ((rem >> 9) * 0x537);
    }
    (data << 10 | rem) ^ 0x5412
}

/// The 18 version bits (versions 7 and up).
fn version_bits(version: usize) -> u32 {
    let mut rem = version as u32;
    for _ in 0..12 {
        rem = (rem << 1) ^ ((rem >> 11) * 0x1F25);
    }
    (version as u32) << 12 | rem
}

/// Where the two copies of format bit `i` go, as `(x, y)`.
fn format_positions(i: usize, size: usize) -> [(usize, usize); 2] {
    let first = match i {
        0..=5 => (8, i),
        6 => (8, 7),
        7 => (8, 8),
        8 => (7, 8),
        _ => (14 - i, 8),
    };
    let second = if i < 8 {
        (size - 1 - i, 8)
    } else {
        (8, size - 15 + i)
    };
    [first, second]
}

/// Mask `m` at column `x`, row `y` (ISO/IEC 18004 table 10, with `i` = row and `j` = column).
const fn mask_bit(m: usize, x: usize, y: usize) -> bool {
    match m {
        0 => (x + y).is_multiple_of(2),
        1 => y.is_multiple_of(2),
        2 => x.is_multiple_of(3),
        3 => (x + y).is_multiple_of(3),
        4 => (x / 3 + y / 2).is_multiple_of(2),
        5 => x * y % 2 + x * y % 3 == 0,
        6 => (x * y % 2 + x * y % 3).is_multiple_of(2),
        _ => ((x + y) % 2 + x * y % 3).is_multiple_of(2),
    }
}

/// Every mask repeats every 12 modules both ways, and word `i` of a line starts at a module
/// `≡ 4·(i mod 3) (mod 12)`, so each word of a masked line is one of 3 precomputed words:
/// `MASK_WORDS[m][y mod 12][i mod 3]` for rows.
static MASK_WORDS: [[[u64; 3]; 12]; 8] = mask_words(false);
/// The same for columns (`r` = x mod 12, bits along y).
static COL_MASK_WORDS: [[[u64; 3]; 12]; 8] = mask_words(true);

const fn mask_words(columns: bool) -> [[[u64; 3]; 12]; 8] {
    let mut table = [[[0u64; 3]; 12]; 8];
    let mut m = 0;
    while m < 8 {
        let mut r = 0;
        while r < 12 {
            let mut p = 0;
            while p < 3 {
                let mut word = 0u64;
                let mut b = 0;
                while b < 64 {
                    let along = (4 * p + b) % 12;
                    let dark = if columns {
                        mask_bit(m, r, along)
                    } else {
                        mask_bit(m, along, r)
                    };
                    if dark {
                        word |= 1 << b;
                    }
                    b += 1;
                }
                table[m][r][p] = word;
                p += 1;
            }
            r += 1;
        }
        m += 1;
    }
    table
}

/// Copies a bitset so every set module `x` of line `y` becomes module `y` of line `x`.
fn transpose<const N: usize>(lines: &[Line<N>], size: usize) -> Vec<Line<N>> {
    let mut out = vec![[0; N]; size];
    for (y, l) in lines.iter().enumerate() {
        for (i, word) in l.iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let x = i * 64 + bits.trailing_zeros() as usize;
                line::set(&mut out[x], y);
                bits &= bits - 1;
            }
        }
    }
    out
}

/// Applies mask `m` to the modules marked free.
fn apply_mask<const N: usize>(
    table: &[[[u64; 3]; 12]; 8],
    m: usize,
    base: &[Line<N>],
    free: &[Line<N>],
    out: &mut [Line<N>],
) {
    for (r, ((o, b), f)) in out.iter_mut().zip(base).zip(free).enumerate() {
        let words = &table[m][r % 12];
        for i in 0..N {
            o[i] = b[i] ^ (words[i % 3] & f[i]);
        }
    }
}

/// Encodes `data` in byte mode. `version` and `mask` are chosen when `None`.
///
/// Returns `None` when the data does not fit (or not in the version asked for).
pub(crate) fn encode(
    data: &[u8],
    level: EcLevel,
    version: Option<u8>,
    mask: Option<u8>,
) -> Option<Symbol> {
    let smallest = smallest_version(data.len(), level)?;
    let version = match version {
        Some(v) if (1..=40).contains(&v) && usize::from(v) >= smallest => usize::from(v),
        Some(_) => return None,
        None => smallest,
    };
    let stream = data_stream(data, version, level);
    let codewords = codewords(&stream, version, level);
    let size = version * 4 + 17;
    Some(match size.div_ceil(64) {
        1 => build::<1>(&codewords, version, size, level, mask),
        2 => build::<2>(&codewords, version, size, level, mask),
        _ => build::<3>(&codewords, version, size, level, mask),
    })
}

/// Draws the symbol on bitset lines, scores the masks and keeps the best.
fn build<const N: usize>(
    codewords: &[u8],
    version: usize,
    size: usize,
    level: EcLevel,
    fixed_mask: Option<u8>,
) -> Symbol {
    let mut rows: Vec<Line<N>> = vec![[0; N]; size];
    let mut func: Vec<Line<N>> = vec![[0; N]; size];
    let mut put = |x: usize, y: usize, dark: bool, rows: &mut Vec<Line<N>>| {
        line::set(&mut func[y], x);
        if dark {
            line::set(&mut rows[y], x);
        } else {
            line::clear(&mut rows[y], x);
        }
    };
    for i in 0..size {
        put(6, i, i % 2 == 0, &mut rows);
        put(i, 6, i % 2 == 0, &mut rows);
    }
    for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
        for dy in -4i32..=4 {
            for dx in -4i32..=4 {
                let (x, y) = (cx as i32 + dx, cy as i32 + dy);
                if (0..size as i32).contains(&x) && (0..size as i32).contains(&y) {
                    let ring = dx.abs().max(dy.abs());
                    put(x as usize, y as usize, ring != 2 && ring != 4, &mut rows);
                }
            }
        }
    }
    let aligns = alignment_positions(version, size);
    let last = aligns.len().saturating_sub(1);
    for (i, cx) in aligns.iter().enumerate() {
        for (j, cy) in aligns.iter().enumerate() {
            let finder_corner =
                matches!((i, j), (0, 0)) || (i == 0 && j == last) || (i == last && j == 0);
            if finder_corner {
                continue;
            }
            for dy in -2i32..=2 {
                for dx in -2i32..=2 {
                    let ring = dx.abs().max(dy.abs());
                    put(
                        (*cx as i32 + dx) as usize,
                        (*cy as i32 + dy) as usize,
                        ring != 1,
                        &mut rows,
                    );
                }
            }
        }
    }
    // Format areas are reserved light now and drawn per mask; the dark module is fixed.
    for i in 0..15 {
        for (x, y) in format_positions(i, size) {
            put(x, y, false, &mut rows);
        }
    }
    put(8, size - 8, true, &mut rows);
    if version >= 7 {
        let bits = version_bits(version);
        for i in 0..18 {
            let dark = bits >> i & 1 == 1;
            let (a, b) = (size - 11 + i % 3, i / 3);
            put(a, b, dark, &mut rows);
            put(b, a, dark, &mut rows);
        }
    }

    // Data, in the two-column zigzag from the bottom-right corner, skipping the timing column.
    let total_bits = codewords.len() * 8;
    let mut bit = 0;
    let mut right = size - 1;
    loop {
        if right == 6 {
            right = 5;
        }
        let upward = (right + 1) & 2 == 0;
        for vert in 0..size {
            let y = if upward { size - 1 - vert } else { vert };
            for x in [right, right - 1] {
                if !line::get(&func[y], x) && bit < total_bits {
                    if codewords[bit / 8] >> (7 - bit % 8) & 1 == 1 {
                        line::set(&mut rows[y], x);
                    }
                    bit += 1;
                }
            }
        }
        if right < 2 {
            break;
        }
        right -= 2;
    }

    let cols = transpose(&rows, size);
    let valid = line::ones::<N>(size);
    let free: Vec<Line<N>> = func.iter().map(|f| line::and_not(&valid, f)).collect();
    let free_cols = transpose(&free, size);

    let masks = fixed_mask.map_or(0..8, |m| {
        let m = usize::from(m & 7);
        m..m + 1
    });
    let mut masked_rows: Vec<Line<N>> = vec![[0; N]; size];
    let mut masked_cols: Vec<Line<N>> = vec![[0; N]; size];
    let ranges = Ranges::new(size);
    let mut best: Option<(u32, usize)> = None;
    let mut best_rows: Vec<Line<N>> = Vec::new();
    for m in masks {
        apply_mask(&MASK_WORDS, m, &rows, &free, &mut masked_rows);
        apply_mask(&COL_MASK_WORDS, m, &cols, &free_cols, &mut masked_cols);
        let format = format_bits(level, m as u8);
        for i in 0..15 {
            if format >> i & 1 == 1 {
                for (x, y) in format_positions(i, size) {
                    line::set(&mut masked_rows[y], x);
                    line::set(&mut masked_cols[x], y);
                }
            }
        }
        let score = if fixed_mask.is_some() {
            0
        } else {
            penalty(&masked_rows, &masked_cols, &ranges)
        };
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, m));
            best_rows.clone_from(&masked_rows);
        }
    }
    let (_, mask) = best.unwrap_or_default();
    Symbol {
        version: version as u8,
        mask: mask as u8,
        size,
        rows: best_rows
            .iter()
            .map(|l| std::array::from_fn(|i| l.get(i).copied().unwrap_or(0)))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_the_byte_capacities_of_the_reference_table() {
        // pix-brcode.md §6.1: byte capacity at M, v8 152, v9 180, v10 213, v11 251, v12 287.
        let at_m: Vec<usize> = (8..=12).map(|v| byte_capacity(v, EcLevel::M)).collect();
        assert_eq!(at_m, [152, 180, 213, 251, 287]);
        assert_eq!(byte_capacity(1, EcLevel::M), 14);
        assert_eq!(byte_capacity(1, EcLevel::Q), 11);
        assert_eq!(byte_capacity(40, EcLevel::M), 2331);
        assert_eq!(byte_capacity(40, EcLevel::Q), 1663);
    }

    #[test]
    fn computes_the_known_format_and_version_words() {
        // ISO/IEC 18004 annex C/D examples: level M mask 5 → 100000011001110; version 7 → 0x07C94.
        assert_eq!(format_bits(EcLevel::M, 5), 0b100_0000_1100_1110);
        assert_eq!(version_bits(7), 0x07C94);
    }

    #[test]
    fn places_alignment_patterns_where_the_table_says() {
        assert_eq!(alignment_positions(2, 25), [6, 18]);
        assert_eq!(alignment_positions(7, 45), [6, 22, 38]);
        assert_eq!(alignment_positions(32, 145), [6, 34, 60, 86, 112, 138]);
        assert_eq!(alignment_positions(40, 177), [6, 30, 58, 86, 114, 142, 170]);
    }

    #[test]
    fn makes_reed_solomon_codewords_that_match_a_known_block() {
        // The "HELLO WORLD" 1-M data block and its 10 error-correction codewords (thonky.com tutorial).
        let data = [
            32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17,
        ];
        let out = codewords(&data, 1, EcLevel::M);
        assert_eq!(&out[16..], [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
    }

    #[test]
    fn refuses_data_that_does_not_fit() {
        assert!(encode(&[b'x'; 1664], EcLevel::Q, None, None).is_none());
        assert!(encode(&[b'x'; 100], EcLevel::M, Some(2), None).is_none());
    }
}

/// Module-for-module agreement with `fast_qr`, an encoder written independently of this one.
#[cfg(test)]
mod agreement {
    use super::*;

    const FAST_MASKS: [fast_qr::Mask; 8] = [
        fast_qr::Mask::Checkerboard,
        fast_qr::Mask::HorizontalLines,
        fast_qr::Mask::VerticalLines,
        fast_qr::Mask::DiagonalLines,
        fast_qr::Mask::LargeCheckerboard,
        fast_qr::Mask::Fields,
        fast_qr::Mask::Diamonds,
        fast_qr::Mask::Meadow,
    ];

    fn fast_version(v: usize) -> fast_qr::Version {
        const ALL: [fast_qr::Version; 40] = {
            use fast_qr::Version::*;
            [
                V01, V02, V03, V04, V05, V06, V07, V08, V09, V10, V11, V12, V13, V14, V15, V16,
                V17, V18, V19, V20, V21, V22, V23, V24, V25, V26, V27, V28, V29, V30, V31, V32,
                V33, V34, V35, V36, V37, V38, V39, V40,
            ]
        };
        ALL[v - 1]
    }

    fn theirs(data: &[u8], level: EcLevel, version: usize, mask: u8) -> Vec<bool> {
        let ecl = match level {
            EcLevel::M => fast_qr::ECL::M,
            EcLevel::Q => fast_qr::ECL::Q,
        };
        let code = fast_qr::QRBuilder::new(data)
            .ecl(ecl)
            .mode(fast_qr::Mode::Byte)
            .version(fast_version(version))
            .mask(FAST_MASKS[usize::from(mask)])
            .build()
            .expect("fits");
        code.data[..code.size * code.size]
            .iter()
            .map(|m| m.value())
            .collect()
    }

    fn ours_dark(symbol: &Symbol) -> Vec<bool> {
        symbol
            .rows
            .iter()
            .flat_map(|r| (0..symbol.size).map(move |x| r[x / 64] >> (x % 64) & 1 == 1))
            .collect()
    }

    #[test]
    fn draws_the_same_modules_as_fast_qr_for_every_version_level_and_mask() {
        for version in 1..=40usize {
            for level in [EcLevel::M, EcLevel::Q] {
                // Fill the version (different lengths exercise padding and block splits).
                let len = byte_capacity(version, level) - version % 3;
                let data: Vec<u8> = (0..len)
                    .map(|i| b"0123456789ABCDEFabcdef*.:/-"[(i * 7 + version) % 27])
                    .collect();
                for mask in 0..8u8 {
                    let ours = encode(&data, level, Some(version as u8), Some(mask)).expect("fits");
                    assert_eq!(ours.size, version * 4 + 17);
                    assert!(
                        ours_dark(&ours) == theirs(&data, level, version, mask),
                        "v{version} {level:?} mask {mask}"
                    );
                }
            }
        }
    }
}
