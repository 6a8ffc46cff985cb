import { Fragment } from 'react';

// Before "@" and after "/" and "-": where a reader expects an e-mail, a URL or a random key to go
// on to the next line ("caixa" / "@bardarita.com.br"). Not after dots: "bardarita.com." / "br"
// reads as a cut. `overflow-wrap: anywhere` on the container still breaks a piece too long for a
// line on its own, but no longer leaves "caixa@bardarita.com.b" and "r" on two lines.
const BREAKS = /(?=@)|(?<=[/-])/;

/** `text` with line-break opportunities (`<wbr>`) at its natural joints; its text is unchanged. */
export function BreakableText({ text }: { text: string }) {
  const pieces = text.split(BREAKS);
  return (
    <>
      {pieces.map((piece, at) => (
        // The pieces of one text never move, so their position is a stable key.
        <Fragment key={at}>
          {at > 0 ? <wbr /> : null}
          {piece}
        </Fragment>
      ))}
    </>
  );
}
