export { ReadingToolbar, STATEMENT_HREF } from './reading-toolbar';
export { TEXT_SIZES, ZOOMS } from './prefs';
