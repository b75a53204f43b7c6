import './styles/global.css';

import { startTransition } from 'react';
import { hydrateRoot, createRoot } from 'react-dom/client';

import { api, HYDRATE } from './app/api';
import { App } from './app/app';
import { routeLinksInPlace } from './app/link-navigation';
import { hashRouteOf } from './app/location';
import { prefetchPage } from './app/page-loads';
import { preloadPageAt } from './app/router';
import { makeStore, type AppStore } from './app/store';
import { replayClicks, takeEarlyClicks } from './lib/early-clicks';
import { BASE, pageHref } from './lib/page-href';
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

function start(): void {
  // A spec hash route (`/portal/#/article/2101`) is the page at its real URL: index.html's head
  // script sends it there before anything paints; a browser that ran this first goes there now.
  const hashRoute = hashRouteOf(window.location.hash);
  if (hashRoute) {
    window.location.replace(pageHref(hashRoute));
    return;
  }
  // The app restores list positions itself (from the store); the browser's guess would fight it.
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  const store = makeStore();
  const state = serverState();
  if (state) store.dispatch({ type: HYDRATE, payload: state });
  // A page a visitor is about to open: its script and its data are fetched before the click.
  routeLinksInPlace(document, (route) => {
    void preloadPageAt(route.split('?')[0]);
    void prefetchPage(route, store);
  });
  const root = document.getElementById('root')!;
  if (state && root.firstElementChild) {
    void preloadPageAt(window.location.pathname.slice(BASE.length) || '/').then(() => hydrate(root, store));
  } else {
    // The app shell (the gateway could not render this page): the browser renders it. It drew
    // no buttons before, so nothing was pressed.
    takeEarlyClicks();
    createRoot(root).render(<App store={store} />);
  }
}

/** Hydrates the server's markup with the app, which holds the same answers (the page's state). */
function hydrate(root: HTMLElement, store: AppStore): void {
  // Presses on the page's buttons before now are the app's to replay once it has hydrated; from
  // now on React replays what it sees itself.
  const pressed = takeEarlyClicks();
  const app = <App store={store} onReady={() => replayClicks(pressed)} />;
  // A visitor with a token of their own: the page was rendered for everyone, so its answers are
  // asked again with the token once hydrated (the CMS may answer them otherwise, or refuse it).
  if (validToken()) setTimeout(() => refetchAll(store));
  // As a transition: React hydrates in slices and yields to the browser between them, rather
  // than in one long task (mobile Lighthouse counted 412–565 ms of blocking time from it, the
  // page already painted from the server's markup).
  startTransition(() => {
    hydrateRoot(root, app, {
      // A mismatch React recovered from (it re-rendered on the client): said in the console, where
      // the end-to-end tests look for it, instead of passing unseen.
      onRecoverableError: (error, info) => console.error('portal: hydration recovered from an error', error, info.componentStack ?? ''),
    });
  });
}

start();
