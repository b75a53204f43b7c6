// The one owner of what the portal keeps in localStorage (spec §3).

export const STORAGE_KEYS = {
  systemToken: 'systemToken',
  tokenExpiry: 'tokenExpiry',
  userInfo: 'userInfo',
  userResource: 'userResource',
  cacheTimes: 'cacheTimes',
  /** The visitor's 无障碍 choices; public/index.html reads it before the first paint. */
  readingPrefs: 'readingPrefs',
  /** The site's mourning setting as `/site` last said it; public/index.html greys the first paint by it. */
  siteMourning: 'siteMourning',
} as const;

type Key = keyof typeof STORAGE_KEYS;

function read(key: Key): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS[key]);
  } catch {
    // Private modes and disabled storage behave as empty.
    return null;
  }
}

function write(key: Key, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(STORAGE_KEYS[key]);
    else window.localStorage.setItem(STORAGE_KEYS[key], value);
  } catch {
    /* storage unavailable: nothing to keep */
  }
}

function readJson<T>(key: Key): T | null {
  const raw = read(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** The stored system token, only while its expiry (ms since the epoch) is later than now. */
export function validToken(now: number = Date.now()): string | null {
  const token = read('systemToken');
  const expiry = Number(read('tokenExpiry'));
  if (!token || !Number.isFinite(expiry) || expiry <= now) return null;
  return token;
}

export function saveToken(token: string, expiresAt: number): void {
  write('systemToken', token);
  write('tokenExpiry', String(expiresAt));
}

export function clearSession(): void {
  (['systemToken', 'tokenExpiry', 'userInfo', 'userResource'] as Key[]).forEach((k) => write(k, null));
}

export interface UserInfo {
  name?: string;
  [field: string]: unknown;
}

export const userInfo = (): UserInfo | null => readJson<UserInfo>('userInfo');
export const saveUserInfo = (info: UserInfo): void => write('userInfo', JSON.stringify(info));
export const userResource = (): unknown => readJson('userResource');
export const saveUserResource = (resource: unknown): void => write('userResource', JSON.stringify(resource));

/** When each cached item was fetched, by name (ms since the epoch). */
export const cacheTimes = (): Record<string, number> => readJson<Record<string, number>>('cacheTimes') ?? {};
export function setCacheTime(name: string, at: number = Date.now()): void {
  write('cacheTimes', JSON.stringify({ ...cacheTimes(), [name]: at }));
}

export const readingPrefs = (): unknown => readJson('readingPrefs');
export const saveReadingPrefs = (prefs: unknown): void => write('readingPrefs', JSON.stringify(prefs));
export const saveSiteMourning = (setting: unknown): void => write('siteMourning', setting ? JSON.stringify(setting) : null);
