// The one RTK Query API; each feature adds its endpoints with `injectEndpoints`.
import { buildCreateApi, coreModule, reactHooksModule } from '@reduxjs/toolkit/query/react';

import { onServer } from '../lib/environment';
import { portalBaseQuery } from '../lib/request';

// In the gateway's server render the hooks start their queries while rendering (there are no
// effects on a server): the render then knows which answers the page needs (src/server.tsx).
const createApi = buildCreateApi(coreModule(), reactHooksModule({ unstable__sideEffectsInRender: onServer }));

/** The action that puts the server render's answers into the browser's store before hydration. */
export const HYDRATE = 'portal/hydrate';

export const api = createApi({
  reducerPath: 'api',
  // The server render's state of this API (the page's answers), sent in the page: the browser's
  // first render then holds the same data as the server's and hydrates without a request.
  extractRehydrationInfo(action, { reducerPath }): any {
    if (action.type === HYDRATE) return (action as { payload?: Record<string, unknown> }).payload?.[reducerPath];
    return undefined;
  },
  baseQuery: portalBaseQuery,
  // Content changes rarely; the gateway caches too.
  keepUnusedDataFor: 300,
  endpoints: () => ({}),
});
