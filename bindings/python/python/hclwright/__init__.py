"""hclwright: lossless editing, formatting and evaluation of HCL.

Every byte an edit does not touch is kept (comments, layout). The
functions raise :class:`HclError` (a ``ValueError``) for syntax errors, bad
addresses and evaluation errors; its ``.diagnostics`` say where.
"""

from ._native import (
    Diagnostic,
    Document,
    HclError,
    Unknown,
    UnknownType,
    bump_module,
    bump_plugin,
    bump_provider,
    bump_terraform,
    console,
    evaluate,
    format,
    refs,
    rename,
    to_hcl,
    to_json,
)

__all__ = [
    "Diagnostic",
    "Document",
    "HclError",
    "Unknown",
    "UnknownType",
    "bump_module",
    "bump_plugin",
    "bump_provider",
    "bump_terraform",
    "console",
    "evaluate",
    "format",
    "refs",
    "rename",
    "to_hcl",
    "to_json",
]
