import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

import { PageErrorBoundary } from '../components/error-boundary';
import { Loading } from '../components/loading';

/** A page in its own chunk, which can be fetched before it is first rendered. */
export type LazyPage<P extends object> = ComponentType<P> & {
  /** Fetches the chunk; once it is in, the page renders at once (no fallback, not even for a frame). */
  preload: () => Promise<void>;
  /** The chunk's name, as its import's `webpackChunkName` gives it (index.html's template names its file). */
  chunk: string;
};

/**
 * A page in its own chunk. A failed load shows the error panel; its retry asks webpack for the
 * chunk again (webpack forgets failed chunks, React.lazy does not, hence a fresh lazy). While the
 * chunk loads: `fallback` for the page's props (a content page's own placeholder, so the page
 * takes its place without a jump), else the spinner. A page `preload`ed before it renders skips
 * React.lazy, which suspends once even for a chunk already in: the server render has every page
 * preloaded (`src/server.tsx`), and the browser preloads the page it hydrates (`src/start-app.tsx`),
 * so neither renders a placeholder in place of the page.
 */
export function lazyPage<P extends object>(
  chunk: string,
  load: () => Promise<{ default: ComponentType<P> }>,
  fallback?: (props: P) => ReactNode,
): LazyPage<P> {
  let Lazy = lazy(load);
  let Loaded: ComponentType<P> | undefined;
  function Page(props: P) {
    const [attempt, setAttempt] = useState(0);
    return (
      <PageErrorBoundary
        key={attempt}
        onRetry={() => {
          Lazy = lazy(load);
          setAttempt((a) => a + 1);
        }}
      >
        <Suspense fallback={fallback ? fallback(props) : <Loading />}>{Loaded ? <Loaded {...props} /> : <Lazy {...props} />}</Suspense>
      </PageErrorBoundary>
    );
  }
  Page.preload = () =>
    load().then(
      (module) => {
        Loaded = module.default;
      },
      // A chunk that fails now is asked for again when the page renders (and shows its error then).
      () => undefined,
    );
  Page.chunk = chunk;
  return Page;
}
