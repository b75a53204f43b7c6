// The root reducer: the API and the global UI state at start; features inject their own slices
// (`slice.injectInto(rootReducer)`) and declare them in `LazyLoadedSlices`.
import { combineSlices } from '@reduxjs/toolkit';

import { api } from './api';
import { uiSlice } from './ui-slice';

// Features add their slices to this interface by declaration merging.
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(api, uiSlice).withLazyLoadedSlices<LazyLoadedSlices>();
export type RootState = ReturnType<typeof rootReducer>;
