import { SubscriptionScreen } from '@/features/billing/components/subscription-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** Issue 12, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Plano e assinatura">
      {(workspace) => <SubscriptionScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
