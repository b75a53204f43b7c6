// The ids of categories and articles: the CMS's own (the gateway's `Id`, crates/core/src/model/id.rs).
import type { Id } from './api-types';

export type { Id };

/** What an id may hold: the gateway's `Id` (1 to 128 letters, digits and `-._~:@`, the first a letter or a digit). */
const ID = /^[A-Za-z0-9][A-Za-z0-9._~:@-]{0,127}$/;

/**
 * A category's or an article's id as it appears in an address (`/article/2101`, `?id=9`,
 * `?section=news`), when it is one the API takes: the CMS's own id, a whole number or a string
 * of letters, digits and `-._~:@` starting with a letter or a digit, never `0` (the top level's). Anything else is no article: the
 * page says 文章不存在 with a 404, rather than ask the API and show a load failure. In the form
 * the API's JSON gives the same id (the gateway's `Id`): a whole number written plainly that
 * JavaScript holds exactly is a number, any other id a string; so an id read from an address is
 * `===` the same id read from an answer.
 */
export function idOf(raw: string | null | undefined): Id | null {
  if (!raw || !ID.test(raw) || raw === '0') return null;
  if (/^[1-9]\d{0,15}$/.test(raw)) {
    const id = Number(raw);
    if (Number.isSafeInteger(id)) return id;
  }
  return raw;
}

/** The parent id of a top-level category (`parentId: 0`). */
export const isTop = (id: Id): boolean => id === 0 || id === '0';
