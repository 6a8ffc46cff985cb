import { api } from '@/lib/api';

import { type AccountSettings, getSettingsApi } from './get-settings';

export interface SettingsChanges {
  displayName: string;
  /** The phone's digits with the area code (10 or 11), or null to remove it. */
  phoneNumber: string | null;
  defaultMerchantName: string | null;
  defaultMerchantCity: string | null;
}

export const updateSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `PATCH /api/account/settings`: answers with the settings as saved. */
    updateSettings: build.mutation<AccountSettings, SettingsChanges>({
      query: (body) => ({ url: '/api/account/settings', method: 'PATCH', body }),
      extraOptions: { authenticated: true },
      // The header shows the name, and the workspace list names the own account after it.
      invalidatesTags: ['CurrentUser', 'Workspaces'],
      async onQueryStarted(_changes, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          void dispatch(getSettingsApi.util.upsertQueryData('getSettings', undefined, data));
        } catch {
          // The form shows the error from its own `unwrap()`.
        }
      },
    }),
  }),
});

export const { useUpdateSettingsMutation } = updateSettingsApi;
