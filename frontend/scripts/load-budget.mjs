// Measures the JavaScript index.html loads before any page chunk (gzip -9) against the budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 130;
const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script[^>]*\ssrc="?([^"\s>]+)"?/g)].map((m) => m[1].replace(/^\/portal\//, ''));
if (scripts.length === 0) {
  console.error('no scripts found in dist/index.html');
  process.exit(1);
}
let total = 0;
for (const file of scripts) {
  const raw = readFileSync(join(dist, file));
  const gz = gzipSync(raw, { level: 9 }).length;
  total += gz;
  console.log(`  ${file}  ${(raw.length / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip`);
}
const kb = total / 1024;
console.log(`initial JavaScript: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error('over the initial load budget: move code into page chunks');
  process.exit(1);
}
