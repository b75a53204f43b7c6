import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { STORAGE_KEYS } from '../../lib/storage';
import { chinaDate, isMourning } from './mourning';

describe('mourning days', () => {
  // 2026-12-12 20:00 UTC is already 12-13 in Beijing.
  const beijingDec13 = new Date('2026-12-12T20:00:00Z');

  it('reads the day in China Standard Time', () => {
    expect(chinaDate(beijingDec13)).toBe('2026-12-13');
    expect(chinaDate(new Date('2026-12-12T15:59:00Z'))).toBe('2026-12-12');
  });

  it('is on for true, a yearly day or a dated day, and off otherwise', () => {
    expect(isMourning(true, beijingDec13)).toBe(true);
    expect(isMourning(false, beijingDec13)).toBe(false);
    expect(isMourning(undefined, beijingDec13)).toBe(false);
    expect(isMourning(['12-13'], beijingDec13)).toBe(true);
    expect(isMourning(['12-13'], new Date('2027-12-13T02:00:00Z'))).toBe(true);
    expect(isMourning(['2026-12-13'], beijingDec13)).toBe(true);
    expect(isMourning(['2025-12-13'], beijingDec13)).toBe(false);
    expect(isMourning(['12-12', '04-04'], beijingDec13)).toBe(false);
  });
});

describe('the first paint', () => {
  const html = readFileSync(join(__dirname, '../../../public/index.html'), 'utf8');
  const inline = /<script>([^<]*)<\/script>/.exec(html)![1];
  afterEach(() => {
    jest.useRealTimers();
    window.localStorage.clear();
    document.documentElement.removeAttribute('data-mourning');
  });

  it('index.html greys the page exactly when the stored setting says so for today in Beijing', () => {
    jest.useFakeTimers({ now: new Date('2026-12-12T20:00:00Z') });
    const settings = [true, false, ['12-13'], ['2026-12-13'], ['2025-12-13'], ['04-04'], 'junk', null];
    for (const setting of settings) {
      document.documentElement.removeAttribute('data-mourning');
      window.localStorage.setItem(STORAGE_KEYS.siteMourning, JSON.stringify(setting));
      new Function(inline)();
      const expected = isMourning(setting as never, new Date());
      expect([setting, document.documentElement.hasAttribute('data-mourning')]).toEqual([setting, expected]);
    }
    window.localStorage.setItem(STORAGE_KEYS.siteMourning, '{');
    document.documentElement.removeAttribute('data-mourning');
    expect(() => new Function(inline)()).not.toThrow();
  });
});
