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

export function useInitialState(): InitialStateStatus {
  const [status, setStatus] = useState<InitialStateStatus>({ loading: true });
  useEffect(() => {
    let live = true;
    loadInitialState().then(
      (state) => live && setStatus({ loading: false, state }),
      () => live && setStatus({ loading: false, state: {} }),
    );
    return () => {
      live = false;
    };
  }, []);
  return status;
}
