export { ReadingToolbar } from './reading-toolbar';
export { TEXT_SIZES, ZOOMS } from './prefs';
