// The Node API of hclwright: every function, bad input, and the corpus
// round trip through Document (when HCLWRIGHT_CORPUS is set). The cases
// are the Python suite's (bindings/python/tests/test_hclwright.py).
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const hcl = require('..')
const { Document, HclError, Unknown } = hcl

const TF = `terraform {
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
`

function tmpModule(text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hclwright-node-'))
  fs.writeFileSync(path.join(dir, 'main.tf'), text)
  return dir
}

test('format and its profiles', async () => {
  assert.equal(hcl.format('a=1\n'), 'a = 1\n')
  assert.equal(hcl.format('a=1\n', { profile: 'terraform' }), 'a = 1\n')
  assert.equal(await hcl.formatAsync('a=1\n'), 'a = 1\n')
  assert.throws(() => hcl.format('a=1\n', { profile: 'nope' }), HclError)
  await assert.rejects(hcl.formatAsync('a = [1 2]\n'), HclError)
})

test('errors carry diagnostics', () => {
  let caught
  try {
    hcl.format('a = [1 2]\n')
  } catch (e) {
    caught = e
  }
  assert.ok(caught instanceof HclError)
  assert.ok(caught instanceof Error)
  const d = caught.diagnostics[0]
  assert.deepEqual([d.line, d.column, d.start, d.end], [1, 8, 7, 8])
  assert.match(caught.message, /^1:8: expected/)
  assert.equal(typeof d.message, 'string')
})

test('wrong argument types are HclErrors, not crashes', () => {
  assert.throws(() => hcl.format(1), HclError)
  assert.throws(() => hcl.toHcl({ a: Symbol('x') }), HclError)
  assert.throws(() => hcl.toHcl({ a: Unknown }), HclError)
  assert.throws(() => new Document(null), HclError)
})

test('Document edits keep other bytes', () => {
  const doc = new Document(TF)
  assert.equal(doc.toString(), TF)
  assert.equal(String(doc), TF)
  assert.equal(doc.get('terraform.required_providers.aws.version'), '"~> 4.0"')
  assert.equal(doc.get('module.vpc.nope'), null)
  doc.set('module.vpc.version', '"5.5.1"')
  doc.set('module.vpc.name', '"main"')
  assert.equal(doc.remove('terraform.required_version'), true)
  assert.equal(doc.remove('terraform.required_version'), false)
  doc.rename('module.vpc', 'module.net')
  doc.appendBlock('', 'output', ['id'])
  const text = doc.toString()
  assert.ok(text.includes('# pinned'))
  assert.ok(text.includes('module "net"') && text.includes('version = "5.5.1"'))
  assert.ok(text.includes('output "id"'))
  const diff = doc.diff('main.tf')
  assert.ok(diff.includes('+++ b/main.tf') && diff.includes('-  version = "5.0.0"'))
})

test('Document listing', () => {
  const doc = new Document(TF)
  assert.deepEqual(doc.blocks().map((b) => b.address), ['terraform', 'module.vpc'])
  assert.deepEqual(doc.blocks('module')[0].labels, ['vpc'])
  const attrs = doc.attributes('module.vpc')
  assert.deepEqual(attrs.map((a) => a.name), ['source', 'version'])
  assert.equal(attrs[1].address, 'module.vpc.version')
  assert.equal(attrs[1].value, '"5.0.0"')
  assert.deepEqual(doc.attributes(), [])
  assert.equal(doc.blocks()[0].value, null)
})

test('Document bad input', () => {
  assert.throws(() => new Document('a = \n'), (e) => e instanceof HclError && e.diagnostics[0].line === 1)
  const doc = new Document(TF)
  assert.throws(() => doc.get('module..x'), HclError)
  assert.throws(() => doc.set('module.vpc.version', '[1,'), HclError)
  assert.throws(() => doc.rename('module.vpc.version', 'other.thing'), HclError)
  assert.throws(() => doc.attributes('nothing.here'), HclError)
  assert.equal(doc.toString(), TF)
})

test('JSON Document', () => {
  const doc = new Document('{"locals": {"a": 1}}', { json: true })
  assert.equal(doc.get('locals.a'), '1')
  doc.set('locals.a', '2')
  assert.equal(doc.toString(), '{"locals": {"a": 2}}')
  assert.throws(() => new Document('{', { json: true }), HclError)
})

test('JSON Document blocks, attributes and appendBlock', () => {
  const doc = new Document(
    '{"resource": {"aws_instance": {"web": {"ami": "ami-1"}, "db": [{"ami": "ami-2"}]}}, "locals": {"region": "x"}}',
    { json: true },
  )
  assert.deepEqual(doc.blocks().map((b) => b.address), [
    'resource.aws_instance.web',
    'resource.aws_instance.db',
    'locals',
  ])
  assert.deepEqual(doc.blocks('resource')[1].labels, ['aws_instance', 'db'])
  const attrs = doc.attributes('resource.aws_instance.web')
  assert.deepEqual(attrs.map((a) => [a.name, a.value]), [['ami', '"ami-1"']])
  assert.throws(() => doc.attributes('locals.region'), HclError)
  doc.appendBlock('', 'output', ['id'])
  doc.set('output.id.value', 'aws_instance.web.id')
  assert.equal(doc.get('output.id.value'), '"${aws_instance.web.id}"')
  assert.throws(() => doc.appendBlock('', 'output', ['id']), HclError)
})

test('evaluate and console', async () => {
  const dir = tmpModule('variable "n" {\n  type = number\n}\nvariable "s" {}\nlocals {\n  l = var.n * 2\n}\n')
  const vars = { n: 21, s: 'x' }
  assert.equal(hcl.evaluate('local.l', { dir, vars }), 42)
  assert.equal(await hcl.evaluateAsync('local.l', { dir, vars }), 42)
  assert.equal(hcl.evaluate('local.l', { dir, vars: { n: 21n, s: 'x' } }), 42)
  const big = hcl.evaluate('123456789012345678901234567890 * 10', { dir, vars })
  assert.equal(big, 1234567890123456789012345678900n)
  assert.equal(hcl.evaluate('1 / 4'), 0.25)
  const third = hcl.evaluate('1 / 3')
  assert.equal(typeof third, 'string') // not exactly a double: the decimal text
  assert.match(third, /^0\.3333333333333333333/)
  assert.deepEqual(hcl.evaluate('{a = [true, null, "x"], b = toset([1])}'), { a: [true, null, 'x'], b: [1] })
  assert.equal(hcl.evaluate('var.s', { dir, vars }), 'x')
  assert.equal(hcl.console('[1]'), '[\n  1,\n]')
  assert.equal(hcl.console('var.n', { dir, vars }), '21')
  assert.throws(() => hcl.evaluate('local.nope', { dir, vars }), (e) => e instanceof HclError && e.diagnostics[0].column === 1)
  assert.throws(() => hcl.evaluate('1 +'), HclError)
  await assert.rejects(hcl.evaluateAsync('1 +'), HclError)
})

test('unknown values', () => {
  const dir = tmpModule('resource "a" "b" {}\n')
  assert.equal(hcl.evaluate('a.b.id', { dir }), Unknown)
  assert.equal(typeof Unknown, 'symbol')
})

test('toJson and back', () => {
  const value = hcl.toJson('a = 1\nb = "x"\nc = 1.5\n')
  assert.deepEqual(value, { a: 1, b: 'x', c: 1.5 })
  assert.equal(hcl.toHcl(value), 'a = 1\nb = "x"\nc = 1.5\n')
  assert.equal(hcl.toHcl('{"a": [1, 2]}'), 'a = [1, 2]\n')
  assert.equal(hcl.toHcl({ a: 12345678901234567890123n }), 'a = 12345678901234567890123\n')
  assert.throws(() => hcl.toJson('a = \n'), HclError)
  assert.throws(() => hcl.toHcl('{'), HclError)
})

test('refs and rename', () => {
  assert.deepEqual(hcl.refs('a = var.x[0]\nb = local.y\n'), [
    { line: 1, column: 5, traversal: 'var.x[0]' },
    { line: 2, column: 5, traversal: 'local.y' },
  ])
  assert.equal(hcl.rename('a = var.x.y\n', 'var.x', 'var.z'), 'a = var.z.y\n')
  assert.throws(() => hcl.rename('a = 1\n', 'var.', 'var.z'), HclError)
  assert.throws(() => hcl.refs('a = [\n'), HclError)
})

test('bumps', () => {
  let out = hcl.bumpProvider(TF, 'hashicorp/aws', '5.31.0', { keepOperator: true })
  assert.ok(out.includes('version = "~> 5.31" # pinned'))
  assert.equal(hcl.bumpProvider(TF, 'aws', '5.31.0').split('"5.31.0"').length - 1, 1)
  assert.ok(hcl.bumpTerraform(TF, '1.11.4').includes('required_version = "1.11.4"'))
  out = hcl.bumpModule(TF, 'terraform-aws-modules/vpc/aws', '5.5.1')
  assert.ok(out.includes('version = "5.5.1"'))
  assert.equal(hcl.bumpModule(TF, 'other/mod/aws', '1.0.0'), TF)
  assert.throws(() => hcl.bumpTerraform(TF, 'not a version'), HclError)
  // A constraint is written as given; keeping an operator needs a version.
  assert.ok(hcl.bumpTerraform(TF, '~> 1.9').includes('required_version = "~> 1.9"'))
  assert.throws(() => hcl.bumpProvider(TF, 'aws', '~> 5.0', { keepOperator: true }), /needs a version/)
  const packer = 'packer {\n  required_plugins {\n    amazon = {\n      source  = "github.com/hashicorp/amazon"\n      version = ">= 1.2.0"\n    }\n  }\n}\n'
  assert.ok(hcl.bumpPlugin(packer, 'amazon', '1.3.1', { keepOperator: true }).includes('version = ">= 1.3.1"'))
  // The JSON syntax.
  assert.equal(
    hcl.bumpTerraform('{"terraform": {"required_version": "~> 1.5"}}', '1.11.4', { json: true }),
    '{"terraform": {"required_version": "1.11.4"}}',
  )
})

test('a 10 MB file; formatAsync runs off the event loop', async () => {
  let text = ''
  const y = 'y'.repeat(40)
  for (let i = 0; i < 150000; i++) text += `resource "a" "b${i}" {\n  x = "${y}" # c\n}\n`
  assert.ok(text.length > 10_000_000)
  const doc = new Document(text)
  doc.set('resource.a.b7.x', '"z"')
  assert.equal(doc.toString().split('"z"').length - 1, 1)
  const results = await Promise.all([hcl.formatAsync(text), hcl.formatAsync(text)])
  assert.deepEqual(results.map((r) => r === text), [true, true])
})

test('ES-module entry has the same exports', async () => {
  const esm = await import('../index.mjs')
  assert.equal(esm.format, hcl.format)
  assert.equal(esm.Document, Document)
  assert.equal(esm.Unknown, Unknown)
})

// A relative HCLWRIGHT_CORPUS is read from the repository root, as the Rust
// tests read it (`HCLWRIGHT_CORPUS=../shared/corpus`), wherever npm runs.
const CORPUS = process.env.HCLWRIGHT_CORPUS
  ? path.resolve(__dirname, '..', '..', '..', process.env.HCLWRIGHT_CORPUS)
  : undefined

test('corpus round trip through Document', { skip: CORPUS ? false : 'set HCLWRIGHT_CORPUS to round-trip the corpus' }, () => {
  const exts = new Set(['.tf', '.hcl', '.tfvars', '.nomad'])
  const files = []
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && exts.has(path.extname(p))) files.push(p)
    }
  }
  walk(CORPUS)
  assert.ok(files.length > 0, `no HCL files under ${CORPUS}`)
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  let checked = 0
  for (const file of files) {
    const data = fs.readFileSync(file)
    let text
    try {
      text = decoder.decode(data)
    } catch {
      continue // not UTF-8
    }
    let doc
    try {
      doc = new Document(text)
    } catch (e) {
      if (e instanceof HclError) continue // broken on purpose
      throw e
    }
    assert.ok(Buffer.from(doc.toString(), 'utf8').equals(data), file)
    checked++
  }
  assert.ok(checked > 0)
})
