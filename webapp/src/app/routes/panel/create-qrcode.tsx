import { ChargePointer } from '@/features/bank-connection/components/charge-pointer';
import { useListPixKeysQuery } from '@/features/keys/api/keys';
import { CreateQrCodeScreen } from '@/features/qrcodes/components/create-qrcode-screen';
import { useGetSettingsQuery } from '@/features/settings/api/get-settings';
import { MerchantPreview } from '@/features/settings/components/merchant-preview';
import { SignLogoSection } from '@/features/sign-logo/components/sign-logo-section';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import type { CurrentWorkspace } from '@/types/workspace';

const preview = (name: string, city: string) => <MerchantPreview name={name} city={city} />;

/**
 * The forms start with the account's registered keys (the default one chosen) and the recipient
 * name and city of the account in use: the settings in the person's own account, the account's own
 * defaults (from the workspace list) in someone else's.
 */
function CreateIn({ workspace }: { workspace: CurrentWorkspace }) {
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !workspace.isOwn });
  const { data: keys } = useListPixKeysQuery(workspace.accountId);
  const defaults = workspace.isOwn
    ? settings === undefined
      ? undefined
      : { merchantName: settings.defaultMerchantName, merchantCity: settings.defaultMerchantCity }
    : { merchantName: workspace.defaultMerchantName ?? null, merchantCity: workspace.defaultMerchantCity ?? null };
  // The logo is the account's setting: owners and managers change it.
  const signSection = workspace.role === 'operator' ? undefined : <SignLogoSection accountId={workspace.accountId} />;
  return (
    <CreateQrCodeScreen
      workspace={workspace}
      defaults={defaults}
      renderPreview={preview}
      keys={keys}
      signSection={signSection}
      chargeSection={<ChargePointer accountId={workspace.accountId} canManage={workspace.role !== 'operator'} />}
    />
  );
}

/** /painel/criar-qrcode, in the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Criar QR code">
      {(workspace) => <CreateIn key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
