// The ES-module entry: the same exports as index.js.
import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
const hclwright = require('./index.js')
export const {
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
} = hclwright
export default hclwright
