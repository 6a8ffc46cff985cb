import { api } from '@/lib/api';

export const sendVerificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/send-verification`: sends the confirmation link to the account's address again. */
    sendVerification: build.mutation<void, void>({
      query: () => ({ url: '/api/auth/send-verification', method: 'POST' }),
      extraOptions: { authenticated: true },
    }),
  }),
});

export const { useSendVerificationMutation } = sendVerificationApi;
