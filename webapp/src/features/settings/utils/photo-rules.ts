// The same limits the server enforces on `PUT /api/account/photo`, checked before uploading so a
// wrong file is refused at once (the server still checks the bytes themselves).

import { ERROR_MESSAGES } from '@/lib/error-messages';

/** 1 MiB. */
export const MAX_PHOTO_BYTES = 1024 * 1024;

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Why `file` cannot be the photo, or null when it can. */
export function checkPhoto(file: { type: string; size: number }): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return ERROR_MESSAGES['unsupported-photo-type'];
  if (file.size > MAX_PHOTO_BYTES) return ERROR_MESSAGES['photo-too-large'];
  return null;
}
