export * from './messages';
export * from './request';
