import { useSearch } from 'wouter';

import { ArticleDetail } from '../components/article-detail';
import { articleIdOf } from '../../../lib/page-href';
import type { ContentPageProps } from '../types';
import { partyDetailHref } from './party-page';

export default function PartyDetailPage(props: ContentPageProps) {
  const search = useSearch();
  const id = articleIdOf(new URLSearchParams(search).get('id'));
  return <ArticleDetail {...props} id={id} hrefOf={partyDetailHref} />;
}
