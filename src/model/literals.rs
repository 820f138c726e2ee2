//! The values of integer and floating-point literals, as LLVM 22's lexer and parser make
//! them: what a constant is, whatever way the text spells it (`255`, `-1`, `u0xFF` and
//! `s0x1FF` are one `i8`; `1.0`, `1.000000e+00` and `0x3FF0000000000000` one `double`).

/// An integer literal's value in two's complement over 128 bits, or `None` when it does not
/// fit. `s0x` literals are signed at their own width (`s0xFF` is -1), as LLVM's lexer reads
/// them; `u0x` ones unsigned.
pub fn int_literal(text: &[u8]) -> Option<u128> {
    int_literal_parts(text).map(|(bits, _)| bits)
}

/// [`int_literal`], and whether a wider type extends it with zeros whatever its top bit
/// (`u0x` and positive decimals; negative ones and `s0x` extend their sign).
fn int_literal_parts(text: &[u8]) -> Option<(u128, bool)> {
    match text {
        b"true" => Some((1, true)),
        b"false" => Some((0, true)),
        [b'u', b'0', b'x', hex @ ..] => Some((hex_u128(hex)?, true)),
        [b's', b'0', b'x', hex @ ..] => {
            // The hex digits' significant bits, the top one the sign.
            let bits = hex_u128(hex)?;
            let unused = bits.leading_zeros();
            let signed = match unused {
                128 => 0,
                _ => ((bits << unused) as i128) >> unused,
            };
            Some((signed as u128, false))
        }
        [b'-', ..] => decimal_i128(text).map(|v| (v as u128, false)),
        _ => decimal_u128(text).map(|v| (v, true)),
    }
}

/// An unsigned decimal integer (leading zeros allowed, as LLVM reads them) that fits 128 bits.
pub fn decimal_u128(text: &[u8]) -> Option<u128> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// The bits LLVM's lexer reads from the digits of a double's hexadecimal literal (`0x...`,
/// `HexIntToVal`): 0 once a digit makes the value fall below what it was (its overflow
/// error is lost, the literal reads), and the bits wrapped past 64 where it does not fall.
pub fn double_hex_bits(digits: &[u8]) -> Option<u64> {
    let mut bits = 0u64;
    for &d in digits {
        let old = bits;
        bits = bits
            .wrapping_mul(16)
            .wrapping_add(u64::from((d as char).to_digit(16)?));
        if bits < old {
            return Some(0);
        }
    }
    Some(bits)
}

fn hex_u128(hex: &[u8]) -> Option<u128> {
    u128::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
}

/// A signed decimal integer, or `None` when it is not one (a hexadecimal literal) or does not
/// fit in `i128`.
pub fn decimal_i128(text: &[u8]) -> Option<i128> {
    // Most are a few digits: summed without the checks of `str::parse`.
    if (1..=18).contains(&text.len()) && text.iter().all(u8::is_ascii_digit) {
        return Some(text.iter().fold(0, |n, d| n * 10 + i128::from(d - b'0')));
    }
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// The value of an integer constant of a type `width` bits wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntValue {
    /// Its bits, for a width of at most 128.
    Bits(u128),
    /// For a wider type: its low 128 bits, and whether the bits above them are ones.
    Wide(u128, bool),
}

/// The constant an integer literal makes in a type `width` bits wide: the literal truncated or
/// extended to the width, as LLVM's parser does (`i8 256` is `i8 0`). `None` when the literal
/// does not fit 128 bits.
pub fn int_value(text: &[u8], width: u32) -> Option<IntValue> {
    let (bits, zero_extended) = int_literal_parts(text)?;
    Some(match width {
        0..=128 => IntValue::Bits(bits & (u128::MAX >> (128 - width.max(1)))),
        _ => IntValue::Wide(bits, !zero_extended && bits >> 127 == 1),
    })
}

impl IntValue {
    /// Whether the constant is zero, the null of its type.
    pub fn is_zero(self) -> bool {
        matches!(self, IntValue::Bits(0) | IntValue::Wide(0, false))
    }
}

/// What a floating-point literal stands for, equal for two literals exactly when LLVM makes
/// them the same constant of one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatKey {
    /// A `half`, `bfloat`, `float` or `double` literal: the bits of the double it is exactly
    /// (a decimal literal, `0x` with a double's bits, `0xH` and `0xR` widened).
    Double(u64),
    /// `0xK` (x86_fp80), `0xL` (fp128) or `0xM` (ppc_fp128) with all their digits: the letter
    /// and the bits.
    Wide(u8, u128),
}

impl FloatKey {
    /// Whether the constant is positive zero, the null of its type.
    pub fn is_zero(self) -> bool {
        matches!(self, FloatKey::Double(0) | FloatKey::Wide(_, 0))
    }
}

/// The [`FloatKey`] of a literal the parser took for a floating-point type, or `None` for a
/// spelling left to its text (a `0xK`, `0xL` or `0xM` literal with fewer digits than its
/// format's, which LLVM's lexer reads from the left).
pub fn float_key(text: &[u8]) -> Option<FloatKey> {
    let Some(hex) = text.strip_prefix(b"0x") else {
        let value: f64 = std::str::from_utf8(text).ok()?.parse().ok()?;
        return Some(FloatKey::Double(value.to_bits()));
    };
    let half = |digits: &[u8]| {
        u64::try_from(hex_u128(digits)?)
            .ok()
            .filter(|&b| b <= 0xFFFF)
    };
    let double = match hex.first() {
        Some(&letter @ (b'K' | b'L' | b'M')) => {
            let digits = &hex[1..];
            let full = if letter == b'K' { 20 } else { 32 };
            if digits.len() != full {
                return None;
            }
            return Some(FloatKey::Wide(letter, hex_u128(digits)?));
        }
        Some(b'H') => widen(half(&hex[1..])?, 5, 10),
        Some(b'R') => widen(half(&hex[1..])?, 8, 7),
        _ => double_hex_bits(hex)?,
    };
    Some(FloatKey::Double(double))
}

/// The bits of the double an IEEE binary float (`exponent` and `mantissa` bits wide, its bits
/// `bits`) is exactly, NaN payloads and the quiet bit kept in place (as no hardware
/// conversion is trusted to keep a signaling NaN).
fn widen(bits: u64, exponent: u32, mantissa: u32) -> u64 {
    let sign = (bits >> (exponent + mantissa)) & 1;
    let exp = (bits >> mantissa) & ((1 << exponent) - 1);
    let frac = bits & ((1 << mantissa) - 1);
    let bias = (1i64 << (exponent - 1)) - 1;
    let (exp, frac) = if exp == (1 << exponent) - 1 {
        (0x7FF, frac << (52 - mantissa))
    } else if exp == 0 && frac == 0 {
        (0, 0)
    } else if exp == 0 {
        // Subnormal: normalized in the double's wider exponent range.
        let shift = frac.leading_zeros() - (63 - mantissa);
        let frac = (frac << shift) & ((1 << mantissa) - 1);
        (
            (1 - bias - i64::from(shift) + 1023) as u64,
            frac << (52 - mantissa),
        )
    } else {
        ((exp as i64 - bias + 1023) as u64, frac << (52 - mantissa))
    };
    (sign << 63) | (exp << 52) | frac
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals_take_the_value_llvm_gives_them() {
        let at = |t: &str, w| int_value(t.as_bytes(), w);
        let bits = |b| Some(IntValue::Bits(b));
        for (text, width, want) in [
            ("255", 8, bits(255)),
            ("-1", 8, bits(255)),
            ("256", 8, bits(0)),
            ("-129", 8, bits(127)),
            ("u0xFF", 8, bits(255)),
            ("s0x1FF", 8, bits(255)),
            ("s0xFF", 32, bits(0xFFFF_FFFF)),
            ("s0x7F", 32, bits(0xFFFF_FFFF)),
            ("s0x80", 32, bits(0xFFFF_FF80)),
            ("s0x0", 32, bits(0)),
            ("u0xFF", 32, bits(255)),
            ("true", 1, bits(1)),
            ("1", 1, bits(1)),
            ("-1", 1, bits(1)),
            ("false", 1, bits(0)),
            ("008", 32, bits(8)),
            ("-1", 128, bits(u128::MAX)),
            (
                "340282366920938463463374607431768211455",
                128,
                bits(u128::MAX),
            ),
            ("340282366920938463463374607431768211456", 128, None),
            ("u0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 128, bits(u128::MAX)),
        ] {
            assert_eq!(at(text, width), want, "{text} as i{width}");
        }
        // Wider than 128 bits: the bits above are the sign's, but for `u0x`.
        assert_eq!(at("-1", 256), Some(IntValue::Wide(u128::MAX, true)));
        assert_eq!(at("s0xFF", 256), Some(IntValue::Wide(u128::MAX, true)));
        let all = "u0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF";
        assert_eq!(at(all, 256), Some(IntValue::Wide(u128::MAX, false)));
        assert_eq!(at("5", 256), Some(IntValue::Wide(5, false)));
        let max = "340282366920938463463374607431768211455";
        assert_eq!(at(max, 256), Some(IntValue::Wide(u128::MAX, false)));
    }

    #[test]
    fn float_literals_of_one_value_have_one_key() {
        let key = |t: &str| float_key(t.as_bytes());
        let one = Some(FloatKey::Double(1f64.to_bits()));
        for text in [
            "1.0",
            "1.",
            "1.000000e+00",
            "+1.0",
            "0x3FF0000000000000",
            "0xH3C00",
            "0xR3F80",
        ] {
            assert_eq!(key(text), one, "{text}");
        }
        let half = Some(FloatKey::Double(0.5f64.to_bits()));
        for text in [
            "0.5",
            "5.000000e-01",
            "0x3FE0000000000000",
            "0xH3800",
            "0xR3F00",
        ] {
            assert_eq!(key(text), half, "{text}");
        }
        assert_eq!(key("-0.0"), Some(FloatKey::Double(0x8000_0000_0000_0000)));
        assert_eq!(key("0xH8000"), key("-0.0"));
        // Subnormal halves and bfloats, infinities and NaNs, the quiet bit kept.
        assert_eq!(
            key("0xH0001"),
            Some(FloatKey::Double(2f64.powi(-24).to_bits()))
        );
        assert_eq!(
            key("0xH03FF"),
            Some(FloatKey::Double((1023.0 * 2f64.powi(-24)).to_bits()))
        );
        assert_eq!(
            key("0xR0001"),
            Some(FloatKey::Double(2f64.powi(-133).to_bits()))
        );
        assert_eq!(
            key("0xH7C00"),
            Some(FloatKey::Double(f64::INFINITY.to_bits()))
        );
        assert_eq!(key("0xH7E00"), key("0x7FF8000000000000"));
        assert_eq!(key("0xH7D00"), key("0x7FF4000000000000"));
        assert_ne!(key("0xH7D00"), key("0xH7F00"));
        // The wide formats by their bits, with all their digits only.
        assert_eq!(
            key("0xK3FFF8000000000000000"),
            Some(FloatKey::Wide(b'K', 0x3FFF_8000_0000_0000_0000))
        );
        assert_eq!(key("0xK3FFF8"), None);
        assert_eq!(
            key("0xL00000000000000003FFF000000000000"),
            Some(FloatKey::Wide(b'L', 0x3FFF_0000_0000_0000))
        );
    }
}
