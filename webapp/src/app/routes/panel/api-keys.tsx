import { ApiKeysScreen } from '@/features/api-keys/components/api-keys-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/chaves-de-api, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Chaves de API">
      {(workspace) => <ApiKeysScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
