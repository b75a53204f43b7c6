import { ListPage } from '../components/list-page';
import type { ContentPageProps } from '../types';
import { pageHref } from '../../../lib/page-href';

export const partyDetailHref = (id: number) => pageHref(`/party/detail?id=${id}`);

/** The party-style building list; its items open /party/detail. */
export default function PartyPage(props: ContentPageProps) {
  return <ListPage {...props} hrefOf={(a) => partyDetailHref(a.id)} />;
}
