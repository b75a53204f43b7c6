import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

import { PageErrorBoundary } from '../components/error-boundary';
import { Loading } from '../components/loading';

/**
 * A page in its own chunk. A failed load shows the error panel; its retry asks webpack for the
 * chunk again (webpack forgets failed chunks, React.lazy does not, hence a fresh lazy). While the
 * chunk loads: `fallback` for the page's props (a content page's own placeholder, so the page
 * takes its place without a jump), else the spinner.
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  fallback?: (props: P) => ReactNode,
): ComponentType<P> {
  let Lazy = lazy(load);
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
        <Suspense fallback={fallback ? fallback(props) : <Loading />}>
          <Lazy {...props} />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  return Page;
}
