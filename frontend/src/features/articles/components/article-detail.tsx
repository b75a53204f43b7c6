import './article-detail.css';

import { useSearch } from 'wouter';

import { Breadcrumb } from '../../../components/breadcrumb';
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


/**
 * The breadcrumb's last step on an article: short, the title being the page's heading right below
 * (on a phone the whole title twice filled the top of the screen).
 */
export const ARTICLE_CRUMB = '正文';

/** One article by id: breadcrumb, body, neighbours, related articles and the way back to its list. */
export function ArticleDetail({ id, breadcrumbFor, urlOf, hrefOf = articleHref, breadcrumb, shareUrl }: ArticleDetailProps) {
  const valid = id !== null;
  const listPage = listPageFromSearch(useSearch());
  // currentData: this id's article, not the previous one while this one loads (a skeleton then).
  const { currentData: article, isError, error } = useGetArticleQuery(id ?? 0, { skip: !valid });
  if (!valid) {
    return (
      <article className="content-page">
        <Breadcrumb items={breadcrumb} />
        <h1>文章不存在</h1>
        <p className="empty">链接中的文章编号无效。</p>
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
        <h1>{missing ? '文章不存在' : '文章加载失败'}</h1>
        <p className="empty">{missing ? '该文章可能已被删除或移动。' : '请稍后再试。'}</p>
      </article>
    );
  }
  const trail = breadcrumbFor(article.categoryId);
  const listUrl = urlOf(article.categoryId);
  return (
    <article className="content-page article">
      <Breadcrumb items={[...trail, { name: ARTICLE_CRUMB }]} />
      <ArticleView article={article} hrefOf={hrefOf} shareUrl={shareUrl} />
      {listUrl && (
        <p className="article__back">
          <a className="button button--ghost" href={listHref(listUrl, listPage)}>
            返回列表
          </a>
        </p>
      )}
      <RelatedArticles article={article} hrefOf={hrefOf} />
    </article>
  );
}
