import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { STORAGE_KEYS } from '../../lib/storage';
import { applyPrefs, parsePrefs, setPrefs, DEFAULT_PREFS, type ReadingPrefs } from './prefs';
import { ReadingToolbar } from './reading-toolbar';

/** The inline script of public/index.html, which applies the stored choice before the app loads. */
const html = readFileSync(join(__dirname, '../../../public/index.html'), 'utf8');
const inline = /<script>([^<]*)<\/script>/.exec(html)![1];

const attributes = (el: HTMLElement) =>
  Object.fromEntries(['data-text-size', 'data-contrast', 'data-spacing'].map((a) => [a, el.getAttribute(a)]));

afterEach(() => {
  setPrefs(DEFAULT_PREFS);
  window.localStorage.clear();
});

describe('reading preferences', () => {
  it('index.html sets exactly what the app sets, for every stored choice, before the app runs', () => {
    expect(inline).toContain(`'${STORAGE_KEYS.readingPrefs}'`);
    const choices: ReadingPrefs[] = [
      DEFAULT_PREFS,
      { size: 'large', contrast: false, spacing: true },
      { size: 'xlarge', contrast: true, spacing: true },
      { size: 'standard', contrast: true, spacing: false },
    ];
    for (const prefs of choices) {
      document.documentElement.removeAttribute('data-text-size');
      document.documentElement.removeAttribute('data-contrast');
      document.documentElement.removeAttribute('data-spacing');
      window.localStorage.setItem(STORAGE_KEYS.readingPrefs, JSON.stringify(prefs));
      new Function(inline)();
      const fromScript = attributes(document.documentElement);
      const expected = document.createElement('html');
      applyPrefs(prefs, expected);
      expect(fromScript).toEqual(attributes(expected));
    }
  });

  it('a broken or foreign stored value changes nothing and breaks nothing', () => {
    for (const raw of ['{', '"x"', 'null', '{"size":"huge","contrast":"yes"}']) {
      window.localStorage.setItem(STORAGE_KEYS.readingPrefs, raw);
      document.documentElement.removeAttribute('data-text-size');
      expect(() => new Function(inline)()).not.toThrow();
      expect(document.documentElement.getAttribute('data-text-size')).toBeNull();
    }
    expect(parsePrefs({ size: 'huge', contrast: 'yes', spacing: true })).toEqual({ size: 'standard', contrast: false, spacing: true });
    expect(parsePrefs(null)).toEqual(DEFAULT_PREFS);
  });

  it('the toolbar applies and keeps a choice, and closes on Escape with focus back on its button', async () => {
    render(<ReadingToolbar />);
    const toggle = screen.getByRole('button', { name: '无障碍' });
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('button', { name: '特大' }));
    await userEvent.click(screen.getByRole('button', { name: '高对比度' }));
    expect(document.documentElement.getAttribute('data-text-size')).toBe('xlarge');
    expect(document.documentElement.getAttribute('data-contrast')).toBe('high');
    expect(screen.getByRole('button', { name: '特大' })).toHaveAttribute('aria-pressed', 'true');
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.readingPrefs)!)).toEqual({ size: 'xlarge', contrast: true, spacing: false });
    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: '特大' })).toBeNull();
    expect(toggle).toHaveFocus();
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('button', { name: '恢复默认' }));
    expect(document.documentElement.getAttribute('data-text-size')).toBeNull();
    expect(document.documentElement.getAttribute('data-contrast')).toBeNull();
  });
});
