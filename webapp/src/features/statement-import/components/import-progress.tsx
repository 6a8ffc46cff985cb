import { useEffect } from 'react';

import { FormAlert } from '@/components/form-alert';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { type ImportProgress, useGetStatementImportProgressQuery } from '../api/statements';

/** How often the bar asks how far the import has got. */
const POLL_MS = 1000;

const count = new Intl.NumberFormat('pt-BR');

/**
 * The progress bar of a big import running in the background: it asks the server every second
 * how many lines are written and tells `onFinished` once the import is done, stopped part way or
 * interrupted.
 */
export function ImportProgressBar({
  accountId,
  importId,
  total,
  onFinished,
}: {
  accountId: string;
  importId: string;
  total: number;
  onFinished: (progress: ImportProgress) => void;
}) {
  const { data, error } = useGetStatementImportProgressQuery({ accountId, importId }, { pollingInterval: POLL_MS });
  const over = data !== undefined && (data.concluida || data.interrompida !== undefined);
  useEffect(() => {
    if (data !== undefined && over) onFinished(data);
  }, [data, over, onFinished]);
  const done = data?.feitas ?? 0;
  const of = data?.total ?? total;
  return (
    <div className="import-progress" role="status">
      <label>
        Importando os pagamentos…
        <progress max={Math.max(of, 1)} value={done} />
      </label>
      <p className="hint">
        {count.format(done)} de {count.format(of)} {of === 1 ? 'linha' : 'linhas'}. Pode continuar usando o painel: a
        importação segue mesmo se você sair desta tela.
      </p>
      {error === undefined ? null : (
        <FormAlert>Não foi possível ver o andamento agora. {errorMessage(asApiError(error))}</FormAlert>
      )}
    </div>
  );
}
