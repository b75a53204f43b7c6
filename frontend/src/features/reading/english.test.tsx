// 关怀版 on the English pages: "Accessibility mode", its aids in English, and 语音朗读 in an
// English voice.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';

import { setLocale } from '../../lib/locale';
import { guideSettled, setPrefs, DEFAULT_PREFS } from './prefs';
import { ReadingToolbar } from './reading-toolbar';
import { speechChunks } from './speech';
import { englishVoice, voiceFor } from './voices';

const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

const entry = () => document.querySelector<HTMLElement>('summary.reading__toggle')!;
const isOpen = () => (entry().parentElement as HTMLDetailsElement).open;

class FakeUtterance {
  lang = '';
  voice: unknown = null;
  rate = 1;
  onend: (() => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  constructor(public text: string) {}
}
const voice = (lang: string, name = lang) => ({ lang, name, voiceURI: name }) as SpeechSynthesisVoice;

let synth: EventTarget & { voices: SpeechSynthesisVoice[]; spoken: FakeUtterance[]; getVoices: () => SpeechSynthesisVoice[]; speak: jest.Mock; cancel: jest.Mock };

beforeEach(() => {
  setLocale('en');
  synth = Object.assign(new EventTarget(), {
    voices: [] as SpeechSynthesisVoice[],
    spoken: [] as FakeUtterance[],
    getVoices: () => synth.voices,
    speak: jest.fn((u: FakeUtterance) => synth.spoken.push(u)),
    cancel: jest.fn(),
  });
  Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: synth });
  Object.defineProperty(window, 'SpeechSynthesisUtterance', { configurable: true, value: FakeUtterance });
});
afterEach(async () => {
  setLocale('zh');
  setPrefs(DEFAULT_PREFS);
  await guideSettled();
  window.localStorage.clear();
  Reflect.deleteProperty(window, 'speechSynthesis');
  Reflect.deleteProperty(window, 'SpeechSynthesisUtterance');
});

it("is the Accessibility mode, its panel in English in the server's markup too", async () => {
  const host = document.createElement('div');
  host.innerHTML = renderToString(<ReadingToolbar />);
  expect(host.textContent).not.toMatch(CJK);
  expect(host.querySelector('summary')).toHaveTextContent(/^Accessibility mode$/);

  synth.voices = [voice('zh-CN'), voice('en-US', 'Samantha')];
  const { container } = render(
    <>
      <ReadingToolbar />
      <main id="main-content">
        <p>We run freight trains to Europe. They leave every day.</p>
      </main>
    </>,
  );
  await userEvent.click(entry());
  await waitFor(() => expect(isOpen()).toBe(true));
  const panel = screen.getByRole('group', { name: 'Accessibility settings' });
  const names = (group: string) => within(within(panel).getByRole('group', { name: group })).getAllByRole('button').map((b) => b.textContent);
  expect(names('Text size')).toEqual(['Standard', 'Large', 'Extra large']);
  expect(names('Page zoom')).toEqual(['100%', '125%', '150%']);
  expect(names('Reading aids')).toEqual(['High contrast', 'Wider line spacing', 'Large cursor', 'Crosshair', 'Read aloud']);
  expect(within(panel).getByRole('link', { name: 'Accessibility statement' })).toHaveAttribute('href', '/portal/en/accessibility');
  await userEvent.click(screen.getByRole('button', { name: 'Large' }));
  expect(entry()).toHaveTextContent(/^Accessibility mode \(aids on\)$/);
  expect(screen.getByRole('button', { name: 'Reset' })).toBeEnabled();

  // Read aloud: in English, with the English voice.
  await userEvent.click(screen.getByRole('button', { name: 'Read aloud' }));
  await waitFor(() => expect(synth.speak).toHaveBeenCalled());
  expect(synth.spoken.map((u) => u.text).join(' ')).toBe('We run freight trains to Europe. They leave every day.');
  expect(synth.spoken.every((u) => u.lang === 'en-GB' && (u.voice as SpeechSynthesisVoice).name === 'Samantha')).toBe(true);
  act(() => synth.spoken.at(-1)!.onend!());

  for (const el of container.querySelectorAll('*')) {
    if (el.closest('main')) continue;
    expect(el.getAttribute('aria-label') ?? '').not.toMatch(CJK);
  }
  expect(container.querySelector('.reading')!.textContent).not.toMatch(CJK);
});

it('offers reading aloud only with an English voice, British first', () => {
  expect(englishVoice([voice('zh-CN'), voice('fr-FR')])).toBeNull();
  expect(englishVoice([voice('en-AU'), voice('en-US'), voice('en_GB')])!.lang).toBe('en_GB');
  expect(englishVoice([voice('en-AU'), voice('en-US')])!.lang).toBe('en-US');
  expect(englishVoice([voice('en-IN')])!.lang).toBe('en-IN');
  expect(voiceFor([voice('zh-CN'), voice('en-US')], 'en')!.lang).toBe('en-US');
  expect(voiceFor([voice('zh-CN'), voice('en-US')], 'zh')!.lang).toBe('zh-CN');
});

it('cuts English text at full stops and between words, never inside one', () => {
  const sentence = 'Trains run to Hamburg, Łódź and Budapest every week at 3.5 km per minute. ';
  const text = `Title\n\n${sentence.repeat(6)}\n${'averyveryverylongword '.repeat(12)}`;
  const pieces = speechChunks(text, 80, 'en');
  expect(pieces[0]).toBe('Title');
  expect(pieces.every((p) => p.length <= 80)).toBe(true);
  expect(pieces.slice(1, 7).every((p) => p.endsWith('minute.'))).toBe(true);
  expect(pieces.slice(7).every((p) => /^(averyveryverylongword ?)+$/.test(p))).toBe(true);
  expect(pieces.join(' ').replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' ').trim());
});
