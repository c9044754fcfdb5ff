output "bucket_id" {
  description = "Name of the site bucket."
  value       = aws_s3_bucket.site.id
}

output "bucket_arn" {
  description = "ARN of the site bucket."
  value       = aws_s3_bucket.site.arn
}

output "website_endpoint" {
  description = "Public endpoint of the static website."
  value       = aws_s3_bucket_website_configuration.site.website_endpoint
}

output "logging_enabled" {
  description = "Whether access logging is on."
  value       = length(aws_s3_bucket_logging.site) > 0
}

output "redirect_prefixes" {
  description = "The redirected key prefixes, sorted."
  value       = sort([for prefix, _ in var.redirects : prefix])
}
