// What each dependency and each app module costs in the JavaScript index.html loads before any page
// chunk: the built files' source maps say which source wrote each minified character; each source's
// characters are gzipped (-9) on their own, then scaled so the column adds up to the files' real gzip
// size (a module gzipped alone compresses worse than inside its file). `--json` prints the figures;
// BY_FILE=1 names each source file rather than its package. What no source map line names (the
// runtime, webpack's module glue, JSON modules such as route-table.json) is one row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
// The app's scripts are named by `<meta name="app-script">` (index.html's head script starts them).
const scripts = [
  ...html.matchAll(/<script[^>]*\ssrc="?([^"\s>]+)"?/g),
  ...html.matchAll(/<meta name="?app-script"? content="?([^"\s>]+)"?/g),
].map((m) => m[1].replace(/^\/portal\//, ''));

const UNMAPPED = '(webpack runtime and glue, JSON data)';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The source-map "mappings" string as [line][segment] = [column, source index]. */
function decode(mappings) {
  let source = 0;
  return mappings.split(';').map((line) => {
    let column = 0;
    const segments = [];
    for (const part of line.split(',')) {
      if (!part) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const ch of part) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0];
      if (values.length > 1) source += values[1];
      segments.push([column, values.length > 1 ? source : -1]);
    }
    return segments;
  });
}

/** What a source is called in the table: a package by its name, an app module by its path. */
function groupOf(source) {
  if (process.env.BY_FILE) return source.replace(/^webpack:\/\/[^/]*\//, '');
  const pkg = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const app = source.match(/(src\/.*)$/);
  if (app) return app[1];
  return UNMAPPED;
}

const code = new Map();
let totalGzip = 0;
for (const file of scripts) {
  const text = readFileSync(join(dist, file), 'utf8');
  totalGzip += gzipSync(text, { level: 9 }).length;
  const map = JSON.parse(readFileSync(join(dist, `${file}.map`), 'utf8'));
  const lines = text.split('\n');
  decode(map.mappings).forEach((segments, n) => {
    const line = lines[n] ?? '';
    segments.forEach(([column, source], i) => {
      const end = i + 1 < segments.length ? segments[i + 1][0] : line.length;
      const group = source < 0 ? UNMAPPED : groupOf(map.sources[source]);
      code.set(group, (code.get(group) ?? '') + line.slice(column, end));
    });
  });
}

const rows = [...code].map(([group, text]) => ({ group, raw: text.length, gzip: gzipSync(text, { level: 9 }).length }));
const alone = rows.reduce((sum, r) => sum + r.gzip, 0);
for (const r of rows) r.share = (r.gzip * totalGzip) / alone;
rows.sort((a, b) => b.share - a.share);

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(Object.fromEntries(rows.map((r) => [r.group, +(r.share / 1024).toFixed(2)])), null, 1));
} else {
  const kb = (n) => (n / 1024).toFixed(1).padStart(6);
  console.log(`${'module or dependency'.padEnd(60)} ${'raw KB'.padStart(6)} ${'gzip KB'.padStart(7)}`);
  for (const r of rows) console.log(`${r.group.padEnd(60)} ${kb(r.raw)} ${kb(r.share).padStart(7)}`);
  console.log(`${'initial JavaScript'.padEnd(60)} ${kb(rows.reduce((s, r) => s + r.raw, 0))} ${kb(totalGzip).padStart(7)}`);
}
