import { WebhooksScreen } from '@/features/webhooks/components/webhooks-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/webhooks, for the account in use. */
export function Component() {
  return (
    <WithWorkspace title="Webhooks">
      {(workspace) => <WebhooksScreen key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
