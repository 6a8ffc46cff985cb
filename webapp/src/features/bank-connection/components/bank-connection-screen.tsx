import { useState } from 'react';
import { Link } from 'react-router';

import { BreakableText } from '@/components/breakable-text';
import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { asApiError } from '@/lib/api-error';
import { isForbidden, isNotFound } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';

import {
  useKeyBankConnectionQuery,
  useDisconnectBankMutation,
  useRegisterBankWebhookMutation,
  useTestBankConnectionMutation,
} from '../api/bank-connections';
import { ChargeForm } from './charge-form';
import { ConnectBankForm } from './connect-bank-form';
import { ConnectionStatus } from './connection-status';
import { DueDateChargeForm } from './due-date-charge-form';
import { MANAGE_FORBIDDEN, bankFailureMessage } from './failure-message';

/** /painel/chaves/{keyId}/banco: connect the key's bank, test it, register the webhook again, disconnect. */
export function BankConnectionScreen({ workspace, keyId }: { workspace: CurrentWorkspace; keyId: string }) {
  const { accountId } = workspace;
  const page = useKeyBankConnectionQuery({ accountId, keyId });
  const [now] = useState(() => Date.now());
  const [test, { isLoading: testing }] = useTestBankConnectionMutation();
  const [register, { isLoading: registering }] = useRegisterBankWebhookMutation();
  const [disconnect, { isLoading: disconnecting }] = useDisconnectBankMutation();
  const [replacing, setReplacing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [chargeKind, setChargeKind] = useState<'now' | 'due'>('now');
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const canManage = workspace.role !== 'operator';

  const connection = page.data?.connection ?? undefined;
  const shownKey = page.data?.pixKey ?? '';

  const act = async (what: () => Promise<unknown>, done: string) => {
    setNotice(null);
    setFailure(null);
    try {
      await what();
      setNotice(done);
    } catch (caught) {
      setFailure(bankFailureMessage(asApiError(caught)));
    }
  };

  let body;
  const loadError = page.error === undefined ? undefined : asApiError(page.error);
  if (page.isLoading) {
    body = <PageStatus>Carregando…</PageStatus>;
  } else if (!canManage || (loadError !== undefined && isForbidden(loadError))) {
    body = <p>{MANAGE_FORBIDDEN}</p>;
  } else if (loadError !== undefined && isNotFound(loadError)) {
    body = <FormAlert>Esta chave não está cadastrada nesta conta (ou foi removida).</FormAlert>;
  } else if (page.data === undefined) {
    body = (
      <FormAlert>
        Não foi possível carregar a conexão. {loadError === undefined ? null : bankFailureMessage(loadError)}
      </FormAlert>
    );
  } else if (connection === undefined || replacing) {
    body = (
      <ConnectBankForm
        accountId={accountId}
        keyId={keyId}
        banks={page.data.banks}
        current={connection}
        onConnected={(connected) => {
          setReplacing(false);
          setFailure(null);
          setNotice(
            connected.webhook.state === 'registered'
              ? `Conectado ao ${connected.bankName}. Os Pix recebidos na chave ${shownKey} agora chegam ao Balcão sozinhos.`
              : `Conectado ao ${connected.bankName}, mas o aviso de pagamentos não foi registrado: veja abaixo e tente de novo.`,
          );
        }}
        onCancel={connection ? () => setReplacing(false) : undefined}
      />
    );
  } else {
    body = (
      <>
        {/* What a connected key is used for day to day comes first; the connection's details after. */}
        <h2>Criar cobrança</h2>
        <div className="segmented" role="group" aria-label="Tipo de cobrança">
          <button type="button" aria-pressed={chargeKind === 'now'} onClick={() => setChargeKind('now')}>
            Venda agora
          </button>
          <button type="button" aria-pressed={chargeKind === 'due'} onClick={() => setChargeKind('due')}>
            Fatura com vencimento
          </button>
        </div>
        {chargeKind === 'now' ? (
          <ChargeForm accountId={accountId} keyId={keyId} defaultCity={workspace.defaultMerchantCity ?? ''} />
        ) : (
          <DueDateChargeForm accountId={accountId} keyId={keyId} defaultCity={workspace.defaultMerchantCity ?? ''} />
        )}
        <h2>Conexão com o banco</h2>
        <ConnectionStatus connection={connection} now={now} />
        <p className="actions">
          <button
            type="button"
            className="button secondary"
            disabled={testing}
            onClick={() =>
              void act(() => test({ accountId, keyId }).unwrap(), 'Teste feito: veja o resultado em “Último teste”.')
            }
          >
            {testing ? 'Testando…' : 'Testar conexão'}
          </button>
          {connection.webhook.state !== 'registered' ? (
            <button
              type="button"
              className="button"
              disabled={registering}
              onClick={() =>
                void act(
                  () => register({ accountId, keyId }).unwrap(),
                  'Pedido enviado ao banco: veja o resultado em “Aviso de pagamentos”.',
                )
              }
            >
              {registering ? 'Registrando…' : 'Registrar o aviso de pagamentos'}
            </button>
          ) : null}
          <button type="button" className="button secondary" onClick={() => setReplacing(true)}>
            Trocar credenciais ou certificado
          </button>
          <button type="button" className="button secondary" onClick={() => setConfirming(true)}>
            Desconectar
          </button>
        </p>
      </>
    );
  }

  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Conectar banco</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Conectar banco
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="lead">
        {shownKey ? (
          <>
            Chave <BreakableText text={shownKey} />:{' '}
          </>
        ) : null}
        o Balcão fala com a API Pix do seu banco por você, registra o aviso de pagamentos e confere a conexão. Os Pix
        desta chave aparecem nas transações sem você copiar nada.
      </p>
      {notice ? (
        <FormOutcome as="p" key={notice}>
          {notice}
        </FormOutcome>
      ) : null}
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {body}
      <p>
        <Link to="/painel/chaves">Voltar às chaves</Link>
      </p>
      {confirming ? (
        <ConfirmBox
          confirmLabel="Sim, desconectar"
          busyLabel="Desconectando…"
          busy={disconnecting}
          onConfirm={() =>
            void act(
              () => disconnect({ accountId, keyId }).unwrap(),
              'Banco desconectado. As credenciais e o certificado foram apagados do Balcão.',
            ).then(() => setConfirming(false))
          }
          onCancel={() => setConfirming(false)}
        >
          <p>
            Desconectar o banco da chave {shownKey}? O Balcão pede ao banco que pare de avisar os pagamentos e apaga as
            credenciais e o certificado. Os pagamentos já recebidos continuam nas transações.
          </p>
        </ConfirmBox>
      ) : null}
    </section>
  );
}
