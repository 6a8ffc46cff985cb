import { useId } from 'react';

import { useAppDispatch } from '@/hooks/store-hooks';
import { roleLabel } from '@/lib/roles';

import { useCurrentWorkspace } from '../hooks/use-current-workspace';
import { workspaceSelected } from '../stores/workspace-slice';

/** Chooses the account the dashboard acts on; only there when the person has more than one. */
export function WorkspaceSwitcher() {
  const dispatch = useAppDispatch();
  const { current, workspaces } = useCurrentWorkspace();
  const id = useId();
  if (current === undefined || workspaces.length < 2) return null;
  return (
    <div className="workspace-switcher">
      <label htmlFor={id}>Conta em uso</label>
      <select id={id} value={current.accountId} onChange={(event) => dispatch(workspaceSelected(event.target.value))}>
        {workspaces.map((workspace) => (
          <option key={workspace.accountId} value={workspace.accountId}>
            {workspace.role === 'owner'
              ? `${workspace.displayName} (sua conta)`
              : `${workspace.displayName} (${roleLabel(workspace.role)})`}
          </option>
        ))}
      </select>
    </div>
  );
}
