//! CRC-16/CCITT-FALSE (also catalogued as CRC-16/IBM-3740): polynomial `0x1021`, initial value
//! `0xFFFF`, no reflection, no final XOR. Field 63 carries it as 4 upper-case hex digits, computed
//! over the UTF-8 bytes of the payload up to and including `6304`.

/// Slicing-by-8 tables built at compile time: `TABLES[k][x]` is the CRC (from 0) of byte `x`
/// followed by `k` zero bytes, so 8 message bytes cost 8 independent lookups instead of a chain
/// of 8 dependent ones. `TABLES[0]` is the classic one-byte table.
static TABLES: [[u16; 256]; 8] = build_tables();

const fn build_tables() -> [[u16; 256]; 8] {
    let mut tables = [[0u16; 256]; 8];
    tables[0] = build_table();
    let mut k = 1;
    while k < 8 {
        let mut x = 0;
        while x < 256 {
            let previous = tables[k - 1][x];
            tables[k][x] = (previous << 8) ^ tables[0][(previous >> 8) as usize];
            x += 1;
        }
        k += 1;
    }
    tables
}

const fn build_table() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut crc = (byte as u16) << 8;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
            bit += 1;
        }
        table[byte] = crc;
        byte += 1;
    }
    table
}

/// The CRC-16/CCITT-FALSE of some bytes.
///
/// ```
/// use domain::brcode::crc::crc16;
///
/// assert_eq!(crc16(b"123456789"), 0x29B1);
/// ```
#[must_use]
pub fn crc16(bytes: &[u8]) -> u16 {
    let t = &TABLES;
    let mut chunks = bytes.chunks_exact(8);
    let mut crc = 0xFFFF_u16;
    for c in &mut chunks {
        // The register's two bytes line up with the next two message bytes.
        let hi = usize::from(c[0] ^ (crc >> 8) as u8);
        let lo = usize::from(c[1] ^ crc as u8);
        crc = t[7][hi]
            ^ t[6][lo]
            ^ t[5][usize::from(c[2])]
            ^ t[4][usize::from(c[3])]
            ^ t[3][usize::from(c[4])]
            ^ t[2][usize::from(c[5])]
            ^ t[1][usize::from(c[6])]
            ^ t[0][usize::from(c[7])];
    }
    chunks.remainder().iter().fold(crc, |crc, b| {
        (crc << 8) ^ t[0][usize::from((crc >> 8) as u8 ^ b)]
    })
}

/// The 4 upper-case, zero-padded hex digits written in field 63 for `payload_up_to_6304`
/// (everything before the CRC value, ending in `6304`).
///
/// ```
/// use domain::brcode::crc::crc_hex;
///
/// let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000\
///             5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
/// assert_eq!(crc_hex(body), *b"1D3D");
/// ```
#[must_use]
pub fn crc_hex(payload_up_to_6304: &str) -> [u8; 4] {
    hex4(crc16(payload_up_to_6304.as_bytes()))
}

/// Writes a CRC as 4 upper-case hex digits, keeping leading zeros (`0x0EA9` → `0EA9`, never
/// `EA9`).
///
/// ```
/// assert_eq!(domain::brcode::crc::hex4(0x0EA9), *b"0EA9");
/// ```
#[must_use]
pub const fn hex4(crc: u16) -> [u8; 4] {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    [
        DIGITS[(crc >> 12) as usize & 0xF],
        DIGITS[(crc >> 8) as usize & 0xF],
        DIGITS[(crc >> 4) as usize & 0xF],
        DIGITS[crc as usize & 0xF],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANUAL_BODY: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000\
                               5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";

    /// Bit-by-bit reference, straight from the algorithm in words (pix-brcode.md §1.9).
    fn bitwise(bytes: &[u8]) -> u16 {
        let mut crc: u16 = 0xFFFF;
        for b in bytes {
            crc ^= u16::from(*b) << 8;
            for _ in 0..8 {
                crc = if crc & 0x8000 != 0 {
                    (crc << 1) ^ 0x1021
                } else {
                    crc << 1
                };
            }
        }
        crc
    }

    #[test]
    fn gives_the_catalogue_check_value_for_123456789() {
        assert_eq!(crc16(b"123456789"), 0x29B1);
    }

    #[test]
    fn gives_1d3d_for_the_manual_static_example() {
        assert_eq!(&crc_hex(MANUAL_BODY), b"1D3D");
    }

    #[test]
    fn differs_from_every_wrong_variant_in_the_reference_table() {
        let right = crc16(MANUAL_BODY.as_bytes());
        for wrong in [0x4AC0, 0xE2C2, 0x4889, 0xE35A] {
            assert_ne!(right, wrong);
        }
        let without_6304 = &MANUAL_BODY[..MANUAL_BODY.len() - 4];
        assert_eq!(crc16(without_6304.as_bytes()), 0x4AAD);
    }

    #[test]
    fn matches_the_bitwise_algorithm_on_every_single_byte_and_on_utf8_text() {
        for b in 0..=255u8 {
            assert_eq!(crc16(&[b]), bitwise(&[b]));
        }
        let city = "6008BRASÍLIA6304";
        assert_eq!(crc16(city.as_bytes()), bitwise(city.as_bytes()));
    }

    #[test]
    fn matches_the_bitwise_algorithm_at_every_length_around_the_8_byte_slices() {
        let text = MANUAL_BODY.as_bytes();
        for len in 0..=40 {
            assert_eq!(crc16(&text[..len]), bitwise(&text[..len]), "{len}");
        }
    }

    #[test]
    fn pads_with_leading_zeros() {
        assert_eq!(&hex4(0x01F3), b"01F3");
        assert_eq!(&hex4(0x000A), b"000A");
        assert_eq!(&hex4(0), b"0000");
    }
}
