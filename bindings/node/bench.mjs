// Benchmark (a timing, not a test): hclwright's toJson against
// @cdktf/hcl2json's parse and hcl2-parser's parseToObject, reading every
// HCL file of the shared corpus into JavaScript values.
//
//   npm run build && HCLWRIGHT_CORPUS=/work/shared/corpus node bench.mjs
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const hclwright = require('./index.js')
const { parse: cdktfParse } = require('@cdktf/hcl2json')
const hcl2parser = require('hcl2-parser')

const corpus = process.env.HCLWRIGHT_CORPUS || process.argv[2]
if (!corpus) {
  console.error('usage: HCLWRIGHT_CORPUS=DIR node bench.mjs (or: node bench.mjs DIR)')
  process.exit(2)
}
const rounds = Number(process.env.ROUNDS || 3)
const MIN_MS = Number(process.env.MIN_MS || 5000)

const files = []
const walk = (d) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name)
    if (e.isDirectory()) walk(p)
    else if (e.isFile() && /\.(tf|hcl|tfvars)$/.test(e.name)) files.push(p)
  }
}
walk(corpus)
// Only the files every contender parses, so each does the same work.
const inputs = []
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8')
  try {
    hclwright.toJson(text)
    await cdktfParse(path.basename(file), text)
    const [, err] = hcl2parser.parseToObject(text)
    if (err) continue
  } catch {
    continue
  }
  inputs.push([file, text])
}
const bytes = inputs.reduce((n, [, t]) => n + Buffer.byteLength(t), 0)
console.log(`${inputs.length} files (${(bytes / 1e6).toFixed(2)} MB) parsed by all three, of ${files.length}; best pass of at least ${rounds} and at least ${MIN_MS} ms of passes each`)

// Best pass of at least ROUNDS passes and at least MIN_MS of passes, so
// that a fast contender is sampled over as much wall time as a slow one
// (on a shared machine, a burst of load spoils a 0.2 s pass more easily
// than it spoils all of several seconds of them).
async function time(name, f) {
  let best = Infinity
  let spent = 0
  let passes = 0
  while (passes < rounds || spent < MIN_MS) {
    const t0 = process.hrtime.bigint()
    for (const [file, text] of inputs) await f(file, text)
    const ms = Number(process.hrtime.bigint() - t0) / 1e6
    best = Math.min(best, ms)
    spent += ms
    passes++
  }
  return [name, best, passes]
}

const results = [
  await time('hclwright toJson', (_f, t) => hclwright.toJson(t)),
  await time('@cdktf/hcl2json parse', (f, t) => cdktfParse(path.basename(f), t)),
  await time('hcl2-parser parseToObject', (_f, t) => hcl2parser.parseToObject(t)),
]
const ours = results[0][1]
for (const [name, ms, passes] of results) {
  console.log(`${name.padEnd(28)} ${ms.toFixed(1).padStart(9)} ms  ${(bytes / 1e6 / (ms / 1e3)).toFixed(1).padStart(7)} MB/s  ${(ms / ours).toFixed(1).padStart(6)}x  (best of ${passes})`)
}
