import { api } from '@/lib/api';
import { signedIn } from '@/lib/credentials';
import type { SignInResponse } from '@/types/user';

export const signUpApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/signup`; signs the new account in (and sets the refresh cookie). */
    signUp: build.mutation<SignInResponse, { email: string; password: string; displayName: string }>({
      query: (body) => ({ url: '/api/auth/signup', method: 'POST', body }),
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

export const { useSignUpMutation } = signUpApi;
