import { useParams } from 'react-router';

import { CounterScreen } from '@/features/counter/components/counter-screen';
import { useWakeLock } from '@/features/counter/hooks/use-wake-lock';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import { useLivePayments } from '@/hooks/use-live-payments';
import type { CurrentWorkspace } from '@/types/workspace';

/** The screen follows the account's live stream (which refetches its payments) and keeps the display on. */
function LiveCounter({ workspace, qrcodeId }: { workspace: CurrentWorkspace; qrcodeId: string }) {
  const live = useLivePayments(workspace.accountId);
  const awake = useWakeLock();
  return <CounterScreen workspace={workspace} qrcodeId={qrcodeId} live={live} awake={awake} />;
}

/** /painel/qrcodes/:id/balcao, "Modo balcão", for the account in use (another account or code starts anew). */
export function Component() {
  const { id = '' } = useParams();
  return (
    <WithWorkspace title="Modo balcão">
      {(workspace) => <LiveCounter key={`${workspace.accountId}/${id}`} workspace={workspace} qrcodeId={id} />}
    </WithWorkspace>
  );
}
