// The reading choices as data: their shape, how a stored value is read and how they sit on <html>.
// Pure (no React, no storage): the app applies them with it, and its tests hold index.html's head
// script to the same rules.

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
  // Any aid on: the 关怀版 entry shows it (reading.css), 十字线 included, which has no attribute of its own.
  set('data-care', isChanged(prefs) ? 'on' : null);
}
