//! Bumps a provider's version constraint in `required_providers`,
//! touching nothing else.
//!
//! ```text
//! cargo run --example bump_provider_version -- PROVIDER CONSTRAINT [FILE...]
//! cargo run --example bump_provider_version -- aws "~> 5.0" examples/terraform/main.tf
//! ```
//!
//! Prints a unified diff per changed file (write the files with
//! `hclwright set … -u` or `Document::to_string`). Without files, a
//! built-in example is used.

mod support;

use hclwright::EditValue;

const EXAMPLE: &str = r#"terraform {
  required_version = ">= 1.3"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 4.0" # pinned until the upgrade
    }
  }
}
"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let provider = args.first().map_or("aws", String::as_str);
    let constraint = args.get(1).map_or("~> 5.0", String::as_str);
    for (path, mut doc) in support::documents(args.get(2..).unwrap_or_default(), EXAMPLE) {
        // Every `terraform` block may declare providers; `*` would not be
        // needed here, but a file can have several `terraform` blocks.
        let address = format!("terraform.required_providers.{provider}.version");
        let found = doc.get_all(address.as_str()).map(|v| v.len()).unwrap_or(0);
        if found == 0 {
            eprintln!("{path}: no version constraint for `{provider}`");
            continue;
        }
        for item in doc.get_all(address.as_str()).expect("found above") {
            println!(
                "{path}: {provider} was {}",
                item.value_text().unwrap_or_default()
            );
        }
        doc.set(address.as_str(), EditValue::from(constraint))
            .expect("the constraint exists");
        print!("{}", doc.unified_diff(&path));
    }
}
