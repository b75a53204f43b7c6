import { articlesApi, LIST_PAGE_SIZE, pageFromSearch } from '../features/articles';
import { categoriesApi, findByUrl } from '../features/categories';
import { currentPath, currentSearch } from './hash-location';
import { preloadPage } from './router';
import { routeTrail } from './routes';
import type { AppStore } from './store';

/**
 * On a deep link whose page the gateway drew (`main[data-drawn]`: index.html's head script put
 * `/portal/drawn/…` in place of the drawn home page, gateway/src/first_paint/deep_link.rs), resolves
 * once the route's chunk and its first answer are in: the first render then draws the same page
 * over the drawn one in one commit, not a skeleton first (which would move everything below it).
 * An article (`#/article/N`), a list (a `news` route, `?page=N`) and a single page (a `single`
 * route) are drawn; nothing else waits.
 */
export async function drawnRouteReady(store: AppStore): Promise<void> {
  if (!document.querySelector('main[data-drawn]')) return;
  const path = currentPath();
  // Subscribed only to fill the cache: the page's components subscribe as they mount.
  const fill = <T extends { unsubscribe: () => void }>(query: T & PromiseLike<unknown>) =>
    Promise.resolve(query).then(() => query.unsubscribe());
  const id = /^\/article\/([1-9]\d*)$/.exec(path)?.[1];
  if (id) {
    await Promise.all([preloadPage('article'), fill(store.dispatch(articlesApi.endpoints.getArticle.initiate(Number(id))))]);
    return;
  }
  const kind = routeTrail(path).at(-1)?.page;
  if (kind !== 'news' && kind !== 'single') return;
  const tree = categoriesApi.endpoints.getCategories.select()(store.getState()).data;
  const category = tree && findByUrl(tree, path);
  if (!category) return;
  // A single page whose category the CMS makes a list shows the list (`SinglePage`).
  if (kind === 'single' && category.type !== 'list') {
    const chunk = preloadPage('single');
    const first = store.dispatch(articlesApi.endpoints.getArticles.initiate({ categoryId: category.id, page: 1, size: 1 }));
    const { data } = await first;
    first.unsubscribe();
    const id = data?.content[0]?.id;
    await Promise.all([chunk, id === undefined ? undefined : fill(store.dispatch(articlesApi.endpoints.getArticle.initiate(id)))]);
    return;
  }
  const page = pageFromSearch(currentSearch()) ?? 1;
  await Promise.all([
    preloadPage(kind),
    fill(store.dispatch(articlesApi.endpoints.getArticles.initiate({ categoryId: category.id, page, size: LIST_PAGE_SIZE }))),
  ]);
}
