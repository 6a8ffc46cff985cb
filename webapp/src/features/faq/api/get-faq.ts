import { api } from '@/lib/api';

/** `GET /api/faq`: the same page the server renders at /painel/duvidas. */
export interface Faq {
  title: string;
  /** Rendered by the server from our own Markdown, with any raw HTML in it escaped. */
  bodyHtml: string;
}

export const getFaqApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFaq: build.query<Faq, void>({ query: () => '/api/faq' }),
  }),
});

export const { useGetFaqQuery } = getFaqApi;
