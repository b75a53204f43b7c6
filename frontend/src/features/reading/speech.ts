// 语音朗读: the page's main text read aloud by the browser's own speech engine (Web Speech API), in
// the page's language (Chinese, or English on the English pages). Its own chunk, loaded the first
// time the visitor presses the button.
import { locale, type Locale } from '../../lib/locale';

/** Longest piece handed to the engine at once: Chrome's engines stop in the middle of long ones. */
const MAX_PIECE = 120;

/** A sentence of Chinese: up to its end (。！？；), whatever follows. */
const CHINESE_SENTENCE = /[^。！？；!?;]+[。！？；!?;]*\s*/g;
/** A sentence of English: up to a full stop before a space (not the point of 3.5 or of a.m.), or ! ? ;. */
const ENGLISH_SENTENCE = /(?:[^.!?;。！？；]|\.(?=[^\s.!?;]))+[.!?;。！？；]*\s*|[.!?;。！？；]+\s*/g;

/** `clause` in parts of at most `max` characters: hard, or in English at the last space that fits. */
function hardParts(clause: string, max: number, words: boolean): string[] {
  const parts: string[] = [];
  let rest = clause;
  while (rest.length > max) {
    const space = words ? rest.lastIndexOf(' ', max - 1) : -1;
    const at = space > 0 ? space + 1 : max;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest) parts.push(rest);
  return parts;
}

/**
 * The text cut into pieces the engine reads whole: by paragraph, then after each sentence's end
 * (。！？；, or in English . ! ? ;), sentences joined while they fit, a sentence too long cut at its
 * commas, then hard (in English between words).
 */
export function speechChunks(text: string, max: number = MAX_PIECE, of: Locale = locale()): string[] {
  const english = of === 'en';
  const pieces: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    const clean = paragraph.replace(/\s+/g, ' ').trim();
    if (!clean) continue;
    const sentences = clean.match(english ? ENGLISH_SENTENCE : CHINESE_SENTENCE) ?? [clean];
    let piece = '';
    const flush = () => {
      if (piece.trim()) pieces.push(piece.trim());
      piece = '';
    };
    for (const sentence of sentences) {
      if (piece.length + sentence.length <= max) {
        piece += sentence;
        continue;
      }
      flush();
      if (sentence.length <= max) {
        piece = sentence;
        continue;
      }
      // One long sentence: at its commas, and hard where a clause alone is too long.
      for (const clause of sentence.match(/[^，、,：:]+[，、,：:]*/g) ?? [sentence]) {
        if (piece.length + clause.length > max) flush();
        for (const part of hardParts(clause, max, english)) {
          if (piece.length + part.length > max) flush();
          piece += part;
        }
      }
      flush();
    }
    flush();
  }
  return pieces;
}

/** What a visitor sees of `root` as text (the rendered text; the DOM's text where there is none). */
function visibleText(root: HTMLElement): string {
  const rendered = root.innerText;
  return typeof rendered === 'string' ? rendered : (root.textContent ?? '');
}

/**
 * Reads `root`'s text in the page's language (zh-CN, or en-GB on the English pages) with `voice`
 * (or the engine's default for the language); `onDone` when the last piece has been read or the
 * engine failed. Returns the function that stops it (no `onDone`).
 */
export function readAloud(root: HTMLElement, voice: SpeechSynthesisVoice | null, onDone: () => void): () => void {
  const synth = window.speechSynthesis;
  synth.cancel();
  const pieces = speechChunks(visibleText(root));
  const lang = locale() === 'en' ? 'en-GB' : 'zh-CN';
  let stopped = false;
  const finish = () => {
    if (stopped) return;
    stopped = true;
    onDone();
  };
  if (pieces.length === 0) {
    finish();
    return () => {};
  }
  pieces.forEach((text, i) => {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = lang;
    if (voice) utterance.voice = voice;
    // A little slower than the engine's default, for older listeners.
    utterance.rate = 0.9;
    if (i === pieces.length - 1) utterance.onend = finish;
    utterance.onerror = (event) => {
      if (event.error === 'interrupted' || event.error === 'canceled') return;
      synth.cancel();
      finish();
    };
    synth.speak(utterance);
  });
  return () => {
    stopped = true;
    synth.cancel();
  };
}
