import { useSearch } from 'wouter';

import { ArticleDetail } from '../components/article-detail';
import { idOf } from '../../../lib/id';
import type { ContentPageProps } from '../types';
import { partyDetailHref } from './party-page';

export default function PartyDetailPage(props: ContentPageProps) {
  const search = useSearch();
  const id = idOf(new URLSearchParams(search).get('id'));
  return <ArticleDetail {...props} id={id} hrefOf={partyDetailHref} />;
}
