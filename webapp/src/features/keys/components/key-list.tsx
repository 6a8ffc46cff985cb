import { useState } from 'react';
import type { ReactNode } from 'react';
import { z } from 'zod';

import { BreakableText } from '@/components/breakable-text';
import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { KIND_LABELS, displayKey } from '@/components/key-choice-name';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { optionalText, requiredText } from '@/utils/field-rules';

import {
  type PixKey,
  type PixKeyNames,
  useChoosePixKeyDefaultMutation,
  useRemovePixKeyMutation,
  useRenamePixKeyMutation,
} from '../api/keys';
import { HOLDER_TOO_LONG, LABEL_TOO_LONG, MAX_HOLDER_NAME, MAX_LABEL } from './register-key-form';

const length = (value: string | null) => (value === null ? 0 : Array.from(value).length);

const namesSchema = z.object({
  holderName: requiredText().refine((name) => length(name) <= MAX_HOLDER_NAME, HOLDER_TOO_LONG),
  label: optionalText().refine((label) => length(label) <= MAX_LABEL, LABEL_TOO_LONG),
}) satisfies z.ZodType<PixKeyNames>;

function RenameForm({ accountId, pixKey, onDone }: { accountId: string; pixKey: PixKey; onDone: () => void }) {
  const [rename, { isLoading }] = useRenamePixKeyMutation();
  const form = useApiForm({
    schema: namesSchema,
    defaultValues: { holderName: pixKey.holderName ?? '', label: pixKey.label ?? '' },
    send: async (names) => {
      await rename({ accountId, keyId: pixKey.id, names }).unwrap();
      onDone();
      return true;
    },
  });
  return (
    <form {...form.formProps} aria-label={`Renomear a chave ${displayKey(pixKey.kind, pixKey.pixKey)}`}>
      {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
      <TextField label="Nome do titular, como o banco mostra" autoComplete="name" {...form.field('holderName')} />
      <TextField label="Apelido (opcional)" autoComplete="off" {...form.field('label')} />
      <p className="actions">
        <button type="submit" className="button" disabled={isLoading}>
          {isLoading ? 'Salvando…' : 'Salvar'}
        </button>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancelar
        </button>
      </p>
    </form>
  );
}

export interface KeyListProps {
  accountId: string;
  keys: PixKey[];
  /** Owners and managers change keys; an operator only sees them. */
  canManage: boolean;
  /** What the app shows of another feature under a key (its bank connection), if anything. */
  keyExtra?: (keyId: string, shown: string) => ReactNode;
}

/** The account's active keys, the default first; renaming, choosing the default and removing. */
export function KeyList({ accountId, keys, canManage, keyExtra }: KeyListProps) {
  const [chooseDefault, { isLoading: choosing }] = useChoosePixKeyDefaultMutation();
  const [remove, { isLoading: removing }] = useRemovePixKeyMutation();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<PixKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const act = async (what: () => Promise<unknown>, done: string, failed: string) => {
    setNotice(null);
    setFailure(null);
    try {
      await what();
      setNotice(done);
    } catch (caught) {
      setFailure(`${failed} ${errorMessage(asApiError(caught))}`);
    }
  };

  return (
    <>
      {notice ? (
        <FormOutcome as="p" key={notice}>
          {notice}
        </FormOutcome>
      ) : null}
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <ul className="key-list">
        {keys.map((key) => {
          const shown = displayKey(key.kind, key.pixKey);
          return (
            <li key={key.id} className="card key-card">
              <h3>
                {key.label ?? KIND_LABELS[key.kind]}
                {key.isDefault ? <span className="badge">Padrão</span> : null}
              </h3>
              <dl className="facts">
                <dt>{KIND_LABELS[key.kind]}</dt>
                <dd className="pix-key">
                  <BreakableText text={shown} />
                </dd>
                <dt>Titular</dt>
                <dd>{key.holderName ?? '—'}</dd>
              </dl>
              {keyExtra ? keyExtra(key.id, shown) : null}
              {canManage && renaming === key.id ? (
                <RenameForm
                  accountId={accountId}
                  pixKey={key}
                  onDone={() => {
                    setRenaming(null);
                  }}
                />
              ) : null}
              {canManage && renaming !== key.id ? (
                <p className="actions">
                  {key.isDefault ? null : (
                    <button
                      type="button"
                      className="button secondary small"
                      disabled={choosing}
                      aria-label={`Tornar ${shown} a chave padrão`}
                      onClick={() =>
                        void act(
                          () => chooseDefault({ accountId, keyId: key.id }).unwrap(),
                          `${shown} agora é a chave padrão.`,
                          'Não foi possível mudar a chave padrão.',
                        )
                      }
                    >
                      Tornar padrão
                    </button>
                  )}
                  <button
                    type="button"
                    className="button secondary small"
                    aria-label={`Renomear ${shown}`}
                    onClick={() => {
                      setNotice(null);
                      setRenaming(key.id);
                    }}
                  >
                    Renomear
                  </button>
                  <button
                    type="button"
                    className="button secondary small"
                    aria-label={`Remover ${shown}`}
                    onClick={() => {
                      setNotice(null);
                      setFailure(null);
                      setConfirming(key);
                    }}
                  >
                    Remover
                  </button>
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {confirming ? (
        <ConfirmBox
          confirmLabel="Sim, remover a chave"
          busyLabel="Removendo…"
          busy={removing}
          onConfirm={() => {
            const key = confirming;
            void act(
              () => remove({ accountId, keyId: key.id }).unwrap(),
              `Chave ${displayKey(key.kind, key.pixKey)} removida. Os QR codes feitos com ela continuam funcionando.`,
              'Não foi possível remover a chave.',
            ).then(() => setConfirming(null));
          }}
          onCancel={() => setConfirming(null)}
        >
          <p>
            Remover a chave {displayKey(confirming.kind, confirming.pixKey)} desta conta? Ela deixa de aparecer para
            criar QR codes; os QR codes e placas já feitos com ela continuam funcionando.
          </p>
        </ConfirmBox>
      ) : null}
    </>
  );
}
