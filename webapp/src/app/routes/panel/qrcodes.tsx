import { QrCodesScreen } from '@/features/qrcodes/components/qrcodes-screen';
import { useGetSettingsQuery } from '@/features/settings/api/get-settings';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import type { CurrentWorkspace } from '@/types/workspace';

/** In the person's own account the form starts with the recipient name and city from the settings. */
function QrCodesIn({ workspace }: { workspace: CurrentWorkspace }) {
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !workspace.isOwn });
  const defaults =
    workspace.isOwn && settings !== undefined
      ? { merchantName: settings.defaultMerchantName, merchantCity: settings.defaultMerchantCity }
      : undefined;
  return <QrCodesScreen workspace={workspace} defaults={defaults} />;
}

/** /painel/qrcodes, for the account in use (a new account starts a new screen: no leftover input). */
export function Component() {
  return (
    <WithWorkspace title="QR codes">
      {(workspace) => <QrCodesIn key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
