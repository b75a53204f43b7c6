// What a page reads of its address's query, from the route table's `query` (the gateway reads the
// same entries: `portal_routes::reads`, which keys a rendered page and its cache entry by exactly
// these values). Each value is read by one reader per parameter, the app's own (`pageNumberOf`,
// `idOf`, `dayOf`, `normalizeKeyword`), which the gateway's `pages::read_as_app` matches
// on the hostile cases of `lib/address-cases.json`.
import { dayOf, normalizeKeyword } from '../features/search';
import { pageNumberOf } from '../lib/page-href';
import { idOf } from '../lib/id';
import table from './route-table.json';

/** The parameters a page reads, in the order its address writes them, and those its shared address keeps. */
export interface QueryRule {
  readonly reads: readonly string[];
  readonly shares: readonly string[];
}

/** Whether `path` is the page `pattern` names (`/article/:id`: one segment after `/article/`). */
function matches(pattern: string, path: string): boolean {
  if (!pattern.endsWith(':id')) return pattern === path;
  const prefix = pattern.slice(0, -':id'.length);
  const id = path.startsWith(prefix) ? path.slice(prefix.length) : '';
  return id !== '' && !id.includes('/');
}

/** The rule of the app route `path` (`/search`, `/article/2101`, `/news_center/notice`). */
export function queryRule(path: string): QueryRule {
  return table.query.routes.find((rule) => matches(rule.path, path)) ?? table.query.otherwise;
}

const asText = (value: number | string | null): string | null => (value === null ? null : String(value));

/** The value of the parameter `name` as a page takes it, or null where it takes none. */
export function readParam(name: string, raw: string | null | undefined): string | null {
  switch (name) {
    case 'page':
    case 'listPage':
      return asText(pageNumberOf(raw));
    case 'id':
    case 'section':
      return asText(idOf(raw));
    case 'from':
    case 'to':
      return dayOf(raw);
    case 'q':
      return normalizeKeyword(raw);
    default:
      return null;
  }
}

/** What the page at `path` reads of `search`: its rule's parameters that hold a value it takes, in order. */
export function readPage(path: string, search: string): [string, string][] {
  const given = new URLSearchParams(search);
  return queryRule(path).reads.flatMap((name) => {
    const value = readParam(name, given.get(name));
    return value === null ? [] : [[name, value] as [string, string]];
  });
}
