export * from './messages';
export * from './request';
export { bootedUrls, resetBoot } from './boot';
