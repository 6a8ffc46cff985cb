import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { type ApiError, asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useClaimSignMutation } from '../api/claim-sign';

export const INCOMPLETE_LINK =
  'Este link está incompleto. Volte à página da sua placa e toque de novo em “Salvar na minha conta”.';
export const NOT_FOUND =
  'Não encontramos esta placa, ou o link de gestão não é o dela. Abra de novo o link de gestão que você guardou.';
export const ALREADY_CLAIMED = 'Esta placa já foi salva em uma conta. Se foi na sua, ela está na lista de QR codes.';

type Progress = { state: 'saving' } | { state: 'saved' } | { state: 'failed'; error: ApiError };

/**
 * "Salvar na minha conta" (`/painel/salvar-placa?placa=…&chave=…`), reached from a visitor's sign
 * page; a signed-out visitor signs in or up first and comes back here. Claims the sign for the
 * person's own account as soon as the page opens.
 */
export interface ClaimSignProps {
  qrCodeId: string | null;
  token: string | null;
  /** The person's own account, once the list of accounts has arrived. */
  ownAccountId: string | undefined;
  /** After the claim: the dashboard switches to that account. */
  onSaved: (accountId: string) => void;
}

export function ClaimSign({ qrCodeId, token, ownAccountId, onSaved }: ClaimSignProps) {
  const [claim] = useClaimSignMutation();
  const [progress, setProgress] = useState<Progress>({ state: 'saving' });

  // A claim is made once: StrictMode's second run (and re-renders) must not send it again.
  const requested = useRef(false);
  useEffect(() => {
    if (!qrCodeId || !token || ownAccountId === undefined || requested.current) return;
    requested.current = true;
    claim({ accountId: ownAccountId, qrCodeId, token })
      .unwrap()
      .then(
        () => {
          onSaved(ownAccountId);
          setProgress({ state: 'saved' });
        },
        (caught: unknown) => setProgress({ state: 'failed', error: asApiError(caught) }),
      );
  }, [qrCodeId, token, ownAccountId, claim, onSaved]);

  let body;
  if (!qrCodeId || !token) {
    body = <FormAlert>{INCOMPLETE_LINK}</FormAlert>;
  } else if (progress.state === 'failed') {
    const message =
      progress.error.status === 404
        ? NOT_FOUND
        : progress.error.code === 'qrcode-already-claimed'
          ? ALREADY_CLAIMED
          : errorMessage(progress.error);
    body = (
      <>
        <FormAlert>{message}</FormAlert>
        <p>
          <Link to={paths.panel.qrCodes}>Ir para os QR codes</Link>
        </p>
      </>
    );
  } else if (progress.state === 'saving') {
    body = <PageStatus>Salvando a placa na sua conta…</PageStatus>;
  } else {
    body = (
      <div role="status">
        <p>Pronto! A placa agora está na sua conta, com os seus QR codes.</p>
        <p className="actions">
          <Link className="button" to={paths.panel.qrCodes}>
            Ver meus QR codes
          </Link>
          <a href={paths.server.paymentSign(qrCodeId)}>Imprimir a placa</a>
        </p>
      </div>
    );
  }

  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Salvar placa</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Salvar placa na minha conta
      </h1>
      {body}
    </section>
  );
}
