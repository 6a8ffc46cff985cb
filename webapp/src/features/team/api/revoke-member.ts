import { api } from '@/lib/api';

export const revokeMemberApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `DELETE /api/accounts/{accountId}/members/{invitationId}`: the invitation or the access ends at once. */
    revokeMember: build.mutation<void, { accountId: string; invitationId: string }>({
      query: ({ accountId, invitationId }) => ({
        url: `/api/accounts/${encodeURIComponent(accountId)}/members/${encodeURIComponent(invitationId)}`,
        method: 'DELETE',
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Members', id: accountId }],
    }),
  }),
});

export const { useRevokeMemberMutation } = revokeMemberApi;
