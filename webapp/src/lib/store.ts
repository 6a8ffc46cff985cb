// The root reducer and the store's types. Features own their slices and add them with
// `slice.injectInto(rootReducer)`, declaring them in `LazyLoadedSlices` (RTK's code-splitting
// pattern), so shared code never imports a feature and features never import `src/app`.

import { type ThunkDispatch, type TypedStartListening, type UnknownAction, combineSlices } from '@reduxjs/toolkit';

import { api } from './api';
import { credentialsSlice } from './credentials';

/** Slices injected by features; each feature extends this interface for its own slice. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(api, credentialsSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;
export type AppStartListening = TypedStartListening<RootState, AppDispatch>;
