// Converts each file named on standard input (one path per line) with the
// npm build of hcl2json, and prints one JSON line per file:
// {"file": PATH, "ok": true, "json": VALUE} or {"file": PATH, "ok": false}.
const { parse } = require('@cdktf/hcl2json');
const fs = require('fs');
const readline = require('readline');
(async () => {
  const rl = readline.createInterface({ input: process.stdin });
  for await (const file of rl) {
    if (!file) continue;
    try {
      const json = await parse(file, fs.readFileSync(file, 'utf8'));
      process.stdout.write(JSON.stringify({ file, ok: true, json }) + "\n");
    } catch (e) {
      process.stdout.write(JSON.stringify({ file, ok: false }) + "\n");
    }
  }
})();
