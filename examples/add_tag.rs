//! Adds a tag to every `aws_instance`: into its `tags` map when it has
//! one (in the map's own style: one line or one tag per line), or as a
//! new `tags` attribute after its last attribute.
//!
//! ```text
//! cargo run --example add_tag -- KEY VALUE [FILE...]
//! cargo run --example add_tag -- Team platform examples/terraform/main.tf
//! ```
//!
//! Prints a unified diff per changed file. Without files, a built-in
//! example is used.

mod support;

use hclwright::{EditValue, Item};

const EXAMPLE: &str = r#"resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = "t3.micro"

  tags = {
    Name = "web"
  }
}

resource "aws_instance" "worker" {
  ami           = "ami-123"
  instance_type = "t3.large"
  tags          = { Name = "worker" }
}

resource "aws_instance" "bastion" {
  ami = "ami-456"
}
"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let key = args.first().map_or("Team", String::as_str);
    let value = args.get(1).map_or("platform", String::as_str);
    for (path, mut doc) in support::documents(args.get(2..).unwrap_or_default(), EXAMPLE) {
        // The instances' labels, read from the top level's children: no
        // address strings to build (nor dots in labels to escape).
        let instances: Vec<Vec<String>> = doc
            .root_mut()
            .children()
            .unwrap_or_default()
            .iter()
            .filter(|item| item.name().as_deref() == Some("resource"))
            .map(Item::labels)
            .filter(|labels| labels.len() == 2 && labels[0] == "aws_instance")
            .collect();
        for labels in instances {
            let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
            let result = doc.block_mut("resource", &labels).and_then(|mut instance| {
                match instance.entry_mut("tags") {
                    // Sets the key inside the map (created if missing).
                    Ok(mut tags) => tags.set(key, value).map(|_| ()),
                    Err(e) if e.is_not_found() => instance
                        .set("tags", EditValue::object([(key, value)]))
                        .map(|_| ()),
                    Err(e) => Err(e),
                }
            });
            if let Err(e) = result {
                eprintln!("{path}: aws_instance.{}: {e}", labels[1]);
            }
        }
        print!("{}", doc.unified_diff(&path));
    }
}
