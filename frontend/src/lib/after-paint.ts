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

/**
 * False in a component's first render, true once that render is on screen: what it shows below the
 * fold renders in a task of its own (the home page's takeover was one long task of 25–30 ms on this
 * machine, 100+ ms at a phone's quarter speed: Lighthouse's total blocking time).
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return undefined;
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}
