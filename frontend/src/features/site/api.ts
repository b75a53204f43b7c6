import { api } from '../../app/api';
import type { QuerySpec } from '../../app/loader';
import type { Site } from '../../lib/api-types';

/** Runtime site settings from the gateway's config (company name, login URL, footer facts, whether
 * the CMS searches): the shape is the gateway's, generated from its model. */
export type { Site };

/** `/site`'s request (`app/loader.ts`). */
export const siteSpec: QuerySpec<void, Site> = { request: () => '/site' };

export const siteApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSite: build.query<Site, void>({ query: siteSpec.request, keepUnusedDataFor: 3600 }),
  }),
});

export const { useGetSiteQuery } = siteApi;
