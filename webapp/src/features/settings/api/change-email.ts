import { api } from '@/lib/api';

export const changeEmailApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/account/email`: e-mails a confirmation link to the new address; nothing changes until it is opened. */
    changeEmail: build.mutation<void, { newEmail: string; password: string }>({
      query: (body) => ({ url: '/api/account/email', method: 'POST', body }),
      extraOptions: { authenticated: true },
    }),
  }),
});

export const { useChangeEmailMutation } = changeEmailApi;
