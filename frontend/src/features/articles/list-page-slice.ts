// The news page number (spec §3: global, starts at 1), owned by the articles feature and
// injected into the store when the feature's code loads. The list shown last and its page are
// kept, so coming back to that list opens the page the visitor left; the URL's `?page=` wins
// when present (ListPage keeps both in step).
import { pageHref, pageNumberOf } from '../../lib/page-href';
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';

import { rootReducer } from '../../app/reducer';

export interface ListPageState {
  /** The list (its route) the page number belongs to. */
  list: string;
  page: number;
}

/** Articles on a list page (spec §3). */
export const LIST_PAGE_SIZE = 10;

const initialState: ListPageState = { list: '', page: 1 };

export const listPageSlice = createSlice({
  name: 'listPage',
  initialState,
  reducers: {
    setListPage(state, action: PayloadAction<{ list: string; page: number }>) {
      state.list = action.payload.list;
      state.page = Math.max(1, Math.floor(action.payload.page) || 1);
    },
  },
  selectors: {
    pageFor: (state, list: string) => (state.list === list ? state.page : 1),
  },
});

declare module '../../app/reducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof listPageSlice> {}
}

const injected = listPageSlice.injectInto(rootReducer);

export const { setListPage } = listPageSlice.actions;
export const { pageFor } = injected.selectors;

/** The page number a hash query asks for (`page=3`), or null when it names none. */
export function pageFromSearch(search: string): number | null {
  return pageNumberOf(new URLSearchParams(search).get('page'));
}


/**
 * The list page an article was opened from, carried in the article's address
 * (`/portal/article/2111?listPage=2`): the store forgets it on a reload or in a new tab, and 返回列表
 * must still lead back to that page.
 */
export const LIST_PAGE_PARAM = 'listPage';

/** An article's address, marked with the list page it is opened from (past the first). */
export function withListPage(href: string, page: number): string {
  if (page <= 1) return href;
  return `${href}${href.includes('?') ? '&' : '?'}${LIST_PAGE_PARAM}=${page}`;
}

/** The list page an article's hash query names (`listPage=2`), or null. */
export function listPageFromSearch(search: string): number | null {
  return pageNumberOf(new URLSearchParams(search).get(LIST_PAGE_PARAM));
}

/** Where 返回列表 leads: the list, at the page the article was opened from. */
export const listHref = (listUrl: string, page: number | null): string => pageHref(`${listUrl}${page && page > 1 ? `?page=${page}` : ''}`);
