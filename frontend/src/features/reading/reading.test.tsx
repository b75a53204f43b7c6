import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { act, render, screen, waitFor, within } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import userEvent from '@testing-library/user-event';
import { navigate } from 'wouter/use-browser-location';

import { STORAGE_KEYS } from '../../lib/storage';
import { startCrosshair } from './crosshair';
import { applyPrefs, guideSettled, parsePrefs, setPrefs, DEFAULT_PREFS, type ReadingPrefs } from './prefs';
import { ReadingToolbar } from './reading-toolbar';
import { speechChunks } from './speech';
import { chineseVoice } from './voices';

/** The inline script of public/index.html, which applies the stored choice before the app loads. */
const html = readFileSync(join(__dirname, '../../../public/index.html'), 'utf8');
const inline = /<script>([^<]*)<\/script>/.exec(html)![1];

// All of them before the first paint: the gateway draws the page's top before the app runs.
const PAINT_ATTRIBUTES = ['data-text-size', 'data-contrast', 'data-spacing', 'data-zoom', 'data-cursor'];
const ALL_ATTRIBUTES = PAINT_ATTRIBUTES;
const attributes = (el: HTMLElement, names = PAINT_ATTRIBUTES) => Object.fromEntries(names.map((a) => [a, el.getAttribute(a)]));
const clearAttributes = () => ALL_ATTRIBUTES.forEach((a) => document.documentElement.removeAttribute(a));
const guide = () => document.querySelector('svg[data-reading-guide]');

afterEach(async () => {
  setPrefs(DEFAULT_PREFS);
  await guideSettled();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

/** The 关怀版 entry: the <summary> of the toolbar's <details>, and whether that is open. */
const entry = () => document.querySelector<HTMLElement>('summary.reading__toggle')!;
const isOpen = () => (entry().parentElement as HTMLDetailsElement).open;
const openEntry = async () => {
  await userEvent.click(entry());
  await waitFor(() => expect(isOpen()).toBe(true));
};

describe('the 关怀版 entry works before the app runs', () => {
  it("is a <details> in the server's markup, its panel inside and closed", () => {
    const markup = renderToString(<ReadingToolbar />);
    const host = document.createElement('div');
    host.innerHTML = markup;
    const details = host.querySelector('details.reading') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')).toHaveTextContent(/^关怀版$/);
    const panel = details.querySelector('[role="group"][aria-label="关怀版设置"]')!;
    expect([...panel.querySelectorAll('button')].map((b) => b.textContent)).toEqual(
      expect.arrayContaining(['标准', '大', '特大', '100%', '125%', '150%', '高对比度', '重置']),
    );
  });

  it('opened by the browser before hydration, it is the app\'s open panel: Escape closes it, focus back on the entry', async () => {
    const host = document.body.appendChild(document.createElement('div'));
    host.innerHTML = renderToString(<ReadingToolbar />);
    const details = host.querySelector('details') as HTMLDetailsElement;
    // Its toggle event is over before the app runs, as on a phone where the app comes seconds later.
    const toggled = new Promise((resolve) => details.addEventListener('toggle', resolve, { once: true }));
    details.open = true;
    await toggled;
    const root = await act(async () => hydrateRoot(host, <ReadingToolbar />));
    expect(isOpen()).toBe(true);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(isOpen()).toBe(false));
    expect(entry()).toHaveFocus();
    act(() => root.unmount());
    host.remove();
  });
});

describe('reading preferences', () => {
  it('index.html sets exactly what the app sets (size, zoom, contrast, spacing, cursor), for every stored choice, before the app runs', () => {
    expect(inline).toContain(`'${STORAGE_KEYS.readingPrefs}'`);
    const choices: ReadingPrefs[] = [
      DEFAULT_PREFS,
      { ...DEFAULT_PREFS, size: 'large', spacing: true },
      { ...DEFAULT_PREFS, size: 'xlarge', contrast: true, spacing: true, zoom: 150, cursor: true },
      { ...DEFAULT_PREFS, contrast: true },
      { ...DEFAULT_PREFS, zoom: 125 },
      { ...DEFAULT_PREFS, cursor: true, zoom: 130 as never },
    ];
    for (const prefs of choices) {
      clearAttributes();
      window.localStorage.setItem(STORAGE_KEYS.readingPrefs, JSON.stringify(prefs));
      new Function(inline)();
      const fromScript = attributes(document.documentElement);
      const expected = document.createElement('html');
      applyPrefs(parsePrefs(prefs), expected);
      expect(fromScript).toEqual(attributes(expected));
    }
  });

  it('marks <html> while any aid is on, 十字线 included, so the 关怀版 entry shows the mode is on', () => {
    // The review: the entry looked the same with the aids on as off.
    const root = document.createElement('html');
    applyPrefs({ ...DEFAULT_PREFS, guide: true }, root);
    expect(root.getAttribute('data-care')).toBe('on');
    applyPrefs({ ...DEFAULT_PREFS, size: 'large' }, root);
    expect(root.getAttribute('data-care')).toBe('on');
    applyPrefs(DEFAULT_PREFS, root);
    expect(root.getAttribute('data-care')).toBeNull();
    // And the stylesheet lights the entry on it, and on the attributes set before the first paint.
    const css = readFileSync(join(__dirname, 'reading.css'), 'utf8');
    const lit = /:root:is\(([^)]*)\) \.reading__toggle::before/.exec(css)?.[1] ?? '';
    for (const attribute of ['data-care', ...PAINT_ATTRIBUTES]) expect(lit).toContain(`[${attribute}]`);
  });

  it("zoom, the large cursor and 十字线 apply as soon as the app's script loads, before anything renders", async () => {
    clearAttributes();
    window.localStorage.setItem(STORAGE_KEYS.readingPrefs, JSON.stringify({ ...DEFAULT_PREFS, size: 'xlarge', zoom: 150, cursor: true, guide: true }));
    let fresh: typeof import('./prefs') | undefined;
    jest.isolateModules(() => {
      fresh = jest.requireActual('./prefs');
    });
    expect(attributes(document.documentElement, ALL_ATTRIBUTES)).toEqual({
      'data-text-size': 'xlarge',
      'data-contrast': null,
      'data-spacing': null,
      'data-zoom': '150',
      'data-cursor': 'large',
    });
    await fresh!.guideSettled();
    expect(guide()).not.toBeNull();
    fresh!.setPrefs(DEFAULT_PREFS);
    await fresh!.guideSettled();
    await waitFor(() => expect(guide()).toBeNull());
    expect(attributes(document.documentElement, ALL_ATTRIBUTES)).toEqual(Object.fromEntries(ALL_ATTRIBUTES.map((a) => [a, null])));
  });

  it('a broken or foreign stored value changes nothing and breaks nothing', () => {
    for (const raw of ['{', '"x"', 'null', '{"size":"huge","contrast":"yes"}']) {
      window.localStorage.setItem(STORAGE_KEYS.readingPrefs, raw);
      document.documentElement.removeAttribute('data-text-size');
      expect(() => new Function(inline)()).not.toThrow();
      expect(document.documentElement.getAttribute('data-text-size')).toBeNull();
    }
    expect(parsePrefs({ size: 'huge', contrast: 'yes', spacing: true, zoom: 130, cursor: 1, guide: 'on' })).toEqual({
      ...DEFAULT_PREFS,
      spacing: true,
    });
    expect(parsePrefs({ zoom: 125, cursor: true })).toEqual({ ...DEFAULT_PREFS, zoom: 125, cursor: true });
    expect(parsePrefs(null)).toEqual(DEFAULT_PREFS);
  });

  it('a choice made in another tab applies here', () => {
    render(<ReadingToolbar />);
    window.localStorage.setItem(STORAGE_KEYS.readingPrefs, JSON.stringify({ ...DEFAULT_PREFS, zoom: 125 }));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.readingPrefs }));
    });
    expect(document.documentElement.getAttribute('data-zoom')).toBe('125');
    expect(entry()).toHaveTextContent('已开启');
  });
});

describe('the 关怀版 toolbar', () => {
  it('opens at the press and an Escape pressed at once closes it (no wait for the toggle event)', async () => {
    render(<ReadingToolbar />);
    const toggle = entry();
    act(() => toggle.click());
    expect(isOpen()).toBe(true);
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect(isOpen()).toBe(false);
    expect(toggle).toHaveFocus();
  });

  it('is one entry labelled 关怀版 whose panel groups every aid as pressed/unpressed buttons', async () => {
    render(<ReadingToolbar />);
    const toggle = entry();
    expect(isOpen()).toBe(false);
    await userEvent.tab();
    expect(toggle).toHaveFocus();
    await userEvent.click(toggle);
    await waitFor(() => expect(isOpen()).toBe(true));
    const panel = screen.getByRole('group', { name: '关怀版设置' });
    const group = (name: string) => within(panel).getByRole('group', { name });
    const names = (name: string) => within(group(name)).getAllByRole('button').map((b) => b.textContent);
    expect(names('文字大小')).toEqual(['标准', '大', '特大']);
    expect(names('页面缩放')).toEqual(['100%', '125%', '150%']);
    // No Chinese voice in jsdom: no 语音朗读.
    expect(names('辅助功能')).toEqual(['高对比度', '加大行距', '大鼠标', '十字线']);
    for (const button of within(panel).getAllByRole('button')) {
      if (button.textContent === '重置') expect(button).not.toHaveAttribute('aria-pressed');
      else expect(button).toHaveAttribute('aria-pressed', button.textContent === '标准' || button.textContent === '100%' ? 'true' : 'false');
    }
    expect(within(panel).getByRole('link', { name: '无障碍声明' })).toHaveAttribute('href', '/portal/accessibility');
    expect(within(panel).getByRole('button', { name: '重置' })).toBeDisabled();
  });

  it('applies and keeps each choice, closes on Escape with focus back on the entry, and 重置 undoes all', async () => {
    render(<ReadingToolbar />);
    const toggle = entry();
    await userEvent.click(toggle);
    await waitFor(() => expect(isOpen()).toBe(true));
    for (const name of ['特大', '150%', '高对比度', '加大行距', '大鼠标']) {
      await userEvent.click(screen.getByRole('button', { name }));
      expect(screen.getByRole('button', { name })).toHaveAttribute('aria-pressed', 'true');
    }
    expect(attributes(document.documentElement, ALL_ATTRIBUTES)).toEqual({
      'data-text-size': 'xlarge',
      'data-contrast': 'high',
      'data-spacing': 'wide',
      'data-zoom': '150',
      'data-cursor': 'large',
    });
    expect(screen.getByRole('button', { name: '标准' })).toHaveAttribute('aria-pressed', 'false');
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.readingPrefs)!)).toEqual({
      size: 'xlarge',
      zoom: 150,
      contrast: true,
      spacing: true,
      cursor: true,
      guide: false,
    });
    expect(toggle).toHaveTextContent(/^关怀版\s*（已开启辅助功能）$/);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(isOpen()).toBe(false));
    expect(toggle).toHaveFocus();
    await userEvent.click(toggle);
    await waitFor(() => expect(isOpen()).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: '重置' }));
    expect(attributes(document.documentElement, ALL_ATTRIBUTES)).toEqual(Object.fromEntries(ALL_ATTRIBUTES.map((a) => [a, null])));
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.readingPrefs)!)).toEqual(DEFAULT_PREFS);
    expect(screen.getByRole('button', { name: '重置' })).toBeDisabled();
  });

  it('closes when a click lands elsewhere or the route changes (the statement link)', async () => {
    render(
      <>
        <ReadingToolbar />
        <p>正文</p>
      </>,
    );
    const toggle = entry();
    await userEvent.click(toggle);
    await waitFor(() => expect(isOpen()).toBe(true));
    await userEvent.click(screen.getByText('正文'));
    await waitFor(() => expect(isOpen()).toBe(false));
    await userEvent.click(toggle);
    await waitFor(() => expect(isOpen()).toBe(true));
    // A fragment of the same page is no route change; the app's navigation to the statement is.
    act(() => {
      window.location.hash = '#main-content';
    });
    expect(isOpen()).toBe(true);
    act(() => navigate('/portal/accessibility'));
    await waitFor(() => expect(isOpen()).toBe(false));
  });

  it('十字线 draws two lines through the pointer, hidden from assistive technology, and goes when turned off', async () => {
    render(<ReadingToolbar />);
    await openEntry();
    expect(guide()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '十字线' }));
    await guideSettled();
    const svg = guide()!;
    expect(svg).not.toBeNull();
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    // Nothing until the pointer moves, then the lines cross where it is.
    expect(svg.getAttribute('class')).toContain('is-idle');
    // jsdom has no PointerEvent: a mouse event of its type carries the coordinates.
    act(() => {
      document.dispatchEvent(new MouseEvent('pointermove', { clientX: 120, clientY: 80 }));
    });
    await waitFor(() => expect(svg.getAttribute('class')).toBe('reading-guide'));
    const lines = [...svg.querySelectorAll('line')];
    expect(lines.filter((l) => l.dataset.axis === 'h').map((l) => [l.getAttribute('y1'), l.getAttribute('y2')])).toEqual([
      ['80', '80'],
      ['80', '80'],
    ]);
    expect(lines.filter((l) => l.dataset.axis === 'v').map((l) => [l.getAttribute('x1'), l.getAttribute('x2')])).toEqual([
      ['120', '120'],
      ['120', '120'],
    ]);
    // No style is written anywhere (the CSP allows none inline).
    expect(svg.querySelectorAll('[style]')).toHaveLength(0);
    expect(svg).not.toHaveAttribute('style');
    await userEvent.click(screen.getByRole('button', { name: '十字线' }));
    await guideSettled();
    await waitFor(() => expect(guide()).toBeNull());
  });

  it('startCrosshair stops following the pointer once stopped', () => {
    const stop = startCrosshair();
    stop();
    document.dispatchEvent(new MouseEvent('pointermove', { clientX: 5, clientY: 5 }));
    expect(guide()).toBeNull();
  });
});

describe('语音朗读', () => {
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
  afterEach(() => {
    Reflect.deleteProperty(window, 'speechSynthesis');
    Reflect.deleteProperty(window, 'SpeechSynthesisUtterance');
  });

  const page = () =>
    render(
      <>
        <ReadingToolbar />
        <main id="main-content">
          <h1>公司简介</h1>
          <p>云川陆港是一家国际物流企业。我们开行中欧班列！</p>
        </main>
      </>,
    );

  it('is offered only once the browser has a Chinese voice (voices arrive late)', async () => {
    synth.voices = [voice('en-US')];
    page();
    await openEntry();
    expect(screen.queryByRole('button', { name: '语音朗读' })).toBeNull();
    synth.voices = [voice('en-US'), voice('zh-CN', 'Tingting')];
    act(() => {
      synth.dispatchEvent(new Event('voiceschanged'));
    });
    expect(screen.getByRole('button', { name: '语音朗读' })).toHaveAttribute('aria-pressed', 'false');
  });

  it("reads #main-content's text in zh-CN, and stops when pressed again or when the route changes", async () => {
    synth.voices = [voice('zh-TW', 'Meijia'), voice('zh_CN', 'Tingting')];
    page();
    await openEntry();
    const button = screen.getByRole('button', { name: '语音朗读' });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(synth.speak).toHaveBeenCalled());
    expect(synth.spoken.map((u) => u.text).join('')).toBe('公司简介云川陆港是一家国际物流企业。我们开行中欧班列！');
    expect(synth.spoken.every((u) => u.lang === 'zh-CN' && (u.voice as SpeechSynthesisVoice).name === 'Tingting')).toBe(true);
    const cancels = synth.cancel.mock.calls.length;
    await userEvent.click(button);
    expect(synth.cancel.mock.calls.length).toBe(cancels + 1);
    expect(button).toHaveAttribute('aria-pressed', 'false');

    // Started again, then the visitor goes to another page: reading stops.
    await userEvent.click(button);
    await waitFor(() => expect(synth.speak).toHaveBeenCalledTimes(2));
    const reading = synth.cancel.mock.calls.length;
    act(() => navigate('/portal/news_center'));
    expect(synth.cancel.mock.calls.length).toBe(reading + 1);
  });

  it('shows itself unpressed again when the engine has read the last piece', async () => {
    synth.voices = [voice('zh-CN')];
    page();
    await openEntry();
    await userEvent.click(screen.getByRole('button', { name: '语音朗读' }));
    await waitFor(() => expect(synth.spoken.length).toBeGreaterThan(0));
    act(() => synth.spoken.at(-1)!.onend!());
    expect(screen.getByRole('button', { name: '语音朗读' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('picks a Chinese voice, Mandarin in simplified script first', () => {
    expect(chineseVoice([voice('en-GB'), voice('fr-FR')])).toBeNull();
    expect(chineseVoice([voice('zh-HK'), voice('zh-TW'), voice('zh-CN')])!.lang).toBe('zh-CN');
    expect(chineseVoice([voice('zh-HK'), voice('zh-TW')])!.lang).toBe('zh-TW');
    expect(chineseVoice([voice('cmn-Hans-CN')])!.lang).toBe('cmn-Hans-CN');
  });

  it('cuts long text into pieces at sentence ends, none longer than the engine reads whole, nothing lost', () => {
    const sentence = '中欧班列常态化开行至汉堡、罗兹、布达佩斯等城市。';
    const text = `标题\n\n${sentence.repeat(12)}\n${'很长的一句话没有句号'.repeat(30)}`;
    const pieces = speechChunks(text, 60);
    expect(pieces[0]).toBe('标题');
    expect(pieces.every((p) => p.length <= 60)).toBe(true);
    expect(pieces.slice(1, 5).every((p) => p.endsWith('。'))).toBe(true);
    expect(pieces.join('')).toBe(text.replace(/\s+/g, ''));
    expect(speechChunks('  \n \n')).toEqual([]);
  });
});
