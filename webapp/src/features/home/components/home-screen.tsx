import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import type { LivePayment, LiveState } from '@/hooks/use-live-payments';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import { type PeriodFigures, type RecentPayment, useGetHomeSummaryQuery } from '../api/home-summary';
import './home.css';

export interface HomeScreenProps {
  workspace: CurrentWorkspace;
  /** Whether the live stream is listening. */
  live: LiveState;
  /** The last payment the stream told of while the screen was open. */
  arrived: LivePayment | null;
  /** The greeting and notices above the figures (composed by the app). */
  header?: ReactNode;
}

const SOURCES: Readonly<Record<RecentPayment['source'], string>> = {
  'api-pix': 'Aviso do banco',
  manual: 'Registrado à mão',
  sandbox: 'Simulado',
  extrato: 'Extrato bancário',
  'api-pix-consulta': 'Conferência no banco',
};

function payments(count: number): string {
  return count === 1 ? '1 pagamento' : `${count} pagamentos`;
}

function Figure({ title, figures }: { title: string; figures: PeriodFigures }) {
  return (
    <li className="card figure" aria-label={`${title}: ${formatCentavos(figures.receivedCentavos)}`}>
      <h3>{title}</h3>
      <p className="figure-amount">{formatCentavos(figures.receivedCentavos)}</p>
      <p className="figure-detail">
        {payments(figures.payments)}
        {figures.payments > 0 ? (
          <>
            {' · ticket médio '}
            {/* One word: "R$" never on a line of its own. */}
            <span className="amount">{formatCentavos(figures.averageTicketCentavos)}</span>
          </>
        ) : null}
      </p>
    </li>
  );
}

/** Where the three figures will be, the same size, while they load: nothing below moves when they come. */
function FiguresLoading() {
  return (
    <>
      <p className="visually-hidden" role="status">
        Carregando os valores recebidos…
      </p>
      <ul className="cards figures" aria-hidden="true">
        {['Hoje', 'Últimos 7 dias', 'Últimos 30 dias'].map((title) => (
          <li key={title} className="card figure loading">
            <h3>{title}</h3>
            <p className="figure-amount">&nbsp;</p>
            <p className="figure-detail">&nbsp;</p>
          </li>
        ))}
      </ul>
    </>
  );
}

function LiveLine({ live, arrived }: { live: LiveState; arrived: LivePayment | null }) {
  return (
    <>
      <p className="live-line hint">
        <span className={`live-dot ${live}`} aria-hidden="true" />
        {live === 'live'
          ? 'Ao vivo: os valores mudam sozinhos quando um pagamento chega.'
          : live === 'off'
            ? 'Atualize a página para ver pagamentos novos.'
            : 'Conectando para receber pagamentos ao vivo…'}
      </p>
      <p className="arrived" role="status" aria-live="polite">
        {arrived === null
          ? ''
          : arrived.status === 'voided'
            ? `Pagamento de ${formatCentavos(arrived.amountCentavos)} cancelado.`
            : `Pagamento de ${formatCentavos(arrived.amountCentavos)} recebido agora.`}
      </p>
    </>
  );
}

function RecentList({ recent }: { recent: RecentPayment[] }) {
  if (recent.length === 0) {
    return (
      <p className="notice">
        Nenhum pagamento registrado ainda. Quando o banco avisar um Pix, ou quando você registrar um pagamento, ele
        aparece aqui na hora.
      </p>
    );
  }
  return (
    <ul className="recent-payments">
      {recent.map((payment) => (
        <li key={payment.reference} className={payment.status === 'voided' ? 'voided' : undefined}>
          <strong>{formatCentavos(payment.amountCentavos)}</strong>
          <span>{formatDateTime(payment.paidAt)}</span>
          <span className="hint">
            {SOURCES[payment.source]}
            {payment.qrcodeId !== null ? '' : payment.paymentLinkId == null ? ' · sem QR code' : ' · link de pagamento'}
            {payment.status === 'voided' ? ' · cancelado' : ''}
            {payment.refundedCentavos > 0 ? ` · devolvido ${formatCentavos(payment.refundedCentavos)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

function QuickActions({ workspace }: { workspace: CurrentWorkspace }) {
  const manages = workspace.role !== 'operator';
  return (
    <ul className="quick-actions">
      <li>
        <Link className="button" to={paths.panel.createQrCode}>
          Criar QR code
        </Link>
      </li>
      <li>
        <Link className="button secondary" to={paths.panel.createQrCode}>
          Criar placa
        </Link>
      </li>
      <li>
        <Link className="button secondary" to={paths.panel.transactions}>
          Registrar pagamento
        </Link>
      </li>
      {manages ? (
        <li>
          <Link className="button secondary" to={paths.panel.paymentLinks}>
            Link de pagamento
          </Link>
        </li>
      ) : null}
      {manages ? (
        <li>
          <Link className="button secondary" to={paths.panel.keys}>
            Chaves Pix
          </Link>
        </li>
      ) : null}
    </ul>
  );
}

/** /painel: what came in today, in 7 and 30 days, the latest payments and what to do next; live. */
export function HomeScreen({ workspace, live, arrived, header }: HomeScreenProps) {
  const { data, error, isLoading, refetch } = useGetHomeSummaryQuery(workspace.accountId);
  return (
    <section aria-labelledby="titulo-tela" className="home">
      <PageTitle>Painel</PageTitle>
      {header}
      <WorkspaceLine workspace={workspace} />
      <section aria-labelledby="titulo-recebido">
        <h2 id="titulo-recebido">Recebido</h2>
        {workspace.role === 'operator' ? (
          <p className="hint">Como operador, você vê os pagamentos dos QR codes que você criou.</p>
        ) : null}
        <LiveLine live={live} arrived={arrived} />
        {data !== undefined ? (
          <ul className="cards figures">
            <Figure title="Hoje" figures={data.periods.today} />
            <Figure title="Últimos 7 dias" figures={data.periods.last7Days} />
            <Figure title="Últimos 30 dias" figures={data.periods.last30Days} />
          </ul>
        ) : isLoading || error === undefined ? (
          <FiguresLoading />
        ) : (
          <>
            <FormAlert>Não foi possível carregar os valores recebidos. {errorMessage(asApiError(error))}</FormAlert>
            <button type="button" className="button" onClick={() => void refetch()}>
              Tentar de novo
            </button>
          </>
        )}
      </section>
      <section aria-labelledby="titulo-atalhos">
        <h2 id="titulo-atalhos">Atalhos</h2>
        <QuickActions workspace={workspace} />
        <p className="hint">
          Começando agora? Veja os <Link to={paths.panel.welcome}>Primeiros passos</Link> ou as{' '}
          <Link to={paths.panel.faq}>Dúvidas</Link>.
        </p>
      </section>
      <section aria-labelledby="titulo-recentes">
        <h2 id="titulo-recentes">Últimos pagamentos</h2>
        {data !== undefined ? <RecentList recent={data.recent} /> : null}
        <p>
          <Link to={paths.panel.transactions}>Ver todas as transações</Link>
        </p>
      </section>
    </section>
  );
}
