import { CreateQrCodeScreen } from '@/features/qrcodes/components/create-qrcode-screen';
import { useGetSettingsQuery } from '@/features/settings/api/get-settings';
import { MerchantPreview } from '@/features/settings/components/merchant-preview';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import type { CurrentWorkspace } from '@/types/workspace';

const preview = (name: string, city: string) => <MerchantPreview name={name} city={city} />;

function CreateIn({ workspace }: { workspace: CurrentWorkspace }) {
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !workspace.isOwn });
  const defaults =
    workspace.isOwn && settings !== undefined
      ? { merchantName: settings.defaultMerchantName, merchantCity: settings.defaultMerchantCity }
      : undefined;
  return <CreateQrCodeScreen workspace={workspace} defaults={defaults} renderPreview={preview} />;
}

/** /painel/criar-qrcode, in the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Criar QR code">
      {(workspace) => <CreateIn key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
