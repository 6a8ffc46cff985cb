import type { UploadedFile } from '../api/bank-connections';

/** The largest certificate file taken (the server's limit too): banks' files are a few KB. */
export const MAX_CERTIFICATE_BYTES = 64 * 1024;

/** A chosen file as the connect call takes it: its name and its bytes in base64. */
export async function readUpload(file: File): Promise<UploadedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { name: file.name, base64: btoa(binary) };
}

/** Whether a file name says PEM text (which may need its key in a second file), not a `.p12`/`.pfx`. */
export function isPemName(name: string): boolean {
  return !/\.(p12|pfx)$/i.test(name.trim());
}
