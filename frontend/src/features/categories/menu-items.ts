import type { MenuItem } from '../../components/menu/types';
import type { Category } from './types';

/** The visible part of the category tree as menu items. */
export function categoriesToMenu(tree: readonly Category[]): MenuItem[] {
  return tree
    .filter((c) => !c.hidden)
    .map((c) => ({
      key: String(c.id),
      name: c.name,
      url: c.url,
      children: categoriesToMenu(c.subCategory ?? []),
    }));
}
