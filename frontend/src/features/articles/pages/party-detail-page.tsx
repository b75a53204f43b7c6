import { useSearch } from 'wouter';

import { ArticleDetail } from '../components/article-detail';
import type { ContentPageProps } from '../types';
import { partyDetailHref } from './party-page';

export default function PartyDetailPage(props: ContentPageProps) {
  const search = useSearch();
  const raw = new URLSearchParams(search).get('id');
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  return <ArticleDetail {...props} id={id} hrefOf={partyDetailHref} />;
}
