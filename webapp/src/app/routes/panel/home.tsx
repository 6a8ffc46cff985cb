import { Link } from 'react-router';

import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { EmailVerificationNotice } from '@/features/session/components/email-verification-notice';
import { Greeting } from '@/features/session/components/greeting';

/** /painel */
export function Component() {
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Painel</PageTitle>
      <Greeting />
      <EmailVerificationNotice />
      <h2>Por onde começar</h2>
      <ul className="cards">
        <li className="card">
          <h3>
            <Link to={paths.panel.createQrCode}>Criar placa Pix</Link>
          </h3>
          <p>Crie o QR code da sua chave Pix nesta conta e baixe a placa para imprimir.</p>
        </li>
        <li className="card">
          <h3>
            <Link to={paths.panel.welcome}>Primeiros passos</Link>
          </h3>
          <p>O guia para criar o primeiro QR code com a sua chave Pix e imprimir a placa.</p>
        </li>
        <li className="card">
          <h3>
            <Link to={paths.panel.faq}>Dúvidas</Link>
          </h3>
          <p>Respostas às perguntas mais comuns sobre o Balcão e o Pix.</p>
        </li>
      </ul>
    </section>
  );
}
