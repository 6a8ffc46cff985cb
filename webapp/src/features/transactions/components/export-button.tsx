import { FormAlert } from '@/components/form-alert';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { type PaymentFilters, useExportPaymentsMutation } from '../api/payments';

/** Saves the filtered payments as the CSV the server streams (for Excel in Brazil). */
export function ExportButton({ accountId, filters }: { accountId: string; filters: PaymentFilters }) {
  const [exportPayments, { isLoading, error }] = useExportPaymentsMutation();
  const save = async () => {
    const file = await exportPayments({ accountId, filters }).unwrap();
    const link = document.createElement('a');
    link.href = file.url;
    link.download = file.filename;
    document.body.append(link);
    link.click();
    link.remove();
    // The download has its bytes once the click is handled.
    setTimeout(() => URL.revokeObjectURL(file.url), 60_000);
  };
  return (
    <>
      <button
        type="button"
        className="button secondary"
        disabled={isLoading}
        onClick={() => {
          save().catch(() => undefined);
        }}
      >
        {isLoading ? 'Preparando o arquivo…' : 'Exportar CSV'}
      </button>
      {error === undefined ? null : <FormAlert>Não foi possível exportar. {errorMessage(asApiError(error))}</FormAlert>}
    </>
  );
}
