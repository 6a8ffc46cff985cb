import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import type { CurrentWorkspace } from '@/types/workspace';

import { QrCodeForm } from './qrcode-form';
import { QrCodeList } from './qrcode-list';

export interface QrCodesScreenProps {
  workspace: CurrentWorkspace;
  /** The settings' recipient name and city, given only in the person's own account. */
  defaults?: { merchantName: string | null; merchantCity: string | null };
}

/** /painel/qrcodes: the selected account's QR codes and the form to create one. */
export function QrCodesScreen({ workspace, defaults }: QrCodesScreenProps) {
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>QR codes</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        QR codes
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="actions">
        <a className="button secondary" href={paths.panel.createQrCode}>
          Criar vários de uma vez
        </a>
      </p>
      <section aria-labelledby="titulo-criar">
        <h2 id="titulo-criar">Criar QR code</h2>
        <QrCodeForm
          accountId={workspace.accountId}
          defaultMerchantName={defaults?.merchantName}
          defaultMerchantCity={defaults?.merchantCity}
        />
      </section>
      <section aria-labelledby="titulo-lista">
        <h2 id="titulo-lista">QR codes desta conta</h2>
        {workspace.role === 'operator' ? <p className="hint">Como operador, você vê os QR codes que criou.</p> : null}
        <QrCodeList accountId={workspace.accountId} />
      </section>
    </section>
  );
}
