# Terragrunt unit for the static-site module in ../terraform.

include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

locals {
  env_vars    = read_terragrunt_config(find_in_parent_folders("env.hcl"))
  environment = local.env_vars.locals.environment
}

terraform {
  source = "../terraform"

  extra_arguments "retry_lock" {
    commands  = get_terraform_commands_that_need_locking()
    arguments = ["-lock-timeout=5m"]
  }
}

dependency "logs" {
  config_path = "../log-bucket"

  mock_outputs = {
    bucket_id = "mock-log-bucket"
  }
  mock_outputs_allowed_terraform_commands = ["validate", "plan"]
}

inputs = {
  project     = "acme"
  environment = local.environment
  log_bucket  = dependency.logs.outputs.bucket_id

  redirects = {
    "blog/" = "articles/"
  }

  tags = {
    CostCenter = "web"
  }
}
