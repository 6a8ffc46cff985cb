import type { ReactNode } from 'react';

import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import type { CurrentWorkspace } from '@/types/workspace';

import { type SignCodeChoice, SignForm } from './sign-form';
import { SignList } from './sign-list';

export interface SignsScreenProps {
  workspace: CurrentWorkspace;
  /** The account's codes the person may print (the QR codes feature's list, composed by the app); undefined while loading. */
  codes?: readonly SignCodeChoice[];
  /** The code chosen first (`?qrcode=` from "Criar placa" on a code). */
  initialQrcodeId?: string | null;
  /** The account's logo section, for those who may change it. */
  logoSection?: ReactNode;
}

/** /painel/placas: make a sign from one of the account's codes with a live preview; the saved signs below. */
export function SignsScreen({ workspace, codes, initialQrcodeId, logoSection }: SignsScreenProps) {
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Placas</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Placas
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="hint">
        Escolha um QR code da conta e como a placa fica. A prévia é o próprio arquivo que será impresso. Salve as placas
        que você usa para baixar de novo em PDF, PNG ou SVG quando precisar.
      </p>
      <section aria-labelledby="titulo-criar">
        <h2 id="titulo-criar">Criar placa</h2>
        {codes === undefined ? (
          <PageStatus>Carregando os QR codes…</PageStatus>
        ) : codes.length === 0 ? (
          <p>
            Uma placa imprime um QR code da conta. <a href={paths.panel.createQrCode}>Crie um QR code</a> primeiro.
          </p>
        ) : (
          <SignForm accountId={workspace.accountId} codes={codes} initialQrcodeId={initialQrcodeId} />
        )}
      </section>
      {logoSection}
      <section aria-labelledby="titulo-lista">
        <h2 id="titulo-lista">Placas salvas</h2>
        <SignList accountId={workspace.accountId} codes={codes ?? []} />
      </section>
    </section>
  );
}
