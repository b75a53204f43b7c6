export { categoriesApi, categoriesInSpec, categoriesSpec, useGetCategoriesInQuery, useGetCategoriesQuery } from './api';
export { categoriesToMenu } from './menu-items';
export { findById, findByUrl, selectMenu, type MenuSelection } from './select-menu';
export type { Category } from './types';
