// The sign's choices as the sign routes take them (`domain::sign` on the server: `Template`,
// `PaperSize`, `Theme`, their slugs and pt-BR labels), and the query that asks for them.

import type { SignChoices } from '../api/signs';

export const TEMPLATES = [
  { slug: 'classico', label: 'Clássico' },
  { slug: 'faixa', label: 'Faixa' },
  { slug: 'moldura', label: 'Moldura' },
  { slug: 'minimalista', label: 'Minimalista' },
  { slug: 'codigo', label: 'Só o QR code' },
] as const;

export const SIZES = [
  { slug: 'a4', label: 'A4 (21 × 29,7 cm)' },
  { slug: 'a5', label: 'A5 (14,8 × 21 cm)' },
  { slug: 'a6', label: 'A6 (10,5 × 14,8 cm)' },
  { slug: '10x15', label: 'Foto 10 × 15 cm' },
  { slug: 'display-de-mesa', label: 'Display de mesa (A4 dobrada)' },
  { slug: 'adesivos', label: 'Adesivos (6 por folha A4)' },
  { slug: 'quadrado', label: 'Quadrado 8 × 8 cm' },
] as const;

export const THEMES = [
  { slug: 'verde', label: 'Verde' },
  { slug: 'azul', label: 'Azul' },
  { slug: 'grafite', label: 'Grafite' },
  { slug: 'vinho', label: 'Vinho' },
] as const;

/** The sign routes' limits (`MAX_HEADLINE_CHARS`, `MAX_FOOTER_CHARS`), and the name's (`MAX_NAME_CHARS`). */
export const MAX_HEADLINE = 40;
export const MAX_FOOTER = 80;
export const MAX_SIGN_NAME = 60;

export const DEFAULT_CHOICES: SignChoices = {
  template: 'classico',
  size: 'a4',
  theme: 'verde',
  headline: null,
  footer: null,
  withLogo: true,
};

const label = (list: readonly { slug: string; label: string }[], slug: string) =>
  list.find((item) => item.slug === slug)?.label ?? slug;

export const templateLabel = (slug: string) => label(TEMPLATES, slug);
export const sizeLabel = (slug: string) => label(SIZES, slug);
export const themeLabel = (slug: string) => label(THEMES, slug);

/**
 * The query (with its `?`, or empty) asking the sign routes for `choices`, naming only what
 * differs from their defaults, as the server's `SignRequest::query` writes it.
 */
export function signQuery(choices: SignChoices): string {
  const query = new URLSearchParams();
  if (choices.template !== 'classico') query.append('modelo', choices.template);
  // Without `tamanho` the bare code prints on the square, every other design on A4.
  const defaultSize = choices.template === 'codigo' ? 'quadrado' : 'a4';
  if (choices.size !== defaultSize) query.append('tamanho', choices.size);
  if (choices.theme !== 'verde') query.append('tema', choices.theme);
  const headline = choices.headline?.trim();
  if (headline) query.append('titulo', headline);
  const footer = choices.footer?.trim();
  if (footer) query.append('rodape', footer);
  if (!choices.withLogo) query.append('logo', 'nao');
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** `/placas/{qrcodeId}.{format}` with `choices`. */
export function signFile(qrcodeId: string, format: 'pdf' | 'png' | 'svg', choices: SignChoices): string {
  return `/placas/${encodeURIComponent(qrcodeId)}.${format}${signQuery(choices)}`;
}
