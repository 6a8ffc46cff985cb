import { useEffect } from 'react';

import { useAppSelector } from '@/hooks/store-hooks';
import { type ApiError, asApiError } from '@/lib/api-error';
import type { CurrentWorkspace, Workspace } from '@/types/workspace';

import { useListWorkspacesQuery } from '../api/list-workspaces';
import { selectSelectedAccountId } from '../stores/workspace-slice';
import { recallWorkspace, rememberWorkspace } from '../utils/workspace-memory';

export interface WorkspaceLookup {
  current: CurrentWorkspace | undefined;
  workspaces: Workspace[];
  isLoading: boolean;
  error: ApiError | undefined;
  refetch: () => void;
}

/**
 * The account the dashboard acts in: the one chosen in this tab, else the one this person last
 * chose on this device (so a reload or a new session stays there), else their own account. A
 * chosen account that is gone (the owner removed them) falls back to their own. Nothing acts in
 * any account until the list has loaded.
 */
export function useCurrentWorkspace(): WorkspaceLookup {
  const chosenHere = useAppSelector(selectSelectedAccountId);
  const { data: workspaces = [], error, isLoading, refetch } = useListWorkspacesQuery();
  const own = workspaces.find((workspace) => workspace.role === 'owner');
  const selectedAccountId = chosenHere ?? (own === undefined ? null : recallWorkspace(own.accountId));
  const chosen = workspaces.find((workspace) => workspace.accountId === selectedAccountId) ?? own ?? workspaces[0];
  const current =
    chosen === undefined ? undefined : { ...chosen, isOwn: chosen.role === 'owner', hasOthers: workspaces.length > 1 };
  const ownId = own?.accountId;
  const currentId = chosen?.accountId;
  useEffect(() => {
    if (ownId !== undefined && currentId !== undefined) rememberWorkspace(ownId, currentId);
  }, [ownId, currentId]);
  return {
    current,
    workspaces,
    isLoading,
    error: error === undefined ? undefined : asApiError(error),
    refetch: () => void refetch(),
  };
}
