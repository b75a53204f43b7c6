import { articlesApi } from '../features/articles';
import { categoriesApi } from '../features/categories';
import { siteApi } from '../features/site';
import { API_PREFIX, bootedUrls } from '../lib/request';
import type { AppStore } from './store';

/**
 * Fills the store from the answers the gateway drew into the page (lib/request/boot.ts) before
 * the app's first render, through each endpoint's own query (so its transform runs and its
 * cache entry is the one the components read): the first render then draws the header's menu
 * and the home page's lists at once, in the boxes the server drew. A URL the app does not ask for
 * in this form is left alone.
 */
export async function startFromBoot(store: AppStore): Promise<void> {
  const started: { unsubscribe: () => void }[] = [];
  const pending: Promise<unknown>[] = [];
  const start = <T extends { unsubscribe: () => void }>(query: T & PromiseLike<unknown>) => {
    started.push(query);
    pending.push(Promise.resolve(query));
  };
  for (const url of bootedUrls()) {
    const [path, query = ''] = url.split('?');
    const params = new URLSearchParams(query);
    if (path === `${API_PREFIX}/site`) {
      start(store.dispatch(siteApi.endpoints.getSite.initiate()));
    } else if (path === `${API_PREFIX}/category/list`) {
      start(store.dispatch(categoriesApi.endpoints.getCategories.initiate()));
    } else if (path === `${API_PREFIX}/article/list`) {
      const [categoryId, page, size] = ['categoryId', 'page', 'size'].map((k) => Number(params.get(k)));
      if ([categoryId, page, size].every(Number.isInteger)) {
        start(store.dispatch(articlesApi.endpoints.getArticles.initiate({ categoryId, page, size })));
      }
    }
  }
  await Promise.all(pending);
  // The components subscribe as they mount; these first subscriptions only filled the cache.
  started.forEach((s) => s.unsubscribe());
}

/** How long the app waits at most for the drawn page's first photo before it takes over. */
export const DRAWN_PHOTO_WAIT_MS = 1500;

/**
 * Resolves once the first photo of the page the gateway drew is on screen (or has failed, or
 * after `DRAWN_PHOTO_WAIT_MS`). The app replaces the drawn page with its own nodes: a photo not yet
 * painted when that happens is painted as the app's, later, and the browser counts that later
 * paint as the page's largest (Lighthouse mobile: the largest paint 1.7 s instead of 1.2 s once
 * the app's scripts arrived before the photo was drawn). The same box from the app afterwards is
 * no new largest paint.
 */
export async function drawnPhotoPainted(): Promise<void> {
  const photo = document.querySelector<HTMLImageElement>('main.boot-home img[fetchpriority="high"]');
  if (!photo || document.documentElement.hasAttribute('data-deep')) return;
  const loaded = photo.complete
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        photo.addEventListener('load', () => resolve(), { once: true });
        photo.addEventListener('error', () => resolve(), { once: true });
      });
  const painted = loaded
    .then(() => photo.decode().catch(() => undefined))
    .then(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
  await Promise.race([painted, new Promise<void>((resolve) => setTimeout(resolve, DRAWN_PHOTO_WAIT_MS))]);
}
