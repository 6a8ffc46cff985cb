import { roleLabel } from '@/lib/roles';
import type { CurrentWorkspace } from '@/types/workspace';

/** Which account a screen acts on, when the person has more than one to choose from. */
export function WorkspaceLine({ workspace }: { workspace: CurrentWorkspace }) {
  if (!workspace.hasOthers) return null;
  return (
    <p className="workspace-line">
      Conta: <strong>{workspace.displayName}</strong>
      {workspace.isOwn ? ' (sua conta)' : ` · seu papel: ${roleLabel(workspace.role)}`}
    </p>
  );
}
