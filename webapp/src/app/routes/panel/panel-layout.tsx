import { AccountSummary } from '@/features/session/components/account-summary';
import { RequireSession } from '@/features/session/components/require-session';
import { SignOutButton } from '@/features/session/components/sign-out-button';
import { DashboardLayout } from '@/features/shell/components/dashboard-layout';
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/use-current-workspace';

/** The frame once signed in: the workspace in use decides the switcher and the menu. */
function SignedInLayout() {
  const { current } = useCurrentWorkspace();
  return (
    <DashboardLayout
      showExtraAccounts={current?.role !== 'operator'}
      account={
        <>
          <WorkspaceSwitcher />
          <AccountSummary />
          <SignOutButton />
        </>
      }
    />
  );
}

/** /painel/*: signed-in visitors only, inside the dashboard frame. */
export function Component() {
  return (
    <RequireSession>
      <SignedInLayout />
    </RequireSession>
  );
}
