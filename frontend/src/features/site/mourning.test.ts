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
