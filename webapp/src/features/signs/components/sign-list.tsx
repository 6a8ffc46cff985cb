import { useState } from 'react';

import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import { type SavedSign, useDeleteSignMutation, useDuplicateSignMutation, useListSignsQuery } from '../api/signs';
import { sizeLabel, templateLabel, themeLabel } from '../utils/sign-options';
import { type SignCodeChoice, SignForm } from './sign-form';

export const LIST_FORBIDDEN = 'Seu papel nesta conta não permite ver as placas.';

interface SignItemProps {
  accountId: string;
  sign: SavedSign;
  codes: readonly SignCodeChoice[];
  /** Says what just happened, above the list. */
  onDone: (message: string) => void;
}

function SignItem({ accountId, sign, codes, onDone }: SignItemProps) {
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  const [duplicate, duplicating] = useDuplicateSignMutation();
  const [remove, removing] = useDeleteSignMutation();
  const error = duplicating.error ?? removing.error;
  const code = sign.code;
  const amount = code === null || code.amountCentavos === null ? 'valor livre' : formatCentavos(code.amountCentavos);

  if (editing) {
    return (
      <li className="card saved-sign" aria-label={sign.name}>
        <h3>Alterar “{sign.name}”</h3>
        <SignForm
          accountId={accountId}
          codes={codes}
          sign={sign}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            onDone(`Placa “${saved.name}” alterada. Os arquivos já saem com as novas escolhas.`);
          }}
        />
      </li>
    );
  }
  return (
    <li className="card saved-sign" aria-label={sign.name}>
      <div className="saved-sign-body">
        <img className="saved-sign-thumb" src={sign.files.svg} alt="" loading="lazy" width={96} />
        <div>
          <h3>{sign.name}</h3>
          <dl className="facts">
            <dt>QR code</dt>
            <dd>
              {code === null ? 'Carregando…' : `${code.merchantName} · ${amount}`}
              {code?.archived ? ' (arquivado)' : null}
            </dd>
            <dt>Modelo</dt>
            <dd>{templateLabel(sign.template)}</dd>
            <dt>Papel</dt>
            <dd>{sizeLabel(sign.size)}</dd>
            <dt>Cores</dt>
            <dd>{themeLabel(sign.theme)}</dd>
            <dt>Título</dt>
            <dd>{sign.headline ?? 'Pague com Pix'}</dd>
            {sign.footer ? (
              <>
                <dt>Rodapé</dt>
                <dd>{sign.footer}</dd>
              </>
            ) : null}
            <dt>Logotipo</dt>
            <dd>{sign.withLogo ? 'Sim, quando a conta tem logotipo e Premium' : 'Não'}</dd>
            <dt>Alterada em</dt>
            <dd>{formatDateTime(sign.updatedAt)}</dd>
          </dl>
        </div>
      </div>
      <p className="actions downloads">
        <a href={sign.files.pdf} download>
          Baixar PDF<span className="visually-hidden"> de {sign.name}</span>
        </a>
        <a href={sign.files.png} download>
          Baixar PNG (300 dpi)<span className="visually-hidden"> de {sign.name}</span>
        </a>
        <a href={sign.files.svg} download>
          Baixar SVG<span className="visually-hidden"> de {sign.name}</span>
        </a>
      </p>
      {error ? <FormAlert>{errorMessage(asApiError(error))}</FormAlert> : null}
      {asking ? (
        <ConfirmBox
          confirmLabel="Sim, excluir a placa"
          busyLabel="Excluindo…"
          busy={removing.isLoading}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            void remove({ accountId, signId: sign.id })
              .unwrap()
              .then(
                () => onDone(`Placa “${sign.name}” excluída. O QR code dela continua funcionando.`),
                () => setAsking(false),
              );
          }}
        >
          A placa “{sign.name}” sai da lista. O QR code e os pagamentos dele não mudam; placas já impressas continuam
          funcionando.
        </ConfirmBox>
      ) : (
        <p className="actions">
          <button type="button" className="button secondary" onClick={() => setEditing(true)}>
            Editar<span className="visually-hidden"> {sign.name}</span>
          </button>
          <button
            type="button"
            className="button secondary"
            disabled={duplicating.isLoading}
            onClick={() => {
              void duplicate({ accountId, signId: sign.id })
                .unwrap()
                .then(
                  (copy) => onDone(`Cópia criada: “${copy.name}”. Altere o que quiser nela.`),
                  () => undefined,
                );
            }}
          >
            {duplicating.isLoading ? 'Duplicando…' : 'Duplicar'}
            <span className="visually-hidden"> {sign.name}</span>
          </button>
          <button type="button" className="button secondary" onClick={() => setAsking(true)}>
            Excluir<span className="visually-hidden"> {sign.name}</span>
          </button>
        </p>
      )}
    </li>
  );
}

/** The account's saved signs, newest first: downloads, edit, duplicate and delete (confirmed). */
export function SignList({ accountId, codes }: { accountId: string; codes: readonly SignCodeChoice[] }) {
  const { data: signs, error, isLoading } = useListSignsQuery(accountId);
  const [message, setMessage] = useState<string | null>(null);

  if (signs === undefined) {
    if (isLoading) return <PageStatus>Carregando as placas…</PageStatus>;
    const apiError = error === undefined ? undefined : asApiError(error);
    if (apiError !== undefined && isForbidden(apiError)) return <p className="notice">{LIST_FORBIDDEN}</p>;
    if (apiError !== undefined && isNotFound(apiError)) return <FormAlert>{WORKSPACE_NOT_FOUND}</FormAlert>;
    return (
      <FormAlert>
        Não foi possível carregar as placas. {apiError === undefined ? null : errorMessage(apiError)}
      </FormAlert>
    );
  }
  return (
    <>
      <p role="status" className={message === null ? 'visually-hidden' : 'notice success'}>
        {message}
      </p>
      {signs.length === 0 ? (
        <p>Nenhuma placa salva ainda. Crie a primeira no formulário acima.</p>
      ) : (
        <ul className="saved-signs">
          {signs.map((sign) => (
            <SignItem key={sign.id} accountId={accountId} sign={sign} codes={codes} onDone={setMessage} />
          ))}
        </ul>
      )}
    </>
  );
}
