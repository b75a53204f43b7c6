import { Breadcrumb } from '../../../components/breadcrumb';
import { Loading } from '../../../components/loading';
import { useGetArticleQuery } from '../api';
import type { ContentPageProps } from '../types';
import { ArticleView } from './article-view';

interface ArticleDetailProps extends ContentPageProps {
  id: number | null;
  hrefOf?: (id: number) => string;
}

/** One article by id: breadcrumb, body, neighbours and the way back to its list. */
export function ArticleDetail({ id, breadcrumbFor, urlOf, hrefOf, breadcrumb }: ArticleDetailProps) {
  const valid = id !== null && Number.isInteger(id) && id > 0;
  const { data: article, isLoading, isError, error } = useGetArticleQuery(id ?? 0, { skip: !valid });
  if (!valid) {
    return (
      <article className="content-page">
        <Breadcrumb items={breadcrumb} />
        <h1>文章不存在</h1>
        <p className="empty">链接中的文章编号无效。</p>
      </article>
    );
  }
  if (isLoading) return <Loading />;
  if (isError || !article) {
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
      <Breadcrumb items={[...trail, { name: article.title }]} />
      <ArticleView article={article} hrefOf={hrefOf} />
      {listUrl && (
        <p className="article__back">
          <a className="button button--ghost" href={`#${listUrl}`}>
            返回列表
          </a>
        </p>
      )}
    </article>
  );
}
