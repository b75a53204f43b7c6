export { ReadingToolbar } from './reading-toolbar';
