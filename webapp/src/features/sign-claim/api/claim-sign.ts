import { api } from '@/lib/api';

export const claimSignApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/accounts/{accountId}/qrcodes/{id}/claim`: a visitor's sign becomes the account's. */
    claimSign: build.mutation<
      { id: string; paymentUrl: string },
      { accountId: string; qrCodeId: string; token: string }
    >({
      query: ({ accountId, qrCodeId, token }) => ({
        url: `/api/accounts/${encodeURIComponent(accountId)}/qrcodes/${encodeURIComponent(qrCodeId)}/claim`,
        method: 'POST',
        body: { token },
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'QrCodes', id: accountId }],
    }),
  }),
});

export const { useClaimSignMutation } = claimSignApi;
