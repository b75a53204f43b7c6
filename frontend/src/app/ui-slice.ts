// Global UI state shared by pages (spec §3): scroll positions by list. The news page number,
// also global, belongs to the articles feature (`features/articles/list-page-slice.ts`).
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface UiState {
  /** Vertical scroll offset by list location, restored on return from a detail page. */
  scroll: Record<string, number>;
}

const initialState: UiState = { scroll: {} };

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    saveScroll(state, action: PayloadAction<{ key: string; y: number }>) {
      state.scroll[action.payload.key] = action.payload.y;
    },
  },
  selectors: {
    scrollFor: (state, key: string) => state.scroll[key] ?? 0,
  },
});

export const { saveScroll } = uiSlice.actions;
export const { scrollFor } = uiSlice.selectors;
