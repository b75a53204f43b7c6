import { type ReadingPrefs, type TextSize, applyPrefs, parsePrefs } from '../features/reading/prefs-core';
import { STORAGE_KEYS, readingPrefs, saveReadingPrefs } from '../lib/storage';

import { dismissible, find, findAll, reveal } from './dom';

/**
 * 关怀版 on a crawlable page: text size, contrast and spacing, kept in the app's own `readingPrefs`
 * (its shape and parsing, prefs-core.ts), so a choice made here holds in the app and back; the
 * head script applied the stored choice before the first paint. Zoom, the large cursor and the
 * reading guide are the app's; they are kept as they are, not offered here.
 */
export function enhanceReading(): void {
  const root = find('[data-reading]');
  const toggle = root && find<HTMLButtonElement>('.reading__toggle', root);
  const panel = root && find('.reading__panel', root);
  if (!root || !toggle || !panel) return;

  const show = (prefs: ReadingPrefs) => {
    for (const button of findAll('[data-size]', panel)) {
      button.setAttribute('aria-pressed', String(button.dataset.size === prefs.size));
    }
    for (const button of findAll('[data-switch]', panel)) {
      const key = button.dataset.switch as 'contrast' | 'spacing';
      button.setAttribute('aria-pressed', String(prefs[key]));
    }
  };
  const adopt = (prefs: ReadingPrefs) => {
    applyPrefs(prefs);
    show(prefs);
  };
  const change = (patch: Partial<ReadingPrefs>) => {
    const next = { ...parsePrefs(readingPrefs()), ...patch };
    saveReadingPrefs(next);
    adopt(next);
  };

  panel.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLElement>('button');
    if (!button) return;
    if (button.dataset.size) change({ size: button.dataset.size as TextSize });
    const on = button.getAttribute('aria-pressed') !== 'true';
    if (button.dataset.switch === 'contrast') change({ contrast: on });
    if (button.dataset.switch === 'spacing') change({ spacing: on });
  });
  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
  };
  toggle.addEventListener('click', () => setOpen(toggle.getAttribute('aria-expanded') !== 'true'));
  dismissible(
    root,
    () => !panel.hidden,
    (refocus) => {
      setOpen(false);
      if (refocus) toggle.focus();
    },
  );
  // A choice made in the app (or another page) in another tab applies here too.
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === STORAGE_KEYS.readingPrefs) adopt(parsePrefs(readingPrefs()));
  });
  show(parsePrefs(readingPrefs()));
  reveal(root);
}
