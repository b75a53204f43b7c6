// Whether the browser can read the page's language aloud (Chinese, or English on the English
// pages): 语音朗读 is offered only then. Browsers load their voices late (Chrome's list is empty
// until `voiceschanged`), so the answer is a subscription.
import { useSyncExternalStore } from 'react';

import { locale, type Locale } from '../../lib/locale';

const synth = (): SpeechSynthesis | undefined =>
  typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : undefined;

/** A voice's language, one spelling: `zh_CN` and `zh-CN` as `zh-cn`. */
const langOf = (v: SpeechSynthesisVoice) => v.lang.replace('_', '-').toLowerCase();

/** The best Chinese voice: Mandarin in simplified script first, any Chinese one otherwise. */
export function chineseVoice(voices: readonly SpeechSynthesisVoice[]): SpeechSynthesisVoice | null {
  const lang = langOf;
  const chinese = voices.filter((v) => lang(v) === 'zh' || lang(v).startsWith('zh-') || lang(v) === 'cmn' || lang(v).startsWith('cmn-'));
  return (
    chinese.find((v) => lang(v) === 'zh-cn' || lang(v) === 'cmn-cn' || lang(v).includes('hans')) ??
    chinese.find((v) => !/hk|yue/.test(lang(v))) ??
    chinese[0] ??
    null
  );
}

/** The best English voice: British first (the English pages' spelling), then American, then any. */
export function englishVoice(voices: readonly SpeechSynthesisVoice[]): SpeechSynthesisVoice | null {
  const english = voices.filter((v) => langOf(v) === 'en' || langOf(v).startsWith('en-'));
  return english.find((v) => langOf(v) === 'en-gb') ?? english.find((v) => langOf(v) === 'en-us') ?? english[0] ?? null;
}

/** The best voice for a language's pages. */
export const voiceFor = (voices: readonly SpeechSynthesisVoice[], of: Locale = locale()): SpeechSynthesisVoice | null =>
  of === 'en' ? englishVoice(voices) : chineseVoice(voices);

/** The voice for the page's language the browser has now, if any. */
export function currentVoice(): SpeechSynthesisVoice | null {
  const engine = synth();
  if (!engine || typeof window.SpeechSynthesisUtterance !== 'function') return null;
  try {
    return voiceFor(engine.getVoices());
  } catch {
    return null;
  }
}

const subscribe = (listener: () => void) => {
  const engine = synth();
  engine?.addEventListener?.('voiceschanged', listener);
  return () => engine?.removeEventListener?.('voiceschanged', listener);
};
const idle = () => () => {};

/** Whether a voice for the page's language is there; asked only while `active` (the toolbar's panel is open). */
export function useHasVoice(active: boolean): boolean {
  return useSyncExternalStore(active ? subscribe : idle, () => active && currentVoice() !== null, () => false);
}
