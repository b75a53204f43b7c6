import { useLocation, useSearch } from 'wouter';

import { Breadcrumb } from '../../components/breadcrumb';
import { Loading } from '../../components/loading';
import { Pagination, type PaginationLocale } from '../../components/pagination';
import { useSearchArticlesQuery } from './api';
import { Highlight } from './highlight';
import { parseSearch, searchHref } from './keyword';
import { SearchBox } from './search-box';
import './search-page.css';
import { pageHref } from '../../lib/page-href';

export const PAGE_SIZE = 10;

/** A page of the portal itself that a search leads to (服务直达): 信访举报 for 举报. */
export interface Shortcut {
  /** The app path (`/whistleblowing`). */
  path: string;
  name: string;
  description?: string;
}

export interface SearchPageProps {
  paginationLocale: PaginationLocale;
  /** The portal's own pages for this keyword, shown above the CMS's results (the router's choice). */
  shortcuts?: Shortcut[];
}

/** 服务直达: the portal's own pages the keyword names. */
function Shortcuts({ items, keyword }: { items: Shortcut[]; keyword: string }) {
  if (items.length === 0) return null;
  return (
    <section className="search-shortcuts" aria-labelledby="search-shortcuts-title">
      <h2 id="search-shortcuts-title">服务直达</h2>
      <ul>
        {items.map((s) => (
          <li key={s.path}>
            <a href={pageHref(s.path)}>
              <Highlight text={s.name} keyword={keyword} />
            </a>
            {s.description && <p>{s.description}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** 站内搜索的结果: `/portal/search?q=班列&page=2`; the keyword and page live in the URL, so a reload keeps them. */
export default function SearchPage({ paginationLocale, shortcuts = [] }: SearchPageProps) {
  const { keyword, page } = parseSearch(useSearch());
  const [, navigate] = useLocation();
  const { data, isFetching, isError } = useSearchArticlesQuery(
    { keyword: keyword ?? '', page, size: PAGE_SIZE },
    { skip: !keyword },
  );
  return (
    <section className="search-page">
      <Breadcrumb items={[{ name: '站内搜索' }]} />
      <h1 className="page-title">站内搜索</h1>
      {/* Keyed by the keyword: a new search from the header refills it. */}
      <SearchBox key={keyword ?? ''} initial={keyword ?? ''} label="重新搜索" />
      {keyword && <Shortcuts items={shortcuts} keyword={keyword} />}
      {!keyword ? (
        <p className="search-page__note">请输入要查找的词语，例如“班列”。</p>
      ) : isError ? (
        <p className="search-page__note" role="alert">
          搜索暂时不可用，请稍后再试。
        </p>
      ) : !data || (isFetching && data.page !== page) ? (
        <Loading />
      ) : data.totalElements === 0 ? (
        <div className="search-page__empty">
          <p>没有找到与“{keyword}”相关的{shortcuts.length > 0 ? '文章' : '内容'}。</p>
          <p>请换一个词语，或从栏目导航浏览。</p>
        </div>
      ) : (
        <>
          <p className="search-page__count" aria-live="polite">
            共 {data.totalElements} 条与“{keyword}”相关的结果
          </p>
          <ol className="search-results" start={(page - 1) * PAGE_SIZE + 1}>
            {data.content.map((hit) => (
              <li key={hit.id}>
                <a href={pageHref(`/article/${hit.id}`)}>
                  <Highlight text={hit.title} keyword={keyword} />
                </a>
                {hit.publishTime && <time dateTime={hit.publishTime.slice(0, 10)}>{hit.publishTime.slice(0, 10)}</time>}
                {hit.summary && (
                  <p>
                    <Highlight text={hit.summary} keyword={keyword} />
                  </p>
                )}
              </li>
            ))}
          </ol>
          <Pagination
            page={page}
            pageSize={PAGE_SIZE}
            total={data.totalElements}
            onChange={(next) => navigate(searchHref(keyword, next))}
            hrefOf={(next) => pageHref(searchHref(keyword, next))}
            keep={{ q: keyword }}
            locale={paginationLocale}
          />
        </>
      )}
    </section>
  );
}
