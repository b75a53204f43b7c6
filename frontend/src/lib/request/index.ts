export * from './messages';
export * from './request';
export { holdAnswers, neededUrls, type HeldAnswer } from './server-answers';
