import type { Category } from './types';
import { isTop, type Id } from '../../lib/id';

/** Depth-first search of the nested tree for the category whose `url` is `url`. */
export function findByUrl(tree: readonly Category[], url: string): Category | undefined {
  for (const category of tree) {
    if (category.url === url) return category;
    const found = findByUrl(category.subCategory ?? [], url);
    if (found) return found;
  }
  return undefined;
}

export function findById(tree: readonly Category[], id: Id): Category | undefined {
  for (const category of tree) {
    if (category.id === id) return category;
    const found = findById(category.subCategory ?? [], id);
    if (found) return found;
  }
  return undefined;
}

export interface MenuSelection {
  selected?: Category;
  /** The sub-menu parent: set only when the selected category is not at the top level. */
  parent?: Category;
}

/** Selecting a menu by its url (spec §4). */
export function selectMenu(tree: readonly Category[], url: string): MenuSelection {
  const selected = findByUrl(tree, url);
  if (!selected) return {};
  const parent = isTop(selected.parentId) ? undefined : findById(tree, selected.parentId);
  return { selected, parent };
}
