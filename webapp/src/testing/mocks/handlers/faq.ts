// The gateway's `GET /api/faq`, with two questions of the real page.

import { HttpResponse, http } from 'msw';

export const FAKE_FAQ = {
  title: 'Perguntas frequentes sobre o Balcão e o Pix',
  bodyHtml:
    '<h2>O que é o Balcão?</h2><p>É um site para fazer QR codes Pix e placas Pix para imprimir.</p>' +
    '<h2>Preciso criar conta?</h2><p>Não. Em <a href="/criar-placa-pix">Criar placa Pix</a> você faz o código sem cadastro.</p>',
};

export const faqHandlers = [http.get('/api/faq', () => HttpResponse.json(FAKE_FAQ))];
