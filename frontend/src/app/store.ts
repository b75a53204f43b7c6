import { configureStore, type Middleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';

import { api } from './api';
import { rootReducer, type RootState } from './reducer';

export type { RootState };

const passThrough: Middleware = () => (next) => (action) => next(action);

/**
 * The store. `first`: a middleware that sees every action before the others do (the server
 * render's, which keeps a render from asking again for what its loader already has).
 */
export function makeStore(preloadedState?: Partial<RootState>, first?: Middleware) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().prepend(first ?? passThrough).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
