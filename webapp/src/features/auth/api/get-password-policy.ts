import { api } from '@/lib/api';

import type { PasswordPolicy } from '../utils/password-rules';

export const getPasswordPolicyApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/auth/password-policy`: the rules the server enforces on new passwords. */
    getPasswordPolicy: build.query<PasswordPolicy, void>({
      query: () => '/api/auth/password-policy',
      providesTags: ['PasswordPolicy'],
      // The policy changes with a deploy at most: keep it for the whole visit.
      keepUnusedDataFor: 60 * 60,
    }),
  }),
});

export const { useGetPasswordPolicyQuery } = getPasswordPolicyApi;
