// The app's start, once `index.tsx` has evaluated React DOM in a task of its own: the store,
// filled from the server render's state, the links' prefetch, and the hydration of the page.
// The site's stylesheet is the start's first import: its rules come first in `styles.css`, before
// every component's, as the cascade they were written for expects.
import './styles/global.css';

import { startTransition } from 'react';
import type { createRoot as CreateRoot, hydrateRoot as HydrateRoot } from 'react-dom/client';

import { api, HYDRATE } from './app/api';
import { App } from './app/app';
import { routeLinksInPlace } from './app/link-navigation';
import { prefetchPage } from './app/page-loads';
import { preloadPageAt } from './app/router';
import { makeStore, type AppStore } from './app/store';
import { replayClicks, takeEarlyClicks } from './lib/early-clicks';
import { base } from './lib/page-href';
import { validToken } from './lib/storage';

/** The id of the page's data block: the server render's store state (crates/web/src/pages). */
const STATE_ID = 'portal-state';

function serverState(): Record<string, unknown> | null {
  const text = document.getElementById(STATE_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Asks again for every answer the store holds (with the visitor's token, which requests carry). */
function refetchAll(store: AppStore): void {
  const queries = store.getState()[api.reducerPath].queries;
  for (const entry of Object.values(queries)) {
    if (!entry?.endpointName) continue;
    const endpoint = (api.endpoints as Record<string, { initiate?: unknown }>)[entry.endpointName];
    if (typeof endpoint?.initiate !== 'function') continue;
    const initiate = endpoint.initiate as (arg: unknown, options: object) => Parameters<AppStore['dispatch']>[0];
    store.dispatch(initiate(entry.originalArgs, { subscribe: false, forceRefetch: true }));
  }
}

/** React DOM's two entry points, evaluated by `index.tsx` before this module is. */
export interface Dom {
  createRoot: typeof CreateRoot;
  hydrateRoot: typeof HydrateRoot;
}

/** Starts the app on the page: hydrates the server's markup, or renders the shell's empty root. */
export function startApp(dom: Dom): void {
  // The app restores list positions itself (from the store); the browser's guess would fight it.
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  const store = makeStore();
  const state = serverState();
  if (state) store.dispatch({ type: HYDRATE, payload: state });
  const root = document.getElementById('root')!;
  if (state && root.firstElementChild) {
    void preloadPageAt(window.location.pathname.slice(base().length) || '/').then(() => hydrate(dom, root, store, () => routeLinks(store)));
  } else {
    // The app shell (the gateway could not render this page): the browser renders it. It drew
    // no buttons before, so nothing was pressed.
    takeEarlyClicks();
    routeLinks(store);
    dom.createRoot(root).render(<App store={store} />);
  }
}

/** Hydrates the server's markup with the app, which holds the same answers (the page's state). */
/**
 * The app's links open their pages in place from now on, and a page a visitor is about to open has
 * its script and its data fetched before the click. Not before the app has hydrated the page: a
 * link followed in place then changed the address under a tree not yet hydrated, which React
 * hydrated for the new page against the old page's markup (a mismatch it recovered from by drawing
 * the page again, the click meanwhile lost); until then the browser follows a link itself, to a
 * page the gateway renders.
 */
let routing = false;
function routeLinks(store: AppStore): void {
  // Once (a development build's StrictMode runs the ready effect twice).
  if (routing) return;
  routing = true;
  routeLinksInPlace(document, (route) => {
    void preloadPageAt(route.split('?')[0]);
    void prefetchPage(route, store);
  });
}

function hydrate(dom: Dom, root: HTMLElement, store: AppStore, onHydrated: () => void): void {
  // Presses on the page's buttons before now are the app's to replay once it has hydrated; from
  // now on React replays what it sees itself.
  const pressed = takeEarlyClicks();
  const app = (
    <App
      store={store}
      onReady={() => {
        onHydrated();
        replayClicks(pressed);
      }}
    />
  );
  // A visitor with a token of their own: the page was rendered for everyone, so its answers are
  // asked again with the token once hydrated (the CMS may answer them otherwise, or refuse it).
  if (validToken()) setTimeout(() => refetchAll(store));
  // As a transition: React hydrates in slices and yields to the browser between them, rather
  // than in one long task (mobile Lighthouse counted 412–565 ms of blocking time from it, the
  // page already painted from the server's markup).
  startTransition(() => {
    dom.hydrateRoot(root, app, {
      // A mismatch React recovered from (it re-rendered on the client): said in the console, where
      // the end-to-end tests look for it, instead of passing unseen.
      onRecoverableError: (error, info) => console.error('portal: hydration recovered from an error', error, info.componentStack ?? ''),
    });
  });
}
