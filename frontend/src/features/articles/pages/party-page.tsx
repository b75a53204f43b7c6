import { ListPage } from '../components/list-page';
import type { ContentPageProps } from '../types';
import { pageHref } from '../../../lib/page-href';
import type { Id } from '../../../lib/id';

export const partyDetailHref = (id: Id) => pageHref(`/party/detail?id=${id}`);

/** The party-style building list; its items open /party/detail. */
export default function PartyPage(props: ContentPageProps) {
  return <ListPage {...props} hrefOf={(a) => partyDetailHref(a.id)} />;
}
