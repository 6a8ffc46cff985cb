import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import type { KeyChoice } from '@/types/pix-key';
import type { CurrentWorkspace } from '@/types/workspace';

import { QrCodeList } from './qrcode-list';

export interface QrCodesScreenProps {
  workspace: CurrentWorkspace;
  /** The account's registered keys, to filter by (the keys feature's list, composed by the app). */
  keys?: readonly KeyChoice[];
}

/** /painel/qrcodes: the selected account's QR codes; creating one is /painel/criar-qrcode. */
export function QrCodesScreen({ workspace, keys }: QrCodesScreenProps) {
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>QR codes</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        QR codes
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="actions">
        <a className="button" href={paths.panel.createQrCode}>
          Criar QR code
        </a>
      </p>
      {workspace.role === 'operator' ? <p className="hint">Como operador, você vê os QR codes que criou.</p> : null}
      <QrCodeList accountId={workspace.accountId} keys={keys} />
    </section>
  );
}
