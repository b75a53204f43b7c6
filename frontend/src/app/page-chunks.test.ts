import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Each page's chunk is named twice in router.tsx: in its import's `webpackChunkName`, which webpack
// reads, and as `lazyPage`'s first argument, which the page's head gives index.html's script to
// fetch early (`<meta name="portal-page-chunk">`). They must be the same name.
const source = readFileSync(join(__dirname, 'router.tsx'), 'utf8');

describe('the pages’ chunk names', () => {
  it('are the same in the import and in the page’s head, for every page', () => {
    const calls = [...source.matchAll(/lazyPage(?:<\w+>)?\(\s*'([^']+)',\s*\(\) => import\(\/\* webpackChunkName: "([^"]+)" \*\//g)];
    expect(calls.length).toBe((source.match(/lazyPage(?:<\w+>)?\(/g) ?? []).length);
    expect(calls.length).toBeGreaterThanOrEqual(15);
    for (const [, given, webpack] of calls) expect(given).toBe(webpack);
  });
});
