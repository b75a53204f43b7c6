import { ListPage } from '../components/list-page';
import type { ContentPageProps } from '../types';

/** Company news, media coverage and notices: one page, the category picked by the route. */
export default function NewsListPage(props: ContentPageProps) {
  return <ListPage {...props} />;
}
