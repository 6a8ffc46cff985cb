import { memo, useState } from 'react';
import { Link } from 'react-router';

import { BreakableText } from '@/components/breakable-text';
import { FormAlert } from '@/components/form-alert';
import { keyChoiceName } from '@/components/key-choice-name';
import { PageStatus } from '@/components/page-status';
import { paths } from '@/config/paths';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import type { KeyChoice } from '@/types/pix-key';
import { formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import type { QrCode } from '../api/list-qrcodes';
import { type QrCodeFilters, useChangeQrCodeMutation, useSearchQrCodesQuery } from '../api/manage-qrcodes';

export const LIST_FORBIDDEN = 'Seu papel nesta conta não permite ver os QR codes.';

type Archived = QrCodeFilters['archived'];

/** How a charge the bank made stands: paid, still payable until when, or expired. */
function chargeState(paidAt: string | null, ends: string): string {
  if (paidAt !== null) return `Paga em ${formatDateTime(paidAt)}`;
  if (Date.parse(ends) <= Date.now()) return `Expirou em ${formatDateTime(ends)}, sem pagamento`;
  return `Aguardando o pagamento até ${formatDateTime(ends)}`;
}

/**
 * One code of the list, with its links and what can be done to it. Memoised: the list renders again
 * when the account's keys arrive for the filter, and a code that did not change need not.
 */
const QrCodeItem = memo(function QrCodeItem({ accountId, qrcode }: { accountId: string; qrcode: QrCode }) {
  const [change, { isLoading, error }] = useChangeQrCodeMutation();
  const amount = qrcode.amountCentavos === null ? null : formatCentavos(qrcode.amountCentavos);
  const summary = `${qrcode.merchantName}${amount === null ? '' : `, ${amount}`}`;
  const archived = qrcode.archivedAt !== undefined && qrcode.archivedAt !== null;
  const paidAt = qrcode.paidAt ?? null;
  // A charge the bank made is one sale's, for a while: no sign to print, nothing to duplicate.
  const chargeEnds = qrcode.chargeExpiresAt ?? null;
  const act = (action: 'arquivar' | 'desarquivar' | 'duplicar') => {
    void change({ accountId, id: qrcode.id, action });
  };
  return (
    <li className={['card', 'qrcode', archived ? 'archived' : null].filter(Boolean).join(' ')} aria-label={summary}>
      <h2>
        {qrcode.merchantName} <span className="hint">· {qrcode.merchantCity}</span>
      </h2>
      {archived ? <p className="notice">Arquivado: a página de pagamento não mostra mais o QR code.</p> : null}
      <dl className="facts">
        <dt>Valor</dt>
        <dd>{amount ?? 'Quem paga digita'}</dd>
        <dt>Chave Pix</dt>
        <dd className="key">
          <BreakableText text={qrcode.pixKey} />
        </dd>
        {qrcode.description ? (
          <>
            <dt>Descrição</dt>
            <dd>{qrcode.description}</dd>
          </>
        ) : null}
        {qrcode.txid ? (
          <>
            <dt>Txid</dt>
            <dd className="key">{qrcode.txid}</dd>
          </>
        ) : null}
        <dt>Criado em</dt>
        <dd>{formatDateTime(qrcode.createdAt)}</dd>
        {chargeEnds !== null ? (
          <>
            <dt>Cobrança do banco</dt>
            <dd>{chargeState(paidAt, chargeEnds)}</dd>
          </>
        ) : qrcode.singleUse === true ? (
          <>
            <dt>Uso único</dt>
            <dd>{paidAt === null ? 'Aguardando o pagamento' : `Pago em ${formatDateTime(paidAt)}`}</dd>
          </>
        ) : null}
      </dl>
      <p className="actions">
        <Link to={paths.panel.counter(qrcode.id)}>
          Modo balcão<span className="visually-hidden"> de {summary}</span>
        </Link>
        <a href={paths.server.payment(qrcode.id)}>
          Página de pagamento<span className="visually-hidden"> de {summary}</span>
        </a>
        {chargeEnds !== null ? null : (
          <a href={paths.server.paymentSign(qrcode.id)}>
            Placa para imprimir<span className="visually-hidden"> de {summary}</span>
          </a>
        )}
        {archived || chargeEnds !== null ? null : (
          <Link to={`${paths.panel.signs}?qrcode=${encodeURIComponent(qrcode.id)}`}>
            Criar placa<span className="visually-hidden"> de {summary}</span>
          </Link>
        )}
      </p>
      {qrcode.archivedAt === undefined ? null : (
        <p className="actions">
          {chargeEnds !== null ? null : (
            <button type="button" className="button secondary" disabled={isLoading} onClick={() => act('duplicar')}>
              Duplicar<span className="visually-hidden"> {summary}</span>
            </button>
          )}
          {archived ? (
            <button type="button" className="button secondary" disabled={isLoading} onClick={() => act('desarquivar')}>
              Desarquivar<span className="visually-hidden"> {summary}</span>
            </button>
          ) : (
            <button type="button" className="button secondary" disabled={isLoading} onClick={() => act('arquivar')}>
              Arquivar<span className="visually-hidden"> {summary}</span>
            </button>
          )}
        </p>
      )}
      {error === undefined ? null : <FormAlert>{errorMessage(asApiError(error))}</FormAlert>}
    </li>
  );
});

interface PageProps {
  filters: QrCodeFilters;
  isFirst: boolean;
  isLast: boolean;
  onMore: (cursor: string) => void;
}

/** One page of the list (keyset: each page starts after the previous one's last code). */
function QrCodePage({ filters, isFirst, isLast, onMore }: PageProps) {
  const { data, error, isLoading } = useSearchQrCodesQuery(filters);
  if (data === undefined) {
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
  const filtered = filters.search.trim() !== '' || filters.archived !== 'nao' || filters.keyId !== '';
  if (isFirst && data.qrcodes.length === 0) {
    return filtered ? (
      <p>Nenhum QR code encontrado com estes filtros.</p>
    ) : (
      <p>
        Nenhum QR code ainda. <a href={paths.panel.createQrCode}>Crie o primeiro</a>.
      </p>
    );
  }
  // By instant, not as text: RFC 3339 allows any offset.
  const newestFirst = [...data.qrcodes].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const next = data.next ?? null;
  return (
    <>
      <ul className="qrcodes">
        {newestFirst.map((qrcode) => (
          <QrCodeItem key={qrcode.id} accountId={filters.accountId} qrcode={qrcode} />
        ))}
      </ul>
      {isLast && next !== null ? (
        <p>
          <button type="button" className="button secondary" onClick={() => onMore(next)}>
            Carregar mais
          </button>
        </p>
      ) : null}
    </>
  );
}

/** The account's QR codes, newest first: search, filter, archive, bring back, duplicate. */
export function QrCodeList({ accountId, keys }: { accountId: string; keys?: readonly KeyChoice[] }) {
  const [search, setSearch] = useState('');
  const [keyId, setKeyId] = useState('');
  const [archived, setArchived] = useState<Archived>('nao');
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const settledSearch = useDebouncedValue(search, 300);
  const base = { accountId, search: settledSearch, keyId, archived };
  return (
    <>
      <form className="filters" role="search" aria-label="Buscar QR codes" onSubmit={(event) => event.preventDefault()}>
        <label className="inline-field">
          Buscar
          <input
            type="search"
            value={search}
            placeholder="Descrição, txid ou valor (12,50)"
            onChange={(event) => {
              setSearch(event.target.value);
              setCursors([null]);
            }}
          />
        </label>
        {keys !== undefined && keys.length > 0 ? (
          <label className="inline-field">
            Chave
            <select
              value={keyId}
              onChange={(event) => {
                setKeyId(event.target.value);
                setCursors([null]);
              }}
            >
              <option value="">Todas as chaves</option>
              {keys.map((key) => (
                <option key={key.id} value={key.id}>
                  {keyChoiceName(key)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="inline-field">
          Mostrar
          <select
            value={archived}
            onChange={(event) => {
              setArchived(event.target.value as Archived);
              setCursors([null]);
            }}
          >
            <option value="nao">Ativos</option>
            <option value="sim">Arquivados</option>
            <option value="todos">Todos</option>
          </select>
        </label>
      </form>
      {cursors.map((after, index) => (
        <QrCodePage
          key={after ?? 'primeira'}
          filters={{ ...base, after }}
          isFirst={index === 0}
          isLast={index === cursors.length - 1}
          onMore={(cursor) => setCursors((all) => [...all, cursor])}
        />
      ))}
    </>
  );
}
