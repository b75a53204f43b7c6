// The page's `<link rel="canonical">`, kept on the address a visitor shares (crawlable-url.ts): a
// crawler that runs the app is pointed at the gateway's page for the same content. Beside the
// title (page-title.ts), which each route sets; the canonical follows the address alone.
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';

import { shareUrl } from './crawlable-url';

/** Sets the canonical link in <head> to `href`, adding the element when the page has none. */
export function setCanonical(href: string, head: HTMLElement = document.head): void {
  let link = head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    head.appendChild(link);
  }
  if (link.href !== href) link.href = href;
}

/** Renders nothing: keeps the canonical link on the current route's shared address. */
export function Canonical() {
  const [path] = useLocation();
  const search = useSearch();
  useEffect(() => setCanonical(shareUrl(path, search)), [path, search]);
  return null;
}
