import { type PayloadAction, type WithSlice, createSlice } from '@reduxjs/toolkit';

import { signedOut } from '@/lib/credentials';
import { rootReducer } from '@/lib/store';

export interface WorkspaceState {
  /** The account the dashboard acts on; null means the person's own account. */
  selectedAccountId: string | null;
}

const initialState: WorkspaceState = { selectedAccountId: null };

export const workspaceSlice = createSlice({
  name: 'workspace',
  initialState,
  reducers: {
    /** The person chose another account in the switcher, or joined one through an invitation. */
    workspaceSelected(state, action: PayloadAction<string>) {
      state.selectedAccountId = action.payload;
    },
  },
  extraReducers: (builder) => {
    // The next person on a shared phone starts in their own account.
    builder.addCase(signedOut, () => initialState);
  },
  selectors: {
    selectSelectedAccountId: (state) => state.selectedAccountId,
  },
});

declare module '@/lib/store' {
  export interface LazyLoadedSlices extends WithSlice<typeof workspaceSlice> {}
}

const injectedWorkspaceSlice = workspaceSlice.injectInto(rootReducer);

export const { workspaceSelected } = workspaceSlice.actions;
export const { selectSelectedAccountId } = injectedWorkspaceSlice.selectors;
