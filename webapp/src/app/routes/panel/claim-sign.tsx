import { useSearchParams } from 'react-router';

import { ClaimSign } from '@/features/sign-claim/components/claim-sign';

/** /painel/salvar-placa?placa=…&chave=… ("Salvar na minha conta" on a visitor's sign page). */
export function Component() {
  const [searchParams] = useSearchParams();
  return <ClaimSign qrCodeId={searchParams.get('placa')} token={searchParams.get('chave')} />;
}
