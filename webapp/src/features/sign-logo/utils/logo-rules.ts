/** What the server accepts as a sign logo (`domain::sign::logo`): checked here first, by the server again. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;

/** 2 MB, the server's limit. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

const EXTENSIONS = /\.(png|jpe?g|svg)$/i;

/** Why `file` cannot be a logo, or null when it can be sent. */
export function checkLogo(file: { name: string; type: string; size: number }): string | null {
  const typed = (LOGO_TYPES as readonly string[]).includes(file.type);
  if (!typed && !EXTENSIONS.test(file.name)) return 'Use um logotipo em PNG, JPEG ou SVG.';
  if (file.size === 0) return 'O arquivo está vazio. Escolha outra imagem.';
  if (file.size > MAX_LOGO_BYTES) return 'O logotipo passa de 2 MB. Escolha uma imagem menor.';
  return null;
}
