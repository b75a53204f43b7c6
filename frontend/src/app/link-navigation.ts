// Links are plain anchors with real addresses (`<a href="/portal/news_center/notice">`), so every
// page is reachable without JavaScript and by crawlers. With the app running, a click on one opens
// the route in place (history, no document load), as wouter's <Link> would; a hash route
// (`#/news_center/notice`, the spec's addresses, also inside CMS article bodies) is adopted too.
import { navigate } from 'wouter/use-browser-location';

import { adoptHashRoute, pageHref, routeOfUrl } from './location';

/** How long a pointer rests on a link before its page is fetched (a pass over a list is no intent). */
export const HOVER_INTENT_MS = 80;

function anchorOf(event: Event): HTMLAnchorElement | null {
  const target = event.target as Element | null;
  return target?.closest?.('a[href]') ?? null;
}

/** Whether the browser should handle this click itself (new tab, download, another frame…). */
function leaveToBrowser(event: MouseEvent, anchor: HTMLAnchorElement): boolean {
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey ||
    anchor.hasAttribute('download') ||
    (anchor.target !== '' && anchor.target !== '_self')
  );
}

/**
 * Starts routing clicks on the app's own links in place; returns how to stop. `onIntent`: told
 * the route a visitor is about to open (a finger down on its link, the keyboard on it, or the
 * pointer resting on it), so its page can be fetched before the click.
 */
export function routeLinksInPlace(root: Document = document, onIntent?: (route: string) => void): () => void {
  const onClick = (event: MouseEvent) => {
    const anchor = anchorOf(event);
    if (!anchor || leaveToBrowser(event, anchor)) return;
    const url = new URL(anchor.href, window.location.href);
    // A link to a place on the same page (the skip link, `#main-content`) stays the browser's.
    if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash && !url.hash.startsWith('#/')) {
      return;
    }
    const route = routeOfUrl(url, window.location.origin);
    if (route === null) return;
    event.preventDefault();
    const to = pageHref(route);
    if (to !== `${window.location.pathname}${window.location.search}`) navigate(to);
  };
  let resting: ReturnType<typeof setTimeout> | undefined;
  const intent = (event: Event) => {
    const anchor = anchorOf(event);
    if (!anchor || !onIntent || anchor.hasAttribute('download') || (anchor.target !== '' && anchor.target !== '_self')) return;
    const route = routeOfUrl(new URL(anchor.href, window.location.href), window.location.origin);
    if (route !== null) onIntent(route);
  };
  const onOver = (event: Event) => {
    clearTimeout(resting);
    if (anchorOf(event)) resting = setTimeout(() => intent(event), HOVER_INTENT_MS);
  };
  const onOut = () => clearTimeout(resting);
  root.addEventListener('click', onClick);
  root.addEventListener('touchstart', intent, { passive: true });
  root.addEventListener('focusin', intent);
  root.addEventListener('mouseover', onOver);
  root.addEventListener('mouseout', onOut);
  window.addEventListener('hashchange', adoptHashRoute);
  return () => {
    clearTimeout(resting);
    root.removeEventListener('click', onClick);
    root.removeEventListener('touchstart', intent);
    root.removeEventListener('focusin', intent);
    root.removeEventListener('mouseover', onOver);
    root.removeEventListener('mouseout', onOut);
    window.removeEventListener('hashchange', adoptHashRoute);
  };
}
