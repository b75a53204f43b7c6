import { Fragment, useId, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';

import { Breadcrumb } from '../../components/breadcrumb';
import { Loading } from '../../components/loading';
import { Pagination, type PaginationLocale } from '../../components/pagination';
import { useSearchArticlesQuery, type Marked, type SearchHit, type SectionCount } from './api';
import { Highlight } from './highlight';
import { dayOf, filterParams, parseSearch, searchHref, type SearchQuery } from './keyword';
import { PAGE_SIZE, searchArgs } from './loads';
import { SearchBox } from './search-box';
import './search-page.css';
import { pageHref } from '../../lib/page-href';
import type { Id } from '../../lib/id';


/** Sections the filter shows before 更多栏目. */
const SECTIONS_SHOWN = 6;

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

/** Marked pieces as text nodes, each match in a `<mark>`: nothing in them becomes markup. */
function Pieces({ parts }: { parts: Marked[] }) {
  return (
    <>
      {parts.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}
    </>
  );
}

/** One result: its title and date, and where it matched (the index's fragment) or its summary. */
function Result({ hit, keyword }: { hit: SearchHit; keyword: string }) {
  const fragment = hit.highlight?.fragment;
  return (
    <li>
      <a href={pageHref(`/article/${hit.id}`)}>
        {hit.highlight ? <Pieces parts={hit.highlight.title} /> : <Highlight text={hit.title} keyword={keyword} />}
      </a>
      {hit.publishTime && <time dateTime={hit.publishTime.slice(0, 10)}>{hit.publishTime.slice(0, 10)}</time>}
      {fragment && fragment.length > 0 ? (
        <p>
          <Pieces parts={fragment} />
        </p>
      ) : (
        hit.summary && (
          <p>
            <Highlight text={hit.summary} keyword={keyword} />
          </p>
        )
      )}
    </li>
  );
}

/**
 * 按栏目筛选: the sections the index found hits in, with their counts; links, so they work without
 * JavaScript. Shown only when the index answered (a CMS's search has no counts).
 */
function SectionFilter({
  keyword,
  sections,
  query,
}: {
  keyword: string;
  sections: SectionCount[];
  query: SearchQuery;
}) {
  const all = sections.reduce((sum, s) => sum + s.count, 0);
  const href = (section: Id | null) => pageHref(searchHref(keyword, 1, { ...query, section }));
  const chip = (s: SectionCount) => (
    <li key={s.id}>
      <a href={href(s.id)} aria-current={query.section === s.id ? 'page' : undefined}>
        {s.name} <span className="search-filter__count">{s.count}</span>
      </a>
    </li>
  );
  // The sections with most hits stand out; the rest wait behind 更多栏目 (open when one of them is
  // the one shown), so a phone sees results before a wall of chips.
  const shown = sections.slice(0, SECTIONS_SHOWN);
  const more = sections.slice(SECTIONS_SHOWN);
  return (
    <nav className="search-filter" aria-label="按栏目筛选">
      <ul>
        <li>
          <a href={href(null)} aria-current={query.section ? undefined : 'page'}>
            全部 <span className="search-filter__count">{all}</span>
          </a>
        </li>
        {shown.map(chip)}
      </ul>
      {more.length > 0 && (
        <details className="search-filter__more" open={more.some((s) => s.id === query.section)}>
          <summary>更多栏目（{more.length}）</summary>
          <ul>{more.map(chip)}</ul>
        </details>
      )}
    </nav>
  );
}

/**
 * 按时间筛选: two days, a GET form (it works without JavaScript; with it, the results route opens in
 * place). Shown only when the index answered. The days are text written 年-月-日 (`dayOf` reads
 * 2026-1-5, 2026/1/5 and 2026年1月5日 too): a date field shows the browser's own order, and a Chinese
 * visitor's browser in English showed mm/dd/yyyy (issue 47). A day that is none is said, not dropped.
 */
function DateFilter({ keyword, query }: { keyword: string; query: SearchQuery }) {
  const [, navigate] = useLocation();
  const fromId = useId();
  const toId = useId();
  const hintId = useId();
  const [wrong, setWrong] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = event.currentTarget.elements;
    const written = (name: string) => (fields.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? '';
    const [from, to] = [dayOf(written('from')), dayOf(written('to'))];
    const bad = [
      ['开始日期', written('from'), from],
      ['结束日期', written('to'), to],
    ].find(([, text, day]) => text !== '' && day === null);
    if (bad) {
      setWrong(`${bad[0]}“${bad[1]}”不是有效的日期，请按 年-月-日 填写，如 2026-01-31。`);
      return;
    }
    setWrong(null);
    navigate(searchHref(keyword, 1, { section: query.section, from, to }));
  };
  return (
    <form className="search-dates" action={pageHref('/search')} method="get" onSubmit={submit} aria-label="按时间筛选" noValidate>
      <input type="hidden" name="q" value={keyword} />
      {query.section && <input type="hidden" name="section" value={query.section} />}
      <label htmlFor={fromId}>发布时间从</label>
      <input id={fromId} type="text" inputMode="numeric" autoComplete="off" name="from" placeholder="年-月-日" size={11} aria-describedby={hintId} defaultValue={query.from ?? ''} />
      <label htmlFor={toId}>至</label>
      <input id={toId} type="text" inputMode="numeric" autoComplete="off" name="to" placeholder="年-月-日" size={11} aria-describedby={hintId} defaultValue={query.to ?? ''} />
      <button type="submit">筛选</button>
      {(query.from || query.to) && <a href={pageHref(searchHref(keyword, 1, { section: query.section }))}>不限时间</a>}
      <span id={hintId} className="visually-hidden">
        按 年-月-日 填写，如 2026-01-31
      </span>
      {wrong && (
        <p className="search-dates__error" role="alert">
          {wrong}
        </p>
      )}
    </form>
  );
}

/** 站内搜索的结果: `/portal/search?q=班列&page=2`; the keyword, page and filters live in the URL, so a reload keeps them. */
export default function SearchPage({ paginationLocale, shortcuts = [] }: SearchPageProps) {
  const query = parseSearch(useSearch());
  const { keyword, page } = query;
  const [, navigate] = useLocation();
  const { data, isFetching, isError } = useSearchArticlesQuery(searchArgs(query), { skip: !keyword });
  const filters = { section: query.section, from: query.from, to: query.to };
  const filtered = Boolean(query.section || query.from || query.to);
  return (
    <section className="search-page">
      <Breadcrumb items={[{ name: '站内搜索' }]} />
      <h1 className="page-title">站内搜索</h1>
      {/* Keyed by the keyword: a new search from the header refills it. */}
      <SearchBox key={keyword ?? ''} initial={keyword ?? ''} label="重新搜索" />
      {keyword && <Shortcuts items={shortcuts} keyword={keyword} />}
      {keyword && data?.source === 'index' && (
        <div className="search-filters">
          {data.sections && data.sections.length > 0 && <SectionFilter keyword={keyword} sections={data.sections} query={query} />}
          <DateFilter key={`${query.from ?? ''}/${query.to ?? ''}`} keyword={keyword} query={query} />
        </div>
      )}
      {keyword && data?.building && (
        <p className="search-page__note" role="status">
          站内搜索正在建立索引，以下结果只含已收录的文章，稍后再搜可得到完整结果。
        </p>
      )}
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
          <p>
            没有找到与“{keyword}”相关的{shortcuts.length > 0 ? '文章' : '内容'}
            {filtered ? '（已按栏目或时间筛选）' : ''}。
          </p>
          <p>{filtered ? '请放宽筛选条件，' : '请换一个词语，'}或从栏目导航浏览。</p>
        </div>
      ) : (
        <>
          <p className="search-page__count" aria-live="polite">
            共 {data.totalElements} 条与“{keyword}”相关的结果
          </p>
          <ol className="search-results" start={(page - 1) * PAGE_SIZE + 1}>
            {data.content.map((hit) => (
              <Result key={hit.id} hit={hit} keyword={keyword} />
            ))}
          </ol>
          <Pagination
            page={page}
            pageSize={PAGE_SIZE}
            total={data.totalElements}
            onChange={(next) => navigate(searchHref(keyword, next, filters))}
            hrefOf={(next) => pageHref(searchHref(keyword, next, filters))}
            keep={{ q: keyword, ...filterParams(filters) }}
            locale={paginationLocale}
          />
        </>
      )}
    </section>
  );
}
