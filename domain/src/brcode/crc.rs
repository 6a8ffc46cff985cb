//! CRC-16/CCITT-FALSE (also catalogued as CRC-16/IBM-3740): polynomial `0x1021`, initial value
//! `0xFFFF`, no reflection, no final XOR. Field 63 carries it as 4 upper-case hex digits, computed
//! over the UTF-8 bytes of the payload up to and including `6304`.

/// A 256-entry table built at compile time; one lookup per byte instead of 8 shifts.
const TABLE: [u16; 256] = build_table();

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
    bytes.iter().fold(0xFFFF_u16, |crc, b| {
        (crc << 8) ^ TABLE[usize::from((crc >> 8) as u8 ^ b)]
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
    fn pads_with_leading_zeros() {
        assert_eq!(&hex4(0x01F3), b"01F3");
        assert_eq!(&hex4(0x000A), b"000A");
        assert_eq!(&hex4(0), b"0000");
    }
}
