import { useState } from 'react';

import { useDebouncedValue } from '@/hooks/use-debounced-value';

import type { SignChoices } from '../api/signs';
import { MAX_FOOTER, MAX_HEADLINE, signFile } from '../utils/sign-options';

/** How long the choices must stay still before the preview asks the server again. */
export const PREVIEW_DELAY_MS = 400;

/** Text over the sign's limit is left out of the preview (the form refuses it on submit). */
const within = (text: string | null, max: number) =>
  text !== null && Array.from(text.trim()).length > max ? null : text;

/**
 * The sign as it prints: the real SVG of the sign routes (`/placas/{id}.svg?…`), logo included, in an
 * `<img>`, asked again once the choices have settled.
 */
export function SignPreview({ qrcodeId, choices }: { qrcodeId: string | null; choices: SignChoices }) {
  const wanted =
    qrcodeId === null || qrcodeId === ''
      ? null
      : signFile(qrcodeId, 'svg', {
          ...choices,
          headline: within(choices.headline, MAX_HEADLINE),
          footer: within(choices.footer, MAX_FOOTER),
        });
  const url = useDebouncedValue(wanted, PREVIEW_DELAY_MS);
  // Which address finished loading, or failed: the state of another address is not this one's.
  const [settled, setSettled] = useState<{ url: string; ok: boolean } | null>(null);

  if (url === null) {
    return (
      <div className="sign-preview empty">
        <p>Escolha um QR code para ver a prévia da placa.</p>
      </div>
    );
  }
  const failed = settled?.url === url && !settled.ok;
  const loading = settled?.url !== url || wanted !== url;
  return (
    <figure className="sign-preview" aria-busy={loading}>
      <img
        key={url}
        src={url}
        alt="Prévia da placa, exatamente como ela será impressa"
        data-preview-url={url}
        onLoad={() => setSettled({ url, ok: true })}
        onError={() => setSettled({ url, ok: false })}
      />
      <figcaption aria-live="polite">
        {failed
          ? 'Não foi possível mostrar a prévia agora. A placa salva sai com as escolhas acima.'
          : loading
            ? 'Atualizando a prévia…'
            : 'Prévia: é exatamente o que será impresso.'}
      </figcaption>
    </figure>
  );
}
