import { api } from '@/lib/api';

export const deleteAccountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/account/delete`: erases the account (and clears the refresh cookie). */
    deleteAccount: build.mutation<void, { password: string }>({
      query: (body) => ({ url: '/api/account/delete', method: 'POST', body }),
      extraOptions: { authenticated: true },
    }),
  }),
});

export const { useDeleteAccountMutation } = deleteAccountApi;
