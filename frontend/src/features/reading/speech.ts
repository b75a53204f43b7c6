// 语音朗读: the page's main text read aloud by the browser's own speech engine (Web Speech API), in
// Chinese. Its own chunk, loaded the first time the visitor presses the button.

/** Longest piece handed to the engine at once: Chrome's engines stop in the middle of long ones. */
const MAX_PIECE = 120;

/**
 * The text cut into pieces the engine reads whole: by paragraph, then after each sentence's end
 * (。！？；), sentences joined while they fit, a sentence too long cut at its commas, then hard.
 */
export function speechChunks(text: string, max: number = MAX_PIECE): string[] {
  const pieces: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    const clean = paragraph.replace(/\s+/g, ' ').trim();
    if (!clean) continue;
    const sentences = clean.match(/[^。！？；!?;]+[。！？；!?;]*\s*/g) ?? [clean];
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
        for (let i = 0; i < clause.length; i += max) {
          const part = clause.slice(i, i + max);
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
 * Reads `root`'s text in zh-CN with `voice` (or the engine's Chinese default); `onDone` when the
 * last piece has been read or the engine failed. Returns the function that stops it (no `onDone`).
 */
export function readAloud(root: HTMLElement, voice: SpeechSynthesisVoice | null, onDone: () => void): () => void {
  const synth = window.speechSynthesis;
  synth.cancel();
  const pieces = speechChunks(visibleText(root));
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
    utterance.lang = 'zh-CN';
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
