import type { ReactNode } from 'react';

import { FormOutcome } from './form-outcome';

/**
 * The form-level message (a refused sign-in, no network…), announced as soon as it appears. After a
 * submit (`takeFocus`) it also takes the focus and scrolls into view, so a phone shows it.
 */
export function FormAlert({ children, takeFocus = false }: { children: ReactNode; takeFocus?: boolean }) {
  if (takeFocus) return <FormOutcome kind="alert">{children}</FormOutcome>;
  return (
    <div className="alert error" role="alert">
      {children}
    </div>
  );
}
