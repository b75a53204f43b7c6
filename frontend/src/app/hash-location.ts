// Hash history for wouter where the hash may carry its own query: `#/party/detail?id=9`.
import { useSyncExternalStore } from 'react';

const subscribe = (callback: () => void) => {
  window.addEventListener('hashchange', callback);
  return () => window.removeEventListener('hashchange', callback);
};

const rawHash = () => window.location.hash.replace(/^#?\/?/, '');

export const currentPath = (): string => `/${rawHash().split('?')[0]}`;
export const currentSearch = (): string => {
  const at = rawHash().indexOf('?');
  return at < 0 ? '' : rawHash().slice(at + 1);
};

export const navigate = (to: string, options?: { replace?: boolean }): void => {
  const hash = `#${to.startsWith('/') ? to : `/${to}`}`;
  if (options?.replace) window.location.replace(hash);
  else window.location.hash = hash;
};

export function useHashPath(): [string, typeof navigate] {
  return [useSyncExternalStore(subscribe, currentPath, () => '/'), navigate];
}
/** The query inside the hash (`page=2` of `#/news_center/notice?page=2`). */
export function useHashSearch(): string {
  return useSyncExternalStore(subscribe, currentSearch, () => '');
}
useHashPath.searchHook = useHashSearch;
useHashPath.hrefs = (href: string) => `#${href}`;
