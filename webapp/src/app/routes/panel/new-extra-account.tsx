import { InviteMemberScreen } from '@/features/team/components/invite-member-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/criar-conta-extra, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Criar conta extra">
      {(workspace) => <InviteMemberScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
