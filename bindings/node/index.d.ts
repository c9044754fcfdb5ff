// Type declarations of the hclwright Node package.

/** One problem: where (1-based line and column, byte range) and what. */
export interface Diagnostic {
  line: number
  column: number
  message: string
  /** Byte offset where the culprit starts. */
  start: number
  /** Byte offset where it ends. */
  end: number
}

/** Thrown for syntax errors, bad addresses, evaluation errors and panics. */
export class HclError extends Error {
  constructor(message: string, diagnostics?: Diagnostic[], kind?: string)
  /** `Syntax`, `Usage`, `NotFound`, `Edit`, `Eval`, `Encoding` or `Internal`. */
  readonly kind: string
  readonly diagnostics: Diagnostic[]
}

/** The value of an expression not known until apply. */
export const Unknown: unique symbol

/** What `evaluate` returns. */
export type HclValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | typeof Unknown
  | HclValue[]
  | { [key: string]: HclValue }

/** A value `toHcl` and `vars` accept. */
export type InputValue = null | boolean | number | bigint | string | InputValue[] | { [key: string]: InputValue }

export interface FormatOptions {
  /** `"hclfmt"` (default) or `"terraform"` (`terraform fmt`'s output). */
  profile?: 'hclfmt' | 'terraform'
}

export interface EvalOptions {
  /** The module folder to evaluate in (default: the current folder). */
  dir?: string
  /** Input variables by name. */
  vars?: Record<string, InputValue>
}

export interface BumpOptions {
  /** Keep the constraint's operator (`~>`, `>=`) and change only the version (a version only, not a constraint). */
  keepOperator?: boolean
  /** Read the text as the JSON syntax (`.tf.json`). */
  json?: boolean
}

/** A reference in a file. */
export interface Ref {
  line: number
  column: number
  /** The traversal, as `hclwright refs` prints it (`var.a[0].b`). */
  traversal: string
}

/** A block or attribute of a body. */
export interface Entry {
  /** The block type or attribute name. */
  name: string
  /** A block's labels (empty for an attribute). */
  labels: string[]
  /** Its address, usable with get/set/remove. */
  address: string
  /** An attribute's value source text (null for a block). */
  value: string | null
}

/** A parsed file under edit, by the CLI's addresses. */
export class Document {
  constructor(text: string, options?: { json?: boolean })
  /** The source text at `address`, or null when nothing is there. */
  get(address: string): string | null
  /** Sets `address` to `source` (HCL source), creating what is missing. */
  set(address: string, source: string): void
  /** Removes what `address` designates; false when nothing does. */
  remove(address: string): boolean
  /** Renames what `address` designates (as `hclwright mv`). */
  rename(address: string, newName: string): void
  /** Appends an empty block to the body at `parentAddress` (`""`: the top level). */
  appendBlock(parentAddress: string, blockType: string, labels?: string[]): void
  /** The whole text, edits applied. */
  toString(): string
  /** A unified diff from the parsed text, `path` in its headers. */
  diff(path: string): string
  /** The top-level blocks, of `type` when given. */
  blocks(type?: string): Entry[]
  /** The attributes of the body at `address` (default: the top level). */
  attributes(address?: string): Entry[]
}

export function format(text: string, options?: FormatOptions): string
export function formatAsync(text: string, options?: FormatOptions): Promise<string>
export function evaluate(expr: string, options?: EvalOptions): HclValue
export function evaluateAsync(expr: string, options?: EvalOptions): Promise<HclValue>
/** What `terraform console` prints for `expr`. */
export function console(expr: string, options?: EvalOptions): string
/** The value hcl2json gives for `text`. */
export function toJson(text: string): unknown
/** Native syntax of a value (as `toJson` gives) or of a JSON syntax text. */
export function toHcl(valueOrJsonText: InputValue): string
export function refs(text: string): Ref[]
/** `text` with references starting with `oldPrefix` renamed to `newPrefix`. */
export function rename(text: string, oldPrefix: string, newPrefix: string): string
/**
 * Version bumps, as `hclwright bump` does: `version` is a version (`5.31.0`),
 * or a constraint written as given (`~> 5.0`). The text comes back unchanged
 * when nothing is due.
 */
export function bumpTerraform(text: string, version: string, options?: Pick<BumpOptions, 'json'>): string
export function bumpProvider(text: string, name: string, version: string, options?: BumpOptions): string
/** A Packer plugin's `version` in `packer { required_plugins { … } }`, by local name or source. */
export function bumpPlugin(text: string, name: string, version: string, options?: BumpOptions): string
export function bumpModule(text: string, source: string, version: string, options?: BumpOptions): string
