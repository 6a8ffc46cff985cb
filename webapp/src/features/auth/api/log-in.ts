import { api } from '@/lib/api';
import { signedIn } from '@/lib/credentials';
import type { SignInResponse } from '@/types/user';

export const logInApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/login`; the server also sets the refresh cookie. */
    logIn: build.mutation<SignInResponse, { email: string; password: string }>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(signedIn(data));
        } catch {
          // The form shows the error from its own `unwrap()`.
        }
      },
    }),
  }),
});

export const { useLogInMutation } = logInApi;
