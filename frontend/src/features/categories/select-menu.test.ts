import { findByUrl, selectMenu } from './select-menu';
import type { Category } from './types';

const c = (id: number, parentId: number, url: string, sub: Category[] = []): Category => ({
  id,
  parentId,
  name: `栏目${id}`,
  url,
  sort: id,
  subCategory: sub,
});

const tree: Category[] = [
  c(1, 0, '/about', [c(11, 1, '/about/company_profile'), c(12, 1, '/about/honor')]),
  c(2, 0, '/news_center', [c(21, 2, '/news_center/company_announcement/1', [c(211, 21, '/deep/leaf')])]),
  c(8, 0, '/development_history'),
];

describe('selecting a menu by url', () => {
  it('finds nested categories at any depth', () => {
    expect(findByUrl(tree, '/about/honor')?.id).toBe(12);
    expect(findByUrl(tree, '/deep/leaf')?.id).toBe(211);
    expect(findByUrl(tree, '/nowhere')).toBeUndefined();
  });

  it('gives the sub-menu parent when parentId is above 0', () => {
    const { selected, parent } = selectMenu(tree, '/news_center/company_announcement/1');
    expect(selected?.id).toBe(21);
    expect(parent?.id).toBe(2);
    expect(selectMenu(tree, '/deep/leaf').parent?.id).toBe(21);
  });

  it('gives no parent at the top level or for an unknown url', () => {
    expect(selectMenu(tree, '/development_history')).toEqual({ selected: tree[2], parent: undefined });
    expect(selectMenu(tree, '/nowhere')).toEqual({});
  });
});
