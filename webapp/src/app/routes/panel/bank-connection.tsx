import { useParams } from 'react-router';

import { BankConnectionScreen } from '@/features/bank-connection/components/bank-connection-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/chaves/{keyId}/banco, for the account in use. */
export function Component() {
  const { keyId = '' } = useParams();
  return (
    <WithWorkspace title="Conectar banco">
      {(workspace) => (
        <BankConnectionScreen key={`${workspace.accountId}:${keyId}`} workspace={workspace} keyId={keyId} />
      )}
    </WithWorkspace>
  );
}
