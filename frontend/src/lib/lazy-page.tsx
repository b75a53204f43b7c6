import { lazy, Suspense, useState, type ComponentType } from 'react';

import { PageErrorBoundary } from '../components/error-boundary';
import { Loading } from '../components/loading';

/**
 * A page in its own chunk. A failed load shows the error panel; its retry asks webpack for the
 * chunk again (webpack forgets failed chunks, React.lazy does not, hence a fresh lazy).
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
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
        <Suspense fallback={<Loading />}>
          <Lazy {...props} />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  return Page;
}
