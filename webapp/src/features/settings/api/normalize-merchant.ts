import { api } from '@/lib/api';

/** What `GET /api/brcode/normalize` returns: the values as a BR Code will write them. */
export interface NormalizedMerchant {
  name: string;
  city: string;
  /** One pt-BR sentence per change made (accents removed, upper-cased…). */
  changes: string[];
}

export const normalizeMerchantApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/brcode/normalize?name=…&city=…` (public). */
    normalizeMerchant: build.query<NormalizedMerchant, { name: string; city: string }>({
      query: ({ name, city }) => `/api/brcode/normalize?${new URLSearchParams({ name, city }).toString()}`,
    }),
  }),
});

export const { useNormalizeMerchantQuery } = normalizeMerchantApi;
