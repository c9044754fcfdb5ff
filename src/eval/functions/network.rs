//! IP network functions: `cidrhost cidrnetmask cidrsubnet cidrsubnets`, for
//! IPv4 and IPv6, with Terraform's errors when a prefix does not fit.

use super::support::{Result, arg_error, int, n, p, s};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::net::{Ipv4Addr, Ipv6Addr};

/// A network: its first address, prefix length and address width.
#[derive(Clone, Copy)]
struct Net {
    addr: u128,
    prefix: u32,
    bits: u32,
}

impl Net {
    fn parse(text: &str, arg: usize) -> Result<Net> {
        let bad = || {
            arg_error(
                arg,
                format!("invalid CIDR expression: invalid CIDR address: {text}"),
            )
        };
        let (ip, len) = text.split_once('/').ok_or_else(bad)?;
        let prefix: u32 = len.parse().map_err(|_| bad())?;
        let (addr, bits) = if let Ok(v4) = parse_v4(ip) {
            (u32::from(v4) as u128, 32)
        } else if let Ok(v6) = ip.parse::<Ipv6Addr>() {
            (u128::from(v6), 128)
        } else {
            return Err(bad());
        };
        if prefix > bits {
            return Err(bad());
        }
        Ok(Net {
            addr: addr & mask(prefix, bits),
            prefix,
            bits,
        })
    }

    fn size_bits(&self) -> u32 {
        self.bits - self.prefix
    }

    fn last(&self) -> u128 {
        self.addr | !mask(self.prefix, self.bits) & full(self.bits)
    }

    fn show_addr(&self, addr: u128) -> String {
        if self.bits == 32 {
            Ipv4Addr::from(addr as u32).to_string()
        } else {
            Ipv6Addr::from(addr).to_string()
        }
    }

    fn show(&self) -> String {
        format!("{}/{}", self.show_addr(self.addr), self.prefix)
    }
}

/// IPv4 in dotted decimal; leading zeros are decimal, as Terraform reads them.
fn parse_v4(text: &str) -> std::result::Result<Ipv4Addr, ()> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() != 4 {
        return Err(());
    }
    let mut octets = [0u8; 4];
    for (o, part) in octets.iter_mut().zip(parts) {
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(());
        }
        *o = part.parse().map_err(|_| ())?;
    }
    Ok(Ipv4Addr::from(octets))
}

fn full(bits: u32) -> u128 {
    if bits == 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

fn mask(prefix: u32, bits: u32) -> u128 {
    if prefix == 0 {
        0
    } else {
        full(bits) & !(full(bits - prefix.min(bits)))
    }
}

/// Adds the network functions to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function(
        "cidrhost",
        Function::new(
            vec![p("prefix", Type::String), p("hostnum", Type::Number)],
            Type::String,
            |args, _| {
                let net = Net::parse(s(&args[0]), 0)?;
                let num = n(&args[1]);
                let host = num
                    .to_i64()
                    .map(i128::from)
                    .ok_or_else(|| arg_error(1, "hostnum must be a whole number"))?;
                let size: i128 = if net.size_bits() >= 127 {
                    i128::MAX
                } else {
                    1i128 << net.size_bits()
                };
                let index = if host < 0 { size + host } else { host };
                if index < 0 || index >= size {
                    return Err(FunctionError::new(format!(
                        "prefix of {} bits cannot accommodate a host numbered {host}",
                        net.prefix
                    )));
                }
                Ok(Value::string(net.show_addr(net.addr + index as u128)))
            },
        ),
    );
    ctx.set_function(
        "cidrnetmask",
        Function::new(vec![p("prefix", Type::String)], Type::String, |args, _| {
            let net = Net::parse(s(&args[0]), 0)?;
            if net.bits != 32 {
                return Err(arg_error(
                    0,
                    "IPv6 addresses cannot have a netmask: ".to_string() + s(&args[0]),
                ));
            }
            Ok(Value::string(
                Ipv4Addr::from(mask(net.prefix, 32) as u32).to_string(),
            ))
        }),
    );
    ctx.set_function(
        "cidrsubnet",
        Function::new(
            vec![p("prefix", Type::String), p("newbits", Type::Number), p("netnum", Type::Number)],
            Type::String,
            |args, _| {
                let net = Net::parse(s(&args[0]), 0)?;
                let newbits = int(&args[1], 1, "newbits")?;
                let netnum = int(&args[2], 2, "netnum")?;
                let new_prefix = net.prefix as i64 + newbits;
                if newbits < 0 || new_prefix > net.bits as i64 {
                    return Err(FunctionError::new(format!(
                        "insufficient address space to extend prefix of {} by {newbits}",
                        net.prefix
                    )));
                }
                let max: i128 = 1i128 << newbits.min(126);
                if netnum < 0 || netnum as i128 >= max {
                    return Err(FunctionError::new(format!(
                        "prefix extension of {newbits} does not accommodate a subnet numbered {netnum}"
                    )));
                }
                let shift = net.bits - new_prefix as u32;
                let addr = net.addr | ((netnum as u128) << shift);
                Ok(Value::string(Net { addr, prefix: new_prefix as u32, bits: net.bits }.show()))
            },
        ),
    );
    ctx.set_function(
        "cidrsubnets",
        Function::new(vec![p("prefix", Type::String)], Type::list(Type::String), |args, _| {
            let net = Net::parse(s(&args[0]), 0)?;
            let lengths: Vec<i64> = args[1..]
                .iter()
                .enumerate()
                .map(|(i, a)| int(a, i + 1, "newbits"))
                .collect::<Result<_>>()?;
            if lengths.is_empty() {
                return Ok(Value::List(Type::String, crate::eval::Elements::new()));
            }
            let first = (lengths[0] + net.prefix as i64).clamp(0, net.bits as i64) as u32;
            // The subnet just before the network, of the first size.
            let step = 1u128.checked_shl(net.bits - first).unwrap_or(0);
            let mut current = Net { addr: net.addr.wrapping_sub(step) & full(net.bits), prefix: first, bits: net.bits };
            let mut out = Vec::new();
            for (i, extra) in lengths.iter().enumerate() {
                let length = extra + net.prefix as i64;
                if *extra < 1 {
                    return Err(arg_error(i + 1, "must extend prefix by at least one bit"));
                }
                if length > net.bits as i64 {
                    return Err(arg_error(
                        i + 1,
                        format!("would extend prefix to {length} bits, which is too long for an IPv{} address", if net.bits == 32 { 4 } else { 6 }),
                    ));
                }
                let length = length as u32;
                let m = mask(length, net.bits);
                let widened = Net { addr: current.last() & m, prefix: length, bits: net.bits };
                let next_start = widened.last().wrapping_add(1) & full(net.bits);
                let next = Net { addr: next_start & m, prefix: length, bits: net.bits };
                let rolled = next_start == 0;
                if rolled || next.addr & mask(net.prefix, net.bits) != net.addr {
                    return Err(arg_error(
                        i + 1,
                        format!("not enough remaining address space for a subnet with a prefix of {length} bits after {}", current.show()),
                    ));
                }
                current = next;
                out.push(Value::string(current.show()));
            }
            Ok(Value::List(Type::String, out.into()))
        })
        .variadic(p("newbits", Type::Number)),
    );
}
