import './skeleton.css';

import type { ReactNode } from 'react';

import { Breadcrumb, type Crumb } from './breadcrumb';
import { messages } from '../lib/locale';

const text = messages({
  zh: { loading: '正在加载…' },
  en: { loading: 'Loading…' },
});

/**
 * Content placeholders (issue 24): grey lines where a page's text will be, each in the element the
 * text will take, so the page keeps its shape while its data loads and nothing moves when it comes
 * (the lines of a list are the list's items; the paragraphs, the body's paragraphs). The region
 * around them says it is busy; a screen reader hears 正在加载 once, not the lines.
 */

/** One grey line filling `width` of its line box (a class: the page's style policy allows no inline style). */
export function SkeletonLine({ width = 'full' }: { width?: 'full' | 'long' | 'half' | 'short' }) {
  return <span className={`skeleton-line skeleton-line--${width}`} aria-hidden="true" />;
}

const WIDTHS = ['long', 'full', 'half', 'long', 'full', 'short'] as const;

/**
 * N items of an article list: a title, a summary and a date line each, sized as the list's items
 * are (skeleton.css mirrors `.article-item`; its own classes, so nothing takes it for the list).
 */
export function ListSkeleton({ lines = 10 }: { lines?: number }) {
  return (
    <ul className="skeleton skeleton-list" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <li key={i} className="skeleton-list__item">
          <p className="skeleton-list__title">
            <SkeletonLine width={WIDTHS[i % WIDTHS.length] === 'short' ? 'half' : 'long'} />
          </p>
          <p className="skeleton-list__summary">
            <SkeletonLine width={WIDTHS[(i + 1) % WIDTHS.length]} />
          </p>
          <p className="skeleton-list__meta">
            <SkeletonLine width="short" />
          </p>
        </li>
      ))}
    </ul>
  );
}

/** Paragraph lines of an article body. */
export function BodySkeleton({ paragraphs = 3 }: { paragraphs?: number }) {
  return (
    <div className="skeleton skeleton-body" aria-hidden="true">
      {Array.from({ length: paragraphs }, (_, i) => (
        <p key={i}>
          <SkeletonLine />
          <SkeletonLine />
          <SkeletonLine />
          <SkeletonLine width={i % 2 ? 'half' : 'long'} />
        </p>
      ))}
    </div>
  );
}

/** An article's title block: the heading's line and the meta line, centred as the article's are (no heading element: the page's h1 is the real one). */
export function ArticleHeaderSkeleton() {
  return (
    <div className="skeleton skeleton-article-header" aria-hidden="true">
      <p className="skeleton-article-header__title">
        <SkeletonLine width="long" />
      </p>
      <p className="skeleton-article-header__meta">
        <SkeletonLine width="half" />
      </p>
    </div>
  );
}

/** What a screen reader is told while the region is busy. */
export function LoadingNote() {
  return (
    <p className="visually-hidden" role="status">
      {text().loading}
    </p>
  );
}

/**
 * The busy region: the placeholder while `busy`, the content after. The content comes in a new
 * region rather than moving the placeholder's: a lead longer than its placeholder (a single page's
 * summary) pushes the content, not lines already on screen.
 */
export function ContentRegion({
  busy,
  placeholder,
  stage = '',
  children,
}: {
  busy: boolean;
  placeholder: ReactNode;
  /** What the page still waits for, when it waits in steps: each step's placeholder is a new one too. */
  stage?: string;
  children?: ReactNode;
}) {
  return (
    <div key={busy ? `busy${stage}` : 'ready'} className="content-region" aria-busy={busy}>
      {busy ? (
        <>
          <LoadingNote />
          {placeholder}
        </>
      ) : (
        children
      )}
    </div>
  );
}

/**
 * A content page's heading block: its name, and its lead (a grey line while the lead is to come;
 * `longLead`: a single page's summary, about two lines on a phone, where a list's description is one).
 */
export function PageHeader({ title, lead, leadPending = false, longLead = false }: { title: string; lead?: string; leadPending?: boolean; longLead?: boolean }) {
  return (
    <header className="content-page__header">
      <h1>{title}</h1>
      {lead ? (
        <p className="lead">{lead}</p>
      ) : leadPending ? (
        <p className={`lead skeleton-lead${longLead ? ' skeleton-lead--long' : ''}`}>
          <SkeletonLine width="long" />
          <SkeletonLine width="half" />
        </p>
      ) : null}
    </header>
  );
}

export type SkeletonKind = 'list' | 'single' | 'article';

interface PageSkeletonProps {
  kind: SkeletonKind;
  breadcrumb?: Crumb[];
  title?: string;
  lead?: string;
  /** The lead is still to come (a list's category description while the CMS tree loads). */
  leadPending?: boolean;
}

/**
 * A whole content page while its script loads: what the page itself shows while its data loads
 * (the same header, breadcrumb and placeholders), so the page replaces it without a jump.
 */
export function PageSkeleton({ kind, breadcrumb = [], title = '', lead, leadPending = false }: PageSkeletonProps) {
  if (kind === 'article') return <ArticleSkeleton />;
  return (
    <article className="content-page">
      <Breadcrumb items={breadcrumb} />
      <PageHeader title={title} lead={lead} leadPending={kind === 'single' || leadPending} longLead={kind === 'single'} />
      <ContentRegion busy placeholder={kind === 'list' ? <ListSkeleton /> : <BodySkeleton />} />
    </article>
  );
}

/** An article while it loads: breadcrumb line, title block and paragraphs. */
export function ArticleSkeleton() {
  return (
    <article className="content-page article" aria-busy="true">
      <LoadingNote />
      <div className="skeleton skeleton-breadcrumb" aria-hidden="true">
        <SkeletonLine width="half" />
      </div>
      <ArticleHeaderSkeleton />
      <BodySkeleton paragraphs={4} />
    </article>
  );
}
