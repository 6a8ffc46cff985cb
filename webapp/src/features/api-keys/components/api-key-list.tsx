import { useState } from 'react';

import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { formatDate, formatDateTime } from '@/utils/dates';

import { type ApiKey, useListApiKeysQuery, useRevokeApiKeyMutation } from '../api/api-keys';
import { SCOPE_LABELS } from './api-key-form';

export const LIST_FORBIDDEN = 'Seu papel nesta conta não permite ver as chaves de API.';

/** The day a key's expiry falls on: it ends at 00:00 of the next day in Brasília, so one second before. */
function lastDay(expiresAt: string): string {
  return formatDate(new Date(Date.parse(expiresAt) - 1000).toISOString());
}

function status(key: ApiKey, now: number): { label: string; kind: string } {
  if (key.revokedAt !== null) return { label: 'Revogada', kind: 'revoked' };
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return { label: 'Vencida', kind: 'expired' };
  return { label: 'Ativa', kind: 'active' };
}

function KeyItem({ accountId, apiKey, now }: { accountId: string; apiKey: ApiKey; now: number }) {
  const [asking, setAsking] = useState(false);
  const [revoke, { isLoading, error }] = useRevokeApiKeyMutation();
  const { label, kind } = status(apiKey, now);
  return (
    <li className="card api-key" aria-label={apiKey.name}>
      <h3>
        {apiKey.name} <span className={`badge ${kind}`}>{label}</span>
      </h3>
      <dl className="facts">
        <dt>Começa com</dt>
        <dd>
          <code>{apiKey.tokenHint}…</code>
        </dd>
        <dt>Pode</dt>
        <dd>{apiKey.scopes.map((scope) => SCOPE_LABELS[scope]).join('; ')}</dd>
        <dt>Validade</dt>
        <dd>{apiKey.expiresAt === null ? 'Até ser revogada' : `Até ${lastDay(apiKey.expiresAt)}`}</dd>
        <dt>Último uso</dt>
        <dd>{apiKey.lastUsedAt === null ? 'Nunca usada' : formatDateTime(apiKey.lastUsedAt)}</dd>
        <dt>Criada em</dt>
        <dd>{formatDateTime(apiKey.createdAt)}</dd>
        {apiKey.revokedAt === null ? null : (
          <>
            <dt>Revogada em</dt>
            <dd>{formatDateTime(apiKey.revokedAt)}</dd>
          </>
        )}
      </dl>
      {kind === 'active' ? (
        <>
          {error ? <FormAlert>{errorMessage(asApiError(error))}</FormAlert> : null}
          {asking ? (
            <ConfirmBox
              confirmLabel="Sim, revogar a chave"
              busyLabel="Revogando…"
              busy={isLoading}
              onCancel={() => setAsking(false)}
              onConfirm={() => {
                void revoke({ accountId, keyId: apiKey.id })
                  .unwrap()
                  .then(
                    () => setAsking(false),
                    () => undefined,
                  );
              }}
            >
              O sistema que usa esta chave deixa de conseguir falar com o Balcão na mesma hora. Não dá para desfazer.
            </ConfirmBox>
          ) : (
            <p className="actions">
              <button type="button" className="button secondary" onClick={() => setAsking(true)}>
                Revogar<span className="visually-hidden"> a chave {apiKey.name}</span>
              </button>
            </p>
          )}
        </>
      ) : null}
    </li>
  );
}

/** The account's API keys, active first, newest first, each with what it may do and a way to revoke it. */
export function ApiKeyList({ accountId }: { accountId: string }) {
  const { data, error, isLoading, fulfilledTimeStamp } = useListApiKeysQuery(accountId);

  if (data === undefined) {
    if (isLoading) return <PageStatus>Carregando as chaves…</PageStatus>;
    const apiError = error === undefined ? undefined : asApiError(error);
    if (apiError !== undefined && isForbidden(apiError)) return <p className="notice">{LIST_FORBIDDEN}</p>;
    if (apiError !== undefined && isNotFound(apiError)) return <FormAlert>{WORKSPACE_NOT_FOUND}</FormAlert>;
    return (
      <FormAlert>
        Não foi possível carregar as chaves. {apiError === undefined ? null : errorMessage(apiError)}
      </FormAlert>
    );
  }
  if (data.apiKeys.length === 0) return <p>Nenhuma chave de API ainda. Crie a primeira no formulário acima.</p>;
  return (
    <ul className="api-keys">
      {data.apiKeys.map((apiKey) => (
        <KeyItem key={apiKey.id} accountId={accountId} apiKey={apiKey} now={fulfilledTimeStamp ?? 0} />
      ))}
    </ul>
  );
}
