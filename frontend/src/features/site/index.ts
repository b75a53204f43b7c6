export { useGetSiteQuery, type Site } from './api';
