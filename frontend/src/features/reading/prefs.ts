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

import { DEFAULT_PREFS, type ReadingPrefs, applyPrefs, parsePrefs } from './prefs-core';

export * from './prefs-core';

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
  // The server renders the defaults (it has no storage); the stored choice follows hydration.
  return useSyncExternalStore(subscribe, () => current, () => DEFAULT_PREFS);
}
