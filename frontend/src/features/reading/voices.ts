// Whether the browser can read Chinese aloud: 语音朗读 is offered only then. Browsers load their
// voices late (Chrome's list is empty until `voiceschanged`), so the answer is a subscription.
import { useSyncExternalStore } from 'react';

const synth = (): SpeechSynthesis | undefined =>
  typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : undefined;

/** The best Chinese voice: Mandarin in simplified script first, any Chinese one otherwise. */
export function chineseVoice(voices: readonly SpeechSynthesisVoice[]): SpeechSynthesisVoice | null {
  const lang = (v: SpeechSynthesisVoice) => v.lang.replace('_', '-').toLowerCase();
  const chinese = voices.filter((v) => lang(v) === 'zh' || lang(v).startsWith('zh-') || lang(v) === 'cmn' || lang(v).startsWith('cmn-'));
  return (
    chinese.find((v) => lang(v) === 'zh-cn' || lang(v) === 'cmn-cn' || lang(v).includes('hans')) ??
    chinese.find((v) => !/hk|yue/.test(lang(v))) ??
    chinese[0] ??
    null
  );
}

/** The Chinese voice the browser has now, if any. */
export function currentChineseVoice(): SpeechSynthesisVoice | null {
  const engine = synth();
  if (!engine || typeof window.SpeechSynthesisUtterance !== 'function') return null;
  try {
    return chineseVoice(engine.getVoices());
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

/** Whether a Chinese voice is there; asked only while `active` (the toolbar's panel is open). */
export function useHasChineseVoice(active: boolean): boolean {
  return useSyncExternalStore(active ? subscribe : idle, () => active && currentChineseVoice() !== null, () => false);
}
