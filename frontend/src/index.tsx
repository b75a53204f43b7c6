import './styles/global.css';

import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { Router } from 'wouter';

import { startFromBoot } from './app/boot';
import { currentPath, useHashPath } from './app/hash-location';
import { AppRoutes, preloadHome } from './app/router';
import { makeStore } from './app/store';
import { Notifications } from './components/notifications';

const store = makeStore();
// The app restores list positions itself (from the store); the browser's guess would fight it.
if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';

/**
 * The first render waits for what the page already holds (the gateway's answers, the home page's
 * chunk preloaded by its head): it then replaces the server-drawn page in one commit with the
 * same boxes, instead of a placeholder first. Without them it waits for nothing.
 */
void Promise.all([startFromBoot(store), currentPath() === '/' ? preloadHome() : undefined]).then(() => {
  const root = createRoot(document.getElementById('root')!);
  // As a transition, React renders in slices and lets the phone breathe between them (one long
  // task otherwise: Lighthouse counts it as blocking time); the drawn page stays until the commit.
  startTransition(() =>
    root.render(
      <StrictMode>
        <Provider store={store}>
          <Router hook={useHashPath} searchHook={useHashPath.searchHook} hrefs={useHashPath.hrefs}>
            <AppRoutes />
          </Router>
          <Notifications />
        </Provider>
      </StrictMode>,
    ),
  );
});
