import { type ChangeEvent, useEffect, useId, useState } from 'react';

import { paths } from '@/config/paths';
import { useAppSelector } from '@/hooks/store-hooks';
import { type ApiError, asApiError } from '@/lib/api-error';
import { selectAccessToken } from '@/lib/credentials';
import { errorMessage } from '@/lib/error-messages';

import { SignLogoFailure, deleteSignLogo, fetchSignLogo, uploadSignLogo } from '../api/sign-logo';
import { LOGO_TYPES, checkLogo } from '../utils/logo-rules';

const apiErrorOf = (caught: unknown): ApiError =>
  caught instanceof SignLogoFailure ? caught.apiError : asApiError(caught);

/** What to say about a failed call: the storage catalogue's own message (5xx included) when it sent one. */
function messageOf(error: ApiError): string {
  if (error.code.startsWith('storage-') && error.serverMessage) return error.serverMessage;
  return errorMessage(error);
}

/**
 * "Logotipo nas placas": the account's logo, printed on its signs (Premium). The file is checked
 * here first (type and size, the server's own limits), then sent with its progress shown.
 */
export function SignLogoSection({ accountId }: { accountId: string }) {
  const token = useAppSelector(selectAccessToken);
  const [logoUrl, setLogoUrl] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<{ message: string; upgrade: boolean } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;

  // Bumped after an upload or a removal, so the preview is read again.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);

  useEffect(() => {
    if (token === null) return;
    let live = true;
    fetchSignLogo(accountId, token).then(
      (next) => {
        if (live) setLogoUrl(next);
      },
      (caught: unknown) => {
        if (live) setProblem({ message: messageOf(apiErrorOf(caught)), upgrade: false });
      },
    );
    return () => {
      live = false;
    };
  }, [accountId, token, version]);

  const fail = (caught: unknown) => {
    const error = apiErrorOf(caught);
    setProblem({ message: messageOf(error), upgrade: error.code === 'plan-limit-reached' });
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    setNotice(null);
    if (file === undefined || token === null) return;
    const found = checkLogo(file);
    setProblem(found === null ? null : { message: found, upgrade: false });
    if (found === null) {
      setProgress(0);
      try {
        await uploadSignLogo(accountId, token, file, setProgress);
        setNotice('Logotipo salvo. Ele já aparece nas placas em PDF, PNG e SVG dos QR codes desta conta.');
        reload();
      } catch (caught) {
        fail(caught);
      } finally {
        setProgress(null);
      }
    }
    // The same file can be chosen again after fixing whatever went wrong.
    input.value = '';
  };

  const remove = async () => {
    if (token === null) return;
    setNotice(null);
    setProblem(null);
    try {
      await deleteSignLogo(accountId, token);
      setNotice('Logotipo removido. As placas voltam a sair sem ele.');
      reload();
    } catch (caught) {
      fail(caught);
    }
  };

  const sending = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <section aria-labelledby={`${id}-titulo`} className="sign-logo">
      <h2 id={`${id}-titulo`}>Logotipo nas placas</h2>
      <p>
        O logotipo da sua loja sai no alto das placas Pix (PDF, PNG e SVG), sem cobrir o QR code. Recurso do{' '}
        <a href={paths.panel.premium}>Premium</a>.
      </p>
      <div className="photo">
        {logoUrl !== null ? (
          <img className="sign-logo-preview" src={logoUrl} alt="Logotipo atual das placas" />
        ) : (
          <p className="sign-logo-preview empty">Sem logotipo</p>
        )}
        <div className={problem ? 'field invalid' : 'field'}>
          <label htmlFor={id}>{logoUrl !== null ? 'Trocar o logotipo' : 'Escolher o logotipo'}</label>
          <input
            id={id}
            type="file"
            accept={[...LOGO_TYPES, '.png', '.jpg', '.jpeg', '.svg'].join(',')}
            disabled={sending}
            aria-invalid={problem ? true : undefined}
            aria-describedby={[hintId, problem ? errorId : null].filter(Boolean).join(' ')}
            onChange={(event) => void choose(event)}
          />
          <p id={hintId} className="hint">
            PNG, JPEG ou SVG, até 2 MB. Prefira fundo transparente.
          </p>
          {sending ? (
            <div role="status" className="upload-progress">
              <progress max={100} value={percent} aria-label="Envio do logotipo" />
              <span>Enviando o logotipo… {percent}%</span>
            </div>
          ) : null}
          {problem ? (
            <p id={errorId} className="field-error" role="alert">
              {problem.message}
              {problem.upgrade ? (
                <>
                  {' '}
                  <a href={paths.panel.premium}>Conhecer o Premium</a>
                </>
              ) : null}
            </p>
          ) : null}
          {notice ? (
            <p className="notice" role="status">
              {notice}
            </p>
          ) : null}
          {logoUrl !== null && !sending ? (
            <button type="button" className="button secondary" onClick={() => void remove()}>
              Remover logotipo
            </button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
