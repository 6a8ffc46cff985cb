import type { ReactNode } from 'react';

/** The form-level message (a refused sign-in, no network…), announced as soon as it appears. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div className="alert error" role="alert">
      {children}
    </div>
  );
}
