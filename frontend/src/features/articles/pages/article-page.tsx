import { useParams } from 'wouter';

import { ArticleDetail } from '../components/article-detail';
import { idOf } from '../../../lib/id';
import type { ContentPageProps } from '../types';

export default function ArticlePage(props: ContentPageProps) {
  const { id } = useParams<{ id: string }>();
  return <ArticleDetail {...props} id={idOf(id)} />;
}
