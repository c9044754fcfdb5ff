"""The Python API of hclwright: every function, bad input, and the corpus
round trip through Document (when HCLWRIGHT_CORPUS is set)."""

import os
import pathlib
import threading

import pytest

import hclwright
from hclwright import Document, HclError

TF = """terraform {
  required_version = "~> 1.5.0"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 4.0" # pinned
    }
  }
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.0.0"
}
"""


def test_format_profiles():
    assert hclwright.format("a=1\n") == "a = 1\n"
    assert hclwright.format(b"a=1\n", profile="terraform") == "a = 1\n"
    with pytest.raises(HclError):
        hclwright.format("a=1\n", profile="nope")


def test_errors_carry_diagnostics():
    with pytest.raises(HclError) as info:
        hclwright.format("a = [1 2]\n")
    e = info.value
    assert isinstance(e, ValueError)
    d = e.diagnostics[0]
    assert (d.line, d.column, d.start, d.end) == (1, 8, 7, 8)
    assert str(e).startswith("1:8: expected")
    assert str(d) == str(e).splitlines()[0]


def test_non_utf8_bytes_raise():
    for call in (
        lambda t: hclwright.format(t),
        lambda t: Document(t),
        lambda t: hclwright.to_json(t),
        lambda t: hclwright.refs(t),
    ):
        with pytest.raises(HclError) as info:
            call(b'a = "\xff"\n')
        assert info.value.diagnostics[0].column == 6


def test_wrong_argument_types():
    with pytest.raises(TypeError):
        hclwright.format(1)
    with pytest.raises(TypeError):
        hclwright.to_hcl({"a": object()})


def test_document_edits_keep_other_bytes():
    doc = Document(TF)
    assert str(doc) == TF
    assert doc.get("terraform.required_providers.aws.version") == '"~> 4.0"'
    assert doc.get("module.vpc.nope") is None
    doc.set("module.vpc.version", '"5.5.1"')
    doc.set("module.vpc.name", '"main"')
    assert doc.remove("terraform.required_version")
    assert not doc.remove("terraform.required_version")
    doc.rename("module.vpc", "module.net")
    doc.append_block("", "output", ["id"])
    text = str(doc)
    assert '# pinned' in text
    assert 'module "net"' in text and 'version = "5.5.1"' in text
    assert 'output "id"' in text
    diff = doc.diff("main.tf")
    assert "+++ b/main.tf" in diff and '-  version = "5.0.0"' in diff


def test_document_listing():
    doc = Document(TF)
    assert [b["address"] for b in doc.blocks()] == ["terraform", "module.vpc"]
    assert doc.blocks("module")[0]["labels"] == ["vpc"]
    attrs = doc.attributes("module.vpc")
    assert [a["name"] for a in attrs] == ["source", "version"]
    assert attrs[1]["address"] == "module.vpc.version"
    assert attrs[1]["value"] == '"5.0.0"'


def test_document_bad_input():
    with pytest.raises(HclError) as info:
        Document("a = \n")
    assert info.value.diagnostics[0].line == 1
    doc = Document(TF)
    with pytest.raises(HclError):
        doc.get("module..x")
    with pytest.raises(HclError):
        doc.set("module.vpc.version", "[1,")
    with pytest.raises(HclError):
        doc.rename("module.vpc.version", "other.thing")
    with pytest.raises(HclError):
        doc.attributes("nothing.here")
    assert str(doc) == TF


def test_json_document():
    doc = Document('{"locals": {"a": 1}}', json=True)
    assert doc.get("locals.a") == "1"
    doc.set("locals.a", "2")
    assert str(doc) == '{"locals": {"a": 2}}'
    with pytest.raises(HclError):
        Document("{", json=True)


JSON_TF = """{
  "resource": {"aws_instance": {"web": {"ami": "ami-1"}, "db": [{"ami": "ami-2"}]}},
  "locals": {"region": "eu-west-1"}
}
"""


def test_json_document_blocks():
    doc = Document(JSON_TF, json=True)
    assert [b["address"] for b in doc.blocks()] == [
        "resource.aws_instance.web",
        "resource.aws_instance.db",
        "locals",
    ]
    assert doc.blocks("resource")[1]["labels"] == ["aws_instance", "db"]
    attrs = doc.attributes("resource.aws_instance.web")
    assert [(a["name"], a["value"]) for a in attrs] == [("ami", '"ami-1"')]
    assert doc.attributes() == []
    with pytest.raises(HclError):
        doc.attributes("locals.region")  # an attribute has no body
    doc.append_block("", "output", ["id"])
    doc.set("output.id.value", "aws_instance.web.id")
    assert doc.get("output.id.value") == '"${aws_instance.web.id}"'
    with pytest.raises(HclError):
        doc.append_block("", "output", ["id"])


def test_evaluate_values(tmp_path):
    (tmp_path / "main.tf").write_text(
        'variable "n" {\n  type = number\n}\n'
        'variable "s" {}\n'
        "locals {\n  l = var.n * 2\n}\n"
    )
    d = str(tmp_path)
    vars = {"n": 21, "s": "x"}
    assert hclwright.evaluate("local.l", dir=d, vars=vars) == 42
    big = hclwright.evaluate("123456789012345678901234567890 * 10", dir=d, vars=vars)
    assert big == 1234567890123456789012345678900 and isinstance(big, int)
    assert hclwright.evaluate("1 / 4") == 0.25
    assert hclwright.evaluate('{a = [true, null, "x"], b = toset([1])}') == {
        "a": [True, None, "x"],
        "b": [1],
    }
    assert hclwright.evaluate("var.s", dir=d, vars=vars) == "x"
    assert hclwright.console("[1]") == "[\n  1,\n]"
    assert hclwright.console("var.n", dir=d, vars=vars) == "21"
    with pytest.raises(HclError) as info:
        hclwright.evaluate("local.nope", dir=d, vars=vars)
    assert info.value.diagnostics[0].column == 1
    with pytest.raises(HclError):
        hclwright.evaluate("1 +")


def test_unknown(tmp_path):
    (tmp_path / "main.tf").write_text('resource "a" "b" {}\n')
    v = hclwright.evaluate("a.b.id", dir=str(tmp_path))
    assert v is hclwright.Unknown
    assert repr(v) == "hclwright.Unknown"


def test_to_json_and_back():
    value = hclwright.to_json('a = 1\nb = "x"\nc = 1.5\n')
    assert value == {"a": 1, "b": "x", "c": 1.5}
    assert hclwright.to_hcl(value) == 'a = 1\nb = "x"\nc = 1.5\n'
    assert hclwright.to_hcl('{"a": [1, 2]}') == "a = [1, 2]\n"
    with pytest.raises(HclError):
        hclwright.to_json("a = \n")
    with pytest.raises(HclError):
        hclwright.to_hcl("{")


def test_refs_and_rename():
    assert hclwright.refs("a = var.x[0]\nb = local.y\n") == [
        (1, 5, "var.x[0]"),
        (2, 5, "local.y"),
    ]
    assert hclwright.rename("a = var.x.y\n", "var.x", "var.z") == "a = var.z.y\n"
    with pytest.raises(HclError):
        hclwright.rename("a = 1\n", "var.", "var.z")
    with pytest.raises(HclError):
        hclwright.refs("a = [\n")


def test_bumps():
    out = hclwright.bump_provider(TF, "hashicorp/aws", "5.31.0", keep_operator=True)
    assert 'version = "~> 5.31" # pinned' in out
    assert hclwright.bump_provider(TF, "aws", "5.31.0").count('"5.31.0"') == 1
    assert 'required_version = "1.11.4"' in hclwright.bump_terraform(TF, "1.11.4")
    out = hclwright.bump_module(TF, "terraform-aws-modules/vpc/aws", "5.5.1")
    assert 'version = "5.5.1"' in out
    assert hclwright.bump_module(TF, "other/mod/aws", "1.0.0") == TF
    with pytest.raises(HclError):
        hclwright.bump_terraform(TF, "not a version")
    # A constraint is written as given; keeping an operator needs a version.
    assert 'required_version = "~> 1.9"' in hclwright.bump_terraform(TF, "~> 1.9")
    with pytest.raises(HclError, match="needs a version"):
        hclwright.bump_provider(TF, "aws", "~> 5.0", keep_operator=True)
    packer = (
        'packer {\n  required_plugins {\n    amazon = {\n'
        '      source  = "github.com/hashicorp/amazon"\n      version = ">= 1.2.0"\n    }\n  }\n}\n'
    )
    out = hclwright.bump_plugin(packer, "amazon", "1.3.1", keep_operator=True)
    assert 'version = ">= 1.3.1"' in out
    # The JSON syntax.
    json_tf = '{"terraform": {"required_version": "~> 1.5"}}'
    assert hclwright.bump_terraform(json_tf, "1.11.4", json=True) == (
        '{"terraform": {"required_version": "1.11.4"}}'
    )


def test_large_file_and_threads():
    block = 'resource "a" "b%d" {\n  x = "%s" # c\n}\n'
    text = "".join(block % (i, "y" * 40) for i in range(150_000))
    assert len(text) > 10_000_000
    doc = Document(text)
    doc.set('resource.a.b7.x', '"z"')
    assert str(doc).count('"z"') == 1
    results = []

    def work():
        results.append(hclwright.format(text) == text)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True, True]


# A relative HCLWRIGHT_CORPUS is read from the repository root, as the Rust
# tests read it (`HCLWRIGHT_CORPUS=../shared/corpus`), wherever pytest runs.
CORPUS = os.environ.get("HCLWRIGHT_CORPUS")
if CORPUS:
    CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "..", CORPUS)


@pytest.mark.skipif(not CORPUS, reason="set HCLWRIGHT_CORPUS to round-trip the corpus")
def test_corpus_round_trip():
    files = [
        p
        for p in pathlib.Path(CORPUS).rglob("*")
        if p.is_file() and p.suffix in (".tf", ".hcl", ".tfvars", ".nomad")
    ]
    assert files, f"no HCL files under {CORPUS}"
    checked = 0
    for path in files:
        data = path.read_bytes()
        try:
            doc = Document(data)
        except HclError:
            continue  # broken on purpose, or not UTF-8
        assert str(doc).encode() == data, path
        checked += 1
    assert checked > 0
