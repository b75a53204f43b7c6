// The one RTK Query API; each feature adds its endpoints with `injectEndpoints`.
import { createApi } from '@reduxjs/toolkit/query/react';

import { portalBaseQuery } from '../lib/request';

export const api = createApi({
  reducerPath: 'api',
  baseQuery: portalBaseQuery,
  // Content changes rarely; the gateway caches too.
  keepUnusedDataFor: 300,
  endpoints: () => ({}),
});
