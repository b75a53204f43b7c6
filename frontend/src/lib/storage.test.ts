import { STORAGE_KEYS, cacheTimes, saveToken, setCacheTime, validToken } from './storage';

describe('stored keys', () => {
  beforeEach(() => window.localStorage.clear());

  it('a token counts only while its expiry is later than now', () => {
    expect(validToken()).toBeNull();
    saveToken('abc', 2_000);
    expect(validToken(1_999)).toBe('abc');
    expect(validToken(2_000)).toBeNull();
    window.localStorage.setItem(STORAGE_KEYS.tokenExpiry, 'not a number');
    expect(validToken(0)).toBeNull();
  });

  it('keeps a map of cache times', () => {
    setCacheTime('categories', 10);
    setCacheTime('site', 20);
    expect(cacheTimes()).toEqual({ categories: 10, site: 20 });
    window.localStorage.setItem(STORAGE_KEYS.cacheTimes, '{broken');
    expect(cacheTimes()).toEqual({});
  });
});
