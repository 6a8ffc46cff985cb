import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { paths } from '@/config/paths';
import { type ApiError, asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useVerifyEmailMutation } from '../api/verify-email';

export const INCOMPLETE_VERIFICATION_LINK = 'Este link está incompleto. Abra de novo o link que enviamos por e-mail.';

type Progress = { state: 'verifying' } | { state: 'verified' } | { state: 'failed'; error: ApiError };

/**
 * The landing page of the confirmation e-mail: it confirms the address as soon as it opens (the code
 * is only spent by this POST, never by a mail scanner fetching the link).
 */
export function VerifyEmailStatus({ oobCode }: { oobCode: string | null }) {
  const [verify] = useVerifyEmailMutation();
  const [progress, setProgress] = useState<Progress>({ state: 'verifying' });

  // A code works once: StrictMode's second effect run (and any re-render) must not send it again.
  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (!oobCode || requested.current === oobCode) return;
    requested.current = oobCode;
    verify({ oobCode })
      .unwrap()
      .then(
        () => setProgress({ state: 'verified' }),
        (caught: unknown) => setProgress({ state: 'failed', error: asApiError(caught) }),
      );
  }, [oobCode, verify]);

  if (!oobCode) return <FormAlert>{INCOMPLETE_VERIFICATION_LINK}</FormAlert>;

  switch (progress.state) {
    case 'verifying':
      return <PageStatus>Confirmando seu e-mail…</PageStatus>;
    case 'verified':
      return (
        <div role="status">
          <p>E-mail confirmado. Obrigado!</p>
          <p>
            <Link className="button" to={paths.panel.home}>
              Ir para o painel
            </Link>
          </p>
        </div>
      );
    case 'failed':
      return (
        <>
          <FormAlert>{errorMessage(progress.error)}</FormAlert>
          <p>
            {progress.error.code === 'expired-action-code'
              ? 'Se você já confirmou este e-mail antes, não precisa fazer mais nada. '
              : null}
            <Link to={paths.panel.home}>Ir para o painel</Link>
          </p>
        </>
      );
  }
}
