// A change of page as the browser sees it. The app navigates with the History API (wouter's browser
// location, which makes `history.pushState`/`replaceState` fire events of those names), the back and
// forward buttons fire `popstate`, and a spec hash route met in a page (`#/about`) fires `hashchange`
// before it is adopted as its real URL. Only a new path or query is a new page: a fragment on the
// same page (the skip link's `#main-content`, the menu's `#site-nav`) is not.
const EVENTS = ['popstate', 'pushState', 'replaceState', 'hashchange'] as const;

const address = (): string => `${window.location.pathname}${window.location.search}`;

/** Calls `listener` after each change of the page's address (path or query); returns how to stop. */
export function onRouteChange(listener: () => void): () => void {
  let last = address();
  const check = () => {
    const now = address();
    if (now === last) return;
    last = now;
    listener();
  };
  EVENTS.forEach((type) => window.addEventListener(type, check));
  return () => EVENTS.forEach((type) => window.removeEventListener(type, check));
}
