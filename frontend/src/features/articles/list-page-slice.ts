// The news page number (spec §3: global, starts at 1), owned by the articles feature and
// injected into the store when the feature's code loads. The list shown last and its page are
// kept, so coming back to that list opens the page the visitor left; the URL's `?page=` wins
// when present (ListPage keeps both in step).
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';

import { rootReducer } from '../../app/reducer';

export interface ListPageState {
  /** The list (its route) the page number belongs to. */
  list: string;
  page: number;
}

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
  const raw = new URLSearchParams(search).get('page');
  if (!raw || !/^\d{1,6}$/.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 ? page : null;
}
