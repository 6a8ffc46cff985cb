import type { ReactNode } from 'react';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isNotFound } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';

import { useListPixKeysQuery } from '../api/keys';
import { KeyList } from './key-list';
import { RegisterKeyForm } from './register-key-form';

/** /painel/chaves: the Pix keys of the account in use, and registering one (owners and managers). */
export function KeysScreen({
  workspace,
  keyExtra,
}: {
  workspace: CurrentWorkspace;
  /** What the app shows of another feature under each key (its bank connection). */
  keyExtra?: (keyId: string, shown: string) => ReactNode;
}) {
  const { data: keys, error, isLoading } = useListPixKeysQuery(workspace.accountId);
  const canManage = workspace.role !== 'operator';
  const apiError = error === undefined ? undefined : asApiError(error);

  let list;
  if (keys !== undefined) {
    list =
      keys.length === 0 ? (
        <p>
          Nenhuma chave cadastrada ainda.
          {canManage ? ' Cadastre acima a chave da conta onde você recebe.' : ''}
        </p>
      ) : (
        <KeyList accountId={workspace.accountId} keys={keys} canManage={canManage} keyExtra={keyExtra} />
      );
  } else if (isLoading) {
    list = <PageStatus>Carregando as chaves…</PageStatus>;
  } else if (apiError !== undefined && isNotFound(apiError)) {
    list = <FormAlert>{WORKSPACE_NOT_FOUND}</FormAlert>;
  } else {
    list = (
      <FormAlert>
        Não foi possível carregar as chaves. {apiError === undefined ? null : errorMessage(apiError)}
      </FormAlert>
    );
  }

  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Chaves Pix</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Chaves Pix
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="lead">As chaves Pix da conta onde você recebe, para criar QR codes sem digitá-las de novo.</p>
      {canManage ? (
        <section aria-labelledby="titulo-cadastrar">
          <h2 id="titulo-cadastrar">Cadastrar chave Pix</h2>
          <RegisterKeyForm accountId={workspace.accountId} isFirst={keys !== undefined && keys.length === 0} />
        </section>
      ) : (
        <p className="hint">Como operador, você vê as chaves desta conta; o titular e os gerentes as cadastram.</p>
      )}
      <section aria-labelledby="titulo-chaves">
        <h2 id="titulo-chaves">Chaves cadastradas</h2>
        {list}
      </section>
    </section>
  );
}
