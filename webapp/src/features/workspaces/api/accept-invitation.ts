import { api } from '@/lib/api';
import type { Role } from '@/lib/roles';

export const acceptInvitationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/invitations/accept`: joins the account the invitation is for; `expired-action-code` if spent. */
    acceptInvitation: build.mutation<{ accountId: string; role: Role }, { code: string }>({
      query: (body) => ({ url: '/api/invitations/accept', method: 'POST', body }),
      extraOptions: { authenticated: true },
      invalidatesTags: ['Workspaces'],
    }),
  }),
});

export const { useAcceptInvitationMutation } = acceptInvitationApi;
