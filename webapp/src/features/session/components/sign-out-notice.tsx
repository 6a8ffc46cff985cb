import { useAppSelector } from '@/hooks/store-hooks';
import type { SignOutReason } from '@/lib/credentials';
import { ERROR_MESSAGES } from '@/lib/error-messages';

import { selectSignOutReason } from '../stores/session-slice';

const NOTICES: Record<SignOutReason, string> = {
  user: 'Você saiu da sua conta.',
  'session-expired': 'Sua sessão expirou. Entre novamente.',
  'account-disabled': ERROR_MESSAGES['user-disabled'],
  'account-deleted': 'Sua conta foi excluída. Obrigado por ter usado o Balcão.',
};

/** Endings the person chose: told as a notice, not as an error. */
const CHOSEN: ReadonlySet<SignOutReason> = new Set(['user', 'account-deleted']);

/** On the sign-in page: why the last session ended, if it did. */
export function SignOutNotice() {
  const reason = useAppSelector(selectSignOutReason);
  if (reason === null) return null;
  return (
    <p className={CHOSEN.has(reason) ? 'notice' : 'alert error'} role="status">
      {NOTICES[reason]}
    </p>
  );
}
