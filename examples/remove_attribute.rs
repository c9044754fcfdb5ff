//! Removes a deprecated attribute from every block of a type (with its
//! comment lines, without leaving a doubled blank line).
//!
//! ```text
//! cargo run --example remove_attribute -- ADDRESS [FILE...]
//! cargo run --example remove_attribute -- 'provider.aws.skip_get_ec2_platforms' main.tf
//! cargo run --example remove_attribute -- 'resource.aws_s3_bucket.*.acl' main.tf
//! ```
//!
//! Prints a unified diff per changed file. Without files, a built-in
//! example is used.

mod support;

const EXAMPLE: &str = r#"provider "aws" {
  region = "eu-west-1"
  # Deprecated in AWS provider 5.
  skip_get_ec2_platforms = true
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs"
  acl    = "private" # use aws_s3_bucket_acl
}

resource "aws_s3_bucket" "assets" {
  bucket = "assets"
}
"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addresses: Vec<String> = match args.first() {
        Some(a) => vec![a.clone()],
        None => vec![
            "provider.aws.skip_get_ec2_platforms".to_string(),
            "resource.aws_s3_bucket.*.acl".to_string(),
        ],
    };
    for (path, mut doc) in support::documents(args.get(1..).unwrap_or_default(), EXAMPLE) {
        for address in &addresses {
            match doc.remove(address.as_str()) {
                Ok(()) => {}
                Err(e) if e.is_not_found() => {}
                Err(e) => eprintln!("{path}: {e}"),
            }
        }
        print!("{}", doc.unified_diff(&path));
    }
}
