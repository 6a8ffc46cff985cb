import { type ChangeEvent, useId, useState } from 'react';

import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useUploadPhotoMutation } from '../api/upload-photo';
import { PHOTO_TYPES, checkPhoto } from '../utils/photo-rules';

/**
 * The account's photo and a file input to replace it. The file is checked here first (type and
 * size, the server's own limits) and sent as soon as it is chosen.
 */
export function PhotoUpload({ photoURL }: { photoURL: string | null }) {
  const [upload, { isLoading }] = useUploadPhotoMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const id = useId();
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    setDone(false);
    if (file === undefined) return;
    const found = checkPhoto(file);
    setProblem(found);
    if (found === null) {
      try {
        await upload(file).unwrap();
        setDone(true);
      } catch (caught) {
        setProblem(errorMessage(asApiError(caught)));
      }
    }
    // The same file can be chosen again after fixing whatever went wrong.
    input.value = '';
  };

  return (
    <div className="photo">
      {photoURL ? (
        <img className="photo-preview" src={photoURL} alt="Sua foto" width={96} height={96} />
      ) : (
        <p className="photo-preview empty">Sem foto</p>
      )}
      <div className={problem ? 'field invalid' : 'field'}>
        <label htmlFor={id}>{photoURL ? 'Trocar a foto' : 'Escolher uma foto'}</label>
        <input
          id={id}
          type="file"
          accept={PHOTO_TYPES.join(',')}
          disabled={isLoading}
          aria-invalid={problem ? true : undefined}
          aria-describedby={[hintId, problem ? errorId : null].filter(Boolean).join(' ')}
          onChange={(event) => void choose(event)}
        />
        <p id={hintId} className="hint">
          JPEG, PNG ou WebP, até 1 MB.
        </p>
        {problem ? (
          <p id={errorId} className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        {isLoading ? <p role="status">Enviando a foto…</p> : null}
        {done ? (
          <p className="notice" role="status">
            Foto atualizada.
          </p>
        ) : null}
      </div>
    </div>
  );
}
