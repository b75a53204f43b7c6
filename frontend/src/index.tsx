import './styles/global.css';

import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { Router } from 'wouter';

import { drawnPhotoPainted, startFromBoot } from './app/boot';
import { drawnRouteReady } from './app/drawn-route';
import { DrawnTap } from './app/drawn-tap';
import { currentPath, useHashPath } from './app/hash-location';
import { AppRoutes, preloadHome } from './app/router';
import { makeStore } from './app/store';
import { Notifications } from './components/notifications';

const store = makeStore();
// The app restores list positions itself (from the store); the browser's guess would fight it.
if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';

// On a deep link index.html starts this script before the page is parsed: the boot block and the
// root are in its body.
const parsed =
  document.readyState === 'loading'
    ? new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
    : Promise.resolve();

/**
 * The first render waits for what the page already holds (the gateway's answers, the home page's
 * chunk preloaded by its head): it then replaces the server-drawn page in one commit with the
 * same boxes, instead of a placeholder first, once the drawn page's first photo is on screen; on a
 * deep link whose page the gateway drew, once that route's chunk and first answer are in.
 * Without them it waits for nothing.
 */
void parsed
  .then(() => Promise.all([startFromBoot(store), currentPath() === '/' ? preloadHome() : undefined, drawnPhotoPainted()]))
  .then(() => drawnRouteReady(store))
  .then(() => {
    const root = createRoot(document.getElementById('root')!);
    // A transition: React renders it in slices, letting a phone breathe between them (the build's
    // Preact renders it at once; the drawn page stays until the commit either way).
    startTransition(() =>
      root.render(
        <StrictMode>
          <Provider store={store}>
            <Router hook={useHashPath} searchHook={useHashPath.searchHook} hrefs={useHashPath.hrefs}>
              <AppRoutes />
            </Router>
            <Notifications />
            <DrawnTap />
          </Provider>
        </StrictMode>,
      ),
    );
  });
