import { useGetMeQuery } from '../api/get-me';

/** Reminds an account whose e-mail is not confirmed yet to open the link it was sent. */
export function EmailVerificationNotice() {
  const { data: user } = useGetMeQuery();
  if (user === undefined || user.emailVerified) return null;
  return (
    <div className="notice" role="status">
      <strong>Confirme seu e-mail.</strong> Abra o link de confirmação que enviamos para {user.email}.
    </div>
  );
}
