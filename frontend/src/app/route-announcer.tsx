import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'wouter';

import { currentTitle, subscribeTitle } from './page-title';

/**
 * What a screen reader hears when the app changes page without a page load: focus goes to the
 * main region (as the skip link sends it; the next Tab starts in the new page, not in the menu
 * that was used), and a polite live region says the new page's title once it is final (an article
 * once its title has arrived). Nothing on the first page of a visit: the browser announces a
 * loaded page itself. The first page is the first whose title is final, so a redirect on load
 * (a `sameAs` route) is not taken for a route change.
 */
export function RouteAnnouncer() {
  const [path] = useLocation();
  const title = useSyncExternalStore(subscribeTitle, currentTitle, () => null);
  const [message, setMessage] = useState('');
  // The path whose final title was announced (or shown first); null before the first page.
  const announced = useRef<string | null>(null);

  useEffect(() => {
    if (announced.current === null || announced.current === path) return undefined;
    setMessage('');
    // A frame later: each route brings its own layout, so the main region to focus is the new
    // page's, mounted by then. Focus the visitor has already put inside it stays where it is.
    const frame = requestAnimationFrame(() => {
      const main = document.getElementById('main-content');
      if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [path]);

  useEffect(() => {
    if (!title?.final || title.path !== path || announced.current === path) return;
    const first = announced.current === null;
    announced.current = path;
    if (!first) setMessage(title.title);
  }, [title, path]);

  return (
    <div className="visually-hidden route-announcer" role="status" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
