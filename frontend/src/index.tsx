import './styles/global.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { Router } from 'wouter';

import { useHashPath } from './app/hash-location';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { Notifications } from './components/notifications';

const store = makeStore();
// The app restores list positions itself (from the store); the browser's guess would fight it.
if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <Router hook={useHashPath} searchHook={useHashPath.searchHook} hrefs={useHashPath.hrefs}>
        <AppRoutes />
      </Router>
      <Notifications />
    </Provider>
  </StrictMode>,
);
