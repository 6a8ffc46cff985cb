import { useState } from 'react';

import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { BankWarnings } from '@/features/bank-connection/components/bank-warnings';
import { useGetHomeSummaryQuery } from '@/features/home/api/home-summary';
import { HomeScreen } from '@/features/home/components/home-screen';
import { useGetMeQuery } from '@/features/session/api/get-me';
import { EmailVerificationNotice } from '@/features/session/components/email-verification-notice';
import { Greeting } from '@/features/session/components/greeting';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import { type LivePayment, useLivePayments } from '@/hooks/use-live-payments';
import type { CurrentWorkspace } from '@/types/workspace';

function LiveHome({ workspace }: { workspace: CurrentWorkspace }) {
  const [arrived, setArrived] = useState<LivePayment | null>(null);
  const live = useLivePayments(workspace.accountId, setArrived);
  // The greeting and the e-mail reminder above the figures come from /me (asked beside the account
  // list, so it is usually there already): the screen waits for it rather than have the reminder
  // push the figures down once it arrives. The figures are asked for meanwhile.
  const { isLoading: meIsLoading } = useGetMeQuery();
  useGetHomeSummaryQuery(workspace.accountId);
  if (meIsLoading) {
    return (
      <section aria-labelledby="titulo-tela">
        <PageTitle>Painel</PageTitle>
        <h1 id="titulo-tela" tabIndex={-1}>
          Painel
        </h1>
        <PageStatus>Carregando…</PageStatus>
      </section>
    );
  }
  return (
    <HomeScreen
      workspace={workspace}
      live={live}
      arrived={arrived}
      header={
        <>
          <Greeting />
          <EmailVerificationNotice />
          {workspace.role === 'operator' ? null : <BankWarnings accountId={workspace.accountId} />}
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
