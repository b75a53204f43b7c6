import { ListPage } from '../components/list-page';
import type { ContentPageProps } from '../types';

/** The shared page of the three party-construction routes. */
export default function PartyConstructionPage(props: ContentPageProps) {
  return <ListPage {...props} />;
}
