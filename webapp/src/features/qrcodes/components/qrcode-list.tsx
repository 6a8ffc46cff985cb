import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { paths } from '@/config/paths';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import { useListQrCodesQuery } from '../api/list-qrcodes';

export const LIST_FORBIDDEN = 'Seu papel nesta conta não permite ver os QR codes.';

/** The account's QR codes, newest first, each with its payer page and printable sign. */
export function QrCodeList({ accountId }: { accountId: string }) {
  const { data: qrcodes, error, isLoading } = useListQrCodesQuery(accountId);

  if (qrcodes === undefined) {
    if (isLoading) return <PageStatus>Carregando os QR codes…</PageStatus>;
    const apiError = error === undefined ? undefined : asApiError(error);
    if (apiError !== undefined && isForbidden(apiError)) return <p className="notice">{LIST_FORBIDDEN}</p>;
    if (apiError !== undefined && isNotFound(apiError)) return <FormAlert>{WORKSPACE_NOT_FOUND}</FormAlert>;
    return (
      <FormAlert>
        Não foi possível carregar os QR codes. {apiError === undefined ? null : errorMessage(apiError)}
      </FormAlert>
    );
  }

  if (qrcodes.length === 0) return <p>Nenhum QR code ainda. Crie o primeiro no formulário acima.</p>;

  // By instant, not as text: RFC 3339 allows any offset.
  const newestFirst = [...qrcodes].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return (
    <ul className="qrcodes">
      {newestFirst.map((qrcode) => {
        const amount = qrcode.amountCentavos === null ? null : formatCentavos(qrcode.amountCentavos);
        const summary = `${qrcode.merchantName}${amount === null ? '' : `, ${amount}`}`;
        return (
          <li key={qrcode.id} className="card qrcode" aria-label={summary}>
            <h3>
              {qrcode.merchantName} <span className="hint">· {qrcode.merchantCity}</span>
            </h3>
            <dl className="facts">
              <dt>Valor</dt>
              <dd>{amount ?? 'Quem paga digita'}</dd>
              <dt>Chave Pix</dt>
              <dd className="key">{qrcode.pixKey}</dd>
              {qrcode.description ? (
                <>
                  <dt>Descrição</dt>
                  <dd>{qrcode.description}</dd>
                </>
              ) : null}
              <dt>Criado em</dt>
              <dd>{formatDateTime(qrcode.createdAt)}</dd>
            </dl>
            <p className="actions">
              <a href={paths.server.payment(qrcode.id)}>
                Página de pagamento<span className="visually-hidden"> de {summary}</span>
              </a>
              <a href={paths.server.paymentSign(qrcode.id)}>
                Placa para imprimir<span className="visually-hidden"> de {summary}</span>
              </a>
            </p>
          </li>
        );
      })}
    </ul>
  );
}
