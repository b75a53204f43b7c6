import { Fragment } from 'react';

export interface Part {
  text: string;
  match: boolean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` cut where `keyword` occurs (letters compared without case). */
export function highlightParts(text: string, keyword: string): Part[] {
  if (!keyword) return [{ text, match: false }];
  const pattern = new RegExp(`(${escapeRegExp(keyword)})`, 'giu');
  return text
    .split(pattern)
    .filter((piece) => piece !== '')
    .map((piece) => ({ text: piece, match: piece.toLowerCase() === keyword.toLowerCase() }));
}

/** `text` with each occurrence of `keyword` marked. Text nodes only: markup in either stays text. */
export function Highlight({ text, keyword }: { text: string; keyword: string }) {
  return (
    <>
      {highlightParts(text, keyword).map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>,
      )}
    </>
  );
}
