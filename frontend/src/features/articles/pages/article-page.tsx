import { useParams } from 'wouter';

import { ArticleDetail } from '../components/article-detail';
import { articleIdOf } from '../../../lib/page-href';
import type { ContentPageProps } from '../types';

export default function ArticlePage(props: ContentPageProps) {
  const { id } = useParams<{ id: string }>();
  return <ArticleDetail {...props} id={articleIdOf(id)} />;
}
