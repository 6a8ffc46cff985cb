import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { BreakableText } from './breakable-text';

function rendered(text: string) {
  const { container } = render(
    <p>
      <BreakableText text={text} />
    </p>,
  );
  return container.querySelector('p') as HTMLParagraphElement;
}

describe('BreakableText', () => {
  it('lets an e-mail break before the at sign only', () => {
    const shown = rendered('caixa@bardarita.com.br');
    expect(shown.innerHTML).toBe('caixa<wbr>@bardarita.com.br');
    expect(shown.textContent).toBe('caixa@bardarita.com.br');
  });

  it('leaves a text with no joints as it is', () => {
    const shown = rendered('KEAC3YSFDAPWTYAJ');
    expect(shown.innerHTML).toBe('KEAC3YSFDAPWTYAJ');
  });

  it('lets a random key break after its hyphens and a link after its slashes', () => {
    const shown = rendered('123e4567-e89b-12d3');
    expect(shown.innerHTML).toBe('123e4567-<wbr>e89b-<wbr>12d3');
    expect(rendered('balcao.app/pagar/abc').innerHTML).toBe('balcao.app/<wbr>pagar/<wbr>abc');
  });
});
