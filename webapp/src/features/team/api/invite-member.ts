import { api } from '@/lib/api';
import type { InvitableRole } from '@/lib/roles';

import type { Member } from './list-members';

export const inviteMemberApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/accounts/{accountId}/members`: e-mails an invitation; `member-already-invited` (409). */
    inviteMember: build.mutation<Member, { accountId: string; email: string; role: InvitableRole }>({
      query: ({ accountId, email, role }) => ({
        url: `/api/accounts/${encodeURIComponent(accountId)}/members`,
        method: 'POST',
        body: { email, role },
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Members', id: accountId }],
    }),
  }),
});

export const { useInviteMemberMutation } = inviteMemberApi;
