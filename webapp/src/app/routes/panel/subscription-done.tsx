import { SubscriptionDoneScreen } from '@/features/billing/components/subscription-done-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** Issue 12, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Assinatura">
      {(workspace) => <SubscriptionDoneScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
