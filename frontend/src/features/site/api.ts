import { api } from '../../app/api';

/** Runtime site settings from the gateway's config (company name, login URL, footer facts). */
export interface Site {
  companyName: string;
  shortName: string;
  loginUrl: string;
  address: string;
  phone: string;
  email: string;
  postcode: string;
  icpNumber: string;
  icpUrl: string;
  copyright: string;
  paginationLocale: 'en' | 'zh-CN';
  /** The portal's public address (the crawlable pages' links). */
  publicUrl?: string;
  /** Whether the CMS searches: the search box shows only then. */
  search?: boolean;
  /** 公安备案 number and its record page (footer; hidden when empty). */
  policeFilingNumber?: string;
  policeFilingUrl?: string;
  /** 哀悼模式: always, or on these days ("MM-DD" yearly, "YYYY-MM-DD" once), in Beijing time. */
  mourning?: boolean | string[];
}

export const siteApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSite: build.query<Site, void>({ query: () => '/site', keepUnusedDataFor: 3600 }),
  }),
});

export const { useGetSiteQuery } = siteApi;
