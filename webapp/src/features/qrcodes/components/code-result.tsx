import { useState } from 'react';

import { paths } from '@/config/paths';
import { formatCentavos } from '@/utils/money';

import type { QrCode } from '../api/list-qrcodes';

/**
 * PNG sizes offered for download, as the signs' endpoint takes them (`/placas/{id}.png`): the bare
 * code is an 8 cm square, so its side in pixels is 80 mm at the `dpi` asked (127 dpi: 400 px); the
 * whole A4 sign at 300 dpi is for printing.
 */
export const PNG_SIZES = [
  { value: 'modelo=codigo&dpi=127', label: 'Só o código, 400 × 400 px (celular, WhatsApp)' },
  { value: 'modelo=codigo&dpi=254', label: 'Só o código, 800 × 800 px' },
  { value: 'modelo=codigo&dpi=508', label: 'Só o código, 1600 × 1600 px (gráfica)' },
  { value: 'dpi=300', label: 'Placa A4 inteira, 2480 × 3508 px' },
] as const;

/** Downloads of a code's sign: PNG at a chosen size, SVG and a one-page PDF. */
export function CodeDownloads({ qrcode }: { qrcode: QrCode }) {
  const [size, setSize] = useState<string>(PNG_SIZES[1].value);
  const id = encodeURIComponent(qrcode.id);
  return (
    <div className="downloads">
      <label className="inline-field">
        Tamanho do PNG{' '}
        <select value={size} onChange={(event) => setSize(event.target.value)}>
          {PNG_SIZES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <p className="actions">
        <a href={`/placas/${id}.png?${size}`} download>
          Baixar PNG
        </a>
        <a href={`/placas/${id}.svg`} download>
          Baixar SVG
        </a>
        <a href={`/placas/${id}.pdf`} download>
          Baixar PDF
        </a>
      </p>
    </div>
  );
}

/** Share: the phone's share sheet when there is one, WhatsApp, and copying the payer page's link. */
export function CodeShare({ qrcode }: { qrcode: QrCode }) {
  const [copied, setCopied] = useState<string | null>(null);
  const url = qrcode.paymentUrl;
  const text = `Pague com Pix: ${url}`;
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const copy = async (value: string, what: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(`${what} copiado.`);
    } catch {
      setCopied('Não foi possível copiar. Selecione o texto e copie à mão.');
    }
  };
  return (
    <div className="share">
      <p className="actions">
        {canShare ? (
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              void navigator.share({ title: 'Pagamento com Pix', text, url }).catch(() => undefined);
            }}
          >
            Compartilhar
          </button>
        ) : null}
        <a href={`https://wa.me/?text=${encodeURIComponent(text)}`} target="_blank" rel="noopener noreferrer">
          Enviar pelo WhatsApp
        </a>
        <button type="button" className="button secondary" onClick={() => void copy(url, 'Link')}>
          Copiar link
        </button>
      </p>
      <p role="status" aria-live="polite" className="hint">
        {copied}
      </p>
    </div>
  );
}

/** A code just made: the QR, the copy text, downloads, share and the payer page. */
export function CodeResult({ qrcode }: { qrcode: QrCode }) {
  const [copied, setCopied] = useState(false);
  const amount = qrcode.amountCentavos === null ? 'Quem paga digita o valor' : formatCentavos(qrcode.amountCentavos);
  return (
    <article className="card code-result" aria-label="QR code criado">
      <h3>QR code criado</h3>
      {qrcode.qrSvg ? (
        // The server's own SVG (domain::qr), not text anyone typed.
        <div className="qr" role="img" aria-label="QR code Pix" dangerouslySetInnerHTML={{ __html: qrcode.qrSvg }} />
      ) : null}
      <dl className="facts">
        <dt>Quem recebe</dt>
        <dd>
          {qrcode.merchantName} · {qrcode.merchantCity}
        </dd>
        <dt>Valor</dt>
        <dd>{amount}</dd>
        {qrcode.description ? (
          <>
            <dt>Descrição</dt>
            <dd>{qrcode.description}</dd>
          </>
        ) : null}
        {qrcode.txid ? (
          <>
            <dt>Txid</dt>
            <dd className="key">{qrcode.txid}</dd>
          </>
        ) : null}
        {qrcode.singleUse === true ? (
          <>
            <dt>Uso único</dt>
            <dd>Um pagamento só: depois de pago, a página avisa que já foi pago.</dd>
          </>
        ) : null}
      </dl>
      <label className="copy-label">
        Pix Copia e Cola
        <textarea readOnly rows={3} value={qrcode.payload} />
      </label>
      <p className="actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            void navigator.clipboard.writeText(qrcode.payload).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          Copiar código
        </button>
        <a href={paths.server.payment(qrcode.id)}>Abrir a página de pagamento</a>
        <a href={paths.server.paymentSign(qrcode.id)}>Imprimir a placa</a>
        <a href={paths.panel.counter(qrcode.id)}>Modo balcão</a>
      </p>
      <p role="status" aria-live="polite" className="hint">
        {copied ? 'Código copiado.' : null}
      </p>
      <CodeDownloads qrcode={qrcode} />
      <CodeShare qrcode={qrcode} />
    </article>
  );
}
