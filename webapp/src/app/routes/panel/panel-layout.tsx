import { AccountSummary } from '@/features/session/components/account-summary';
import { RequireSession } from '@/features/session/components/require-session';
import { SignOutButton } from '@/features/session/components/sign-out-button';
import { DashboardLayout } from '@/features/shell/components/dashboard-layout';

/** /painel/*: signed-in visitors only, inside the dashboard frame. */
export function Component() {
  return (
    <RequireSession>
      <DashboardLayout
        account={
          <>
            <AccountSummary />
            <SignOutButton />
          </>
        }
      />
    </RequireSession>
  );
}
