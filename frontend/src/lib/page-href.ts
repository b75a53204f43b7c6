/** The path every page of the portal lives under (the gateway's `/portal/`). */
export const BASE = '/portal';

/**
 * The real address of the app route `path` (`/news_center/notice` → `/portal/news_center/notice`),
 * which the gateway renders: what every link of the app points at, so each works without
 * JavaScript and is the address a visitor shares.
 */
export const pageHref = (path: string): string => `${BASE}${path.startsWith('/') ? path : `/${path}`}`;

/** An article's address (`/portal/article/2101`). */
export const articleHref = (id: number): string => pageHref(`/article/${id}`);
