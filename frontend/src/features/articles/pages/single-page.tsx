import { Breadcrumb } from '../../../components/breadcrumb';
import { Loading } from '../../../components/loading';
import { useGetArticleQuery, useGetArticlesQuery } from '../api';
import { ArticleView } from '../components/article-view';
import { ListPage } from '../components/list-page';
import type { ContentPageProps } from '../types';

/** A single-page category: its page article (a list category falls back to the list). */
export default function SinglePage(props: ContentPageProps) {
  const { category, categoriesLoading, title, breadcrumb } = props;
  const isList = category?.type === 'list';
  const first = useGetArticlesQuery({ categoryId: category?.id ?? 0, page: 1, size: 1 }, { skip: !category || isList });
  const id = first.data?.content[0]?.id;
  const detail = useGetArticleQuery(id ?? 0, { skip: id === undefined });
  if (isList) return <ListPage {...props} />;
  const loading = categoriesLoading || first.isLoading || detail.isLoading;
  return (
    <article className="content-page">
      <Breadcrumb items={breadcrumb} />
      <header className="content-page__header">
        <h1>{category?.name ?? title}</h1>
        {detail.data?.summary && <p className="lead">{detail.data.summary}</p>}
      </header>
      {loading && <Loading />}
      {!loading && (!category || (first.data && id === undefined)) && <p className="empty">该栏目内容正在整理中，敬请期待。</p>}
      {(first.isError || detail.isError) && <p className="empty">内容加载失败，请稍后再试。</p>}
      {detail.data && (
        <div className="article">
          <ArticleView article={detail.data} withHeader={false} />
        </div>
      )}
    </article>
  );
}
