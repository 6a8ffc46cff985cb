import { useState } from 'react';

import { useNewVersion } from '../hooks/use-new-version';

/**
 * Tells the user a new deploy is out, without interrupting: the live region is always in the page so
 * the message is announced when it appears.
 */
export function NewVersionBanner() {
  const available = useNewVersion();
  const [dismissed, setDismissed] = useState(false);
  const show = available && !dismissed;
  return (
    <div role="status" className={show ? 'update-banner' : undefined}>
      {show ? (
        <>
          <p>Uma nova versão do Balcão está disponível.</p>
          <button type="button" className="button small" onClick={() => window.location.reload()}>
            Recarregar
          </button>
          <button type="button" className="button small secondary" onClick={() => setDismissed(true)}>
            Agora não
          </button>
        </>
      ) : null}
    </div>
  );
}
