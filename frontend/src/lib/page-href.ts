import type { Id } from './id';
import { locale, type Locale } from './locale';

/** The path every page of the portal lives under (the gateway's `/portal/`). */
export const BASE = '/portal';

/** Where the pages of a language live: `/portal` for the site's own, `/portal/en` for English. */
export const baseOf = (of: Locale): string => (of === 'zh' ? BASE : `${BASE}/${of}`);

/** Where the pages of the page's own language live (the router's base). */
export const base = (): string => baseOf(locale());

/**
 * The real address of the app route `path` (`/news_center/notice` → `/portal/news_center/notice`,
 * `/portal/en/news_center/notice` in English), which the gateway renders: what every link of the
 * app points at, so each works without JavaScript and is the address a visitor shares.
 */
export const pageHref = (path: string, of: Locale = locale()): string => `${baseOf(of)}${path.startsWith('/') ? path : `/${path}`}`;

/**
 * The app route of a page's path (`/portal/en/about` → `/about` on an English page,
 * `/portal/about` → `/about`), `/` for the language's home.
 */
export const appPathOf = (pathname: string): string => {
  const own = base();
  if (pathname === own) return '/';
  return pathname.startsWith(`${own}/`) ? pathname.slice(own.length) : pathname;
};

/**
 * Where a configured link goes: a page of the portal (`/services/timetable`, written as an app
 * route) at its real address, anything else (a system's `https://…`, checked by the gateway's
 * config) as it is.
 */
export const linkHref = (url: string): string => (url.startsWith('/') && !url.startsWith('//') ? pageHref(url) : url);

/** An article's address (`/portal/article/2101`, `/portal/article/zx8k2m9q4w7e1r5t3y6u0i2o`). */
export const articleHref = (id: Id): string => pageHref(`/article/${id}`);

/** Highest page number of a list or a search (the gateway's `MAX_PAGE`). */
export const MAX_PAGE = 100_000;

/**
 * A page number as it appears in an address (`?page=3`, `?listPage=2`): one to six digits, 1 to
 * `MAX_PAGE`; leading zeros are the same page. Anything else names no page (the first is shown).
 * The gateway reads an address the same way (`pages::page_url`): the page it renders is the page
 * the browser hydrates.
 */
export function pageNumberOf(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,6}$/.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 && page <= MAX_PAGE ? page : null;
}
