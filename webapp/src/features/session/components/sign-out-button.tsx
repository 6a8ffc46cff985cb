import { useState } from 'react';

import { useAppDispatch } from '@/hooks/store-hooks';
import { asApiError } from '@/lib/api-error';
import { signedOut } from '@/lib/credentials';
import { errorMessage } from '@/lib/error-messages';

import { useRevokeSessionMutation } from '../api/revoke-session';

/**
 * "Sair": revokes the session on the server first, so a shared phone is really signed out. If the
 * server cannot be reached the user stays signed in and is told so.
 */
export function SignOutButton({ allDevices = false }: { allDevices?: boolean }) {
  const dispatch = useAppDispatch();
  const [revoke, { isLoading }] = useRevokeSessionMutation();
  const [failure, setFailure] = useState<string | null>(null);

  const signOut = async () => {
    setFailure(null);
    try {
      await revoke({ allDevices }).unwrap();
    } catch (caught) {
      const error = asApiError(caught);
      // 401: the server already considers this session over.
      if (error.status !== 401) {
        setFailure(`Não foi possível sair. ${errorMessage(error)}`);
        return;
      }
    }
    dispatch(signedOut({ reason: 'user' }));
  };

  return (
    <div className="sign-out">
      <button type="button" className="button secondary small" onClick={() => void signOut()} disabled={isLoading}>
        {isLoading ? 'Saindo…' : allDevices ? 'Sair de todos os aparelhos' : 'Sair'}
      </button>
      {failure ? (
        <p className="field-error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
