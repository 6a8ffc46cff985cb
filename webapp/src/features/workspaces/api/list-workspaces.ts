import { api } from '@/lib/api';
import type { Workspace } from '@/types/workspace';

export const listWorkspacesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/workspaces`: the person's own account first (role `owner`), then the others. */
    listWorkspaces: build.query<Workspace[], void>({
      query: () => '/api/workspaces',
      extraOptions: { authenticated: true },
      transformResponse: (response: { workspaces: Workspace[] }) => response.workspaces,
      providesTags: ['Workspaces'],
    }),
  }),
});

export const { useListWorkspacesQuery } = listWorkspacesApi;
