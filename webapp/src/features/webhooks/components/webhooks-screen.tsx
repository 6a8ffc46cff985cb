import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import type { CurrentWorkspace } from '@/types/workspace';

import { WebhookForm } from './webhook-form';
import { WebhookList } from './webhook-list';

/** /painel/webhooks: the addresses the shop's own systems are told of each payment at. */
export function WebhooksScreen({ workspace }: { workspace: CurrentWorkspace }) {
  if (workspace.role === 'operator') {
    return (
      <section aria-labelledby="titulo-tela">
        <PageTitle>Webhooks</PageTitle>
        <h1 id="titulo-tela" tabIndex={-1}>
          Webhooks
        </h1>
        <WorkspaceLine workspace={workspace} />
        <p className="notice">Só o proprietário e os gerentes desta conta cadastram e removem webhooks.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Webhooks</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Webhooks
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="hint">
        O Balcão avisa o endereço do seu sistema a cada pagamento que chega a esta conta, com a assinatura{' '}
        <code>Balcao-Assinatura</code> para você conferir que o aviso veio daqui. Se o endereço não responder, o aviso é
        enviado de novo por até três dias, na ordem em que os fatos aconteceram.
      </p>
      <section aria-labelledby="titulo-cadastrar">
        <h2 id="titulo-cadastrar">Cadastrar webhook</h2>
        <WebhookForm accountId={workspace.accountId} />
      </section>
      <section aria-labelledby="titulo-enderecos">
        <h2 id="titulo-enderecos">Endereços desta conta</h2>
        <WebhookList accountId={workspace.accountId} />
      </section>
    </section>
  );
}
