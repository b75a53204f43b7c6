// The address a visitor shares (复制链接, the QR code, the printed 本文链接) and the page's canonical
// link: the page's own real URL, which the gateway renders for anyone (a WeChat or Open Graph
// preview, a crawler, a reader without JavaScript), with only the query that names what it shows
// (a list's `page`, a party-style detail's `id`, a search's `q` and `page`) and the first page
// written without `?page=1`. Absolute from `site.publicUrl` (where visitors reach the portal),
// else the page's path: the same on the server and in the browser, so the markup hydrates.
import { pageHref } from '../lib/page-href';
import { queryRule, readPage } from './page-query';

/**
 * The page's path and the query that names what it shows (`/portal/news_center/notice?page=2`): the
 * route table's `shares` of what the page reads, each as the page reads it (`?page=02` is page 2,
 * as the gateway says), the first page without `?page=1`.
 */
export function sharePath(path: string, search = ''): string {
  const { shares } = queryRule(path);
  const kept = new URLSearchParams(
    readPage(path, search).filter(([name, value]) => shares.includes(name) && !(name === 'page' && value === '1')),
  );
  const query = kept.toString();
  return `${pageHref(path)}${query ? `?${query}` : ''}`;
}

/** The address to share: `publicUrl` (no trailing slash needed) before the page's path. */
export function shareUrl(path: string, search: string, publicUrl: string | undefined): string {
  return `${(publicUrl ?? '').replace(/\/+$/, '')}${sharePath(path, search)}`;
}
