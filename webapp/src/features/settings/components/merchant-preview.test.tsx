import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '@/testing/test-utils';

import { MerchantPreview } from './merchant-preview';

/** As the create form does: mounted empty, filled from the settings a moment later. */
function Prefilled() {
  const [[name, city], setValues] = useState(['', '']);
  return (
    <>
      <button type="button" onClick={() => setValues(['Loja da Bia', 'Recife'])}>
        Preencher
      </button>
      <MerchantPreview name={name} city={city} />
    </>
  );
}

describe('MerchantPreview', () => {
  it('says a name and a city filled in a moment ago are being checked, never to fill them in', () => {
    renderWithProviders(<Prefilled />);
    fireEvent.click(screen.getByRole('button', { name: 'Preencher' }));
    expect(screen.getByText('Conferindo…')).toBeInTheDocument();
    expect(screen.queryByText(/Preencha o nome e a cidade/)).not.toBeInTheDocument();
  });

  it('asks for the name and the city while either is empty', () => {
    renderWithProviders(<MerchantPreview name="Loja da Bia" city=" " />);
    expect(screen.getByText(/Preencha o nome e a cidade/)).toBeInTheDocument();
  });
});
