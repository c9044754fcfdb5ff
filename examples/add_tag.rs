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

use hclwright::{Item, Value};

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
        let Ok(instances) = doc.get_all("resource.aws_instance.*") else {
            continue;
        };
        let names: Vec<String> = instances
            .iter()
            .filter_map(|i| match i {
                Item::Block(_) => i.labels().get(1).cloned(),
                _ => None,
            })
            .collect();
        for name in names {
            let label = name.replace('.', "\\.");
            let tags = format!("resource.aws_instance.{label}.tags");
            let result = if doc.contains(tags.as_str()) {
                // Sets the key inside the map (created if missing).
                doc.set(format!("{tags}.{key}"), Value::from(value))
            } else {
                doc.set(tags.as_str(), Value::object([(key, value)]))
            };
            if let Err(e) = result {
                eprintln!("{path}: aws_instance.{name}: {e}");
            }
        }
        print!("{}", doc.unified_diff(&path));
    }
}
