import { useState } from 'react';

export interface SecretOnceProps {
  /** The secret, shown here and nowhere else, ever. */
  secret: string;
  /** The copy button's label, e.g. "Copiar chave". */
  copyLabel: string;
  /** The same button once the secret is on the clipboard, e.g. "Chave copiada". */
  copiedLabel: string;
}

/**
 * A secret the server shows once (an API key, a webhook's signing secret): in full, breaking
 * anywhere on a phone, with a button that copies it. A new secret starts uncopied (give the
 * component the secret's id as its `key`).
 */
export function SecretOnce({ secret, copyLabel, copiedLabel }: SecretOnceProps) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <p className="secret">
        <code>{secret}</code>
      </p>
      <p className="actions">
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            void navigator.clipboard.writeText(secret).then(() => setCopied(true));
          }}
        >
          {copied ? copiedLabel : copyLabel}
        </button>
      </p>
    </>
  );
}
