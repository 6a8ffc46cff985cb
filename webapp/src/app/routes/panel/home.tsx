import { useState } from 'react';

import { HomeScreen } from '@/features/home/components/home-screen';
import { EmailVerificationNotice } from '@/features/session/components/email-verification-notice';
import { Greeting } from '@/features/session/components/greeting';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import { type LivePayment, useLivePayments } from '@/hooks/use-live-payments';
import type { CurrentWorkspace } from '@/types/workspace';

function LiveHome({ workspace }: { workspace: CurrentWorkspace }) {
  const [arrived, setArrived] = useState<LivePayment | null>(null);
  const live = useLivePayments(workspace.accountId, setArrived);
  return (
    <HomeScreen
      workspace={workspace}
      live={live}
      arrived={arrived}
      header={
        <>
          <Greeting />
          <EmailVerificationNotice />
        </>
      }
    />
  );
}

/** /painel, for the account in use: the figures follow payments as they arrive. */
export function Component() {
  return (
    <WithWorkspace title="Painel">
      {(workspace) => <LiveHome key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
