import { useAppSelector } from '@/hooks/store-hooks';
import { type ApiError, asApiError } from '@/lib/api-error';
import type { CurrentWorkspace, Workspace } from '@/types/workspace';

import { useListWorkspacesQuery } from '../api/list-workspaces';
import { selectSelectedAccountId } from '../stores/workspace-slice';

export interface WorkspaceLookup {
  current: CurrentWorkspace | undefined;
  workspaces: Workspace[];
  isLoading: boolean;
  error: ApiError | undefined;
  refetch: () => void;
}

/**
 * The selected workspace, or the person's own account when none is selected or the selected one
 * is gone (the owner removed them, or the list has not caught up yet).
 */
export function useCurrentWorkspace(): WorkspaceLookup {
  const selectedAccountId = useAppSelector(selectSelectedAccountId);
  const { data: workspaces = [], error, isLoading, refetch } = useListWorkspacesQuery();
  const chosen =
    workspaces.find((workspace) => workspace.accountId === selectedAccountId) ??
    workspaces.find((workspace) => workspace.role === 'owner') ??
    workspaces[0];
  const current =
    chosen === undefined ? undefined : { ...chosen, isOwn: chosen.role === 'owner', hasOthers: workspaces.length > 1 };
  return {
    current,
    workspaces,
    isLoading,
    error: error === undefined ? undefined : asApiError(error),
    refetch: () => void refetch(),
  };
}
