import { api } from '@/lib/api';
import type { InvitableRole } from '@/lib/roles';

/** Someone invited to the account, as `GET /api/accounts/{id}/members` lists them. */
export interface Member {
  invitationId: string;
  email: string;
  role: InvitableRole;
  /** `invited` until the invitation is accepted. */
  status: 'invited' | 'active';
  invitedAt: string;
  joinedAt: string | null;
}

export const listMembersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/accounts/{accountId}/members` (owner only: others get 403). */
    listMembers: build.query<Member[], string>({
      query: (accountId) => `/api/accounts/${encodeURIComponent(accountId)}/members`,
      extraOptions: { authenticated: true },
      transformResponse: (response: { members: Member[] }) => response.members,
      providesTags: (_result, _error, accountId) => [{ type: 'Members', id: accountId }],
    }),
  }),
});

export const { useListMembersQuery } = listMembersApi;
