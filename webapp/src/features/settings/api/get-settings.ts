import { api } from '@/lib/api';

/** What `GET /api/account/settings` returns: the signed-in person's own account. */
export interface AccountSettings {
  displayName: string | null;
  /** `+55DDNNNNNNNNN`, or null. */
  phoneNumber: string | null;
  /** `/fotos/{accountId}?v={etag}`, or null when there is no photo. */
  photoURL: string | null;
  defaultMerchantName: string | null;
  defaultMerchantCity: string | null;
  email: string;
  emailVerified: boolean;
}

export const getSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/account/settings`. */
    getSettings: build.query<AccountSettings, void>({
      query: () => '/api/account/settings',
      extraOptions: { authenticated: true },
      providesTags: ['Settings'],
    }),
  }),
});

export const { useGetSettingsQuery } = getSettingsApi;
