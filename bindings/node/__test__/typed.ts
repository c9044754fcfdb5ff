// A typed example using every declaration of index.d.ts; checked with
// `npm run typecheck` (tsc --noEmit), never run.
import {
  BumpOptions,
  Diagnostic,
  Document,
  Entry,
  EvalOptions,
  FormatOptions,
  HclError,
  HclValue,
  InputValue,
  Ref,
  Unknown,
  bumpModule,
  bumpPlugin,
  bumpProvider,
  bumpTerraform,
  console as hclConsole,
  evaluate,
  evaluateAsync,
  format,
  formatAsync,
  refs,
  rename,
  toHcl,
  toJson,
} from '..'

const options: FormatOptions = { profile: 'terraform' }
const formatted: string = format('a=1\n', options)

async function asyncCalls(): Promise<[string, HclValue]> {
  const text: string = await formatAsync(formatted)
  const value: HclValue = await evaluateAsync('1 + 2')
  return [text, value]
}

const evalOptions: EvalOptions = { dir: '.', vars: { n: 1, big: 10n, list: ['a', null, true], obj: { k: 1.5 } } }
const value: HclValue = evaluate('var.n', evalOptions)
const isUnknown: boolean = value === Unknown
const printed: string = hclConsole('[1]', evalOptions)

try {
  format('a = [1 2]\n')
} catch (e) {
  if (e instanceof HclError) {
    const first: Diagnostic = e.diagnostics[0]
    const where: string = `${first.line}:${first.column} (${first.start}..${first.end}): ${first.message}`
    const kind: string = e.kind
    void where
    void kind
  }
}
const made: HclError = new HclError('message', [{ line: 1, column: 1, message: 'm', start: 0, end: 1 }], 'Usage')

const doc = new Document('a = 1\n')
const jsonDoc = new Document('{"a": 1}', { json: true })
const got: string | null = doc.get('a')
doc.set('b', '2')
const removed: boolean = doc.remove('b')
doc.rename('a', 'c')
doc.appendBlock('', 'resource', ['aws_s3_bucket', 'b'])
doc.appendBlock('', 'locals')
const text: string = doc.toString()
const diff: string = doc.diff('main.tf')
const blocks: Entry[] = doc.blocks()
const resources: Entry[] = doc.blocks('resource')
const attrs: Entry[] = doc.attributes()
const nested: Entry[] = doc.attributes('resource.aws_s3_bucket.b')
const firstValue: string | null = attrs.length > 0 ? attrs[0].value : null
const labels: string[] = blocks.length > 0 ? blocks[0].labels : []
const names: string[] = resources.map((b: Entry) => `${b.name} ${b.address}`)

const json: unknown = toJson('a = 1\n')
const input: InputValue = { a: 1, b: [1n, 'x', false, null] }
const native1: string = toHcl(input)
const native2: string = toHcl('{"a": 1}')
const references: Ref[] = refs('a = var.x\n')
const where: string = references.map((r: Ref) => `${r.line}:${r.column} ${r.traversal}`).join('\n')
const renamed: string = rename('a = var.x\n', 'var.x', 'var.y')
const bumpOptions: BumpOptions = { keepOperator: true }
const b1: string = bumpTerraform(text, '1.11.4')
const b2: string = bumpProvider(text, 'hashicorp/aws', '5.31.0', bumpOptions)
const b3: string = bumpModule(text, 'terraform-aws-modules/vpc/aws', '5.5.1', { keepOperator: false })
const b4: string = bumpPlugin(text, 'amazon', '1.3.1', { json: false })
const b5: string = bumpTerraform('{}', '~> 1.9', { json: true })

export const all = [
  asyncCalls, isUnknown, printed, made, jsonDoc, got, removed, diff, nested, firstValue, labels, names,
  json, native1, native2, where, renamed, b1, b2, b3, b4, b5,
]
