import type { PaginationLocale } from '../../components/pagination';
import type { Crumb } from '../../components/breadcrumb';
import type { Whistleblowing } from '../../lib/api-types';
import type { Id } from '../../lib/id';

/** What the app tells a content page about the category it shows. */
export interface CategoryRef {
  id: Id;
  name: string;
  url: string;
  description?: string;
  type?: string;
}

export interface ContentPageProps {
  /** The route path being shown. */
  path: string;
  /** The route's display name, used while the category tree loads or when the CMS lacks it. */
  title: string;
  category?: CategoryRef;
  categoriesLoading: boolean;
  breadcrumb: Crumb[];
  paginationLocale: PaginationLocale;
  /** The breadcrumb of another category (article details link back to their list). */
  breadcrumbFor: (categoryId: Id) => Crumb[];
  /** The route of a category's list, for "back to the list". */
  urlOf: (categoryId: Id) => string | undefined;
  /** What the app adds under the page's content, shown once the content is there. */
  extras?: PageExtras;
  /**
   * The absolute address 复制链接, the QR code and the printed page give: the page's real URL
   * (the gateway renders it, so a preview or a search engine reads it), absolute from `site.publicUrl`.
   */
  shareUrl: string;
}

/** The app's additions to a page, by route (issue 24). */
export interface PageExtras {
  /** A business page's call to action: 咨询热线 and 在线订舱 (the site's; each shown when set). */
  contact?: { hotline: string; bookingUrl: string };
  /** 清正廉洁's 信访举报 channel. */
  whistleblowing?: Whistleblowing;
  /** A business page's way to 业务概览 (routes, stations, how it runs): the pages the portal has. */
  overview?: { name: string; url: string }[];
}
