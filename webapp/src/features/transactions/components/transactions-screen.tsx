import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { isBrazilianAmount } from '@/utils/money';

import { NO_FILTERS, type Payment, type PaymentFilters, useGetPaymentSummaryQuery } from '../api/payments';
import { presetDays } from '../utils/periods';
import { DailyChart } from './daily-chart';
import { ExportButton } from './export-button';
import { PaymentDetail } from './payment-detail';
import { PaymentTable } from './payment-table';
import { PaymentTotals } from './payment-totals';
import { RecordPaymentForm } from './record-payment-form';
import { type FilterInput, type FilterOption, TransactionFilters } from './transaction-filters';
import './transactions.css';

export const INVALID_FILTER_AMOUNT = 'Digite o valor em reais, como 12,50.';

const START: FilterInput = { ...NO_FILTERS, period: '7-dias' };

/** The filters the server gets, and the problems that keep a typed value from being sent. */
function applied(input: FilterInput, now: Date): { filters: PaymentFilters; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const amount = (value: string, field: string) => {
    if (value.trim() === '' || isBrazilianAmount(value)) return value.trim();
    problems[field] = INVALID_FILTER_AMOUNT;
    return '';
  };
  const days = presetDays(input.period, now) ?? { from: input.from, to: input.to };
  return {
    filters: {
      ...input,
      from: days.from,
      to: days.to,
      min: amount(input.min, 'minimo'),
      max: amount(input.max, 'maximo'),
      text: input.text.trim(),
    },
    problems,
  };
}

export interface TransactionsScreenProps {
  workspace: CurrentWorkspace;
  /** The account's codes the person may see (an operator's own), for the filter and the form. */
  codes: FilterOption[];
  keys: FilterOption[];
  /** The statement import ("Importar extrato"), composed in by the route; left out for operators. */
  statementImport?: ReactNode;
}

/** /painel/transacoes: every payment of the account (an operator's codes'), filtered and totalled. */
export function TransactionsScreen({ workspace, codes, keys, statementImport }: TransactionsScreenProps) {
  const accountId = workspace.accountId;
  const [input, setInput] = useState<FilterInput>(START);
  // Typing in the text and amount boxes asks the server once the typing settles.
  const settled = useDebouncedValue(input, 300);
  const { filters, problems } = applied(settled, new Date());
  const filtersKey = JSON.stringify(filters);
  const [paging, setPaging] = useState<{ key: string; cursors: (string | null)[] }>({
    key: filtersKey,
    cursors: [null],
  });
  const cursors = paging.key === filtersKey ? paging.cursors : [null];
  const [selected, setSelected] = useState<Payment | null>(null);
  const [recording, setRecording] = useState(false);
  const [importing, setImporting] = useState(false);
  const summary = useGetPaymentSummaryQuery({ accountId, filters });
  const summaryError = summary.error === undefined ? undefined : asApiError(summary.error);
  const errors = { ...problems };
  if (summaryError?.field) errors[summaryError.field] = errorMessage(summaryError);
  const operator = workspace.role === 'operator';

  return (
    <section aria-labelledby="titulo-tela" className="transactions">
      <PageTitle>Transações</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Transações
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="lead">
        {operator
          ? 'Os pagamentos dos QR codes que você criou, do mais novo ao mais antigo.'
          : 'Os pagamentos desta conta, do mais novo ao mais antigo: os que o banco confirmou, os simulados, os registrados à mão e os importados do extrato.'}
      </p>
      <TransactionFilters
        input={input}
        onChange={setInput}
        onClear={
          (Object.keys(START) as (keyof FilterInput)[]).every((name) => input[name] === START[name])
            ? undefined
            : () => setInput(START)
        }
        codes={codes}
        keys={keys}
        errors={errors}
      />
      {summary.data === undefined ? (
        summaryError === undefined || summaryError.field ? null : (
          <FormAlert>
            {isForbidden(summaryError)
              ? 'Seu papel nesta conta não permite ver as transações.'
              : isNotFound(summaryError)
                ? WORKSPACE_NOT_FOUND
                : `Não foi possível somar as transações. ${errorMessage(summaryError)}`}
          </FormAlert>
        )
      ) : (
        <>
          {summary.data.history ? (
            <p className="notice" role="note">
              {summary.data.history.note} <Link to={paths.panel.premium}>Conhecer o Premium</Link>
            </p>
          ) : null}
          <PaymentTotals total={summary.data.total} />
          {summary.data.days.length > 0 ? <DailyChart days={summary.data.days} /> : null}
        </>
      )}
      <p className="actions">
        <ExportButton accountId={accountId} filters={filters} />
        <button
          type="button"
          className="button secondary"
          aria-expanded={recording}
          onClick={() => setRecording((open) => !open)}
        >
          {recording ? 'Fechar registro' : 'Registrar pagamento'}
        </button>
        {operator || statementImport === undefined ? null : (
          <button
            type="button"
            className="button secondary"
            aria-expanded={importing}
            onClick={() => setImporting((open) => !open)}
          >
            {importing ? 'Fechar importação' : 'Importar extrato'}
          </button>
        )}
      </p>
      {importing ? statementImport : null}
      {recording ? (
        <section aria-labelledby="registrar-pagamento" className="group">
          <h2 id="registrar-pagamento">Registrar pagamento</h2>
          <p className="hint">
            Para um Pix que você viu no aplicativo do banco e que não chegou por aqui.
            {operator ? ' Como operador, você registra pagamentos dos QR codes que criou.' : null}
          </p>
          <RecordPaymentForm accountId={accountId} codes={codes} codeRequired={operator} />
        </section>
      ) : null}
      <div className="transactions-body">
        {selected === null ? null : (
          <PaymentDetail
            key={selected.reference}
            accountId={accountId}
            payment={selected}
            onClose={() => setSelected(null)}
          />
        )}
        <PaymentTable
          accountId={accountId}
          filters={filters}
          cursors={cursors}
          onMore={(cursor) => setPaging({ key: filtersKey, cursors: [...cursors, cursor] })}
          selected={selected?.reference ?? null}
          onOpen={setSelected}
        />
      </div>
    </section>
  );
}
