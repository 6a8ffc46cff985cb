import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

import { ClaimSign } from '@/features/sign-claim/components/claim-sign';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/use-current-workspace';
import { workspaceSelected } from '@/features/workspaces/stores/workspace-slice';
import { useAppDispatch } from '@/hooks/store-hooks';

/** /painel/salvar-placa?placa=…&chave=… ("Salvar na minha conta" on a visitor's sign page), into the person's own account. */
export function Component() {
  const [searchParams] = useSearchParams();
  const dispatch = useAppDispatch();
  const { workspaces } = useCurrentWorkspace();
  const own = workspaces.find((workspace) => workspace.role === 'owner');
  const onSaved = useCallback((accountId: string) => dispatch(workspaceSelected(accountId)), [dispatch]);
  return (
    <ClaimSign
      qrCodeId={searchParams.get('placa')}
      token={searchParams.get('chave')}
      ownAccountId={own?.accountId}
      onSaved={onSaved}
    />
  );
}
