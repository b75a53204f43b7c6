// 无障碍 / 长者模式: the visitor's text size, contrast and line spacing, kept in localStorage and
// written onto <html> as data attributes the stylesheet reads. public/index.html applies the
// stored choice before the first paint with the same attribute names (reading.test.ts runs it).
import { useSyncExternalStore } from 'react';

import { readingPrefs, saveReadingPrefs } from '../../lib/storage';

export const TEXT_SIZES = ['standard', 'large', 'xlarge'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

export interface ReadingPrefs {
  size: TextSize;
  contrast: boolean;
  spacing: boolean;
}

export const DEFAULT_PREFS: ReadingPrefs = { size: 'standard', contrast: false, spacing: false };

/** A stored value as prefs: anything unknown (an old or hand-edited value) falls back field by field. */
export function parsePrefs(stored: unknown): ReadingPrefs {
  const value = (typeof stored === 'object' && stored !== null ? stored : {}) as Partial<Record<keyof ReadingPrefs, unknown>>;
  return {
    size: TEXT_SIZES.includes(value.size as TextSize) ? (value.size as TextSize) : 'standard',
    contrast: value.contrast === true,
    spacing: value.spacing === true,
  };
}

/** The attributes on <html>: absent in the default, so the plain stylesheet applies. */
export function applyPrefs(prefs: ReadingPrefs, root: HTMLElement = document.documentElement): void {
  const set = (name: string, value: string | null) =>
    value === null ? root.removeAttribute(name) : root.setAttribute(name, value);
  set('data-text-size', prefs.size === 'standard' ? null : prefs.size);
  set('data-contrast', prefs.contrast ? 'high' : null);
  set('data-spacing', prefs.spacing ? 'wide' : null);
}

let current: ReadingPrefs = parsePrefs(readingPrefs());
const listeners = new Set<() => void>();

export function setPrefs(next: ReadingPrefs): void {
  current = next;
  saveReadingPrefs(next);
  applyPrefs(next);
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The current choice; every toolbar (desktop strip, phone menu) shows the same. */
export function useReadingPrefs(): ReadingPrefs {
  return useSyncExternalStore(subscribe, () => current);
}
