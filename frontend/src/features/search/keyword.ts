import { pageNumberOf } from '../../lib/page-href';
import { idOf, type Id } from '../../lib/id';

/** Longest keyword the gateway takes, in characters (its `MAX_KEYWORD`). */
export const MAX_KEYWORD = 50;

/**
 * The keyword as the gateway takes it (trimmed, 1–50 characters, no control characters), or null,
 * in its one spelling: full-width ASCII as ASCII, ASCII letters in lower case, each run of white
 * space one space, so `ABC`, `abc` and `ＡＢＣ` are one search and one page (`canonical_keyword`).
 * Trimmed of `\s` and U+0085: Unicode's white space and U+FEFF, as the gateway trims it
 * (`trim_keyword`; `lib/address-cases.json` holds both to it).
 */
export function normalizeKeyword(raw: string | null | undefined): string | null {
  const keyword = (raw ?? '')
    .replace(/^[\s\u0085]+|[\s\u0085]+$/g, '')
    .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    // White space that is no control character (a tab or a line break inside is refused below).
    .replace(/[ \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+/g, ' ')
    .replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  const length = [...keyword].length;
  if (length === 0 || length > MAX_KEYWORD || /[\u0000-\u001f\u007f-\u009f]/.test(keyword)) return null;
  return keyword;
}

/**
 * A day as the gateway takes it (`from`, `to`: `yyyy-MM-dd`, a real day), or null, read from the
 * ways people write one (2026-01-31, 2026-1-31, 2026/1/31, 2026.1.31, 2026年1月31日; spaces around
 * the parts). The gateway reads an address's days the same way (`pages::day_of`; both are fed
 * `lib/address-cases.json`).
 */
export function dayOf(raw: string | null | undefined): string | null {
  const parts = raw ? /^ *(\d{4}) *[-/.年] *(\d{1,2}) *[-/.月] *(\d{1,2}) *日? *$/.exec(raw) : null;
  if (!parts) return null;
  const [year, month, day] = parts.slice(1).map(Number);
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: that reads the years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${parts[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The filters of the gateway's own index: a section (a category and those under it) and days. */
export interface SearchFilters {
  section?: Id | null;
  from?: string | null;
  to?: string | null;
}

/** What a results route asks: its keyword, page and filters. */
export interface SearchQuery extends SearchFilters {
  keyword: string | null;
  page: number;
}

/** The filters as query parameters of the results route (`section`, `from`, `to`), those set only. */
export function filterParams({ section, from, to }: SearchFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (section) params.section = String(section);
  if (from) params.from = from;
  if (to) params.to = to;
  return params;
}

/** The results route of `keyword` at `page` with `filters` (`/search?q=…&section=21&page=N`). */
export function searchHref(keyword: string, page = 1, filters: SearchFilters = {}): string {
  const pairs = Object.entries({ q: keyword, ...filterParams(filters) }).map(
    ([name, value]) => `${name}=${encodeURIComponent(value)}`,
  );
  if (page > 1) pairs.push(`page=${page}`);
  return `/search?${pairs.join('&')}`;
}

/** The keyword, page and filters of a results route's query (`q=班列&section=21&page=2`). */
export function parseSearch(search: string): SearchQuery {
  const params = new URLSearchParams(search);
  return {
    keyword: normalizeKeyword(params.get('q')),
    page: pageNumberOf(params.get('page')) ?? 1,
    section: idOf(params.get('section')),
    from: dayOf(params.get('from')),
    to: dayOf(params.get('to')),
  };
}
