// 哀悼模式: the site turns grey (a filter on <html>) while `/site` says so, always or on listed
// days. The days are China Standard Time's, whatever the visitor's own zone.
import { useEffect } from 'react';

import { saveSiteMourning } from '../../lib/storage';
import { useGetSiteQuery } from './api';

export type MourningSetting = boolean | string[];

/** China Standard Time: UTC+8 all year (no daylight saving). */
const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/**
 * Today's date in Beijing as YYYY-MM-DD, by the fixed offset rather than `Intl` (the gateway's
 * JavaScript engine has none; the server render and the browser must agree).
 */
export function chinaDate(now: Date): string {
  return new Date(now.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whether `now` falls on a mourning day: `true`, or a listed "MM-DD" (yearly) or "YYYY-MM-DD". */
export function isMourning(setting: MourningSetting | undefined, now: Date = new Date()): boolean {
  if (setting === true) return true;
  if (!Array.isArray(setting)) return false;
  const today = chinaDate(now);
  return setting.some((day) => day === today || day === today.slice(5));
}

/**
 * The site's mourning state, applied to <html>. Until `/site` answers, the attribute index.html set
 * from the last answer stays (no flash of colour on a mourning day); the answer is kept for the
 * next visit's first paint.
 */
export function useMourning(): boolean {
  const { data: site } = useGetSiteQuery();
  const setting = site?.mourning;
  const mourning = isMourning(setting);
  useEffect(() => {
    if (!site) return;
    saveSiteMourning(setting);
    const root = document.documentElement;
    if (mourning) root.setAttribute('data-mourning', '');
    else root.removeAttribute('data-mourning');
  }, [site, setting, mourning]);
  if (site) return mourning;
  return typeof document !== 'undefined' && document.documentElement.hasAttribute('data-mourning');
}
