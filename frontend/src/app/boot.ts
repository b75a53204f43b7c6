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
