import { useGetMeQuery } from '../api/get-me';

/** "Olá, Ana" — the first name when the account has one. */
export function Greeting() {
  const { data: user } = useGetMeQuery();
  const firstName = user?.displayName?.trim().split(/\s+/)[0];
  return (
    <h1 id="titulo-tela" tabIndex={-1}>
      {firstName ? `Olá, ${firstName}` : 'Seu painel'}
    </h1>
  );
}
