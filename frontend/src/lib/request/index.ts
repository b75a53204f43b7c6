export * from './messages';
export * from './request';
export { holdAnswers, neededUrls, readUrls, type HeldAnswer } from './server-answers';
