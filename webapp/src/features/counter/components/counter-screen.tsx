import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { BreakableText } from '@/components/breakable-text';
import { FormAlert } from '@/components/form-alert';
import { displayKey, kindOfKey } from '@/components/key-choice-name';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import type { LiveState } from '@/hooks/use-live-payments';
import { asApiError } from '@/lib/api-error';
import { errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatCentavos } from '@/utils/money';

import type { CounterPayment as Payment, CounterCode } from '../api/counter';
import { useCounterPaymentsQuery, useGetQrCodeQuery } from '../api/counter';
import {
  announcement,
  clockTime,
  firstDay,
  howLongAgo,
  inWindow,
  isHighlighted,
  newestFirst,
  noteArrivals,
  shortName,
  windowStart,
} from '../utils/counter-view';
import './counter.css';

/** How often the times ("há 3 min"), the window and the highlight are brought up to date. */
const TICK_MS = 5_000;

export const CODE_FORBIDDEN = 'Seu papel nesta conta não permite acompanhar este QR code.';
export const CODE_NOT_FOUND = 'Este QR code não existe nesta conta.';

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

function ConnectionLine({ live, awake }: { live: LiveState; awake: boolean }) {
  const dropped = live === 'retrying' || live === 'off';
  return (
    <p className={`counter-connection ${dropped ? 'dropped' : ''}`} role={dropped ? 'alert' : undefined}>
      <span className={`counter-dot ${live}`} aria-hidden="true" />
      {live === 'live'
        ? 'Ao vivo: cada pagamento aparece aqui na hora.'
        : live === 'retrying'
          ? 'Conexão perdida. Tentando reconectar… Pagamentos que chegarem agora aparecem quando voltar.'
          : live === 'off'
            ? 'Sem atualização ao vivo. Recarregue a página para ver pagamentos novos.'
            : 'Conectando para receber pagamentos ao vivo…'}
      {awake ? <span className="counter-awake"> · Tela sempre acesa</span> : null}
    </p>
  );
}

function CodeSummary({ qrcode }: { qrcode: CounterCode }) {
  const archived = qrcode.archivedAt !== undefined && qrcode.archivedAt !== null;
  return (
    <dl className="counter-code">
      <div>
        <dt>QR code</dt>
        <dd>{qrcode.description ?? qrcode.merchantName}</dd>
      </div>
      <div>
        <dt>Valor</dt>
        <dd>{qrcode.amountCentavos === null ? 'Quem paga digita' : formatCentavos(qrcode.amountCentavos)}</dd>
      </div>
      <div>
        <dt>Chave Pix</dt>
        <dd className="key">
          <BreakableText text={displayKey(kindOfKey(qrcode.pixKey), qrcode.pixKey)} />
        </dd>
      </div>
      {archived ? (
        <div>
          <dt>Situação</dt>
          <dd>Arquivado: a página de pagamento não mostra mais o QR code.</dd>
        </div>
      ) : null}
    </dl>
  );
}

function PaymentCard({ payment, now, fresh }: { payment: Payment; now: number; fresh: boolean }) {
  const amount = formatCentavos(payment.amountCentavos);
  const voided = payment.status === 'voided';
  const status = voided ? 'Anulado' : 'Recebido';
  const name = shortName(payment.payer?.name);
  const when = `${howLongAgo(payment.paidAt, now)} · ${clockTime(payment.paidAt)}`;
  return (
    <li
      className={['counter-payment', fresh ? 'fresh' : null, voided ? 'voided' : null].filter(Boolean).join(' ')}
      aria-label={[amount, status.toLowerCase(), when, name].filter(Boolean).join(', ')}
    >
      {fresh ? <p className="counter-fresh">Acabou de chegar</p> : null}
      <p className="counter-amount">{amount}</p>
      <p className="counter-meta">
        <span className={`counter-status ${voided ? 'voided' : 'received'}`}>{status}</span>
        <span className="counter-when">{when}</span>
      </p>
      {name === null ? null : <p className="counter-payer">{name}</p>}
      {payment.refundedCentavos > 0 ? (
        <p className="counter-refund">Devolvido {formatCentavos(payment.refundedCentavos)}</p>
      ) : null}
    </li>
  );
}

function PaymentList({ accountId, qrcodeId }: { accountId: string; qrcodeId: string }) {
  const [openedAt] = useState(() => Date.now());
  const now = useNow(TICK_MS);
  const start = windowStart(openedAt, now);
  const { data, error, isLoading, refetch } = useCounterPaymentsQuery({
    accountId,
    qrcodeId,
    from: firstDay(start),
  });
  const [seen, setSeen] = useState<ReadonlyMap<string, number | null>>(() => new Map());
  const seenSoFar = useRef(seen);
  const answered = useRef(false);
  const [said, setSaid] = useState('');

  // Each answer: what was not on screen before arrived just now (except on the first answer).
  useEffect(() => {
    if (data === undefined) return;
    const firstAnswer = !answered.current;
    answered.current = true;
    const before = seenSoFar.current;
    const after = noteArrivals(before, data.payments, Date.now(), firstAnswer);
    if (after === before) return;
    seenSoFar.current = after;
    setSeen(after);
    const newest = newestFirst(data.payments.filter((payment) => !before.has(payment.reference)))[0];
    if (!firstAnswer && newest !== undefined) setSaid(announcement(newest));
  }, [data]);

  const shown = data === undefined ? [] : inWindow(data.payments, start);
  return (
    <>
      <p className="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      {data === undefined ? (
        isLoading || error === undefined ? (
          <PageStatus>Carregando os pagamentos…</PageStatus>
        ) : (
          <>
            <FormAlert>
              {isForbidden(asApiError(error))
                ? 'Seu papel nesta conta não permite ver os pagamentos deste QR code.'
                : `Não foi possível carregar os pagamentos. ${errorMessage(asApiError(error))}`}
            </FormAlert>
            <button type="button" className="button" onClick={() => void refetch()}>
              Tentar de novo
            </button>
          </>
        )
      ) : shown.length === 0 ? (
        <div className="counter-empty">
          <p className="counter-waiting">Aguardando pagamentos neste QR code…</p>
          <p className="hint">Quando um Pix chegar, o valor aparece aqui em letras grandes.</p>
        </div>
      ) : (
        <ol className="counter-payments" aria-label="Pagamentos recebidos, do mais novo ao mais antigo">
          {shown.map((payment) => (
            <PaymentCard
              key={payment.reference}
              payment={payment}
              now={now}
              fresh={isHighlighted(seen.get(payment.reference), now)}
            />
          ))}
        </ol>
      )}
    </>
  );
}

export interface CounterScreenProps {
  workspace: CurrentWorkspace;
  qrcodeId: string;
  /** Whether the live stream is listening. */
  live: LiveState;
  /** Whether the screen is being kept on. */
  awake: boolean;
}

/**
 * /painel/qrcodes/{id}/balcao, "Modo balcão": what arrived at one code lately, newest first, in
 * type large enough to read from behind the counter; live, and announced as it arrives.
 */
export function CounterScreen({ workspace, qrcodeId, live, awake }: CounterScreenProps) {
  const { data: qrcode, error } = useGetQrCodeQuery({ accountId: workspace.accountId, id: qrcodeId });
  const apiError = error === undefined ? undefined : asApiError(error);
  return (
    <section aria-labelledby="titulo-tela" className="counter">
      <PageTitle>Modo balcão</PageTitle>
      <p className="counter-back">
        <Link to={paths.panel.qrCodes}>← Voltar aos QR codes</Link>
      </p>
      <h1 id="titulo-tela" tabIndex={-1}>
        Modo balcão
      </h1>
      <WorkspaceLine workspace={workspace} />
      {apiError !== undefined ? (
        <FormAlert>
          {isForbidden(apiError) ? CODE_FORBIDDEN : isNotFound(apiError) ? CODE_NOT_FOUND : errorMessage(apiError)}
        </FormAlert>
      ) : (
        <>
          {qrcode === undefined ? <PageStatus>Carregando o QR code…</PageStatus> : <CodeSummary qrcode={qrcode} />}
          <ConnectionLine live={live} awake={awake} />
          <p className="hint counter-window">
            Mostra os pagamentos deste QR code dos últimos 30 minutos e todos os que chegarem enquanto esta tela estiver
            aberta, do mais novo ao mais antigo.
            {workspace.role === 'operator' ? ' O nome de quem pagou aparece só para o titular e gerentes.' : null}
          </p>
          <PaymentList accountId={workspace.accountId} qrcodeId={qrcodeId} />
        </>
      )}
    </section>
  );
}
