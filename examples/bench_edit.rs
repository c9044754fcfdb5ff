//! Edit benchmark: one attribute value edit in a 10 MB file.
//!
//! ```text
//! cargo run --release --example bench_edit [SIZE_MB]
//! ```
//!
//! Builds a Terraform file of about `SIZE_MB` (default 10) megabytes
//! (resource blocks with attributes, maps, lists and comments), parses it
//! into a [`Document`], then times (best of several runs):
//!
//! - the edit: `doc.set("resource.aws_instance.web_N.ami", …)` on a
//!   block in the middle of the file (address resolution, new subtree,
//!   layout of the line, record of the change);
//! - the edit with the block already found, by an address that resolves
//!   at once (`locals.target`, the first item);
//! - printing the edited document (`to_string`), as MB/s;
//! - the text edits against the original.
//!
//! Targets: edit ≤ 1 ms, printing ≥ 500 MB/s.

use std::hint::black_box;
use std::time::{Duration, Instant};

use hclwright::{Document, Value};

const REPS: usize = 15;
const EDIT_TARGET_MS: f64 = 1.0;
const PRINT_TARGET_MBS: f64 = 500.0;

fn block(i: usize) -> String {
    format!(
        r#"# Instance {i}.
resource "aws_instance" "web_{i}" {{
  ami           = "ami-{i:08}" # pinned
  instance_type = "t3.micro"
  subnet_id     = var.subnets[{m}]

  tags = {{
    Name = "web-{i}"
    Team = "platform"
  }}

  ebs_block_device {{
    device_name = "/dev/sdh"
    volume_size = {v}
  }}
}}

"#,
        m = i % 3,
        v = 10 + i % 90
    )
}

fn best(mut f: impl FnMut() -> Duration) -> Duration {
    (0..REPS).map(|_| f()).min().unwrap_or_default()
}

fn main() {
    let mb: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10.0);
    let target_bytes = (mb * 1e6) as usize;
    let mut text = String::from("locals {\n  target = \"x\"\n}\n\n");
    let mut n = 0;
    while text.len() < target_bytes {
        text.push_str(&block(n));
        n += 1;
    }
    let size = text.len() as f64 / 1e6;
    println!("file: {size:.1} MB, {n} blocks");

    let start = Instant::now();
    let doc = Document::parse(&text).expect("valid");
    println!("parse: {:.1} ms", start.elapsed().as_secs_f64() * 1e3);

    let address = format!("resource.aws_instance.web_{}.ami", n / 2);
    let value = Value::from("ami-new");
    let edit = best(|| {
        let mut d = doc.clone();
        let t = Instant::now();
        d.set(address.as_str(), value.clone()).expect("found");
        let e = t.elapsed();
        black_box(&d);
        e
    });
    let resolve = best(|| {
        let t = Instant::now();
        black_box(doc.get(address.as_str()).expect("found"));
        t.elapsed()
    });
    let quick = best(|| {
        let mut d = doc.clone();
        let t = Instant::now();
        d.set("locals.target", value.clone()).expect("found");
        let e = t.elapsed();
        black_box(&d);
        e
    });
    let mut edited = doc.clone();
    edited.set(address.as_str(), value.clone()).expect("found");
    let print = best(|| {
        let t = Instant::now();
        let s = edited.to_string();
        let e = t.elapsed();
        assert_eq!(s.len(), text.len() - "ami-00000000".len() + "ami-new".len());
        black_box(s);
        e
    });
    let edits = best(|| {
        let t = Instant::now();
        black_box(edited.text_edits());
        t.elapsed()
    });
    let tree_print = best(|| {
        let t = Instant::now();
        black_box(edited.syntax().to_string());
        t.elapsed()
    });

    let edit_ms = edit.as_secs_f64() * 1e3;
    let print_mbs = size / print.as_secs_f64();
    println!(
        "edit by address (block {} of {n}): {edit_ms:.3} ms (target <= {EDIT_TARGET_MS} ms)",
        n / 2
    );
    println!(
        "  of which finding the block: {:.3} ms",
        resolve.as_secs_f64() * 1e3
    );
    println!(
        "edit of the first item: {:.3} ms",
        quick.as_secs_f64() * 1e3
    );
    println!("print: {print_mbs:.0} MB/s (target >= {PRINT_TARGET_MBS} MB/s)");
    println!(
        "print from the tree (rowan Display): {:.0} MB/s",
        size / tree_print.as_secs_f64()
    );
    println!("text edits: {:.3} ms", edits.as_secs_f64() * 1e3);
    println!("diff of the edit: {:?}", edited.text_edits());
}
