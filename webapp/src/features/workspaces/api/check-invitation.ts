import { api } from '@/lib/api';
import type { Role } from '@/lib/roles';

/** What an invitation link offers (`POST /api/invitations/check`). */
export interface InvitationOffer {
  /** The inviting account's name: only for a caller signed in with the invited address, else null. */
  displayName: string | null;
  role: Role;
}

export const checkInvitationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Reads the invitation without accepting it and without a session; `expired-action-code` if spent. */
    checkInvitation: build.query<InvitationOffer, string>({
      query: (code) => ({ url: '/api/invitations/check', method: 'POST', body: { code } }),
    }),
  }),
});

export const { useCheckInvitationQuery } = checkInvitationApi;
