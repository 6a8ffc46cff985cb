import { useEffect } from 'react';
import { useRouteError } from 'react-router';

import { InternalError } from '@/components/internal-error';

/** The router's error element: a screen crashed or its code could not be downloaded. */
export function RootError() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Erro ao mostrar a tela', error);
  }, [error]);
  return <InternalError />;
}
