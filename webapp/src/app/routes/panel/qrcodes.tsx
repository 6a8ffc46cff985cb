import { useListPixKeysQuery } from '@/features/keys/api/keys';
import { QrCodesScreen } from '@/features/qrcodes/components/qrcodes-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import type { CurrentWorkspace } from '@/types/workspace';

/** The list can be filtered by the account's registered keys. */
function QrCodesIn({ workspace }: { workspace: CurrentWorkspace }) {
  const { data: keys } = useListPixKeysQuery(workspace.accountId);
  return <QrCodesScreen workspace={workspace} keys={keys} />;
}

/** /painel/qrcodes, for the account in use (a new account starts a new screen: no leftover filters). */
export function Component() {
  return (
    <WithWorkspace title="QR codes">
      {(workspace) => <QrCodesIn key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
