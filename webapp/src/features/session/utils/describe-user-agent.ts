// "Chrome no Android" instead of a 150-character User-Agent string. Only the common browsers and
// systems are named; anything else reads as an unknown browser (the list is for recognising your
// own devices, not for fingerprinting).

const BROWSERS: readonly [RegExp, string][] = [
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Edg(A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

const find = (table: readonly [RegExp, string][], userAgent: string) =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1];

/** `"Mozilla/5.0 (Linux; Android 14; …) Chrome/130…"` → `"Chrome no Android"`. */
export function describeUserAgent(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Navegador desconhecido';
  const browser = find(BROWSERS, userAgent);
  const system = find(SYSTEMS, userAgent);
  if (browser && system) return `${browser} no ${system}`;
  return browser ?? (system ? `Navegador no ${system}` : 'Navegador desconhecido');
}
