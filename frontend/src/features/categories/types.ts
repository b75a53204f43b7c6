export interface Category {
  id: number;
  parentId: number;
  name: string;
  url: string;
  sort: number;
  subCategory: Category[];
  /** `group`, `page` (one page article) or `list` (paged articles); set by the CMS. */
  type?: 'group' | 'page' | 'list';
  hidden?: boolean;
  description?: string;
  icon?: string;
}
