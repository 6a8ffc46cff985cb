import { PremiumScreen } from '@/features/billing/components/premium-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** Issue 12, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Premium">
      {(workspace) => <PremiumScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
