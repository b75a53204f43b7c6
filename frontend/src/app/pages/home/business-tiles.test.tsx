// 业务板块 on the home page: a tile for each business section the CMS has, none for a section whose
// list came back empty (a visitor sent there would find nothing), and no block when none is left.
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';

import { articlesApi } from '../../../features/articles';
import { categoriesApi, type Category } from '../../../features/categories';
import { setLocale } from '../../../lib/locale';
import { category } from '../../../test/categories';
import { makeStore } from '../../store';
import { BusinessTiles } from './business-tiles';
import { businessTiles, homeListArgs, homeLoads } from './home-lists';

const single = (id: number, name: string, url: string): Category => ({ ...category(id, 3, name, url), type: 'page', description: `${name}的介绍` });
const TREE: Category[] = [
  {
    ...category(3, 0, '业务板块', '/business', [
      single(31, '中欧班列', '/business/China-Europe_train'),
      single(32, '海外仓', '/business/oversea_location'),
      single(33, '集卡平台', '/business/card_platform'),
    ]),
    type: 'group',
  },
];
const page = (n: number) => ({
  content: Array.from({ length: n }, (_, i) => ({ id: 900 + i, categoryId: 31, title: `第 ${i + 1} 篇`, publishTime: '2026-11-02 09:00:00' })),
  page: 1,
  size: 1,
  totalElements: n,
  totalPages: n,
});

/** A store holding the tree and each tile's answer by category id (`undefined`: not in yet). */
async function storeWith(lists: Record<number, number | undefined>) {
  const store = makeStore();
  await store.dispatch(categoriesApi.util.upsertQueryData('getCategories', undefined, TREE));
  for (const tile of businessTiles(TREE)) {
    const n = lists[Number(tile.category.id)];
    if (n !== undefined) await store.dispatch(articlesApi.util.upsertQueryData('getArticles', homeListArgs(tile.category.id, tile), page(n)));
  }
  return store;
}

const tiles = () => screen.queryAllByRole('link').map((a) => a.querySelector('strong')?.textContent);

beforeEach(() => setLocale('zh'));

it('asks each business section the CMS has for its newest article before a render', () => {
  const asked = homeLoads(TREE).filter((q) => q.endpointName === 'getArticles').map((q) => q.arg);
  expect(asked).toEqual(expect.arrayContaining([31, 32, 33].map((categoryId) => ({ categoryId, page: 1, size: 1 }))));
});

it('leaves out a section that holds no article, and keeps one whose answer is not in', async () => {
  const store = await storeWith({ 31: 4, 32: 0 });
  render(
    <Provider store={store}>
      <BusinessTiles />
    </Provider>,
  );
  expect(tiles()).toEqual(['中欧班列', '集卡平台']);
  expect(screen.getByRole('link', { name: /中欧班列/ }).getAttribute('href')).toBe('/portal/business/China-Europe_train');
});

it('shows no block when every section is empty', async () => {
  const store = await storeWith({ 31: 0, 32: 0, 33: 0 });
  const { container } = render(
    <Provider store={store}>
      <BusinessTiles />
    </Provider>,
  );
  expect(container.querySelector('.home-business')).toBeNull();
});
