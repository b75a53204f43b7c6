import { Breadcrumb } from '../../../components/breadcrumb';
import { BodySkeleton, ContentRegion, PageHeader } from '../../../components/skeleton';
import { useGetArticleQuery, useGetArticlesQuery } from '../api';
import { pageArticleArgs } from '../loads';
import { ArticleView } from '../components/article-view';
import { ListPage } from '../components/list-page';
import { PageExtras } from '../components/page-extras';
import type { ContentPageProps } from '../types';
import { messages } from '../../../lib/locale';

const text = messages({
  zh: { preparing: '该栏目内容正在整理中，敬请期待。', failed: '内容加载失败，请稍后再试。' },
  en: { preparing: 'The content of this section is being prepared. Please check back soon.', failed: 'The content could not be loaded. Please try again later.' },
});

/** A single-page category: its page article (a list category falls back to the list). */
export default function SinglePage(props: ContentPageProps) {
  const { category, categoriesLoading, title, breadcrumb, extras } = props;
  const t = text();
  const isList = category?.type === 'list';
  const first = useGetArticlesQuery(pageArticleArgs(category?.id ?? 0), { skip: !category || isList });
  const id = first.data?.content[0]?.id;
  const detail = useGetArticleQuery(id ?? 0, { skip: id === undefined });
  if (isList) return <ListPage {...props} />;
  const failed = first.isError || detail.isError;
  const empty = !categoriesLoading && (!category || (first.data !== undefined && id === undefined));
  const loading = !failed && !empty && !detail.data;
  return (
    <article className="content-page">
      <Breadcrumb items={breadcrumb} />
      <PageHeader title={category?.name ?? title} lead={detail.data?.summary} leadPending={loading} longLead />
      <ContentRegion busy={loading} placeholder={<BodySkeleton />}>
        {empty && <p className="empty">{t.preparing}</p>}
        {failed && <p className="empty">{t.failed}</p>}
        {detail.data && (
          <div className="article">
            <ArticleView article={detail.data} withHeader={false} shareUrl={props.shareUrl} />
          </div>
        )}
        <PageExtras extras={extras} path={props.path} />
      </ContentRegion>
    </article>
  );
}
