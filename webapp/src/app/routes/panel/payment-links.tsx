import { useListPixKeysQuery } from '@/features/keys/api/keys';
import { PaymentLinksScreen } from '@/features/payment-links/components/payment-links-screen';
import { useGetSettingsQuery } from '@/features/settings/api/get-settings';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import type { CurrentWorkspace } from '@/types/workspace';

/** In the person's own account the form starts with the recipient name and city from the settings. */
function PaymentLinksIn({ workspace }: { workspace: CurrentWorkspace }) {
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !workspace.isOwn });
  const { data: keys } = useListPixKeysQuery(workspace.accountId);
  const defaults =
    workspace.isOwn && settings !== undefined
      ? { merchantName: settings.defaultMerchantName, merchantCity: settings.defaultMerchantCity }
      : undefined;
  return <PaymentLinksScreen workspace={workspace} defaults={defaults} keys={keys} />;
}

/** /painel/links-de-pagamento, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Links de pagamento">
      {(workspace) => <PaymentLinksIn key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
