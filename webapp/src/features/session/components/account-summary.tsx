import { useGetMeQuery } from '../api/get-me';

/** Who is signed in, for the dashboard header. */
export function AccountSummary() {
  const { data: user } = useGetMeQuery();
  if (user === undefined) return null;
  return (
    <p className="account-summary">
      <span className="visually-hidden">Conta: </span>
      <span className="account-name">{user.displayName ?? user.email}</span>
      {user.displayName ? <span className="account-email">{user.email}</span> : null}
    </p>
  );
}
