import { QrCodesScreen } from '@/features/qrcodes/components/qrcodes-screen';
import { useGetSettingsQuery } from '@/features/settings/api/get-settings';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import type { CurrentWorkspace } from '@/types/workspace';

/**
 * The form starts with the recipient name and city of the account in use: the settings in the
 * person's own account, the account's own defaults (from the workspace list) in someone else's.
 */
function QrCodesIn({ workspace }: { workspace: CurrentWorkspace }) {
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !workspace.isOwn });
  const defaults = workspace.isOwn
    ? settings === undefined
      ? undefined
      : { merchantName: settings.defaultMerchantName, merchantCity: settings.defaultMerchantCity }
    : { merchantName: workspace.defaultMerchantName ?? null, merchantCity: workspace.defaultMerchantCity ?? null };
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
