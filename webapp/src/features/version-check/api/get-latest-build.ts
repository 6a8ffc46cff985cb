import { api } from '@/lib/api';

export interface LatestBuild {
  buildId: string;
}

export const getLatestBuildApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /builds/latest.json`: the id of the build the server would serve now. */
    getLatestBuild: build.query<LatestBuild, void>({
      // no-store: an answer cached by the browser or a proxy would hide the new deploy.
      query: () => ({ url: '/builds/latest.json', cache: 'no-store' }),
      providesTags: ['LatestBuild'],
    }),
  }),
});

export const { useLazyGetLatestBuildQuery } = getLatestBuildApi;
