// The app as both sides render it: the gateway's server render (src/server.tsx, at the page's
// address) and the browser, which hydrates that markup (src/start-app.tsx). One tree, so one markup.
import { StrictMode, useEffect } from 'react';
import { Provider } from 'react-redux';
import { Router } from 'wouter';

import { Notifications } from '../components/notifications';
import { base } from '../lib/page-href';
import { AppRoutes } from './router';
import type { AppStore } from './store';

interface AppProps {
  store: AppStore;
  /** On the server: the address rendered (`/portal/news_center/notice?page=2`). */
  ssrPath?: string;
  /** In the browser: once the app's root has committed (presses made before it are replayed then). */
  onReady?: () => void;
}

/**
 * Marks `<html data-app>` once the app's root has committed in the browser (hydrated, or rendered
 * over the shell): what scripts and tests wait for before they drive the page.
 */
function AppReady({ onReady }: { onReady?: () => void }) {
  useEffect(() => {
    document.documentElement.setAttribute('data-app', '');
    onReady?.();
  }, [onReady]);
  return null;
}

export function App({ store, ssrPath, onReady }: AppProps) {
  return (
    <StrictMode>
      <Provider store={store}>
        <Router base={base()} ssrPath={ssrPath}>
          <AppRoutes />
        </Router>
        <Notifications />
        <AppReady onReady={onReady} />
      </Provider>
    </StrictMode>
  );
}
