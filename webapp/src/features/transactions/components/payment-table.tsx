import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { formatCentavos } from '@/utils/money';

import { type Payment, type PaymentFilters, useSearchPaymentsQuery } from '../api/payments';
import { codeLabel, sourceLabel, statusLabel } from '../utils/labels';
import { saoPauloDateTime } from '../utils/periods';

export const LIST_FORBIDDEN = 'Seu papel nesta conta não permite ver as transações.';

interface PageProps {
  accountId: string;
  filters: PaymentFilters;
  after: string | null;
  isFirst: boolean;
  isLast: boolean;
  selected: string | null;
  onMore: (cursor: string) => void;
  onOpen: (payment: Payment) => void;
}

/** One keyset page: its rows, and "Carregar mais" on the last page that has a next one. */
function PaymentRows({ accountId, filters, after, isFirst, isLast, selected, onMore, onOpen }: PageProps) {
  const { data, error, isLoading } = useSearchPaymentsQuery({ accountId, filters, after });
  if (data === undefined) {
    if (isLoading) {
      return (
        <tr>
          <td colSpan={6}>
            <PageStatus>Carregando as transações…</PageStatus>
          </td>
        </tr>
      );
    }
    const apiError = error === undefined ? undefined : asApiError(error);
    const message =
      apiError === undefined
        ? 'Não foi possível carregar as transações.'
        : isForbidden(apiError)
          ? LIST_FORBIDDEN
          : isNotFound(apiError)
            ? WORKSPACE_NOT_FOUND
            : `Não foi possível carregar as transações. ${errorMessage(apiError)}`;
    return (
      <tr>
        <td colSpan={6}>
          <FormAlert>{message}</FormAlert>
        </td>
      </tr>
    );
  }
  if (isFirst && data.payments.length === 0) {
    return (
      <tr>
        <td colSpan={6}>Nenhuma transação encontrada com estes filtros.</td>
      </tr>
    );
  }
  const next = data.next;
  return (
    <>
      {data.payments.map((payment) => {
        const amount = formatCentavos(payment.amountCentavos);
        const when = saoPauloDateTime(payment.paidAt);
        return (
          <tr
            key={payment.reference}
            className={[
              payment.status === 'voided' ? 'voided' : null,
              selected === payment.reference ? 'selected' : null,
            ]
              .filter(Boolean)
              .join(' ')}
          >
            <td data-label="Data">{when}</td>
            <td data-label="Valor" className="amount">
              {amount}
            </td>
            <td data-label="QR code">{codeLabel(payment)}</td>
            <td data-label="Origem">{sourceLabel(payment.source)}</td>
            <td data-label="Situação">{statusLabel(payment)}</td>
            <td className="row-action">
              <button
                type="button"
                className="button secondary small"
                aria-label={`Detalhes do pagamento de ${amount} em ${when}`}
                onClick={() => onOpen(payment)}
              >
                Detalhes
              </button>
            </td>
          </tr>
        );
      })}
      {isLast && next !== null ? (
        <tr className="more">
          <td colSpan={6}>
            <button type="button" className="button secondary" onClick={() => onMore(next)}>
              Carregar mais
            </button>
          </td>
        </tr>
      ) : null}
    </>
  );
}

export interface PaymentTableProps {
  accountId: string;
  filters: PaymentFilters;
  /** The cursors of the pages shown: `null` first, then each "Carregar mais". */
  cursors: (string | null)[];
  onMore: (cursor: string) => void;
  selected: string | null;
  onOpen: (payment: Payment) => void;
}

/** The filtered payments, newest first, a page of 50 at a time. */
export function PaymentTable({ accountId, filters, cursors, onMore, selected, onOpen }: PaymentTableProps) {
  return (
    <table className="data-table payments-table">
      <caption className="visually-hidden">Transações encontradas</caption>
      <thead>
        <tr>
          <th scope="col">Data</th>
          <th scope="col">Valor</th>
          <th scope="col">QR code</th>
          <th scope="col">Origem</th>
          <th scope="col">Situação</th>
          <th scope="col">
            <span className="visually-hidden">Ações</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {cursors.map((after, index) => (
          <PaymentRows
            key={after ?? 'primeira'}
            accountId={accountId}
            filters={filters}
            after={after}
            isFirst={index === 0}
            isLast={index === cursors.length - 1}
            selected={selected}
            onMore={onMore}
            onOpen={onOpen}
          />
        ))}
      </tbody>
    </table>
  );
}
