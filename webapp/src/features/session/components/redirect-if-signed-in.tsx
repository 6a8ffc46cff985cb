import { type ReactNode, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';

import { PageStatus } from '@/components/page-status';
import { paths } from '@/config/paths';
import { useAppSelector } from '@/hooks/store-hooks';
import { safeContinuePath } from '@/utils/continue-path';

import { selectSessionStatus } from '../stores/session-slice';

export interface RedirectIfSignedInProps {
  children: ReactNode;
  /** Where to go when the visitor signs in on this page (sign-up goes to the welcome guide). */
  afterSignIn?: string;
}

/**
 * For /entrar and /criar-conta: a visitor who is already signed in goes to `?continuar=` (or the
 * dashboard); one who signs in here goes to `?continuar=` when there is one, otherwise to
 * `afterSignIn` (by default the dashboard).
 */
export function RedirectIfSignedIn({ children, afterSignIn }: RedirectIfSignedInProps) {
  const status = useAppSelector(selectSessionStatus);
  const [searchParams] = useSearchParams();
  // Whether this page has seen the visitor signed out, i.e. any sign-in from now on happened here.
  const [sawSignedOut, setSawSignedOut] = useState(status === 'signed-out');
  if (status === 'signed-out' && !sawSignedOut) setSawSignedOut(true);

  if (status === 'restoring') {
    return <PageStatus>Carregando…</PageStatus>;
  }
  if (status === 'signed-in') {
    const requested = safeContinuePath(searchParams.get(paths.continueParam));
    // A visitor who came here on their way somewhere (an invitation link, say) goes there, even
    // right after creating the account: the welcome guide is only for a sign-up with no errand.
    if (requested !== null) return <Navigate to={requested} replace />;
    return <Navigate to={sawSignedOut && afterSignIn ? afterSignIn : paths.panel.home} replace />;
  }
  return children;
}
