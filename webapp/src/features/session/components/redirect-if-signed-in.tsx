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
 * For /entrar and /criar-conta: a visitor who is already signed in goes to the dashboard (or to
 * `?continuar=`); one who signs in here goes to `afterSignIn` (by default the same place).
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
    const continueTo = safeContinuePath(searchParams.get(paths.continueParam)) ?? paths.panel.home;
    return <Navigate to={sawSignedOut && afterSignIn ? afterSignIn : continueTo} replace />;
  }
  return children;
}
