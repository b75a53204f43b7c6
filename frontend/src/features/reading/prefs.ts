// 关怀版 / 无障碍: the visitor's reading choices, kept in localStorage and written onto <html> as data
// attributes the stylesheet (reading.css) reads.
//
// Before the first paint: public/index.html applies the stored text size, contrast and spacing
// with the same attribute names (reading.test.tsx runs it), so the page's background and type are
// right from the first frame. Zoom and the large cursor are applied when this module is evaluated,
// which is before React renders anything: until then #root is empty, so no content is ever painted
// at the wrong size, and index.html's script (allowed by its hash in the gateway's CSP) stays as is.
import { useSyncExternalStore } from 'react';

import { STORAGE_KEYS, readingPrefs, saveReadingPrefs } from '../../lib/storage';

export const TEXT_SIZES = ['standard', 'large', 'xlarge'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

/** 页面缩放 in per cent; it multiplies the text size (reading.css), so 特大 at 150 % is 225 %. */
export const ZOOMS = [100, 125, 150] as const;
export type Zoom = (typeof ZOOMS)[number];

export interface ReadingPrefs {
  size: TextSize;
  zoom: Zoom;
  contrast: boolean;
  spacing: boolean;
  /** 大鼠标: a large arrow, hand and text cursor. */
  cursor: boolean;
  /** 十字线: horizontal and vertical lines through the pointer. */
  guide: boolean;
}

export const DEFAULT_PREFS: ReadingPrefs = {
  size: 'standard',
  zoom: 100,
  contrast: false,
  spacing: false,
  cursor: false,
  guide: false,
};

/** A stored value as prefs: anything unknown (an old or hand-edited value) falls back field by field. */
export function parsePrefs(stored: unknown): ReadingPrefs {
  const value = (typeof stored === 'object' && stored !== null ? stored : {}) as Partial<Record<keyof ReadingPrefs, unknown>>;
  return {
    size: TEXT_SIZES.includes(value.size as TextSize) ? (value.size as TextSize) : 'standard',
    zoom: ZOOMS.includes(value.zoom as Zoom) ? (value.zoom as Zoom) : 100,
    contrast: value.contrast === true,
    spacing: value.spacing === true,
    cursor: value.cursor === true,
    guide: value.guide === true,
  };
}

/** Whether anything differs from the default (the entry says so, 重置 is offered). */
export const isChanged = (prefs: ReadingPrefs): boolean =>
  (Object.keys(DEFAULT_PREFS) as (keyof ReadingPrefs)[]).some((key) => prefs[key] !== DEFAULT_PREFS[key]);

/** The attributes on <html>: absent in the default, so the plain stylesheet applies. */
export function applyPrefs(prefs: ReadingPrefs, root: HTMLElement = document.documentElement): void {
  const set = (name: string, value: string | null) =>
    value === null ? root.removeAttribute(name) : root.setAttribute(name, value);
  set('data-text-size', prefs.size === 'standard' ? null : prefs.size);
  set('data-zoom', prefs.zoom === 100 ? null : String(prefs.zoom));
  set('data-contrast', prefs.contrast ? 'high' : null);
  set('data-spacing', prefs.spacing ? 'wide' : null);
  set('data-cursor', prefs.cursor ? 'large' : null);
}

// 十字线 lives in its own chunk, loaded the first time it is turned on (or at start when stored on).
let guide: Promise<(() => void) | null> | null = null;
function syncGuide(on: boolean): void {
  if (on && !guide) {
    guide = import(/* webpackChunkName: "reading-guide" */ './crosshair')
      .then(({ startCrosshair }) => startCrosshair())
      .catch(() => {
        guide = null;
        return null;
      });
  } else if (!on && guide) {
    const running = guide;
    guide = null;
    void running.then((stop) => stop?.());
  }
}

/** Resolves once 十字线 is on or off as the current choice says (for tests). */
export const guideSettled = (): Promise<unknown> => guide ?? Promise.resolve();

let current: ReadingPrefs = parsePrefs(readingPrefs());
const listeners = new Set<() => void>();

function adopt(next: ReadingPrefs): void {
  current = next;
  applyPrefs(next);
  syncGuide(next.guide);
  listeners.forEach((listener) => listener());
}

export function setPrefs(next: ReadingPrefs): void {
  saveReadingPrefs(next);
  adopt(next);
}

if (typeof document !== 'undefined') {
  applyPrefs(current);
  syncGuide(current.guide);
  // A choice made in another tab of the portal applies here too.
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === STORAGE_KEYS.readingPrefs) adopt(parsePrefs(readingPrefs()));
  });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The current choice; every view of the toolbar shows the same. */
export function useReadingPrefs(): ReadingPrefs {
  return useSyncExternalStore(subscribe, () => current);
}
