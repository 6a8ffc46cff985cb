import type { ReactNode } from 'react';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { errorMessage } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';

import { useCurrentWorkspace } from '../hooks/use-current-workspace';

export interface WithWorkspaceProps {
  /** The screen's title, shown while the workspaces load or if they cannot. */
  title: string;
  children: (workspace: CurrentWorkspace) => ReactNode;
}

/** Renders a screen that acts on an account once it is known which account that is. */
export function WithWorkspace({ title, children }: WithWorkspaceProps) {
  const { current, isLoading, error, refetch } = useCurrentWorkspace();
  if (current !== undefined) return children(current);
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>{title}</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        {title}
      </h1>
      {isLoading || error === undefined ? (
        <PageStatus>Carregando…</PageStatus>
      ) : (
        <>
          <FormAlert>Não foi possível carregar suas contas. {errorMessage(error)}</FormAlert>
          <button type="button" className="button" onClick={refetch}>
            Tentar de novo
          </button>
        </>
      )}
    </section>
  );
}
