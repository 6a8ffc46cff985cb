import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import type { KeyChoice } from '@/types/pix-key';
import type { CurrentWorkspace } from '@/types/workspace';

import { PaymentLinkForm } from './payment-link-form';
import { PaymentLinkList } from './payment-link-list';

export interface PaymentLinksScreenProps {
  workspace: CurrentWorkspace;
  defaults?: { merchantName: string | null; merchantCity: string | null };
  /** The account's registered keys (the keys feature's list, composed by the app). */
  keys?: readonly KeyChoice[];
}

/** /painel/links-de-pagamento: create a `/pagar` link for a key, an amount and a description; list and cancel. */
export function PaymentLinksScreen({ workspace, defaults, keys }: PaymentLinksScreenProps) {
  if (workspace.role === 'operator') {
    return (
      <section aria-labelledby="titulo-tela">
        <PageTitle>Links de pagamento</PageTitle>
        <h1 id="titulo-tela" tabIndex={-1}>
          Links de pagamento
        </h1>
        <WorkspaceLine workspace={workspace} />
        <p className="notice">Só o proprietário e os gerentes desta conta criam e cancelam links de pagamento.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Links de pagamento</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Links de pagamento
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="hint">
        Um link abre uma página do Balcão com o QR code e o Pix Copia e Cola do valor que você cobrar. Só links criados
        aqui funcionam: um link alterado mostra um aviso de erro.
      </p>
      <section aria-labelledby="titulo-criar">
        <h2 id="titulo-criar">Criar link de pagamento</h2>
        <PaymentLinkForm
          accountId={workspace.accountId}
          defaultMerchantName={defaults?.merchantName}
          defaultMerchantCity={defaults?.merchantCity}
          keys={keys}
        />
      </section>
      <section aria-labelledby="titulo-lista">
        <h2 id="titulo-lista">Links desta conta</h2>
        <PaymentLinkList accountId={workspace.accountId} />
      </section>
    </section>
  );
}
