import { QrCodesScreen } from '@/features/qrcodes/components/qrcodes-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/qrcodes, for the account in use (a new account starts a new screen: no leftover filters). */
export function Component() {
  return (
    <WithWorkspace title="QR codes">
      {(workspace) => <QrCodesScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
