//! Numbers as cty keeps them: binary floating point of arbitrary precision
//! (512 bits for literals and arithmetic), rounded to nearest even, with
//! signed zeros and infinities, printed as the shortest decimal that reads
//! back to the same number.
//!
//! The big integers come from `num-bigint`; this module adds the float on
//! top, because the rounding and printing rules must be exactly cty's for
//! `terraform console` output to match digit for digit.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::sync::Arc;

/// The precision, in bits, of number literals and of arithmetic results.
pub const PRECISION: u32 = 512;

/// The largest binary exponent of a finite number, as Go's `big.MaxExp`:
/// a number is `0.m × 2^e` with `½ ≤ 0.m < 1` and `e ≤ MAX_EXP`; results
/// above it become infinities (`1e646456993` is `+Inf`).
pub const MAX_EXP: i64 = i32::MAX as i64;

/// The smallest binary exponent of a nonzero number, as Go's `big.MinExp`;
/// results below it become zeros (`1e-646457000` is `0`).
pub const MIN_EXP: i64 = i32::MIN as i64;

/// Beyond this many bits of binary exponent, numbers are printed from an
/// approximation (correct to far more digits than the precision holds)
/// instead of their full decimal expansion, and the `f` verb and the plain
/// form switch to exponent notation: `1e+400000`. The limit keeps
/// `1e100000` and `1e-100000` in full, as `terraform console` prints them;
/// beyond it, `terraform console` also prints in full, which takes minutes
/// to hours and gigabytes for the largest.
pub const EXACT_PRINT_EXP: i64 = 340_000;

/// An arbitrary-precision binary floating-point number.
///
/// ```
/// use hclwright::eval::Number;
/// let third = Number::parse("1").unwrap().div(&Number::parse("3").unwrap()).unwrap();
/// assert!(third.to_string().starts_with("0.3333333333"));
/// let sum = Number::parse("0.1").unwrap().add(&Number::parse("0.2").unwrap()).unwrap();
/// assert_eq!(sum.to_string(), "0.3");
/// ```
#[derive(Clone, Debug)]
pub struct Number {
    neg: bool,
    form: Form,
    prec: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Form {
    Zero,
    Inf,
    /// `mant * 2^exp`, `mant` odd. Shared: a number is cloned far more
    /// often (every variable read, every literal evaluated) than made.
    Finite {
        mant: Arc<BigUint>,
        exp: i64,
    },
}

/// The whole numbers below this are made once, on first use, and shared
/// after: a literal such as a port or a count then costs a reference count
/// rather than two allocations each time it is read.
const SMALL_LEN: usize = 1 << 16;

static SMALL: [std::sync::OnceLock<Number>; SMALL_LEN] =
    [const { std::sync::OnceLock::new() }; SMALL_LEN];

/// The whole number `v` (below [`SMALL_LEN`]) at the standard precision.
fn small(v: usize) -> Option<Number> {
    let slot = SMALL.get(v)?;
    Some(
        slot.get_or_init(|| rounded(false, BigUint::from(v), 0, PRECISION, false))
            .clone(),
    )
}

/// An arithmetic operation with no defined result (`0/0`, `∞ - ∞`, `0 × ∞`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotANumber;

impl Number {
    /// Zero.
    pub fn zero() -> Number {
        Number {
            neg: false,
            form: Form::Zero,
            prec: PRECISION,
        }
    }

    /// Positive or negative infinity.
    pub fn infinity(negative: bool) -> Number {
        Number {
            neg: negative,
            form: Form::Inf,
            prec: PRECISION,
        }
    }

    /// A whole number (64 bits of precision, as cty's `NumberIntVal`).
    pub fn from_i64(v: i64) -> Number {
        let mut n = rounded(v < 0, BigUint::from(v.unsigned_abs()), 0, 64, false);
        n.prec = 64;
        n
    }

    /// A whole number of any size, at the standard precision.
    pub fn from_biguint(neg: bool, v: BigUint) -> Number {
        rounded(neg, v, 0, PRECISION, false)
    }

    /// A 64-bit float (53 bits of precision, as cty's `NumberFloatVal`).
    /// `None` for NaN.
    pub fn from_f64(v: f64) -> Option<Number> {
        if v.is_nan() {
            return None;
        }
        if v.is_infinite() {
            return Some(Number::infinity(v < 0.0));
        }
        let neg = v.is_sign_negative();
        if v == 0.0 {
            return Some(Number {
                neg,
                form: Form::Zero,
                prec: 53,
            });
        }
        let bits = v.abs().to_bits();
        let raw_exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (mant, exp) = if raw_exp == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), raw_exp - 1075)
        };
        let mut n = rounded(neg, BigUint::from(mant), exp, 53, false);
        n.prec = 53;
        Some(n)
    }

    /// Reads a decimal number (`12`, `-1.5e3`, `Inf`), rounding to the
    /// standard precision. `None` when `text` is not a number.
    pub fn parse(text: &str) -> Option<Number> {
        let (neg, rest) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        if rest == "Inf" || rest == "inf" {
            return Some(Number::infinity(neg));
        }
        let bytes = rest.as_bytes();
        // The common case, a plain whole number that fits 64 bits: no
        // digit string and no big-number parse (the same value as below).
        if !bytes.is_empty() && bytes.len() <= 19 && bytes.iter().all(u8::is_ascii_digit) {
            let v = bytes
                .iter()
                .fold(0u64, |acc, b| acc * 10 + u64::from(b - b'0'));
            if !neg && let Some(n) = usize::try_from(v).ok().and_then(small) {
                return Some(n);
            }
            return Some(rounded(neg, BigUint::from(v), 0, PRECISION, false));
        }
        let mut digits = String::new();
        let mut i = 0;
        let mut frac_digits: i64 = 0;
        let mut seen_digit = false;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            digits.push(bytes[i] as char);
            seen_digit = true;
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'.' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                digits.push(bytes[i] as char);
                frac_digits += 1;
                seen_digit = true;
                i += 1;
            }
        }
        if !seen_digit {
            return None;
        }
        let mut e10: i64 = 0;
        if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
            i += 1;
            let exp_text = &rest[i..];
            let body = exp_text.strip_prefix(['+', '-']).unwrap_or(exp_text);
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            e10 = exp_text.parse().ok()?;
            i = bytes.len();
        }
        if i != bytes.len() {
            return None;
        }
        let mant: BigUint = digits.parse().ok()?;
        let e10 = e10.checked_sub(frac_digits)?;
        if !mant.is_zero() {
            // Go's `big.Float` parser refuses a literal whose binary exponent
            // before the decimal scaling is already out of range.
            let exp2 = (mant.bits() as i64).checked_add(e10)?;
            if !(MIN_EXP..=MAX_EXP).contains(&exp2) {
                return None;
            }
        }
        Some(from_decimal(neg, mant, e10))
    }

    /// The precision in bits.
    pub fn precision(&self) -> u32 {
        self.prec
    }

    /// Whether the number is negative (including negative zero).
    pub fn is_negative(&self) -> bool {
        self.neg
    }

    /// Whether the number is zero (of either sign).
    pub fn is_zero(&self) -> bool {
        self.form == Form::Zero
    }

    /// Whether the number is an infinity.
    pub fn is_infinite(&self) -> bool {
        self.form == Form::Inf
    }

    /// Whether the number is a whole number (infinities are not).
    pub fn is_integer(&self) -> bool {
        match &self.form {
            Form::Zero => true,
            Form::Inf => false,
            Form::Finite { exp, .. } => *exp >= 0,
        }
    }

    /// The number as an `i64`, when it is whole and fits.
    pub fn to_i64(&self) -> Option<i64> {
        let (neg, mag) = self.to_integer_parts()?;
        let m = mag.to_i128()?;
        i64::try_from(if neg { -m } else { m }).ok()
    }

    /// The whole number's sign and magnitude; `None` for fractions and infinities.
    pub fn to_integer_parts(&self) -> Option<(bool, BigUint)> {
        match &self.form {
            Form::Zero => Some((false, BigUint::zero())),
            Form::Inf => None,
            Form::Finite { mant, exp } if *exp >= 0 => {
                if *exp > 1 << 24 {
                    return None;
                }
                Some((self.neg, &**mant << (*exp as usize)))
            }
            Form::Finite { .. } => None,
        }
    }

    /// The nearest `f64` (to nearest even).
    pub fn to_f64(&self) -> f64 {
        let sign = if self.neg { -1.0 } else { 1.0 };
        match &self.form {
            Form::Zero => sign * 0.0,
            Form::Inf => sign * f64::INFINITY,
            Form::Finite { .. } => {
                let r = rounded(self.neg, self.mant().clone(), self.exp(), 53, false);
                match &r.form {
                    Form::Finite { mant, exp } => {
                        let m = mant.to_f64().unwrap_or(f64::INFINITY);
                        let e = (*exp).clamp(-2000, 2000) as i32;
                        // Two steps, so that subnormal results round once.
                        sign * m * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
                    }
                    _ => sign * 0.0,
                }
            }
        }
    }

    fn mant(&self) -> &BigUint {
        match &self.form {
            Form::Finite { mant, .. } => mant,
            _ => unreachable!("mantissa of a non-finite number"),
        }
    }

    fn exp(&self) -> i64 {
        match &self.form {
            Form::Finite { exp, .. } => *exp,
            _ => 0,
        }
    }

    /// The number with its sign flipped.
    pub fn neg(&self) -> Number {
        Number {
            neg: !self.neg,
            ..self.clone()
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Number {
        Number {
            neg: false,
            ..self.clone()
        }
    }

    /// The number rounded (to nearest even) to `prec` bits.
    pub fn with_precision(&self, prec: u32) -> Number {
        let mut n = match &self.form {
            Form::Finite { mant, exp } => {
                rounded(self.neg, BigUint::clone(mant), *exp, prec, false)
            }
            _ => self.clone(),
        };
        n.prec = prec;
        n
    }

    /// The smallest precision that holds the number exactly.
    pub fn min_precision(&self) -> u32 {
        match &self.form {
            Form::Finite { mant, .. } => mant.bits() as u32,
            _ => 0,
        }
    }

    /// `self + other`, at the larger of the two precisions.
    pub fn add(&self, other: &Number) -> Result<Number, NotANumber> {
        let prec = self.prec.max(other.prec);
        match (&self.form, &other.form) {
            (Form::Inf, Form::Inf) if self.neg != other.neg => Err(NotANumber),
            (Form::Inf, _) => Ok(Number::infinity(self.neg).at(prec)),
            (_, Form::Inf) => Ok(Number::infinity(other.neg).at(prec)),
            (Form::Zero, Form::Zero) => Ok(Number {
                neg: self.neg && other.neg,
                form: Form::Zero,
                prec,
            }),
            (Form::Zero, _) => Ok(other.with_precision(prec)),
            (_, Form::Zero) => Ok(self.with_precision(prec)),
            (Form::Finite { mant: ma, exp: ea }, Form::Finite { mant: mb, exp: eb }) => {
                // An operand wholly below the other's rounding position only
                // decides the rounding: it is replaced by a single bit just
                // above nothing, far below half an ulp, so that the shift
                // below stays small whatever the exponents' distance.
                let (ta, tb) = (ea + ma.bits() as i64, eb + mb.bits() as i64);
                let floor = ta.max(tb) - prec as i64 - 4;
                let one = Arc::new(BigUint::one());
                let (ma, ea) = if ta < floor {
                    (&one, floor - 1)
                } else {
                    (ma, *ea)
                };
                let (mb, eb) = if tb < floor {
                    (&one, floor - 1)
                } else {
                    (mb, *eb)
                };
                let e = ea.min(eb);
                let a = &**ma << ((ea - e) as usize);
                let b = &**mb << ((eb - e) as usize);
                let (neg, mag) = if self.neg == other.neg {
                    (self.neg, a + b)
                } else {
                    match a.cmp(&b) {
                        Ordering::Equal => return Ok(Number::zero().at(prec)),
                        Ordering::Greater => (self.neg, a - b),
                        Ordering::Less => (other.neg, b - a),
                    }
                };
                Ok(rounded(neg, mag, e, prec, false))
            }
        }
    }

    /// `self - other`.
    pub fn sub(&self, other: &Number) -> Result<Number, NotANumber> {
        self.add(&other.neg())
    }

    /// `self × other`, as cty multiplies: at the standard precision, then
    /// kept at the larger of the operands' precisions or what the product needs.
    pub fn mul(&self, other: &Number) -> Result<Number, NotANumber> {
        let neg = self.neg != other.neg;
        let keep = self.prec.max(other.prec);
        let product = match (&self.form, &other.form) {
            (Form::Inf, Form::Zero) | (Form::Zero, Form::Inf) => return Err(NotANumber),
            (Form::Inf, _) | (_, Form::Inf) => Number::infinity(neg),
            (Form::Zero, _) | (_, Form::Zero) => Number {
                neg,
                form: Form::Zero,
                prec: PRECISION,
            },
            (Form::Finite { mant: ma, exp: ea }, Form::Finite { mant: mb, exp: eb }) => {
                rounded(neg, &**ma * &**mb, ea + eb, PRECISION, false)
            }
        };
        let prec = keep.max(product.min_precision());
        Ok(product.with_precision(prec))
    }

    /// `self ÷ other`, at the larger of the two precisions.
    pub fn div(&self, other: &Number) -> Result<Number, NotANumber> {
        let prec = self.prec.max(other.prec);
        let neg = self.neg != other.neg;
        match (&self.form, &other.form) {
            (Form::Zero, Form::Zero) | (Form::Inf, Form::Inf) => Err(NotANumber),
            (_, Form::Zero) | (Form::Inf, _) => Ok(Number::infinity(neg).at(prec)),
            (Form::Zero, _) | (_, Form::Inf) => Ok(Number {
                neg,
                form: Form::Zero,
                prec,
            }),
            (Form::Finite { mant: ma, exp: ea }, Form::Finite { mant: mb, exp: eb }) => {
                let want = prec as i64 + 2 + mb.bits() as i64 - ma.bits() as i64;
                let shift = want.max(0);
                let (q, r) = (&**ma << (shift as usize)).div_rem(&**mb);
                Ok(rounded(neg, q, ea - shift - eb, prec, !r.is_zero()))
            }
        }
    }

    /// The integer part, towards zero.
    pub fn trunc(&self) -> Number {
        match &self.form {
            Form::Finite { mant, exp } if *exp < 0 => {
                let shift = (-exp) as u64;
                if mant.bits() <= shift {
                    return Number {
                        neg: self.neg,
                        form: Form::Zero,
                        prec: self.prec,
                    };
                }
                let mut n = rounded(self.neg, &**mant >> shift, 0, self.prec, false);
                n.prec = self.prec;
                n
            }
            _ => self.clone(),
        }
    }

    /// The largest whole number not above `self`.
    pub fn floor(&self) -> Number {
        let t = self.trunc();
        if self.neg && !self.is_integer() {
            t.sub(&Number::from_i64(1))
                .unwrap_or(t)
                .with_precision(self.prec)
        } else {
            t
        }
    }

    /// The smallest whole number not below `self`.
    pub fn ceil(&self) -> Number {
        let t = self.trunc();
        if !self.neg && !self.is_integer() {
            t.add(&Number::from_i64(1))
                .unwrap_or(t)
                .with_precision(self.prec)
        } else {
            t
        }
    }

    fn at(mut self, prec: u32) -> Number {
        self.prec = prec;
        self
    }

    /// The numeric order (`-0` equals `0`).
    pub fn cmp_value(&self, other: &Number) -> Ordering {
        let sign = |n: &Number| match n.form {
            Form::Zero => 0,
            _ if n.neg => -1,
            _ => 1,
        };
        let (sa, sb) = (sign(self), sign(other));
        if sa != sb || sa == 0 {
            return sa.cmp(&sb);
        }
        let mag = match (&self.form, &other.form) {
            (Form::Inf, Form::Inf) => Ordering::Equal,
            (Form::Inf, _) => Ordering::Greater,
            (_, Form::Inf) => Ordering::Less,
            (Form::Finite { mant: ma, exp: ea }, Form::Finite { mant: mb, exp: eb }) => {
                let ta = ea + ma.bits() as i64;
                let tb = eb + mb.bits() as i64;
                if ta != tb {
                    ta.cmp(&tb)
                } else {
                    let e = (*ea).min(*eb);
                    (&**ma << ((ea - e) as usize)).cmp(&(&**mb << ((eb - e) as usize)))
                }
            }
            _ => Ordering::Equal,
        };
        if sa < 0 { mag.reverse() } else { mag }
    }

    /// Formats as Go's `big.Float.Text` does for the verbs `f`, `e` and `g`;
    /// a negative `precision` asks for the fewest digits that read back to
    /// the same number.
    pub fn text(&self, verb: char, precision: i32) -> String {
        if verb == 'f'
            && precision < 0
            && let Some(magnitude) = self.small_whole_magnitude()
        {
            // Most numbers printed are small whole numbers (counts, ports,
            // indices); their shortest form is their digits, without the
            // big-number rounding below (a few microseconds a number).
            return if self.neg {
                format!("-{magnitude}")
            } else {
                magnitude.to_string()
            };
        }
        self.text_general(verb, precision)
    }

    /// The magnitude of a whole number below 2^64 that the number's
    /// precision holds exactly. Its decimal digits are then its shortest
    /// form: an ulp at that precision is at most 1, so any other decimal
    /// of as few digits reads back to a different number.
    fn small_whole_magnitude(&self) -> Option<u64> {
        match &self.form {
            Form::Finite { mant, exp } if *exp >= 0 => {
                let bits = mant.bits() + *exp as u64;
                if bits > 64 || bits > u64::from(self.prec) {
                    return None;
                }
                Some(mant.to_u64()? << *exp)
            }
            _ => None,
        }
    }

    /// [`text`](Self::text) by the general algorithm (exact or scaled
    /// decimal digits, then rounding as Go's `big` package does).
    fn text_general(&self, verb: char, precision: i32) -> String {
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        if self.form == Form::Inf {
            if !self.neg {
                out.push('+');
            }
            out.push_str("Inf");
            return out;
        }
        // Far exponents: digits from a scaled approximation, and exponent
        // notation where the plain form would be longer than the limit.
        let scale = match &self.form {
            Form::Finite { mant, exp } if exp.abs() > EXACT_PRINT_EXP => {
                Some(decimal_scale(mant, *exp))
            }
            _ => None,
        };
        let mut d = match (&self.form, scale) {
            (Form::Finite { mant, exp }, Some(s)) => Decimal::approx(mant, *exp, s),
            (Form::Finite { mant, exp }, None) => Decimal::of(mant, *exp),
            _ => Decimal::default(),
        };
        let shortest = precision < 0;
        let verb = match verb {
            'f' if scale.is_some() && (shortest || d.point > 0) => 'e',
            other => other,
        };
        let mut prec = precision as i64;
        if shortest {
            if let Form::Finite { mant, exp } = &self.form {
                d.round_shortest(mant, *exp, self.prec, scale);
            }
            prec = match verb {
                'e' | 'E' => d.digits.len() as i64 - 1,
                'f' => (d.digits.len() as i64 - d.point).max(0),
                _ => d.digits.len() as i64,
            };
        } else {
            match verb {
                'e' | 'E' => d.round(1 + prec),
                'f' => d.round(d.point + prec),
                _ => {
                    if prec == 0 {
                        prec = 1;
                    }
                    d.round(prec)
                }
            }
        }
        match verb {
            'e' | 'E' => d.write_e(&mut out, verb, prec),
            'f' => d.write_f(&mut out, prec),
            _ => {
                let n = d.digits.len() as i64;
                let mut eprec = prec;
                if eprec > n && n >= d.point {
                    eprec = n;
                }
                if shortest {
                    eprec = 6;
                }
                let exp = d.point - 1;
                let e = if verb == 'G' { 'E' } else { 'e' };
                if exp < -4 || exp >= eprec {
                    d.write_e(&mut out, e, prec.min(n) - 1);
                } else {
                    if prec > d.point {
                        prec = n;
                    }
                    d.write_f(&mut out, (prec - d.point).max(0));
                }
            }
        }
        out
    }
}

impl std::fmt::Display for Number {
    /// The shortest decimal form, as `terraform console` prints numbers.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text('f', -1))
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.cmp_value(other) == Ordering::Equal
    }
}

/// `mant * 2^exp` rounded to `prec` bits, to nearest even; `sticky` says
/// that nonzero bits were already dropped below `mant`.
fn rounded(neg: bool, mant: BigUint, exp: i64, prec: u32, sticky: bool) -> Number {
    if mant.is_zero() {
        return Number {
            neg,
            form: Form::Zero,
            prec,
        };
    }
    let (mant, exp) = round_raw(mant, exp, prec, sticky);
    let top = exp.saturating_add(mant.bits() as i64);
    let form = if top > MAX_EXP {
        Form::Inf
    } else if top < MIN_EXP {
        Form::Zero
    } else {
        Form::Finite {
            mant: Arc::new(mant),
            exp,
        }
    };
    Number { neg, form, prec }
}

/// `mant × 2^exp` (`mant` nonzero) rounded to `prec` bits, to nearest even,
/// with no exponent range: the odd mantissa and its exponent.
fn round_raw(mut mant: BigUint, mut exp: i64, prec: u32, sticky: bool) -> (BigUint, i64) {
    let bits = mant.bits();
    if bits > prec as u64 {
        let shift = bits - prec as u64;
        let tz = mant.trailing_zeros().unwrap_or(0);
        let half = mant.bit(shift - 1);
        let below_half = sticky || tz < shift - 1;
        mant >>= shift;
        exp += shift as i64;
        if half && (below_half || mant.bit(0)) {
            mant += 1u32;
        }
    }
    let tz = mant.trailing_zeros().unwrap_or(0);
    mant >>= tz;
    exp += tz as i64;
    (mant, exp)
}

/// `mant × 10^e10` at the standard precision.
fn from_decimal(neg: bool, mant: BigUint, e10: i64) -> Number {
    if mant.is_zero() {
        return Number {
            neg,
            form: Form::Zero,
            prec: PRECISION,
        };
    }
    const EXACT_LIMIT: i64 = 20_000;
    if (0..=EXACT_LIMIT).contains(&e10) {
        let scaled = mant * BigUint::from(10u32).pow(e10 as u32);
        return rounded(neg, scaled, 0, PRECISION, false);
    }
    if e10 < 0 && -e10 <= EXACT_LIMIT {
        let den = BigUint::from(10u32).pow((-e10) as u32);
        let want = PRECISION as i64 + 2 + den.bits() as i64 - mant.bits() as i64;
        let shift = want.max(0);
        let (q, r) = (&mant << (shift as usize)).div_rem(&den);
        return rounded(neg, q, -shift, PRECISION, !r.is_zero());
    }
    // Far exponents: a power of ten rounded with 64 guard bits and no
    // exponent range (10^646456993 is out of range but its inverse is not),
    // then one rounded multiplication or division.
    let work = PRECISION + 64;
    let mut power = (BigUint::one(), 0i64);
    let mut base = (BigUint::from(10u32), 0i64);
    let mut k = e10.unsigned_abs();
    while k > 0 {
        if k & 1 == 1 {
            power = round_raw(&power.0 * &base.0, power.1 + base.1, work, false);
        }
        k >>= 1;
        if k > 0 {
            base = round_raw(&base.0 * &base.0, base.1 * 2, work, false);
        }
    }
    let (pm, pe) = power;
    let (mm, me) = round_raw(mant, 0, work, false);
    if e10 > 0 {
        rounded(neg, mm * pm, me + pe, PRECISION, false)
    } else {
        let want = PRECISION as i64 + 2 + pm.bits() as i64 - mm.bits() as i64;
        let shift = want.max(0);
        let (q, r) = (&mm << (shift as usize)).div_rem(&pm);
        rounded(neg, q, me - shift - pe, PRECISION, !r.is_zero())
    }
}

/// The number of decimal digits [`Decimal::approx`] makes before its last.
const APPROX_DIGITS: i64 = 240;

/// The precision of the power of ten in [`Decimal::approx`].
const APPROX_BITS: u32 = 1200;

/// The power of ten that brings `mant × 2^exp` to about
/// [`APPROX_DIGITS`] digits before the point.
fn decimal_scale(mant: &BigUint, exp: i64) -> i64 {
    let top = exp + mant.bits() as i64;
    // log10(2) from below, so the estimate is at most one digit off.
    let digits = (top as f64 * std::f64::consts::LOG10_2).floor() as i64;
    digits - APPROX_DIGITS
}

/// `10^k` rounded to [`APPROX_BITS`], as a mantissa and binary exponent,
/// by repeated squaring (about 2·log2(k) rounded products).
fn pow10_approx(mut k: u64) -> (BigUint, i64) {
    let mut power = (BigUint::one(), 0i64);
    let mut base = (BigUint::from(10u32), 0i64);
    while k > 0 {
        if k & 1 == 1 {
            power = round_raw(&power.0 * &base.0, power.1 + base.1, APPROX_BITS, false);
        }
        k >>= 1;
        if k > 0 {
            base = round_raw(&base.0 * &base.0, base.1 * 2, APPROX_BITS, false);
        }
    }
    power
}

/// A decimal `0.d1d2d3… × 10^point`, as Go's `big` package formats.
#[derive(Default, Debug)]
struct Decimal {
    digits: Vec<u8>,
    point: i64,
}

impl Decimal {
    /// The exact decimal value of `mant × 2^exp`.
    fn of(mant: &BigUint, exp: i64) -> Decimal {
        let (n, frac) = if exp >= 0 {
            (mant << (exp as usize), 0)
        } else {
            (mant * BigUint::from(5u32).pow((-exp) as u32), -exp)
        };
        let mut digits = n.to_str_radix(10).into_bytes();
        let point = digits.len() as i64 - frac;
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        Decimal { digits, point }
    }

    /// The decimal digits of `mant × 2^exp ÷ 10^scale`, truncated, with a
    /// final `1` standing for the digits beyond (a number this far from 1
    /// never has a short exact decimal form). `scale` comes from
    /// [`decimal_scale`], so that about [`APPROX_DIGITS`] digits are made
    /// and the cost does not depend on the exponent. The power of ten is
    /// rounded to `APPROX_BITS`, so the digits are right to far more places
    /// than a 512-bit number holds.
    fn approx(mant: &BigUint, exp: i64, scale: i64) -> Decimal {
        let (pm, pe) = pow10_approx(scale.unsigned_abs());
        // value ÷ 10^scale, or value × 10^-scale, as `num × 2^shift ÷ den`.
        let (num, den, shift) = if scale >= 0 {
            (mant.clone(), pm, exp - pe)
        } else {
            (mant * pm, BigUint::one(), exp + pe)
        };
        let q = if shift >= 0 {
            (num << (shift as usize)) / den
        } else {
            num / (den << ((-shift) as usize))
        };
        let mut digits = q.to_str_radix(10).into_bytes();
        let point = digits.len() as i64 + scale;
        digits.push(b'1');
        Decimal { digits, point }
    }

    fn at(&self, i: i64) -> u8 {
        if i >= 0 && (i as usize) < self.digits.len() {
            self.digits[i as usize]
        } else {
            b'0'
        }
    }

    fn trim(&mut self) {
        while self.digits.last() == Some(&b'0') {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.point = 0;
        }
    }

    fn round(&mut self, n: i64) {
        if n < 0 || n >= self.digits.len() as i64 {
            return;
        }
        if self.should_round_up(n as usize) {
            self.round_up(n)
        } else {
            self.round_down(n)
        }
    }

    fn should_round_up(&self, n: usize) -> bool {
        if self.digits[n] == b'5' && n + 1 == self.digits.len() {
            return n > 0 && (self.digits[n - 1] - b'0') & 1 != 0;
        }
        self.digits[n] >= b'5'
    }

    fn round_up(&mut self, n: i64) {
        if n < 0 || n >= self.digits.len() as i64 {
            return;
        }
        let mut n = n as usize;
        while n > 0 && self.digits[n - 1] >= b'9' {
            n -= 1;
        }
        if n == 0 {
            self.digits = vec![b'1'];
            self.point += 1;
            return;
        }
        self.digits[n - 1] += 1;
        self.digits.truncate(n);
    }

    fn round_down(&mut self, n: i64) {
        if n < 0 || n >= self.digits.len() as i64 {
            return;
        }
        self.digits.truncate(n as usize);
        self.trim();
    }

    /// Rounds to the fewest digits that still read back, at `prec` bits,
    /// to `mant × 2^exp`.
    fn round_shortest(&mut self, mant: &BigUint, exp: i64, prec: u32, scale: Option<i64>) {
        if self.digits.is_empty() {
            return;
        }
        // The mantissa with prec + 1 bits: its last bit is half an ulp.
        let mut m = mant.clone();
        let mut e = exp;
        let s = m.bits() as i64 - (prec as i64 + 1);
        if s < 0 {
            m <<= (-s) as usize;
        } else if s > 0 {
            m >>= s as usize;
        }
        e += s;
        let (lower, upper) = match scale {
            Some(s) => (
                Decimal::approx(&(&m - 1u32), e, s),
                Decimal::approx(&(&m + 1u32), e, s),
            ),
            None => (Decimal::of(&(&m - 1u32), e), Decimal::of(&(&m + 1u32), e)),
        };
        let inclusive = !m.bit(1);
        for i in 0..self.digits.len() {
            let d = self.digits[i];
            let l = lower.at(i as i64);
            let u = upper.at(i as i64);
            let ok_down = l != d || inclusive && i + 1 == lower.digits.len();
            let ok_up = d != u && (inclusive || d + 1 < u || i + 1 < upper.digits.len());
            let n = i as i64 + 1;
            match (ok_down, ok_up) {
                (true, true) => return self.round(n),
                (true, false) => return self.round_down(n),
                (false, true) => return self.round_up(n),
                _ => {}
            }
        }
    }

    fn write_e(&self, out: &mut String, verb: char, prec: i64) {
        out.push(self.digits.first().map_or('0', |&d| d as char));
        if prec > 0 {
            out.push('.');
            for i in 1..=prec {
                out.push(self.at(i) as char);
            }
        }
        out.push(verb);
        let exp = if self.digits.is_empty() {
            0
        } else {
            self.point - 1
        };
        out.push(if exp < 0 { '-' } else { '+' });
        if exp.abs() < 10 {
            out.push('0');
        }
        out.push_str(&exp.abs().to_string());
    }

    fn write_f(&self, out: &mut String, prec: i64) {
        if self.point > 0 {
            for i in 0..self.point {
                out.push(self.at(i) as char);
            }
        } else {
            out.push('0');
        }
        if prec > 0 {
            out.push('.');
            for i in 0..prec {
                out.push(self.at(self.point + i) as char);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    /// Whole numbers printed from their machine integer read the same as
    /// by the general algorithm, at every precision a number may carry.
    #[test]
    fn small_whole_numbers_print_as_the_general_algorithm_does() {
        let mut magnitudes: Vec<u64> = (0..2000).collect();
        for shift in 0..64 {
            let p = 1u64 << shift;
            magnitudes.extend([p - 1, p, p + 1, p.wrapping_mul(3)]);
        }
        magnitudes.extend([
            u64::MAX,
            u64::MAX - 1,
            10u64.pow(19),
            999_999_999_999_999_999,
        ]);
        let mut fast = 0;
        for &m in &magnitudes {
            for neg in [false, true] {
                let whole = Number::from_biguint(neg, BigUint::from(m));
                for prec in [PRECISION, 64, 53, 24, 10, 3] {
                    let number = whole.with_precision(prec);
                    fast += usize::from(number.small_whole_magnitude().is_some());
                    assert_eq!(
                        number.text('f', -1),
                        number.text_general('f', -1),
                        "{m} at {prec} bits"
                    );
                }
            }
        }
        assert!(fast > magnitudes.len(), "the fast path is taken");
        assert_eq!(n("-42").to_string(), "-42");
        assert_eq!(
            Number::from_i64(i64::MIN).to_string(),
            "-9223372036854775808"
        );
    }

    #[test]
    fn prints_as_terraform_console() {
        assert_eq!(n("0.1").add(&n("0.2")).unwrap().to_string(), "0.3");
        assert_eq!(
            n("12345678901234567890").mul(&n("10")).unwrap().to_string(),
            "123456789012345678900"
        );
        assert_eq!(n("2").div(&n("0")).unwrap().to_string(), "+Inf");
        assert_eq!(n("-2").div(&n("0")).unwrap().to_string(), "-Inf");
        assert!(n("0").div(&n("0")).is_err());
        assert_eq!(n("0").neg().to_string(), "-0");
        assert_eq!(n("1e3").to_string(), "1000");
        assert_eq!(n("1.50").to_string(), "1.5");
        assert_eq!(n("-0.001").to_string(), "-0.001");
        let big = n("1e400").to_string();
        assert_eq!(big.len(), 401);
        assert!(big.starts_with("1000"));
        let third = n("1").div(&n("3")).unwrap().to_string();
        assert!(third.starts_with("0.333333"), "{third}");
        assert!(third.ends_with('5'), "{third}");
    }

    #[test]
    fn floats_print_at_their_own_precision() {
        assert_eq!(Number::from_f64(0.1).unwrap().to_string(), "0.1");
        assert_eq!(
            Number::from_f64(std::f64::consts::LN_10 / std::f64::consts::LN_2)
                .unwrap()
                .to_string(),
            "3.3219280948873626"
        );
        assert_eq!(n("0.1").to_f64(), 0.1);
        assert_eq!(n("-2.5e-3").to_f64(), -0.0025);
    }

    #[test]
    fn text_verbs() {
        assert_eq!(n("1234.5678").text('g', 10), "1234.5678");
        assert_eq!(n("12345678901").text('g', 10), "1.23456789e+10");
        assert_eq!(n("0.00001").text('g', 10), "1e-05");
        assert_eq!(n("3.14159").text('f', 2), "3.14");
        assert_eq!(n("0.006").text('f', 2), "0.01");
        assert_eq!(n("1500").text('e', 3), "1.500e+03");
    }

    #[test]
    fn exponents_out_of_range_are_infinities_and_zeros_as_in_go() {
        // Each of these hung (or grew to gigabytes) before the exponent range.
        assert_eq!(n("1e999999999").to_string(), "+Inf");
        assert_eq!(n("-1e999999999").to_string(), "-Inf");
        assert_eq!(n("2e-999999999").to_string(), "0");
        assert_eq!(n("-2e-999999999").to_string(), "-0");
        assert_eq!(n("1e646456994").to_string(), "+Inf");
        assert_eq!(n("1e646456992").to_string(), "1e+646456992");
        // 10^-646456993 is just inside Go's range, 10^-646457000 is not.
        assert!(!n("1e-646456993").is_zero());
        assert!(n("1e-646457000").is_zero());
        // Go's parser refuses a binary exponent out of range outright.
        assert!(Number::parse("1e3000000000").is_none());
        assert!(Number::parse("1e-3000000000").is_none());
        assert!(Number::parse("1e99999999999999999999").is_none());
        assert!(Number::parse("0e3000000000").unwrap().is_zero());
        let big = n("1e400000000");
        assert_eq!(big.mul(&big).unwrap().to_string(), "+Inf");
        let tiny = n("1e-400000000");
        assert!(tiny.mul(&tiny).unwrap().is_zero());
        assert!(n("1e999999999").sub(&n("1e999999999")).is_err());
    }

    #[test]
    fn far_apart_operands_add_without_shifting_by_the_distance() {
        let big = n("1e600000000");
        assert_eq!(big.add(&n("1")).unwrap(), big);
        assert_eq!(n("1").add(&n("1e-600000000")).unwrap(), n("1"));
        // Rounding still sees the tiny operand: 2 - tiny rounds back up to 2.
        let p = n("2").mul(&n("1")).unwrap();
        assert_eq!(p.sub(&n("1e-600000000")).unwrap(), p);
        assert_eq!(big.sub(&big).unwrap().to_string(), "0");
    }

    #[test]
    fn far_numbers_print_from_an_approximation_in_exponent_form() {
        let x = n("1.2345678901234567890123e400000")
            .div(&n("7"))
            .unwrap()
            .text('e', 60);
        assert_eq!(
            x,
            "1.763668414462081127160428571428571428571428571428571428571429e+399999"
        );
        assert_eq!(n("2e-400000000").text('g', 3), "2e-400000000");
        assert_eq!(n("1e600000000").text('f', 2), "1.00e+600000000");
        assert_eq!(n("1e-600000000").text('f', 3), "0.000");
        assert_eq!(n("1e100000").to_string().len(), 100_001);
    }

    #[test]
    fn order_and_integers() {
        assert_eq!(n("-1").cmp_value(&n("0.5")), Ordering::Less);
        assert_eq!(n("0").neg(), n("0"));
        assert_eq!(n("2.5").floor().to_string(), "2");
        assert_eq!(n("-2.5").floor().to_string(), "-3");
        assert_eq!(n("-2.5").ceil().to_string(), "-2");
        assert_eq!(n("7").to_i64(), Some(7));
        assert_eq!(n("7.5").to_i64(), None);
    }
}
