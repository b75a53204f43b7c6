import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';

import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { saveScroll, scrollFor } from '../../../app/ui-slice';
import { Breadcrumb } from '../../../components/breadcrumb';
import { Pagination } from '../../../components/pagination';
import { ContentRegion, ListSkeleton, PageHeader } from '../../../components/skeleton';
import { useGetArticlesQuery, type ArticleSummary } from '../api';
import { listArgs } from '../loads';
import { LIST_PAGE_SIZE, pageFor, pageFromSearch, setListPage, withListPage } from '../list-page-slice';
import type { ContentPageProps } from '../types';
import { ArticleList } from './article-list';
import { PageExtras } from './page-extras';
import { articleHref, pageHref } from '../../../lib/page-href';
import { useResponseStatus } from '../../../lib/response-status';
import { messages } from '../../../lib/locale';

const text = messages({
  zh: { notOpen: '该栏目暂未开通。', failed: '内容加载失败，请稍后再试。' },
  en: { notOpen: 'This section is not available yet.', failed: 'The content could not be loaded. Please try again later.' },
});

export const PAGE_SIZE = LIST_PAGE_SIZE;

interface ListPageProps extends ContentPageProps {
  hrefOf?: (article: ArticleSummary) => string;
}

const defaultHref = (article: ArticleSummary) => articleHref(article.id);

/**
 * A paged list of a category's articles; keeps its page number and scroll position. The page is
 * in the URL (`/portal/news_center/notice?page=2`, so a reload or a shared link opens it) and in the
 * store (the spec's global page number, used when the URL names none).
 */
export function ListPage(props: ListPageProps) {
  const { path, title, category, categoriesLoading, breadcrumb, paginationLocale, hrefOf = defaultHref, extras } = props;
  const t = text();
  const dispatch = useAppDispatch();
  const [, navigate] = useLocation();
  const urlPage = pageFromSearch(useSearch());
  const storedPage = useAppSelector((state) => pageFor(state, path));
  const page = urlPage ?? storedPage;
  const savedScroll = useAppSelector((state) => scrollFor(state, path));
  const { data, isFetching, isError } = useGetArticlesQuery(listArgs(category?.id ?? 0, page), { skip: !category });

  // A page opened by its URL becomes the remembered one.
  useEffect(() => {
    if (urlPage !== null && urlPage !== storedPage) dispatch(setListPage({ list: path, page: urlPage }));
  }, [dispatch, path, urlPage, storedPage]);

  const changePage = useCallback(
    (next: number, options?: { replace?: boolean }) => {
      dispatch(setListPage({ list: path, page: next }));
      navigate(next > 1 ? `${path}?page=${next}` : path, options);
      const main = document.getElementById('main-content');
      main?.scrollIntoView({ block: 'start' });
      // The pager goes while the next page loads, and with it the link that had focus: the focus
      // moves to the page's main region (as after a route change), not to the document's body,
      // where a keyboard visitor would start again from the top of the site.
      main?.focus({ preventScroll: true });
    },
    [dispatch, navigate, path],
  );

  // Back from a detail page: the position saved when the visitor left, restored once the list is
  // there. Read at mount only (saving happens while this list is still on screen), and a frame
  // later, so the route's own scroll-to-top (an effect of the same commit) has run first.
  const pendingScroll = useRef(savedScroll);
  useEffect(() => {
    if (!data || pendingScroll.current <= 0) return undefined;
    const frame = requestAnimationFrame(() => {
      window.scrollTo(0, pendingScroll.current);
      pendingScroll.current = 0;
      dispatch(saveScroll({ key: path, y: 0 }));
    });
    return () => cancelAnimationFrame(frame);
  }, [data, dispatch, path]);

  // A page past the last one is no page: rendered on the server it answers 404 (crawlers drop
  // it, the gateway keeps it briefly); in the browser the list moves to its last page.
  const pastTheEnd = Boolean(data && page > 1 && data.content.length === 0 && data.totalPages > 0);
  useResponseStatus(pastTheEnd ? 404 : null);
  useEffect(() => {
    if (data && pastTheEnd) {
      changePage(data.totalPages, { replace: true });
    }
  }, [data, pastTheEnd, changePage]);

  const heading = category?.name ?? title;
  // An article opened from page 2 carries it in its address, so 返回列表 comes back to page 2.
  const hrefOnPage = useCallback((article: ArticleSummary) => withListPage(hrefOf(article), page), [hrefOf, page]);
  const loading = categoriesLoading || (Boolean(category) && !isError && (!data || (isFetching && data.page !== page)));
  return (
    <article className="content-page">
      <Breadcrumb items={breadcrumb} />
      {/* While the CMS tree loads, the category's description (the lead) is still to come. */}
      <PageHeader title={heading} lead={category?.description} leadPending={categoriesLoading} />
      <ContentRegion busy={loading} stage={categoriesLoading ? '-tree' : ''} placeholder={<ListSkeleton lines={PAGE_SIZE} />}>
        {!category && <p className="empty">{t.notOpen}</p>}
        {isError && <p className="empty">{t.failed}</p>}
        {data && !isError && (
          <>
            <ArticleList
              articles={data.content}
              hrefOf={hrefOnPage}
              onOpen={() => dispatch(saveScroll({ key: path, y: window.scrollY }))}
            />
            <Pagination
              page={data.page}
              pageSize={PAGE_SIZE}
              total={data.totalElements}
              onChange={changePage}
              hrefOf={(n) => pageHref(n > 1 ? `${path}?page=${n}` : path)}
              locale={paginationLocale}
            />
          </>
        )}
        <PageExtras extras={extras} />
      </ContentRegion>
    </article>
  );
}
