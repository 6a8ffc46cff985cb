import { skipToken } from '@reduxjs/toolkit/query/react';

import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useNormalizeMerchantQuery } from '../api/normalize-merchant';

/** Wait this long after the last keystroke before asking the server. */
export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * How a BR Code will write the recipient's name and city (no accents, upper-case…), asked of the
 * server as the person types, with every change it makes listed.
 */
export function MerchantPreview({ name, city }: { name: string; city: string }) {
  // Debounced as one string, so a change to either field restarts the same wait.
  const typed = JSON.stringify([name.trim(), city.trim()]);
  const settledKey = useDebouncedValue(typed, PREVIEW_DEBOUNCE_MS);
  const [settledName = '', settledCity = ''] = JSON.parse(settledKey) as string[];
  const ready = settledName !== '' && settledCity !== '';
  const { currentData, error, isFetching } = useNormalizeMerchantQuery(
    ready ? { name: settledName, city: settledCity } : skipToken,
  );
  const typing = typed !== settledKey;
  // What is on screen now decides "Preencha…": a form filled in a moment ago (prefilled from the
  // settings, or pasted) is being checked, not empty.
  const filled = name.trim() !== '' && city.trim() !== '';

  let body;
  if (!filled) {
    body = <p className="hint">Preencha o nome e a cidade para ver como vão aparecer no QR code.</p>;
  } else if (ready && !typing && error !== undefined && !isFetching) {
    body = <p className="field-error">{errorMessage(asApiError(error))}</p>;
  } else if (!ready || currentData === undefined || typing) {
    body = <p className="hint">Conferindo…</p>;
  } else {
    body = (
      <>
        <p>
          No QR code: <strong>{currentData.name}</strong>, <strong>{currentData.city}</strong>
        </p>
        {currentData.changes.length > 0 ? (
          <ul className="changes">
            {currentData.changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        ) : (
          <p className="hint">Nada muda: o QR code leva o nome e a cidade como você digitou.</p>
        )}
      </>
    );
  }

  return (
    <div className="preview">
      <p className="preview-title">Como vai aparecer no QR code</p>
      <div aria-live="polite">{body}</div>
    </div>
  );
}
