import { useEffect, useState } from 'react';

import { userInfo } from '../../lib/storage';
import type { InitialState } from './access';

export interface InitialStateStatus {
  loading: boolean;
  state?: InitialState;
}

/** Loads the initial state (the stored user, if any), then finishes. */
export async function loadInitialState(): Promise<InitialState> {
  const info = userInfo();
  return { name: typeof info?.name === 'string' ? info.name : undefined };
}

/**
 * The initial state: none at first (what the server renders, with no visitor's storage to read, so
 * the browser's first render hydrates the same markup), then the stored one.
 */
export function useInitialState(): InitialStateStatus {
  const [status, setStatus] = useState<InitialStateStatus>({ loading: false, state: {} });
  useEffect(() => {
    let live = true;
    loadInitialState().then(
      // Nothing stored (every visitor but a signed-in one): no update, so hydration is not disturbed.
      (state) => live && state.name !== undefined && setStatus({ loading: false, state }),
      () => live && setStatus({ loading: false, state: {} }),
    );
    return () => {
      live = false;
    };
  }, []);
  return status;
}
