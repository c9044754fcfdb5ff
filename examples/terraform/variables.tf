variable "project" {
  description = "Short project name, used as the bucket name prefix."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{2,20}$", var.project))
    error_message = "The project name must be 3-21 lowercase letters, digits or dashes."
  }
}

variable "environment" {
  description = "Deployment environment."
  type        = string
  default     = "dev"

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "Environment must be one of dev, staging or prod."
  }
}

variable "versioning" {
  description = "Keep old versions of every object."
  type        = bool
  default     = true
}

variable "log_bucket" {
  description = "Bucket that receives access logs; null turns logging off."
  type        = string
  default     = null
}

variable "redirects" {
  description = "Key prefixes to redirect, as { old_prefix = new_prefix }."
  type        = map(string)
  default     = {}
}

variable "tags" {
  description = "Extra tags for every resource."
  type        = map(string)
  default     = {}
}
