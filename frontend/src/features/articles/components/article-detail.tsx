import './article-detail.css';

import { useSearch } from 'wouter';

import { Breadcrumb } from '../../../components/breadcrumb';
import { messages } from '../../../lib/locale';
import { articleHref } from '../../../lib/page-href';
import { ArticleSkeleton } from '../../../components/skeleton';
import { useGetArticleQuery } from '../api';
import { listHref, listPageFromSearch } from '../list-page-slice';
import type { ContentPageProps } from '../types';
import { ArticleView } from './article-view';
import { RelatedArticles } from './related-articles';
import type { Id } from '../../../lib/id';

interface ArticleDetailProps extends ContentPageProps {
  id: Id | null;
  hrefOf?: (id: Id) => string;
}

const text = messages({
  zh: {
    crumb: '正文',
    missing: '文章不存在',
    badId: '链接中的文章编号无效。',
    gone: '该文章可能已被删除或移动。',
    failed: '文章加载失败',
    later: '请稍后再试。',
    back: '返回列表',
  },
  en: {
    crumb: 'Article',
    missing: 'Article not found',
    badId: 'The article number in this link is not valid.',
    gone: 'It may have been removed or moved.',
    failed: 'The article could not be loaded',
    later: 'Please try again later.',
    back: 'Back to list',
  },
});

/**
 * The breadcrumb's last step on an article: short, the title being the page's heading right below
 * (on a phone the whole title twice filled the top of the screen).
 */
export const articleCrumb = (): string => text().crumb;

/** One article by id: breadcrumb, body, neighbours, related articles and the way back to its list. */
export function ArticleDetail({ id, breadcrumbFor, urlOf, hrefOf = articleHref, breadcrumb, shareUrl }: ArticleDetailProps) {
  const t = text();
  const valid = id !== null;
  const listPage = listPageFromSearch(useSearch());
  // currentData: this id's article, not the previous one while this one loads (a skeleton then).
  const { currentData: article, isError, error } = useGetArticleQuery(id ?? 0, { skip: !valid });
  if (!valid) {
    return (
      <article className="content-page">
        <Breadcrumb items={breadcrumb} />
        <h1>{t.missing}</h1>
        <p className="empty">{t.badId}</p>
      </article>
    );
  }
  // A failed answer stays shown while it is asked for again: the browser retries the server's 404
  // once it hydrates (RTK Query retries errors), and a skeleton then is not the markup the server sent.
  const failed = !article && (isError || error !== undefined);
  if (!article && !failed) return <ArticleSkeleton />;
  if (failed || !article) {
    const missing = (error as { code?: number } | undefined)?.code === 404;
    return (
      <article className="content-page">
        <Breadcrumb items={breadcrumb} />
        <h1>{missing ? t.missing : t.failed}</h1>
        <p className="empty">{missing ? t.gone : t.later}</p>
      </article>
    );
  }
  const trail = breadcrumbFor(article.categoryId);
  const listUrl = urlOf(article.categoryId);
  return (
    <article className="content-page article">
      <Breadcrumb items={[...trail, { name: t.crumb }]} />
      <ArticleView article={article} hrefOf={hrefOf} shareUrl={shareUrl} />
      {listUrl && (
        <p className="article__back">
          <a className="button button--ghost" href={listHref(listUrl, listPage)}>
            {t.back}
          </a>
        </p>
      )}
      <RelatedArticles article={article} hrefOf={hrefOf} />
    </article>
  );
}
