import { api } from '@/lib/api';

export const recoverPasswordApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/recover`: always 204, whether or not the e-mail has an account. */
    recoverPassword: build.mutation<void, { email: string }>({
      query: (body) => ({ url: '/api/auth/recover', method: 'POST', body }),
    }),
  }),
});

export const { useRecoverPasswordMutation } = recoverPasswordApi;
