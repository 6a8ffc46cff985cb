import { useState } from 'react';

import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';

import { FILTER_PARAMS, type PaymentFilters } from '../api/payments';
import { PERIOD_LABELS, type PeriodPreset } from '../utils/periods';

/** What the filter form holds, as typed. */
export interface FilterInput extends Omit<PaymentFilters, 'from' | 'to'> {
  period: PeriodPreset;
  /** The custom period's days (used only with "Personalizado"). */
  from: string;
  to: string;
}

export interface FilterOption {
  value: string;
  label: string;
}

export interface TransactionFiltersProps {
  input: FilterInput;
  onChange: (input: FilterInput) => void;
  /** Puts every filter back; no "Limpar filtros" button without it (nothing to clear). */
  onClear?: () => void;
  codes: FilterOption[];
  keys: FilterOption[];
  /** Problems under a field, by the query parameter's name (`de`, `minimo`…). */
  errors: Readonly<Record<string, string>>;
}

/** The filters under "Mais filtros". */
const MORE: readonly (keyof PaymentFilters)[] = ['qrcode', 'keyId', 'source', 'status', 'min', 'max'];

/** A phone's width, as the stylesheets draw it (below 48rem). */
function onPhone(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 47.99rem)').matches;
}

/**
 * The period, text, code, key, source, status and amount range of the transactions screen. The
 * period and the text come first; the rest sit under "Mais filtros", closed on a phone unless one
 * is in use or has a problem, so the totals and the payments are a short scroll away.
 */
export function TransactionFilters({ input, onChange, onClear, codes, keys, errors }: TransactionFiltersProps) {
  const set = <K extends keyof FilterInput>(name: K, value: FilterInput[K]) => onChange({ ...input, [name]: value });
  const inUse = MORE.filter((name) => input[name] !== '').length;
  const [open, setOpen] = useState(() => !onPhone() || inUse > 0);
  const shown = open || MORE.some((name) => errors[FILTER_PARAMS[name]] !== undefined);
  return (
    <form
      className="transaction-filters"
      role="search"
      aria-label="Filtrar transações"
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        label="Período"
        value={input.period}
        onChange={(event) => set('period', event.target.value as PeriodPreset)}
      >
        {(Object.keys(PERIOD_LABELS) as PeriodPreset[]).map((period) => (
          <option key={period} value={period}>
            {PERIOD_LABELS[period]}
          </option>
        ))}
      </SelectField>
      {input.period === 'personalizado' ? (
        <>
          <TextField
            label="De"
            type="date"
            value={input.from}
            error={errors.de ?? null}
            onChange={(event) => set('from', event.target.value)}
          />
          <TextField
            label="Até"
            type="date"
            value={input.to}
            error={errors.ate ?? null}
            onChange={(event) => set('to', event.target.value)}
          />
        </>
      ) : null}
      <TextField
        label="Buscar"
        type="search"
        className="wide"
        value={input.text}
        error={errors.busca ?? null}
        placeholder="Observação, txid, E2E, pagador ou valor (12,50)"
        onChange={(event) => set('text', event.target.value)}
      />
      <details className="more-filters wide" open={shown} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>{inUse > 0 ? `Mais filtros (${String(inUse)} em uso)` : 'Mais filtros'}</summary>
        <div className="more-filters-fields">
          <SelectField
            label="QR code"
            value={input.qrcode}
            error={errors.qrcode ?? null}
            onChange={(event) => set('qrcode', event.target.value)}
          >
            <option value="">Todos</option>
            <option value="sem">Sem QR code</option>
            <option value="links">Links de pagamento</option>
            {codes.map((code) => (
              <option key={code.value} value={code.value}>
                {code.label}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Chave Pix"
            value={input.keyId}
            error={errors.chave ?? null}
            onChange={(event) => set('keyId', event.target.value)}
          >
            <option value="">Todas</option>
            {keys.map((key) => (
              <option key={key.value} value={key.value}>
                {key.label}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Origem"
            value={input.source}
            onChange={(event) => set('source', event.target.value as FilterInput['source'])}
          >
            <option value="">Todas</option>
            <option value="api-pix">Banco (API Pix)</option>
            <option value="manual">Registrado à mão</option>
            <option value="api-pix-consulta">Banco (consulta API Pix)</option>
            <option value="extrato">Extrato bancário</option>
            <option value="sandbox">Simulação</option>
          </SelectField>
          <SelectField
            label="Situação"
            value={input.status}
            onChange={(event) => set('status', event.target.value as FilterInput['status'])}
          >
            <option value="">Todas</option>
            <option value="received">Recebidos</option>
            <option value="refunded">Com devolução</option>
            <option value="voided">Anulados</option>
          </SelectField>
          <TextField
            label="Valor mínimo"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0,00"
            value={input.min}
            error={errors.minimo ?? null}
            onChange={(event) => set('min', event.target.value)}
          />
          <TextField
            label="Valor máximo"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0,00"
            value={input.max}
            error={errors.maximo ?? null}
            onChange={(event) => set('max', event.target.value)}
          />
        </div>
      </details>
      {onClear === undefined ? null : (
        <p className="actions">
          <button type="button" className="button secondary" onClick={onClear}>
            Limpar filtros
          </button>
        </p>
      )}
    </form>
  );
}
