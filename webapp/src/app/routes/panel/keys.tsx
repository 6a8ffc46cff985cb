import { KeysScreen } from '@/features/keys/components/keys-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/chaves, for the account in use (a new account starts a new screen: no leftover input). */
export function Component() {
  return (
    <WithWorkspace title="Chaves Pix">
      {(workspace) => <KeysScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
