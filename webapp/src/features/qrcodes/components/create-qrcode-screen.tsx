import { type ReactNode, useState } from 'react';

import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import type { KeyChoice } from '@/types/pix-key';
import type { CurrentWorkspace } from '@/types/workspace';

import { BatchForm } from './batch-form';
import { QrCodeForm } from './qrcode-form';

export interface CreateQrCodeScreenProps {
  workspace: CurrentWorkspace;
  defaults?: { merchantName: string | null; merchantCity: string | null };
  /** How name and city will be written (the settings feature's preview, composed by the app). */
  renderPreview?: (name: string, city: string) => ReactNode;
  /** The account's registered keys (the keys feature's list, composed by the app). */
  keys?: readonly KeyChoice[];
  /** What the signs of these codes look like (the sign-logo feature's section, composed by the app). */
  signSection?: ReactNode;
  /** Where charges through a connected bank are made (the bank-connection feature's, composed by the app). */
  chargeSection?: ReactNode;
}

/** /painel/criar-qrcode: one code, or a batch, in the account in use. */
export function CreateQrCodeScreen({
  workspace,
  defaults,
  renderPreview,
  keys,
  signSection,
  chargeSection,
}: CreateQrCodeScreenProps) {
  const [mode, setMode] = useState<'one' | 'batch'>('one');
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Criar QR code</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Criar QR code
      </h1>
      <WorkspaceLine workspace={workspace} />
      <div className="segmented" role="group" aria-label="Quantos QR codes">
        <button type="button" aria-pressed={mode === 'one'} onClick={() => setMode('one')}>
          Um QR code
        </button>
        <button type="button" aria-pressed={mode === 'batch'} onClick={() => setMode('batch')}>
          Vários de uma vez
        </button>
      </div>
      {mode === 'one' ? (
        <QrCodeForm
          accountId={workspace.accountId}
          defaultMerchantName={defaults?.merchantName}
          defaultMerchantCity={defaults?.merchantCity}
          renderPreview={renderPreview}
          keys={keys}
        />
      ) : (
        <BatchForm
          accountId={workspace.accountId}
          defaultMerchantName={defaults?.merchantName}
          defaultMerchantCity={defaults?.merchantCity}
          renderPreview={renderPreview}
          keys={keys}
        />
      )}
      {chargeSection}
      {signSection}
      <p>
        <a href={paths.panel.qrCodes}>Ver os QR codes desta conta</a>
      </p>
    </section>
  );
}
