import { Outlet, ScrollRestoration } from 'react-router';

import { useSessionLifecycle } from '@/features/session/hooks/use-session-lifecycle';
import { LoadingBar } from '@/features/shell/components/loading-bar';
import { NewVersionBanner } from '@/features/version-check/components/new-version-banner';

/** Around every page: the loading bar, the new-version banner, and the session's lifecycle. */
export function RootLayout() {
  useSessionLifecycle();
  return (
    <>
      <LoadingBar />
      <Outlet />
      <NewVersionBanner />
      <ScrollRestoration />
    </>
  );
}
