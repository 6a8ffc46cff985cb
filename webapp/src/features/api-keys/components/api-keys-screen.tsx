import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import type { CurrentWorkspace } from '@/types/workspace';

import { ApiKeyForm } from './api-key-form';
import { ApiKeyList } from './api-key-list';

/** /painel/chaves-de-api: keys for the shop's own systems (a store, a POS, an ERP) to reach `/api/v1`. */
export function ApiKeysScreen({ workspace }: { workspace: CurrentWorkspace }) {
  if (workspace.role === 'operator') {
    return (
      <section aria-labelledby="titulo-tela">
        <PageTitle>Chaves de API</PageTitle>
        <h1 id="titulo-tela" tabIndex={-1}>
          Chaves de API
        </h1>
        <WorkspaceLine workspace={workspace} />
        <p className="notice">Só o proprietário e os gerentes desta conta criam e revogam chaves de API.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Chaves de API</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Chaves de API
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="hint">
        Uma chave deixa o sistema da sua loja (loja virtual, PDV, ERP) criar QR codes e ler os pagamentos desta conta
        pela API do Balcão, em <code>/api/v1</code>. Ela age pela conta, só com as permissões que você marcar, e tudo o
        que fizer fica registrado com o nome dela.
      </p>
      <section aria-labelledby="titulo-criar">
        <h2 id="titulo-criar">Criar chave de API</h2>
        <ApiKeyForm accountId={workspace.accountId} />
      </section>
      <section aria-labelledby="titulo-lista">
        <h2 id="titulo-lista">Chaves desta conta</h2>
        <ApiKeyList accountId={workspace.accountId} />
      </section>
    </section>
  );
}
