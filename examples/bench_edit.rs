//! Edit benchmark: attribute value edits in a 10 MB file.
//!
//! ```text
//! cargo run --release --example bench_edit [SIZE_MB] [EDITS]
//! ```
//!
//! Builds a Terraform file of about `SIZE_MB` (default 10) megabytes
//! (resource blocks with attributes, maps, lists and comments), parses it
//! into a [`Document`] (timed apart), then times each of `EDITS`
//! (default 201) edits by address, one after the other on the same
//! document, at blocks spread evenly from the first to the last:
//! `doc.set("resource.aws_instance.web_N.ami", "ami-new-K")` — address
//! resolution, the new subtree, layout of the line and the record of the
//! change. The first edit also builds the index of the top-level items
//! (once per document): it is reported apart, and the others give the
//! min / median / max. Then, the same way, creating an attribute and
//! removing one. Reads by address are timed after the edits (the first
//! builds the rowan tree of the whole file again). Printing
//! (`to_string`, as MB/s) and the text edits against the original are
//! timed apart, after the edits.
//!
//! Targets: edit ≤ 1 ms (median), printing ≥ 500 MB/s.

use std::hint::black_box;
use std::time::{Duration, Instant};

use hclwright::diff::apply_edits;
use hclwright::{Document, EditValue};

const PRINT_REPS: usize = 15;
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
    (0..PRINT_REPS).map(|_| f()).min().unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Min, median and max of a sample, in milliseconds.
fn summary(mut times: Vec<Duration>) -> (f64, f64, f64) {
    times.sort();
    let median = times[times.len() / 2];
    (ms(times[0]), ms(median), ms(times[times.len() - 1]))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mb: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(201);
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
    let mut doc = Document::parse(&text).expect("valid");
    println!(
        "parse: {:.1} ms (not part of the edit)",
        ms(start.elapsed())
    );

    // Blocks from the first to the last, evenly spread.
    let positions: Vec<usize> = (0..count)
        .map(|k| k * (n - 1) / (count - 1).max(1))
        .collect();
    let mut times = Vec::with_capacity(count);
    for (k, &i) in positions.iter().enumerate() {
        let address = format!("resource.aws_instance.web_{i}.ami");
        let value = format!("ami-new-{k}");
        let value = EditValue::from(value);
        let t = Instant::now();
        doc.set(address.as_str(), value).expect("found");
        times.push(t.elapsed());
    }
    let first = times.remove(0);
    let (min, median, max) = summary(times);

    // Creating `monitoring = true` after the last attribute of a block,
    // then removing `subnet_id` from another.
    let mut creates = Vec::new();
    let mut removes = Vec::new();
    for &i in positions.iter().skip(1).step_by(4) {
        let address = format!("resource.aws_instance.web_{i}.monitoring");
        let t = Instant::now();
        doc.set(address.as_str(), true).expect("created");
        creates.push(t.elapsed());
        let address = format!("resource.aws_instance.web_{}.subnet_id", i + 1);
        let t = Instant::now();
        doc.remove(address.as_str()).expect("removed");
        removes.push(t.elapsed());
    }
    let (_, create_median, create_max) = summary(creates);
    let (_, remove_median, remove_max) = summary(removes);

    let middle = format!("resource.aws_instance.web_{}.ami", n / 2);
    let mut lookups = Vec::with_capacity(count);
    for &i in &positions {
        let address = format!("resource.aws_instance.web_{i}.instance_type");
        let t = Instant::now();
        black_box(doc.get(address.as_str()).expect("found"));
        lookups.push(t.elapsed());
    }
    let first_lookup = lookups[0];
    let (_, lookup_median, _) = summary(lookups);

    let printed = doc.to_string();
    let print = best(|| {
        let t = Instant::now();
        let s = doc.to_string();
        let e = t.elapsed();
        assert_eq!(s.len(), printed.len());
        black_box(s);
        e
    });
    let t = Instant::now();
    let edits = doc.text_edits();
    let edits_time = t.elapsed();
    assert_eq!(
        edits.len(),
        count + positions.iter().skip(1).step_by(4).count() * 2,
        "one text edit per edit"
    );
    assert_eq!(
        apply_edits(&text, &edits).expect("sorted edits"),
        printed,
        "the text edits give the text"
    );
    let t = Instant::now();
    let tree_text = doc.syntax().to_string();
    let tree_time = t.elapsed();
    assert_eq!(tree_text, printed, "the tree prints the text");
    assert!(hclwright::parse(&printed).errors().is_empty());

    let print_mbs = size / print.as_secs_f64();
    println!(
        "first edit (also builds the index of top-level items): {:.3} ms",
        ms(first)
    );
    println!(
        "edit by address, {} more edits over the file: min {min:.3} ms, median {median:.3} ms, max {max:.3} ms (target <= {EDIT_TARGET_MS} ms)",
        count - 1
    );
    println!(
        "create an attribute: median {create_median:.3} ms, max {create_max:.3} ms; remove one: median {remove_median:.3} ms, max {remove_max:.3} ms"
    );
    println!(
        "get by address: median {lookup_median:.3} ms; the first after the edits, which builds the tree again: {:.3} ms",
        ms(first_lookup)
    );
    println!("print: {print_mbs:.0} MB/s (target >= {PRINT_TARGET_MBS} MB/s)");
    println!(
        "tree after the edits (syntax(), then rowan Display): {:.1} ms",
        ms(tree_time)
    );
    println!("text edits: {:.3} ms", ms(edits_time));
    println!(
        "middle block's value: {}",
        doc.get(middle.as_str()).expect("found").text()
    );
    let sample = positions[1 + 4 * 10];
    println!(
        "a block with a new attribute, and the next without subnet_id:\n{}\n{}",
        doc.get(format!("resource.aws_instance.web_{sample}").as_str())
            .expect("found")
            .text(),
        doc.get(format!("resource.aws_instance.web_{}", sample + 1).as_str())
            .expect("found")
            .text()
    );
}
