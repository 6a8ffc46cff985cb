import { api } from '@/lib/api';

/**
 * The tag of every payment read (the transactions feature's `PAYMENT_TAG`; features do not import
 * each other): an import or an undo changes the list, its totals and the imports list.
 */
const PAYMENT_TAG = 'Payment' as const;

/** How a Pix credit of the statement was reconciled (`gateway::api::payments::statements`). */
export type LineDecision = 'ja_importado' | 'mesmo_pagamento' | 'qrcode' | 'ambiguo' | 'sem_qrcode';

export interface StatementCode {
  /** A QR code's id, or `link:` and a payment link's id. */
  id: string;
  tipo: 'qrcode' | 'link';
  descricao: string | null;
  valorCentavos: number | null;
}

export interface StatementLine {
  linha: number;
  data: string;
  /** The bank gave only the day. */
  soDia: boolean;
  valorCentavos: number;
  texto: string;
  decisao: LineDecision;
  pagamento?: string;
  qrcode?: StatementCode;
  confiancaTexto?: string;
  candidatos?: StatementCode[];
}

export interface StatementPreview {
  arquivo: string;
  formato: string;
  linhasLidas: number;
  creditosPix: number;
  ignorados: number;
  porQrcode: number;
  semQrcode: number;
  mesmoPagamento: number;
  jaImportados: number;
  aRevisar: number;
  linhas: StatementLine[];
}

export interface StatementFile {
  arquivo: string;
  /** The file's bytes, base64. */
  conteudo: string;
  /** Which column holds what, for a CSV of a bank Balcão has no layout for. */
  colunas?: CsvColumns;
}

/** The owner's columns of a CSV, 1-based as the screen numbers them. */
export interface CsvColumns {
  separador: ';' | ',' | 'tab';
  /** Rows before the first transaction. */
  cabecalho: number;
  data: number;
  /** The signed amount; or `entrada` and `saida`. */
  valor?: number;
  entrada?: number;
  saida?: number;
  descricao: number[];
  identificador?: number;
}

/** The first rows of a CSV of an unknown layout (`error.details.amostra` of the 422). */
export interface CsvSample {
  separador: ';' | ',' | 'tab';
  linhas: string[][];
}

/** The sample in an API error's details, when the file is a CSV of an unknown layout. */
export function sampleOf(details: Record<string, unknown> | undefined): CsvSample | null {
  const sample = details?.amostra;
  if (typeof sample !== 'object' || sample === null) return null;
  const { separador, linhas } = sample as { separador?: unknown; linhas?: unknown };
  if ((separador !== ';' && separador !== ',' && separador !== 'tab') || !Array.isArray(linhas)) return null;
  const rows = linhas.filter((row): row is string[] => Array.isArray(row) && row.every((c) => typeof c === 'string'));
  return { separador, linhas: rows };
}

/** The owner's pick for an ambiguous line: a code's id, or null for "sem QR code". */
export interface LinePick {
  linha: number;
  qrcode: string | null;
}

export interface ImportResult {
  importacao: string;
  registrados: number;
  vinculados: number;
  jaImportados: number;
  incompleta?: string;
  /** A big file (202): the import goes on in the background; follow it with its progress. */
  emAndamento?: boolean;
  /** Lines the import writes, when it goes on in the background. */
  total?: number;
}

/** How far an import running in the background has got (`…/extratos/{id}/andamento`). */
export interface ImportProgress {
  importacao: string;
  arquivo: string;
  total: number;
  feitas: number;
  registrados: number;
  vinculados: number;
  jaImportados: number;
  concluida: boolean;
  /** A batch failed after others committed: what to do, in pt-BR. */
  incompleta?: string;
  /** The import stopped with no news for a while (the server restarted): what to do, in pt-BR. */
  interrompida?: string;
}

export interface StatementImport {
  importacao: string;
  arquivo: string;
  quando: string;
  quem: string | null;
  registrados: number;
  desfeita: boolean;
  desfeitaEm: string | null;
}

const base = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/extratos`;
const tags = (accountId: string) => [{ type: PAYMENT_TAG, id: accountId }];

export const statementsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** What importing the file would do; writes nothing. */
    previewStatement: build.mutation<StatementPreview, { accountId: string; file: StatementFile }>({
      query: ({ accountId, file }) => ({ url: `${base(accountId)}/previa`, method: 'POST', body: file }),
      extraOptions: { authenticated: true },
    }),
    /** The confirmed import: the file again and the owner's picks. */
    importStatement: build.mutation<ImportResult, { accountId: string; file: StatementFile; picks: LinePick[] }>({
      query: ({ accountId, file, picks }) => ({
        url: base(accountId),
        method: 'POST',
        body: { ...file, escolhas: picks },
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** How far an import running in the background has got; polled while it runs. */
    getStatementImportProgress: build.query<ImportProgress, { accountId: string; importId: string }>({
      query: ({ accountId, importId }) => `${base(accountId)}/${encodeURIComponent(importId)}/andamento`,
      extraOptions: { authenticated: true },
    }),
    /** The account's imports, newest first. */
    listStatementImports: build.query<StatementImport[], { accountId: string }>({
      query: ({ accountId }) => base(accountId),
      extraOptions: { authenticated: true },
      transformResponse: (response: { importacoes: StatementImport[] }) => response.importacoes,
      providesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** Undo an import as a whole. */
    undoStatementImport: build.mutation<{ anulados: number }, { accountId: string; importId: string }>({
      query: ({ accountId, importId }) => ({
        url: `${base(accountId)}/${encodeURIComponent(importId)}`,
        method: 'DELETE',
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
  }),
});

export const {
  usePreviewStatementMutation,
  useImportStatementMutation,
  useGetStatementImportProgressQuery,
  useListStatementImportsQuery,
  useUndoStatementImportMutation,
} = statementsApi;

/** What an import finishing in the background changed: the list, its totals and the imports. */
export const importFinished = (accountId: string) => statementsApi.util.invalidateTags(tags(accountId));
