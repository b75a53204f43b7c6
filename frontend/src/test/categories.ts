import type { Category } from '../features/categories';

/** A category as the gateway's tree answers it, for tests (`sort` its id; `hidden` only when set). */
export const category = (id: number, parentId: number, name: string, url: string, sub: Category[] = [], hidden = false): Category => ({
  id,
  parentId,
  name,
  url,
  sort: id,
  subCategory: sub,
  ...(hidden ? { hidden } : {}),
});
