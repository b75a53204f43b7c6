import { articlesApi, useGetArticlesQuery } from '../../../features/articles';
import { useGetCategoriesQuery } from '../../../features/categories';
import { messages } from '../../../lib/locale';
import { pageHref } from '../../../lib/page-href';
import { useAppSelector } from '../../hooks';
import { businessTiles, homeListArgs } from './home-lists';

const text = messages({ zh: { business: '业务板块' }, en: { business: 'Our Business' } });

type Tile = ReturnType<typeof businessTiles>[number];

/** A first page that came back with no article: the section holds none. */
const holdsNone = (page?: { content: unknown[]; totalElements?: number }) => Boolean(page && page.content.length === 0 && !page.totalElements);

/** One tile; it keeps its answer subscribed (the page's loader asked for it before the render). */
function BusinessTile({ tile }: { tile: Tile }) {
  useGetArticlesQuery(homeListArgs(tile.category.id, tile));
  return (
    <li>
      <a className="tile" href={pageHref(tile.route)}>
        <strong>{tile.name}</strong>
        {tile.category.description && <span>{tile.category.description}</span>}
      </a>
    </li>
  );
}

/**
 * 业务板块: the route table's business pages, each with its CMS category's line; a section the CMS
 * answered holds no article is left out (shown while its answer is on its way or when it failed),
 * and the block with it when none is left.
 */
export function BusinessTiles() {
  const { data: tree = [] } = useGetCategoriesQuery();
  const tiles = businessTiles(tree);
  // One string, so the selector's answer compares equal while nothing changed.
  const empty = useAppSelector((state) =>
    tiles.map((t) => (holdsNone(articlesApi.endpoints.getArticles.select(homeListArgs(t.category.id, t))(state).data) ? '1' : '0')).join(''),
  );
  const shown = tiles.filter((_, i) => empty[i] !== '1');
  if (shown.length === 0) return null;
  return (
    <section className="container home-business" aria-labelledby="home-business-title">
      <h2 id="home-business-title">{text().business}</h2>
      <ul className="tile-list">
        {shown.map((t) => (
          <BusinessTile key={t.route} tile={t} />
        ))}
      </ul>
    </section>
  );
}
