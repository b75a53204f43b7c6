// 哀悼模式: the site turns grey (a filter on <html>) while `/site` says so, always or on listed
// days. The days are China Standard Time's, whatever the visitor's own zone.
import { useEffect } from 'react';

import { useGetSiteQuery } from './api';

export type MourningSetting = boolean | string[];

/** Today's date in Beijing as YYYY-MM-DD ('en-CA' formats dates that way). */
export function chinaDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Whether `now` falls on a mourning day: `true`, or a listed "MM-DD" (yearly) or "YYYY-MM-DD". */
export function isMourning(setting: MourningSetting | undefined, now: Date = new Date()): boolean {
  if (setting === true) return true;
  if (!Array.isArray(setting)) return false;
  const today = chinaDate(now);
  return setting.some((day) => day === today || day === today.slice(5));
}

/** The site's mourning state, applied to <html> for as long as the caller is mounted. */
export function useMourning(): boolean {
  const { data: site } = useGetSiteQuery();
  const mourning = isMourning(site?.mourning);
  useEffect(() => {
    const root = document.documentElement;
    if (mourning) root.setAttribute('data-mourning', '');
    else root.removeAttribute('data-mourning');
  }, [mourning]);
  return mourning;
}
