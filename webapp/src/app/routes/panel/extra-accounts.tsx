import { ExtraAccountsScreen } from '@/features/team/components/extra-accounts-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/contas-extras, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Contas extras">
      {(workspace) => <ExtraAccountsScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
