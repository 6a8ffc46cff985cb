import type { ReactNode } from 'react';

/** A short, announced line while something loads: "Carregando sua conta…". */
export function PageStatus({ children }: { children: ReactNode }) {
  return (
    <p className="page-status" role="status">
      {children}
    </p>
  );
}
