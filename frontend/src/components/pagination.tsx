import './pagination.css';

import { useState, type FormEvent, type MouseEvent } from 'react';

import { formatNumber, locale as pageLocale } from '../lib/locale';

export type PaginationLocale = 'en' | 'zh-CN';

const LABELS = {
  en: {
    nav: 'Pagination',
    prev: 'Previous',
    next: 'Next',
    total: (n: number) => `Total ${formatNumber(n)} item${n === 1 ? '' : 's'}`,
    page: (p: number) => `Page ${p}`,
    jumpBefore: 'Go to',
    jumpAfter: 'page',
    jumpField: 'Go to page number',
    jumpGo: 'Go',
  },
  'zh-CN': {
    nav: '分页',
    prev: '上一页',
    next: '下一页',
    total: (n: number) => `共 ${n} 条`,
    page: (p: number) => `第 ${p} 页`,
    jumpBefore: '跳至',
    jumpAfter: '页',
    jumpField: '跳至页码',
    jumpGo: '确定',
  },
} as const;

interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  /**
   * The address of a page (`?page=2`): each page number is a link to it, so a list pages without
   * JavaScript and by crawlers; the app opens it in place (`onChange`).
   */
  hrefOf: (page: number) => string;
  /** Query parameters the page keeps when 跳至 is submitted without JavaScript (a search's `q`). */
  keep?: Record<string, string>;
  /**
   * English by default (the replaced portal's labels); zh-CN by site setting. A page in English
   * (`/portal/en/…`) is always paged in English.
   */
  locale?: PaginationLocale;
}

/** From this many pages on, a list also offers a jump to a typed page number. */
export const JUMP_FROM_PAGES = 6;

/**
 * The page numbers a desktop pager shows: the first and the last, the current page with `siblings`
 * each side, and a gap (…) only where it stands for two pages or more — a gap for one page says less
 * than its number. The row keeps one width as the visitor pages (`2 × siblings + 5` places, as
 * MUI's and Ant Design's pagers do): a list of up to that many pages shows every number, so a
 * 5-page list reads 1 2 3 4 5, not 1 2 … 5 with pages 3 and 4 out of reach.
 */
export function pageWindow(page: number, pages: number, siblings = 1): (number | 'gap')[] {
  const places = 2 * siblings + 5;
  if (pages <= places) return Array.from({ length: pages }, (_, i) => i + 1);
  // The run around the current page, slid away from the ends so the row stays `places` long.
  const start = Math.max(Math.min(page - siblings, pages - 2 * siblings - 2), 3);
  const end = Math.min(Math.max(page + siblings, 2 * siblings + 3), pages - 2);
  const run = Array.from({ length: end - start + 1 }, (_, i) => start + i);
  return [1, start > 3 ? 'gap' : 2, ...run, end < pages - 2 ? 'gap' : pages - 1, pages];
}

/**
 * The numbers a phone keeps of the pager: the first, the current and the last (all of up to four),
 * so 上一页, the numbers and 下一页 fit one row at 390 px.
 */
export function phoneNumbers(page: number, pages: number): Set<number> {
  if (pages <= 4) return new Set(Array.from({ length: pages }, (_, i) => i + 1));
  return new Set([1, page, pages]);
}

/** 跳至 N 页: a typed number, brought into 1..pages (without JavaScript, the form asks for `?page=N`). */
function PageJump({
  page,
  pages,
  onChange,
  keep,
  labels,
}: {
  page: number;
  pages: number;
  onChange: (page: number) => void;
  keep?: Record<string, string>;
  labels: (typeof LABELS)[PaginationLocale];
}) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = Number.parseInt(value, 10);
    if (!Number.isFinite(typed)) return;
    const target = Math.min(pages, Math.max(1, typed));
    setValue('');
    if (target !== page) onChange(target);
  };
  return (
    <form className="pagination__jump" method="get" onSubmit={submit} noValidate>
      {Object.entries(keep ?? {}).map(([name, kept]) => (
        <input key={name} type="hidden" name={name} value={kept} />
      ))}
      <span aria-hidden="true">{labels.jumpBefore}</span>
      <input type="number" name="page" inputMode="numeric" min={1} max={pages} value={value} onChange={(e) => setValue(e.target.value)} aria-label={labels.jumpField} />
      <span aria-hidden="true">{labels.jumpAfter}</span>
      <button type="submit">{labels.jumpGo}</button>
    </form>
  );
}

export function Pagination({ page, pageSize, total, onChange, hrefOf, keep, locale = 'en' }: PaginationProps) {
  const labels = pageLocale() === 'en' ? LABELS.en : (LABELS[locale] ?? LABELS.en);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize) return <p className="pagination__total">{labels.total(total)}</p>;
  const go = (target: number) => (event: MouseEvent) => {
    event.preventDefault();
    onChange(target);
  };
  const step = (target: number, label: string, enabled: boolean) =>
    enabled ? (
      <a className="pagination__step" href={hrefOf(target)} onClick={go(target)}>
        {label}
      </a>
    ) : (
      <span className="pagination__step" aria-disabled="true">
        {label}
      </span>
    );
  // A phone shows only the first, current and last numbers (the stylesheet hides the others), so
  // 上一页, the numbers and 下一页 fit one row at 390 px: the same markup on every screen, so the
  // server's page is the one the browser keeps.
  const compact = phoneNumbers(page, pages);
  return (
    <nav className="pagination" aria-label={labels.nav}>
      <span className="pagination__total">{labels.total(total)}</span>
      {step(page - 1, labels.prev, page > 1)}
      <ol>
        {pageWindow(page, pages, 1).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p} className={compact.has(p) ? undefined : 'pagination__near'}>
              <a href={hrefOf(p)} aria-label={labels.page(p)} aria-current={p === page ? 'page' : undefined} onClick={go(p)}>
                {p}
              </a>
            </li>
          ),
        )}
      </ol>
      {step(page + 1, labels.next, page < pages)}
      {pages >= JUMP_FROM_PAGES && <PageJump page={page} pages={pages} onChange={onChange} keep={keep} labels={labels} />}
    </nav>
  );
}
