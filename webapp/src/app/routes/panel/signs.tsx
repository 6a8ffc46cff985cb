import { useSearchParams } from 'react-router';

import { useListQrCodesQuery } from '@/features/qrcodes/api/list-qrcodes';
import { SignLogoSection } from '@/features/sign-logo/components/sign-logo-section';
import { SignsScreen } from '@/features/signs/components/signs-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import type { CurrentWorkspace } from '@/types/workspace';

/** The codes a sign can print: the account's codes the person sees, archived ones left out. */
function SignsIn({ workspace }: { workspace: CurrentWorkspace }) {
  const [search] = useSearchParams();
  const { data: qrcodes, isError } = useListQrCodesQuery(workspace.accountId);
  const codes = qrcodes?.filter((code) => code.archivedAt === undefined || code.archivedAt === null);
  // The logo is the account's setting: owners and managers change it.
  const logoSection = workspace.role === 'operator' ? undefined : <SignLogoSection accountId={workspace.accountId} />;
  return (
    <SignsScreen
      workspace={workspace}
      codes={isError ? [] : codes}
      initialQrcodeId={search.get('qrcode')}
      logoSection={logoSection}
    />
  );
}

/** /painel/placas, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Placas">
      {(workspace) => <SignsIn key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
