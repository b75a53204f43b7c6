// Global UI state (spec §3): scroll positions by list, and the news page number (starts at 1).
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface UiState {
  /** Vertical scroll offset by list location, restored on return from a detail page. */
  scroll: Record<string, number>;
  /** Current page of the news list shown last, and which list it belongs to. */
  newsPage: number;
  newsList: string;
}

const initialState: UiState = { scroll: {}, newsPage: 1, newsList: '' };

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    saveScroll(state, action: PayloadAction<{ key: string; y: number }>) {
      state.scroll[action.payload.key] = action.payload.y;
    },
    setNewsPage(state, action: PayloadAction<{ list: string; page: number }>) {
      state.newsList = action.payload.list;
      state.newsPage = Math.max(1, Math.floor(action.payload.page));
    },
  },
  selectors: {
    scrollFor: (state, key: string) => state.scroll[key] ?? 0,
    newsPageFor: (state, list: string) => (state.newsList === list ? state.newsPage : 1),
  },
});

export const { saveScroll, setNewsPage } = uiSlice.actions;
export const { scrollFor, newsPageFor } = uiSlice.selectors;
