import { pageNumberOf } from '../../lib/page-href';

/** Longest keyword the gateway takes, in characters (its `MAX_KEYWORD`). */
export const MAX_KEYWORD = 50;

/** The keyword as the gateway takes it (trimmed, 1–50 characters, no control characters), or null. */
export function normalizeKeyword(raw: string | null | undefined): string | null {
  const keyword = (raw ?? '').trim();
  const length = [...keyword].length;
  if (length === 0 || length > MAX_KEYWORD || /[\u0000-\u001f\u007f-\u009f]/.test(keyword)) return null;
  return keyword;
}

/** The results route of `keyword` at `page` (`/search?q=…&page=N`). */
export function searchHref(keyword: string, page = 1): string {
  return `/search?q=${encodeURIComponent(keyword)}${page > 1 ? `&page=${page}` : ''}`;
}

/** The keyword and page of a results route's query (`q=班列&page=2`). */
export function parseSearch(search: string): { keyword: string | null; page: number } {
  const params = new URLSearchParams(search);
  return {
    keyword: normalizeKeyword(params.get('q')),
    page: pageNumberOf(params.get('page')) ?? 1,
  };
}
