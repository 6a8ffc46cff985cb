import { Link } from 'react-router';

import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';

/** /painel/boas-vindas, right after sign-up: the three first steps. */
export function WelcomeGuide() {
  return (
    <section aria-labelledby="titulo-tela" className="welcome">
      <PageTitle>Boas-vindas</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Boas-vindas ao Balcão
      </h1>
      <p className="lead">Sua conta está pronta. Três passos para começar a receber por Pix:</p>
      <ol className="steps">
        <li>
          <h2>Cadastre sua chave Pix</h2>
          <p>É a chave da conta onde você recebe: CPF, CNPJ, e-mail, celular ou chave aleatória.</p>
          <Link to={paths.panel.keys}>Cadastrar chave Pix</Link>
        </li>
        <li>
          <h2>Crie seu primeiro QR code</h2>
          <p>Com um valor fixo ou deixando quem paga digitar o valor.</p>
          <Link to={paths.panel.createQrCode}>Criar QR code</Link>
        </li>
        <li>
          <h2>Imprima sua primeira placa Pix</h2>
          <p>
            Uma placa no balcão para o cliente pagar pelo app do banco, com o dinheiro indo direto para a sua conta.
          </p>
          <Link to={paths.panel.createQrCode}>Criar placa Pix</Link>
        </li>
      </ol>
      <p>
        <Link className="button" to={paths.panel.home}>
          Ir para o painel
        </Link>
      </p>
    </section>
  );
}
