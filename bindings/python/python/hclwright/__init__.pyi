"""Type stubs of hclwright (the native module hclwright._native)."""

from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Union

Text = Union[str, bytes]

class Diagnostic:
    """One problem: 1-based ``line``/``column``, byte offsets ``start``/``end``."""
    line: int
    column: int
    message: str
    start: int
    end: int

class HclError(ValueError):
    """Syntax errors, bad addresses, evaluation errors."""
    diagnostics: List[Diagnostic]
    kind: str

class UnknownType:
    """The type of :data:`Unknown`."""

Unknown: UnknownType
"""A value not known until apply."""

def format(text: Text, *, profile: Literal["hclfmt", "terraform"] = "hclfmt") -> str:
    """Formats HCL text (``terraform`` gives ``terraform fmt``'s output)."""

def evaluate(
    expr: Text, *, dir: Optional[str] = None, vars: Optional[Mapping[str, Any]] = None
) -> Any:
    """The value of an expression in the module folder ``dir``.

    A sensitive value is returned as its value, unmarked; :func:`console`
    prints ``(sensitive value)`` for it as ``terraform console`` does.
    """

def console(
    expr: Text, *, dir: Optional[str] = None, vars: Optional[Mapping[str, Any]] = None
) -> str:
    """What ``terraform console`` prints for an expression."""

def to_json(text: Text) -> Dict[str, Any]:
    """The value ``hcl2json`` gives for an HCL text."""

def to_hcl(value: Union[Text, Mapping[str, Any]]) -> str:
    """Native syntax from a value or from JSON syntax text."""

def refs(text: Text) -> List[Tuple[int, int, str]]:
    """``(line, column, traversal)`` of every reference."""

def rename(text: Text, old_prefix: str, new_prefix: str) -> str:
    """The text with references starting with ``old_prefix`` renamed."""

def bump_terraform(text: Text, version: str, *, json: bool = False) -> str:
    """``required_version`` bumped to ``version`` (a version, or a constraint written as given)."""

def bump_provider(
    text: Text, name: str, version: str, *, keep_operator: bool = False, json: bool = False
) -> str:
    """A provider's version bumped (a version, or a constraint written as given)."""

def bump_plugin(
    text: Text, name: str, version: str, *, keep_operator: bool = False, json: bool = False
) -> str:
    """A Packer plugin's version in ``required_plugins`` bumped (a version, or a constraint)."""

def bump_module(
    text: Text, source: str, version: str, *, keep_operator: bool = False, json: bool = False
) -> str:
    """The version of the module blocks with ``source`` bumped (a version, or a constraint)."""

class Document:
    """An HCL file under edit by address; ``str(doc)`` gives the text."""
    def __init__(self, text: Text, *, json: bool = False) -> None: ...
    def get(self, address: str) -> Optional[str]:
        """The source text at ``address``, or None."""
    def get_all(self, address: str) -> List[str]:
        """The source texts of everything ``address`` matches."""
    def set(self, address: str, source: str) -> None:
        """Sets ``address`` to HCL ``source``, creating what is missing."""
    def remove(self, address: str) -> bool:
        """Removes what ``address`` designates; False when nothing does."""
    def rename(self, address: str, new_name: str) -> None:
        """Renames as ``hclwright mv`` does."""
    def append_block(
        self, parent_address: str, block_type: str, labels: List[str] = ...
    ) -> None:
        """Appends an empty block to the body at ``parent_address``."""
    def diff(self, path: str = "file.tf") -> str:
        """A unified diff from the parsed text, ``path`` in its headers."""
    def blocks(self, type: Optional[str] = None, *, address: str = "") -> List[Dict[str, Any]]:
        """Blocks of a body: dicts with name, labels, address."""
    def attributes(self, address: str = "") -> List[Dict[str, Any]]:
        """Attributes of a body: dicts with name, address, value."""
    def __str__(self) -> str: ...
