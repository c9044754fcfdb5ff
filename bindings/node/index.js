'use strict'
// The hclwright Node package: loads the native addon (built by
// `npm run build`) and gives it JavaScript's conventions: `HclError`,
// options objects, values as numbers/bigints/`Unknown`.
const { existsSync, readdirSync } = require('node:fs')
const { join } = require('node:path')

function loadNative() {
  const candidates = [
    `hclwright.${process.platform}-${process.arch}.node`,
    `hclwright.${process.platform}-${process.arch}-gnu.node`,
    `hclwright.${process.platform}-${process.arch}-musl.node`,
    `hclwright.${process.platform}-${process.arch}-msvc.node`,
    'hclwright.node',
  ]
  for (const name of candidates) {
    const file = join(__dirname, name)
    if (existsSync(file)) return require(file)
  }
  const found = readdirSync(__dirname).find((f) => f.startsWith('hclwright') && f.endsWith('.node'))
  if (found) return require(join(__dirname, found))
  throw new Error(`hclwright: no native addon in ${__dirname}; run \`npm run build\` there`)
}

const native = loadNative()

const MARKER = '\u0000hclwright-error:'

/** An error of hclwright: syntax errors, bad addresses, evaluation errors. */
class HclError extends Error {
  constructor(message, diagnostics = [], kind = 'Edit') {
    super(message)
    this.name = 'HclError'
    this.kind = kind
    this.diagnostics = diagnostics
  }
}

/** The value of an expression not known until apply. */
const Unknown = Symbol.for('hclwright.Unknown')

function convertError(e) {
  if (e && typeof e.message === 'string' && e.message.startsWith(MARKER)) {
    let payload
    try {
      payload = JSON.parse(e.message.slice(MARKER.length))
    } catch {
      return new HclError(e.message.slice(MARKER.length))
    }
    return new HclError(payload.text || payload.message, payload.diagnostics || [], payload.kind)
  }
  if (e instanceof Error) {
    // A napi argument error (wrong type) or anything else: still an HclError.
    return new HclError(e.message, [], 'Usage')
  }
  return new HclError(String(e), [], 'Internal')
}

function call(f) {
  try {
    return f()
  } catch (e) {
    throw convertError(e)
  }
}

async function callAsync(f) {
  try {
    return await f()
  } catch (e) {
    throw convertError(e)
  }
}

/** A number's decimal text as `number` when exact, else bigint (integers) or the text. */
function number(text) {
  const isInteger = /^-?\d+$/.test(text)
  if (isInteger) {
    const big = BigInt(text)
    if (big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(text)
    return big
  }
  const n = Number(text)
  if (Number.isFinite(n) && sameDecimal(n, text)) return n
  return text
}

// True when the double `n` is exactly the decimal `text` (compared as exact
// rationals: text = digits × 10^exp, n = mantissa × 2^e).
function sameDecimal(n, text) {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)
  if (!m) return false
  let digits = BigInt((m[2] || '0') + (m[3] || ''))
  let exp10 = (m[4] ? parseInt(m[4], 10) : 0) - (m[3] || '').length
  if (m[1] === '-') digits = -digits
  // n as mant / 2^k exactly.
  const buf = new DataView(new ArrayBuffer(8))
  buf.setFloat64(0, n)
  const hi = buf.getUint32(0)
  const lo = buf.getUint32(4)
  const sign = hi >>> 31 ? -1n : 1n
  const e = (hi >>> 20) & 0x7ff
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  let exp2
  if (e === 0) exp2 = -1074
  else {
    mant |= 1n << 52n
    exp2 = e - 1075
  }
  mant *= sign
  // digits × 10^exp10 == mant × 2^exp2
  let left = digits
  let right = mant
  if (exp10 >= 0) left *= 10n ** BigInt(exp10)
  else right *= 10n ** BigInt(-exp10)
  if (exp2 >= 0) right *= 2n ** BigInt(exp2)
  else left *= 2n ** BigInt(-exp2)
  return left === right
}

function decode(t) {
  if (t === null || typeof t !== 'object') return t
  switch (t[0]) {
    case 'n':
      return number(t[1])
    case 'l':
      return t[1].map(decode)
    case 'm': {
      const out = {}
      for (const [k, v] of t[1]) out[k] = decode(v)
      return out
    }
    case 'u':
      return Unknown
    default:
      throw new HclError(`hclwright: unexpected value tag ${JSON.stringify(t[0])}`, [], 'Internal')
  }
}

/** JSON text of a JavaScript value; bigints as their digits. */
function jsonText(v) {
  if (typeof v === 'bigint') return v.toString()
  if (v === Unknown) throw new HclError('a value cannot be Unknown here', [], 'Usage')
  if (Array.isArray(v)) return `[${v.map(jsonText).join(',')}]`
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`)
      .join(',')}}`
  }
  if (typeof v === 'number' && !Number.isFinite(v)) throw new HclError(`${v} is not a number HCL can hold`, [], 'Usage')
  const s = JSON.stringify(v)
  if (s === undefined) throw new HclError(`a ${typeof v} cannot be an HCL value`, [], 'Usage')
  return s
}

function varsText(vars) {
  return vars == null ? undefined : jsonText(vars)
}

function format(text, options = {}) {
  return call(() => native.format(text, options.profile ?? 'hclfmt'))
}

function formatAsync(text, options = {}) {
  return callAsync(() => native.formatAsync(text, options.profile ?? 'hclfmt'))
}

function evaluate(expr, options = {}) {
  return decode(JSON.parse(call(() => native.evaluate(expr, options.dir ?? undefined, varsText(options.vars)))))
}

async function evaluateAsync(expr, options = {}) {
  const vars = varsText(options.vars)
  const text = await callAsync(() => native.evaluateAsync(expr, options.dir ?? undefined, vars))
  return decode(JSON.parse(text))
}

function console(expr, options = {}) {
  return call(() => native.console(expr, options.dir ?? undefined, varsText(options.vars)))
}

function toJson(text) {
  return JSON.parse(call(() => native.toJsonText(text)))
}

function toHcl(valueOrJsonText) {
  const text = typeof valueOrJsonText === 'string' ? valueOrJsonText : jsonText(valueOrJsonText)
  return call(() => native.toHcl(text))
}

function refs(text) {
  return call(() => native.refs(text))
}

function rename(text, oldPrefix, newPrefix) {
  return call(() => native.rename(text, oldPrefix, newPrefix))
}

function bumpTerraform(text, version, options = {}) {
  return call(() => native.bumpTerraform(text, version, !!options.json))
}

function bumpProvider(text, name, version, options = {}) {
  return call(() => native.bumpProvider(text, name, version, !!options.keepOperator, !!options.json))
}

function bumpPlugin(text, name, version, options = {}) {
  return call(() => native.bumpPlugin(text, name, version, !!options.keepOperator, !!options.json))
}

function bumpModule(text, source, version, options = {}) {
  return call(() => native.bumpModule(text, source, version, !!options.keepOperator, !!options.json))
}

/** A parsed file under edit, by the CLI's addresses. */
class Document {
  #native
  constructor(text, options = {}) {
    this.#native = call(() => new native.NativeDocument(text, !!options.json))
  }
  get(address) {
    return call(() => this.#native.get(address)) ?? null
  }
  set(address, source) {
    call(() => this.#native.set(address, source))
  }
  remove(address) {
    return call(() => this.#native.remove(address))
  }
  rename(address, newName) {
    call(() => this.#native.rename(address, newName))
  }
  appendBlock(parentAddress, blockType, labels = []) {
    call(() => this.#native.appendBlock(parentAddress, blockType, labels))
  }
  toString() {
    return this.#native.text()
  }
  diff(path) {
    return call(() => this.#native.diff(path))
  }
  blocks(type) {
    return call(() => this.#native.blocks(type ?? undefined)).map(entry)
  }
  attributes(address = '') {
    return call(() => this.#native.attributes(address)).map(entry)
  }
}

function entry(e) {
  return { name: e.name, labels: e.labels, address: e.address, value: e.value ?? null }
}

module.exports = {
  HclError,
  Unknown,
  Document,
  format,
  formatAsync,
  evaluate,
  evaluateAsync,
  console,
  toJson,
  toHcl,
  refs,
  rename,
  bumpTerraform,
  bumpProvider,
  bumpModule,
  bumpPlugin,
}
