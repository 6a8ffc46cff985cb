import { useCallback, useState } from 'react';

import { FormAlert } from '@/components/form-alert';
import { useAppDispatch } from '@/hooks/store-hooks';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { formatCentavos } from '@/utils/money';

import {
  type CsvColumns,
  type CsvSample,
  type ImportProgress,
  importFinished,
  type LinePick,
  type StatementCode,
  type StatementFile,
  type StatementLine,
  type StatementPreview,
  useImportStatementMutation,
  useListStatementImportsQuery,
  usePreviewStatementMutation,
  useUndoStatementImportMutation,
  sampleOf,
} from '../api/statements';
import { ColumnMapping } from './column-mapping';
import { ImportProgressBar } from './import-progress';
import './statement-import.css';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "sem QR code" in the review's choices. */
const NO_CODE = 'sem';

/** The file's bytes as base64, as the API takes them. */
async function readFile(file: File): Promise<StatementFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return { arquivo: file.name, conteudo: btoa(binary) };
}

const when = (line: StatementLine) => {
  const at = new Date(line.data);
  const options: Intl.DateTimeFormatOptions = line.soDia
    ? { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' }
    : { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat('pt-BR', options).format(at);
};

const codeName = (code: StatementCode) =>
  `${code.tipo === 'link' ? 'Link de pagamento' : 'QR code'} ${code.descricao ?? ''}${
    code.valorCentavos === null ? ' (valor livre)' : ` de ${formatCentavos(code.valorCentavos)}`
  }`.replace(/\s+/g, ' ');

function LineSummary({ line }: { line: StatementLine }) {
  return (
    <>
      <strong>{formatCentavos(line.valorCentavos)}</strong> em {when(line)} — {line.texto}{' '}
      <span className="hint">(linha {line.linha})</span>
    </>
  );
}

function Group({
  title,
  lines,
  detail,
}: {
  title: string;
  lines: StatementLine[];
  detail?: (l: StatementLine) => string;
}) {
  if (lines.length === 0) return null;
  return (
    <section className="group" aria-label={title}>
      <h3>
        {title} ({lines.length})
      </h3>
      <ul>
        {lines.map((line) => (
          <li key={line.linha}>
            <LineSummary line={line} />
            {detail ? <div className="hint">{detail(line)}</div> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Preview({
  preview,
  picks,
  onPick,
}: {
  preview: StatementPreview;
  picks: Record<number, string>;
  onPick: (line: number, choice: string) => void;
}) {
  const of = (decisions: StatementLine['decisao'][]) => preview.linhas.filter((l) => decisions.includes(l.decisao));
  return (
    <div className="statement-preview">
      <p>
        {preview.arquivo} ({preview.formato}): {plural(preview.linhasLidas, 'lançamento lido', 'lançamentos lidos')},{' '}
        {plural(preview.creditosPix, 'Pix recebido', 'Pix recebidos')},{' '}
        {plural(preview.ignorados, 'outro lançamento ignorado', 'outros lançamentos ignorados')}.
      </p>
      <Group
        title="Novos pagamentos por QR code"
        lines={of(['qrcode'])}
        detail={(l) => (l.qrcode ? `${codeName(l.qrcode)}. ${l.confiancaTexto ?? ''}` : '')}
      />
      <Group title="Novos pagamentos sem QR code" lines={of(['sem_qrcode'])} />
      <Group
        title="Já registrados"
        lines={of(['ja_importado', 'mesmo_pagamento'])}
        detail={(l) =>
          l.decisao === 'ja_importado'
            ? 'Já importado de um extrato antes: nada muda.'
            : 'O mesmo Pix que o banco já informou: fica ligado a ele, sem contar duas vezes.'
        }
      />
      {of(['ambiguo']).length === 0 ? null : (
        <section className="group" aria-label="A revisar">
          <h3>A revisar ({of(['ambiguo']).length})</h3>
          <p className="hint">Mais de um QR code serve para estes Pix. Escolha qual foi pago, ou “sem QR code”.</p>
          {of(['ambiguo']).map((line) => (
            <fieldset key={line.linha}>
              <legend>
                <LineSummary line={line} />
              </legend>
              {[
                ...(line.candidatos ?? []).map((c) => ({ id: c.id, label: codeName(c) })),
                { id: NO_CODE, label: 'Sem QR code' },
              ].map((choice) => (
                <label key={choice.id} className="choice">
                  <input
                    type="radio"
                    name={`linha-${line.linha}`}
                    value={choice.id}
                    checked={picks[line.linha] === choice.id}
                    onChange={() => onPick(line.linha, choice.id)}
                  />{' '}
                  {choice.label}
                </label>
              ))}
            </fieldset>
          ))}
        </section>
      )}
    </div>
  );
}

function PastImports({
  accountId,
  runningId,
  onUndone,
}: {
  accountId: string;
  /** The import being written in the background: not undone halfway. */
  runningId: string | null;
  onUndone: (message: string) => void;
}) {
  const imports = useListStatementImportsQuery({ accountId });
  const [undo, undoing] = useUndoStatementImportMutation();
  const [asking, setAsking] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (!imports.data || imports.data.length === 0) return null;
  return (
    <section className="group" aria-labelledby="importacoes-anteriores">
      <h3 id="importacoes-anteriores">Importações de extrato</h3>
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <ul>
        {imports.data.map((item) => (
          <li key={item.importacao}>
            {item.arquivo} — {new Date(item.quando).toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' })} —{' '}
            {item.registrados === 1 ? '1 pagamento' : `${item.registrados} pagamentos`}
            {item.desfeita ? (
              ' — desfeita'
            ) : item.importacao === runningId ? (
              ' — importando…'
            ) : asking === item.importacao ? (
              <div role="alertdialog" aria-label="Desfazer importação" className="confirm">
                <p>
                  Desfazer a importação de {item.arquivo}? Os pagamentos que ela registrou ficam anulados com o motivo
                  “Importação desfeita” e saem dos totais.
                </p>
                <button
                  type="button"
                  className="button danger"
                  disabled={undoing.isLoading}
                  onClick={() => {
                    setProblem(null);
                    undo({ accountId, importId: item.importacao })
                      .unwrap()
                      .then(() => {
                        setAsking(null);
                        onUndone(
                          `Importação de ${item.arquivo} desfeita: os pagamentos que ela registrou foram anulados.`,
                        );
                      })
                      .catch((error: unknown) => setProblem(errorMessage(asApiError(error))));
                  }}
                >
                  Sim, desfazer
                </button>{' '}
                <button type="button" className="button secondary" onClick={() => setAsking(null)}>
                  Cancelar
                </button>
              </div>
            ) : (
              <>
                {' '}
                <button type="button" className="button secondary" onClick={() => setAsking(item.importacao)}>
                  Desfazer importação
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

const COUNT = new Intl.NumberFormat('pt-BR');

/** What an import did, in a sentence. */
function outcome(result: { registrados: number; vinculados: number; incompleta?: string }): string {
  return (
    result.incompleta ??
    `${result.registrados === 1 ? '1 pagamento importado' : `${COUNT.format(result.registrados)} pagamentos importados`}${
      result.vinculados > 0 ? `, ${result.vinculados} ligados a pagamentos que o banco já informou` : ''
    }.`
  );
}

/** "Importar extrato": pick the bank's OFX or CSV, review what it holds, import, undo. */
export function StatementImport({ accountId }: { accountId: string }) {
  const [file, setFile] = useState<StatementFile | null>(null);
  const [picks, setPicks] = useState<Record<number, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [preview, previewing] = usePreviewStatementMutation();
  const [send, importing] = useImportStatementMutation();
  const shown = file ? previewing.data : undefined;
  const review = shown?.linhas.filter((l) => l.decisao === 'ambiguo') ?? [];
  const count = shown ? shown.porQrcode + shown.semQrcode + shown.aRevisar : 0;
  const ready = review.every((l) => picks[l.linha] !== undefined);
  const [running, setRunning] = useState<{ importId: string; total: number } | null>(null);
  const [sample, setSample] = useState<CsvSample | null>(null);
  // The mapping form is open (a sample just came, or the owner wants to change the columns).
  const [mapping, setMapping] = useState(false);
  const dispatch = useAppDispatch();
  const busy = previewing.isLoading || importing.isLoading || running !== null;

  const choose = async (chosen: File | undefined) => {
    setProblem(null);
    setDone(null);
    setPicks({});
    setSample(null);
    if (!chosen) return;
    const read = await readFile(chosen);
    setFile(read);
    preview({ accountId, file: read })
      .unwrap()
      .catch((error: unknown) => {
        const refused = asApiError(error);
        // A CSV of a bank we have no layout for: the owner names its columns.
        const rows = refused.code === 'statement-unknown-csv-layout' ? sampleOf(refused.details) : null;
        if (rows) {
          setSample(rows);
          setMapping(true);
          return;
        }
        setFile(null);
        setProblem(errorMessage(refused));
      });
  };

  const mapColumns = (colunas: CsvColumns) => {
    if (!file) return;
    const mapped = { ...file, colunas };
    setProblem(null);
    setFile(mapped);
    preview({ accountId, file: mapped })
      .unwrap()
      .then(() => setMapping(false))
      .catch((error: unknown) => setProblem(errorMessage(asApiError(error))));
  };

  const confirm = () => {
    if (!file) return;
    const chosen: LinePick[] = review.map((l) => ({
      linha: l.linha,
      qrcode: picks[l.linha] === NO_CODE ? null : (picks[l.linha] ?? null),
    }));
    setProblem(null);
    send({ accountId, file, picks: chosen })
      .unwrap()
      .then((result) => {
        setFile(null);
        if (result.emAndamento) {
          setRunning({ importId: result.importacao, total: result.total ?? 0 });
        } else {
          setDone(outcome(result));
        }
      })
      .catch((error: unknown) => setProblem(errorMessage(asApiError(error))));
  };

  const finished = useCallback(
    (progress: ImportProgress) => {
      setRunning(null);
      dispatch(importFinished(accountId));
      setDone(progress.interrompida ?? outcome(progress));
    },
    [accountId, dispatch],
  );

  return (
    <section aria-labelledby="importar-extrato" className="group statement-import" aria-busy={busy}>
      <h2 id="importar-extrato">Importar extrato</h2>
      <p className="hint">
        Exporte o extrato da conta no app do banco (OFX ou CSV) e escolha o arquivo. Só os Pix recebidos entram; nada é
        registrado antes de você confirmar.
      </p>
      <label className="field">
        Arquivo do extrato
        <input
          type="file"
          accept=".ofx,.csv"
          disabled={busy}
          onChange={(event) => void choose(event.target.files?.[0])}
        />
      </label>
      {busy && running === null ? (
        <p role="status" className="notice">
          {importing.isLoading ? 'Importando os pagamentos…' : 'Lendo o extrato…'}
        </p>
      ) : null}
      {running === null ? null : (
        <ImportProgressBar
          accountId={accountId}
          importId={running.importId}
          total={running.total}
          onFinished={finished}
        />
      )}
      {problem ? <FormAlert takeFocus>{problem}</FormAlert> : null}
      {sample && file && mapping ? (
        <ColumnMapping sample={sample} chosen={file.colunas} busy={busy} onSubmit={mapColumns} />
      ) : null}
      {sample && file && !mapping ? (
        <p className="actions">
          <button type="button" className="button secondary" disabled={busy} onClick={() => setMapping(true)}>
            Mudar as colunas
          </button>
        </p>
      ) : null}
      {done ? (
        <p role="status" className="notice">
          {done}
        </p>
      ) : null}
      {shown ? (
        <>
          <Preview
            preview={shown}
            picks={picks}
            onPick={(line, choice) => setPicks((p) => ({ ...p, [line]: choice }))}
          />
          <p className="actions">
            <button type="button" className="button" disabled={busy || !ready || count === 0} onClick={confirm}>
              {count === 0
                ? 'Nada novo para importar'
                : `Importar ${count === 1 ? '1 pagamento' : `${count} pagamentos`}`}
            </button>
            {ready ? null : <span className="hint"> Escolha o QR code de cada Pix a revisar.</span>}
          </p>
        </>
      ) : null}
      <PastImports accountId={accountId} runningId={running?.importId ?? null} onUndone={setDone} />
    </section>
  );
}
