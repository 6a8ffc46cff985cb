import { type SyntheticEvent, useId, useState } from 'react';

import type { CsvColumns, CsvSample } from '../api/statements';

const SEPARATORS: { value: CsvColumns['separador']; label: string }[] = [
  { value: ';', label: 'Ponto e vírgula (;)' },
  { value: ',', label: 'Vírgula (,)' },
  { value: 'tab', label: 'Tabulação' },
];

/** The first row that looks like a header: every cell filled and none of them a date or amount. */
function guessHeaderRows(rows: string[][]): number {
  const looksLikeData = (cell: string) => /\d{2}\/\d{2}\/\d{2,4}|\d{4}-\d{2}-\d{2}|^-?[\d.]+,\d{2}$/.test(cell);
  const first = rows.findIndex((row) => row.some(looksLikeData));
  return first <= 0 ? 1 : first;
}

/** The 1-based column whose header matches `pattern`, if any. */
function headed(header: string[] | undefined, pattern: RegExp): number | undefined {
  const at = header?.findIndex((cell) => pattern.test(cell.normalize('NFD').replace(/[\u0300-\u036f]/g, '')));
  return at === undefined || at < 0 ? undefined : at + 1;
}

/** A first guess from the header's names, for the owner to check. */
function guess(header: string[] | undefined, width: number) {
  const date = headed(header, /data|quando|^dia/i) ?? 1;
  const amount = headed(header, /valor|quantia|montante|quanto/i);
  const moneyIn = headed(header, /entrada|credito/i);
  const moneyOut = headed(header, /saida|debito/i);
  const described = (header ?? [])
    .map((cell, i) => ({ cell: cell.normalize('NFD').replace(/[\u0300-\u036f]/g, ''), column: i + 1 }))
    .filter(({ cell }) => /hist|descr|lancamento|detalhe|quem|nome|memo/i.test(cell))
    .map(({ column }) => column);
  return {
    date,
    split: amount === undefined && moneyIn !== undefined && moneyOut !== undefined,
    amount: amount ?? Math.min(2, width),
    moneyIn: moneyIn ?? Math.min(2, width),
    moneyOut: moneyOut ?? Math.min(3, width),
    description: described.length > 0 ? described : width >= 3 ? [3] : [],
  };
}

/** "Coluna 3 — Valor", with the header's name when the sample has one. */
function columnName(index: number, header: string[] | undefined): string {
  const name = header?.[index]?.trim();
  return name ? `Coluna ${index + 1} — ${name}` : `Coluna ${index + 1}`;
}

/**
 * For a CSV of a bank Balcão has no layout for: the file's first rows, and which column holds the
 * date, the amount (one column, or money in and money out) and the description. The owner's
 * answer is sent with the file again, for the preview and the import.
 */
export function ColumnMapping({
  sample,
  chosen,
  busy,
  onSubmit,
}: {
  sample: CsvSample;
  /** The columns the owner chose before, when they come back to change them. */
  chosen?: CsvColumns;
  busy: boolean;
  onSubmit: (columns: CsvColumns) => void;
}) {
  const id = useId();
  const width = Math.max(0, ...sample.linhas.map((row) => row.length));
  const indexes = Array.from({ length: width }, (_, i) => i);
  const guessedRows = guessHeaderRows(sample.linhas);
  const first = guess(guessedRows > 0 ? sample.linhas[guessedRows - 1] : undefined, width);
  const [separator, setSeparator] = useState<CsvColumns['separador']>(chosen?.separador ?? sample.separador);
  const [headerRows, setHeaderRows] = useState(chosen?.cabecalho ?? guessedRows);
  const [date, setDate] = useState(chosen?.data ?? first.date);
  const [split, setSplit] = useState(chosen ? chosen.entrada !== undefined : first.split);
  const [amount, setAmount] = useState(chosen?.valor ?? first.amount);
  const [moneyIn, setMoneyIn] = useState(chosen?.entrada ?? first.moneyIn);
  const [moneyOut, setMoneyOut] = useState(chosen?.saida ?? first.moneyOut);
  const [description, setDescription] = useState<number[]>(chosen?.descricao ?? first.description);
  const [transactionId, setTransactionId] = useState(chosen?.identificador ?? 0);
  const header = headerRows > 0 ? sample.linhas[headerRows - 1] : undefined;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    onSubmit({
      separador: separator,
      cabecalho: headerRows,
      data: date,
      ...(split ? { entrada: moneyIn, saida: moneyOut } : { valor: amount }),
      descricao: description,
      ...(transactionId > 0 ? { identificador: transactionId } : {}),
    });
  };

  // Labels point at their control (a label wrapping a select would take the chosen option's
  // text into the control's name).
  const columnSelect = (key: string, label: string, value: number, onChange: (n: number) => void, optional = false) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <select id={`${id}-${key}`} value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {optional ? <option value={0}>Nenhuma</option> : null}
        {indexes.map((i) => (
          <option key={i} value={i + 1}>
            {columnName(i, header)}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <form className="column-mapping" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>Colunas do extrato</h3>
      <p className="hint">
        Não conhecemos o formato deste CSV. Veja as primeiras linhas e diga em qual coluna está cada informação.
      </p>
      <div className="sample" role="region" aria-label="Primeiras linhas do arquivo" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Linha</th>
              {indexes.map((i) => (
                <th key={i} scope="col">
                  Coluna {i + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sample.linhas.map((row, r) => (
              // The sample is fixed for the form's life: its rows never move.
              <tr key={r}>
                <th scope="row">{r + 1}</th>
                {indexes.map((i) => (
                  <td key={i}>{row[i] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="field">
        <label htmlFor={`${id}-separator`}>Separador das colunas</label>
        <select
          id={`${id}-separator`}
          value={separator}
          onChange={(event) => setSeparator(event.target.value as CsvColumns['separador'])}
        >
          {SEPARATORS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-header-rows`}>Linhas antes do primeiro lançamento</label>
        <input
          id={`${id}-header-rows`}
          type="number"
          min={0}
          max={50}
          inputMode="numeric"
          value={headerRows}
          onChange={(event) => setHeaderRows(Math.max(0, Math.min(50, Number(event.target.value) || 0)))}
        />
      </div>
      {columnSelect('date', 'Data', date, setDate)}
      <fieldset>
        <legend>Valor</legend>
        <label className="choice">
          <input type="radio" name={`${id}-amount`} checked={!split} onChange={() => setSplit(false)} />
          Uma coluna, com débitos negativos
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-amount`} checked={split} onChange={() => setSplit(true)} />
          Duas colunas: entradas e saídas
        </label>
        {split ? (
          <>
            {columnSelect('in', 'Entradas', moneyIn, setMoneyIn)}
            {columnSelect('out', 'Saídas', moneyOut, setMoneyOut)}
          </>
        ) : (
          columnSelect('amount', 'Coluna do valor', amount, setAmount)
        )}
      </fieldset>
      <fieldset>
        <legend>Descrição (uma ou mais colunas)</legend>
        {indexes.map((i) => (
          <label key={i} className="choice">
            <input
              type="checkbox"
              checked={description.includes(i + 1)}
              onChange={(event) =>
                setDescription((chosen) =>
                  event.target.checked ? [...chosen, i + 1].sort((a, b) => a - b) : chosen.filter((c) => c !== i + 1),
                )
              }
            />
            {columnName(i, header)}
          </label>
        ))}
      </fieldset>
      {columnSelect('id', 'Identificador do lançamento (opcional)', transactionId, setTransactionId, true)}
      <p className="actions">
        <button type="submit" className="button" disabled={busy || description.length === 0}>
          Ver prévia com estas colunas
        </button>
      </p>
    </form>
  );
}
