import { useCallback, useEffect, useState } from 'react';

/**
 * A module no first paint needs (a panel behind a button, the footer below the fold), in a chunk of
 * its own: asked for once the page has painted and the browser is idle, or sooner with `load()` (a
 * hover, a press). Once here it renders at once, without suspending; a failed load is asked for
 * again by the next `load()` or the next component that uses it.
 */
export function afterPaint<T>(importer: () => Promise<T>) {
  let loaded: { value: T } | null = null;
  let pending: Promise<T> | null = null;
  const load = (): Promise<T> => {
    pending ??= importer().then(
      (value) => (loaded = { value }).value,
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };

  /** The module once it is here (else null), and a function that asks for it now. */
  function useModule(): [T | null, () => void] {
    const [here, setHere] = useState(loaded);
    const now = useCallback(() => {
      if (!loaded) load().then((value) => setHere({ value }), () => undefined);
    }, []);
    useEffect(() => {
      if (loaded) return undefined;
      const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1500));
      const cancel = window.cancelIdleCallback ?? window.clearTimeout;
      const handle = idle(now);
      return () => cancel(handle);
    }, [now]);
    return [here?.value ?? null, now];
  }

  return { load, useModule };
}
