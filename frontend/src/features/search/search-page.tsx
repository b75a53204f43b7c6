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
import { formatNumber, messages } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';
import type { Id } from '../../lib/id';

const text = messages({
  zh: {
    title: '站内搜索',
    searchAgain: '重新搜索',
    shortcuts: '服务直达',
    bySection: '按栏目筛选',
    all: '全部',
    moreSections: (n: number) => `更多栏目（${n}）`,
    byDate: '按时间筛选',
    from: '发布时间从',
    to: '至',
    dayPlaceholder: '年-月-日',
    filter: '筛选',
    anyTime: '不限时间',
    dayHint: '按 年-月-日 填写，如 2026-01-31',
    notADay: (which: 'from' | 'to', written: string) =>
      `${which === 'from' ? '开始日期' : '结束日期'}“${written}”不是有效的日期，请按 年-月-日 填写，如 2026-01-31。`,
    building: '站内搜索正在建立索引，以下结果只含已收录的文章，稍后再搜可得到完整结果。',
    noKeyword: '请输入要查找的词语，例如“班列”。',
    unavailable: '搜索暂时不可用，请稍后再试。',
    nothing: (keyword: string, articles: boolean, filtered: boolean) =>
      `没有找到与“${keyword}”相关的${articles ? '文章' : '内容'}${filtered ? '（已按栏目或时间筛选）' : ''}。`,
    tryElse: (filtered: boolean) => `${filtered ? '请放宽筛选条件，' : '请换一个词语，'}或从栏目导航浏览。`,
    count: (n: number, keyword: string) => `共 ${formatNumber(n)} 条与“${keyword}”相关的结果`,
  },
  en: {
    title: 'Search',
    searchAgain: 'Search again',
    shortcuts: 'Quick links',
    bySection: 'Filter by section',
    all: 'All',
    moreSections: (n: number) => `More sections (${n})`,
    byDate: 'Filter by date',
    from: 'Published from',
    to: 'to',
    dayPlaceholder: 'YYYY-MM-DD',
    filter: 'Filter',
    anyTime: 'Any date',
    dayHint: 'Write dates as YYYY-MM-DD, e.g. 2026-01-31',
    notADay: (which: 'from' | 'to', written: string) =>
      `The ${which === 'from' ? 'start' : 'end'} date “${written}” is not a valid date. Please write it as YYYY-MM-DD, e.g. 2026-01-31.`,
    building: 'The search index is still being built: these results include only the articles indexed so far. Search again later for complete results.',
    noKeyword: 'Enter the words you are looking for, e.g. “freight train”.',
    unavailable: 'Search is temporarily unavailable. Please try again later.',
    nothing: (keyword: string, articles: boolean, filtered: boolean) =>
      `No ${articles ? 'articles' : 'results'} found for “${keyword}”${filtered ? ' (filtered by section or date)' : ''}.`,
    tryElse: (filtered: boolean) => `${filtered ? 'Try widening the filters' : 'Try another word'}, or browse the sections from the menu.`,
    count: (n: number, keyword: string) => `${formatNumber(n)} result${n === 1 ? '' : 's'} for “${keyword}”`,
  },
});

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
  const t = text();
  if (items.length === 0) return null;
  return (
    <section className="search-shortcuts" aria-labelledby="search-shortcuts-title">
      <h2 id="search-shortcuts-title">{t.shortcuts}</h2>
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
  const t = text();
  const all = sections.reduce((sum, s) => sum + s.count, 0);
  const href = (section: Id | null) => pageHref(searchHref(keyword, 1, { ...query, section }));
  const chip = (s: SectionCount) => (
    <li key={s.id}>
      <a href={href(s.id)} aria-current={query.section === s.id ? 'page' : undefined}>
        {s.name} <span className="search-filter__count">{formatNumber(s.count)}</span>
      </a>
    </li>
  );
  // The sections with most hits stand out; the rest wait behind 更多栏目 (open when one of them is
  // the one shown), so a phone sees results before a wall of chips.
  const shown = sections.slice(0, SECTIONS_SHOWN);
  const more = sections.slice(SECTIONS_SHOWN);
  return (
    <nav className="search-filter" aria-label={t.bySection}>
      <ul>
        <li>
          <a href={href(null)} aria-current={query.section ? undefined : 'page'}>
            {t.all} <span className="search-filter__count">{formatNumber(all)}</span>
          </a>
        </li>
        {shown.map(chip)}
      </ul>
      {more.length > 0 && (
        <details className="search-filter__more" open={more.some((s) => s.id === query.section)}>
          <summary>{t.moreSections(more.length)}</summary>
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
  const t = text();
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
    const bad = (
      [
        ['from', written('from'), from],
        ['to', written('to'), to],
      ] as const
    ).find(([, typed, day]) => typed !== '' && day === null);
    if (bad) {
      setWrong(t.notADay(bad[0], bad[1]));
      return;
    }
    setWrong(null);
    navigate(searchHref(keyword, 1, { section: query.section, from, to }));
  };
  return (
    <form className="search-dates" action={pageHref('/search')} method="get" onSubmit={submit} aria-label={t.byDate} noValidate>
      <input type="hidden" name="q" value={keyword} />
      {query.section && <input type="hidden" name="section" value={query.section} />}
      <label htmlFor={fromId}>{t.from}</label>
      <input id={fromId} type="text" inputMode="numeric" autoComplete="off" name="from" placeholder={t.dayPlaceholder} size={11} aria-describedby={hintId} defaultValue={query.from ?? ''} />
      <label htmlFor={toId}>{t.to}</label>
      <input id={toId} type="text" inputMode="numeric" autoComplete="off" name="to" placeholder={t.dayPlaceholder} size={11} aria-describedby={hintId} defaultValue={query.to ?? ''} />
      <button type="submit">{t.filter}</button>
      {(query.from || query.to) && <a href={pageHref(searchHref(keyword, 1, { section: query.section }))}>{t.anyTime}</a>}
      <span id={hintId} className="visually-hidden">
        {t.dayHint}
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
  const t = text();
  return (
    <section className="search-page">
      <Breadcrumb items={[{ name: t.title }]} />
      <h1 className="page-title">{t.title}</h1>
      {/* Keyed by the keyword: a new search from the header refills it. */}
      <SearchBox key={keyword ?? ''} initial={keyword ?? ''} label={t.searchAgain} />
      {keyword && <Shortcuts items={shortcuts} keyword={keyword} />}
      {keyword && data?.source === 'index' && (
        <div className="search-filters">
          {data.sections && data.sections.length > 0 && <SectionFilter keyword={keyword} sections={data.sections} query={query} />}
          <DateFilter key={`${query.from ?? ''}/${query.to ?? ''}`} keyword={keyword} query={query} />
        </div>
      )}
      {keyword && data?.building && (
        <p className="search-page__note" role="status">
          {t.building}
        </p>
      )}
      {!keyword ? (
        <p className="search-page__note">{t.noKeyword}</p>
      ) : isError ? (
        <p className="search-page__note" role="alert">
          {t.unavailable}
        </p>
      ) : !data || (isFetching && data.page !== page) ? (
        <Loading />
      ) : data.totalElements === 0 ? (
        <div className="search-page__empty">
          <p>{t.nothing(keyword, shortcuts.length > 0, filtered)}</p>
          <p>{t.tryElse(filtered)}</p>
        </div>
      ) : (
        <>
          <p className="search-page__count" aria-live="polite">
            {t.count(data.totalElements, keyword)}
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
