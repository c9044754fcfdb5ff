//! Date and time functions: `formatdate timeadd timecmp timestamp`, on
//! RFC 3339 timestamps as Terraform reads and writes them (the offset kept,
//! `Z` for UTC, no fraction of a second on output). `plantimestamp` exists
//! only while planning: `terraform console` has no such function, and
//! neither has this library.

use super::support::{arg_error, p, s};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;

/// A moment: seconds since the epoch (UTC), nanoseconds, and the offset
/// (seconds east of UTC) it was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Moment {
    secs: i64,
    nanos: i64,
    offset: i64,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + if m <= 2 { 1 } else { 0 }, m, d)
}

fn bad(detail: &str) -> String {
    format!("not a valid RFC3339 timestamp: {detail}")
}

/// Reads `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
fn parse(text: &str) -> Result<Moment, String> {
    let b = text.as_bytes();
    let num = |from: usize, len: usize, what: &str| -> Result<i64, String> {
        let part = text
            .get(from..from + len)
            .ok_or_else(|| bad(&format!("end of string before {what}")))?;
        if !part.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad(&format!(
                "cannot use {} as {what}",
                crate::eval::go_quote(part)
            )));
        }
        part.parse().map_err(|_| {
            bad(&format!(
                "cannot use {} as {what}",
                crate::eval::go_quote(part)
            ))
        })
    };
    let sep = |at: usize, want: u8| -> Result<(), String> {
        match b.get(at) {
            Some(&c) if c == want => Ok(()),
            Some(&c) => Err(bad(&format!(
                "found {} where {} is expected",
                crate::eval::go_quote(&(c as char).to_string()),
                crate::eval::go_quote(&(want as char).to_string())
            ))),
            None => Err(bad(&format!(
                "end of string where {} is expected",
                crate::eval::go_quote(&(want as char).to_string())
            ))),
        }
    };
    let year = num(0, 4, "year")?;
    sep(4, b'-')?;
    let month = num(5, 2, "month")?;
    sep(7, b'-')?;
    let day = num(8, 2, "day of month")?;
    if b.get(10) != Some(&b'T') {
        return Err(bad("missing required time introducer 'T'"));
    }
    let hour = num(11, 2, "hour")?;
    sep(13, b':')?;
    let minute = num(14, 2, "minute")?;
    sep(16, b':')?;
    let second = num(17, 2, "second")?;
    let mut i = 19;
    let mut nanos = 0i64;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        let mut j = start;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let digits = &text[start..j];
        if digits.is_empty() {
            return Err(bad("cannot use \".\" as second"));
        }
        let mut padded = digits.chars().take(9).collect::<String>();
        while padded.len() < 9 {
            padded.push('0');
        }
        nanos = padded.parse().unwrap_or(0);
        i = j;
    }
    let offset = match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => 0,
        Some(&c @ (b'+' | b'-')) if b.len() == i + 6 && b[i + 3] == b':' => {
            let h = num(i + 1, 2, "UTC offset")?;
            let m = num(i + 4, 2, "UTC offset")?;
            let o = h * 3600 + m * 60;
            if c == b'-' { -o } else { o }
        }
        None => return Err(bad("end of string before UTC offset")),
        _ => {
            return Err(bad(&format!(
                "cannot use {} as UTC offset",
                crate::eval::go_quote(&text[i..])
            )));
        }
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => {
            return Err(format!(
                "parsing time {}: month out of range",
                crate::eval::go_quote(text)
            ));
        }
    };
    if day < 1 || day > days_in_month {
        return Err(format!(
            "parsing time {}: day out of range",
            crate::eval::go_quote(text)
        ));
    }
    if hour > 23 || minute > 59 || second > 59 {
        let what = if hour > 23 {
            "hour"
        } else if minute > 59 {
            "minute"
        } else {
            "second"
        };
        return Err(format!(
            "parsing time {}: {what} out of range",
            crate::eval::go_quote(text)
        ));
    }
    let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    Ok(Moment {
        secs: local - offset,
        nanos,
        offset,
    })
}

/// The local civil fields of a moment.
fn fields(m: &Moment) -> (i64, i64, i64, i64, i64, i64, usize) {
    let local = m.secs + m.offset;
    let days = local.div_euclid(86_400);
    let rem = local.rem_euclid(86_400);
    let (y, mo, d) = civil_from_days(days);
    let weekday = (days + 4).rem_euclid(7) as usize;
    (y, mo, d, rem / 3600, rem % 3600 / 60, rem % 60, weekday)
}

fn offset_text(offset: i64, colon: bool, z: bool) -> String {
    if z && offset == 0 {
        return "Z".into();
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let o = offset.abs();
    if colon {
        format!("{sign}{:02}:{:02}", o / 3600, o % 3600 / 60)
    } else {
        format!("{sign}{:02}{:02}", o / 3600, o % 3600 / 60)
    }
}

/// RFC 3339 as Go's `time.RFC3339` layout writes it.
fn rfc3339(m: &Moment) -> String {
    let (y, mo, d, h, mi, s, _) = fields(m);
    format!(
        "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{}",
        offset_text(m.offset, true, true)
    )
}

/// Go's `time.ParseDuration`, in nanoseconds.
fn parse_duration(text: &str) -> Result<i128, String> {
    let invalid = || format!("time: invalid duration {}", crate::eval::go_quote(text));
    let (neg, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: f64 = 0.0;
    let mut exact: i128 = 0;
    let mut all_whole = true;
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = &rest[..end];
        if number.is_empty() || number == "." {
            return Err(invalid());
        }
        rest = &rest[end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_end];
        rest = &rest[unit_end..];
        let scale: i128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            "" => {
                return Err(format!(
                    "time: missing unit in duration {}",
                    crate::eval::go_quote(text)
                ));
            }
            other => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    crate::eval::go_quote(other),
                    crate::eval::go_quote(text)
                ));
            }
        };
        if number.contains('.') {
            all_whole = false;
        } else {
            exact += number.parse::<i128>().map_err(|_| invalid())? * scale;
        }
        total += number.parse::<f64>().map_err(|_| invalid())? * scale as f64;
    }
    let ns = if all_whole { exact } else { total as i128 };
    Ok(if neg { -ns } else { ns })
}

/// Adds the date and time functions to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function(
        "timestamp",
        Function::new(vec![], Type::String, |_, _| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0);
            Ok(Value::string(rfc3339(&Moment {
                secs: now,
                nanos: 0,
                offset: 0,
            })))
        }),
    );
    ctx.set_function(
        "timeadd",
        Function::new(
            vec![p("timestamp", Type::String), p("duration", Type::String)],
            Type::String,
            |args, _| {
                let m = parse(s(&args[0])).map_err(FunctionError::new)?;
                let ns = parse_duration(s(&args[1])).map_err(FunctionError::new)?;
                let total = m.secs as i128 * 1_000_000_000 + m.nanos as i128 + ns;
                let secs = total.div_euclid(1_000_000_000) as i64;
                let nanos = total.rem_euclid(1_000_000_000) as i64;
                Ok(Value::string(rfc3339(&Moment {
                    secs,
                    nanos,
                    offset: m.offset,
                })))
            },
        ),
    );
    ctx.set_function(
        "timecmp",
        Function::new(
            vec![
                p("timestamp_a", Type::String),
                p("timestamp_b", Type::String),
            ],
            Type::Number,
            |args, _| {
                let a = parse(s(&args[0])).map_err(|e| arg_error(0, e))?;
                let b = parse(s(&args[1])).map_err(|e| arg_error(1, e))?;
                let c = (a.secs, a.nanos).cmp(&(b.secs, b.nanos)) as i64;
                Ok(Value::Number(Number::from_i64(c)))
            },
        ),
    );
    ctx.set_function(
        "formatdate",
        Function::new(
            vec![p("format", Type::String), p("time", Type::String)],
            Type::String,
            |args, _| {
                let m = parse(s(&args[1])).map_err(|e| arg_error(1, e))?;
                format_date(s(&args[0]), &m)
            },
        ),
    );
}

fn format_date(spec: &str, m: &Moment) -> Result<Value, FunctionError> {
    let (y, mo, d, h, mi, sec, wd) = fields(m);
    let b = spec.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let verb_err = |tok: &str, why: &str| {
        arg_error(
            0,
            format!(
                "invalid date format verb {}: {why}",
                crate::eval::go_quote(tok)
            ),
        )
    };
    while i < b.len() {
        let c = b[i];
        if c == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                out.push('\'');
                i += 2;
                continue;
            }
            let mut j = i + 1;
            let mut lit = String::new();
            let mut closed = false;
            while j < b.len() {
                if b[j] == b'\'' {
                    if b.get(j + 1) == Some(&b'\'') {
                        lit.push('\'');
                        j += 2;
                        continue;
                    }
                    closed = true;
                    j += 1;
                    break;
                }
                let ch = spec[j..].chars().next().unwrap_or(' ');
                lit.push(ch);
                j += ch.len_utf8();
            }
            if !closed {
                return Err(arg_error(0, "unterminated literal '"));
            }
            out.push_str(&lit);
            i = j;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            let ch = spec[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
            continue;
        }
        let mut j = i + 1;
        while j < b.len() && b[j] == c {
            j += 1;
        }
        let tok = &spec[i..j];
        let n = j - i;
        i = j;
        match (c, n) {
            (b'Y', 2) => out.push_str(&format!("{:02}", y.rem_euclid(100))),
            (b'Y', 4) => out.push_str(&format!("{y:04}")),
            (b'Y', _) => return Err(verb_err(tok, "year must either be \"YY\" or \"YYYY\"")),
            (b'M', 1) => out.push_str(&mo.to_string()),
            (b'M', 2) => out.push_str(&format!("{mo:02}")),
            (b'M', 3) => out.push_str(&MONTHS[mo as usize - 1][..3]),
            (b'M', 4) => out.push_str(MONTHS[mo as usize - 1]),
            (b'M', _) => {
                return Err(verb_err(
                    tok,
                    "month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"",
                ));
            }
            (b'D', 1) => out.push_str(&d.to_string()),
            (b'D', 2) => out.push_str(&format!("{d:02}")),
            (b'D', _) => return Err(verb_err(tok, "day of month must either be \"D\" or \"DD\"")),
            (b'E', 3) => out.push_str(&DAYS[wd][..3]),
            (b'E', 4) => out.push_str(DAYS[wd]),
            (b'E', _) => {
                return Err(verb_err(
                    tok,
                    "day of week must either be \"EEE\" or \"EEEE\"",
                ));
            }
            (b'h', 1) => out.push_str(&h.to_string()),
            (b'h', 2) => out.push_str(&format!("{h:02}")),
            (b'h', _) => return Err(verb_err(tok, "24-hour must either be \"h\" or \"hh\"")),
            (b'H', 1 | 2) => {
                let h12 = if h % 12 == 0 { 12 } else { h % 12 };
                out.push_str(&if n == 1 {
                    h12.to_string()
                } else {
                    format!("{h12:02}")
                });
            }
            (b'H', _) => return Err(verb_err(tok, "12-hour must either be \"H\" or \"HH\"")),
            (b'A' | b'a', 2) => {
                let pm = h >= 12;
                out.push_str(match (c == b'A', pm) {
                    (true, false) => "AM",
                    (true, true) => "PM",
                    (false, false) => "am",
                    (false, true) => "pm",
                });
            }
            (b'A' | b'a', _) => {
                let ch = c as char;
                return Err(verb_err(tok, &format!("must be \"{ch}{ch}\"")));
            }
            (b'm', 1) => out.push_str(&mi.to_string()),
            (b'm', 2) => out.push_str(&format!("{mi:02}")),
            (b'm', _) => return Err(verb_err(tok, "minute must either be \"m\" or \"mm\"")),
            (b's', 1) => out.push_str(&sec.to_string()),
            (b's', 2) => out.push_str(&format!("{sec:02}")),
            (b's', _) => return Err(verb_err(tok, "second must either be \"s\" or \"ss\"")),
            (b'Z', 1) => out.push_str(&offset_text(m.offset, true, true)),
            (b'Z', 3) => {
                let t = offset_text(m.offset, false, false);
                out.push_str(if t == "+0000" { "UTC" } else { &t });
            }
            (b'Z', 4) => out.push_str(&offset_text(m.offset, false, false)),
            (b'Z', 5) => out.push_str(&offset_text(m.offset, true, false)),
            (b'Z', _) => return Err(verb_err(tok, "timezone must be Z, ZZZZ, or ZZZZZ")),
            _ => {
                return Err(arg_error(
                    0,
                    format!("invalid date format verb {}", crate::eval::go_quote(tok)),
                ));
            }
        }
    }
    Ok(Value::string(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip() {
        for days in [-800_000, -1, 0, 1, 365, 10_957, 19_000, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(parse_duration("1h30m").unwrap(), 5_400_000_000_000);
        assert_eq!(parse_duration("-1.5s").unwrap(), -1_500_000_000);
        assert!(parse_duration("1x").is_err());
    }
}
