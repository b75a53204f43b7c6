// The crawlable pages' enhancements (/portal/site/…, the gateway's templates/crawl/page.html):
// the page is complete without this script; with it a visitor gets the portal's header tools
// (search, 关怀版), a phone menu that folds and the article tools, without loading the app.
// Vanilla TypeScript, no React: it must stay a few kilobytes (scripts/load-budget.mjs checks).
import { enhanceArticleTools } from './article-tools';
import { enhanceMenu } from './menu';
import { enhanceReading } from './reading';
import { enhanceSearch } from './search';

enhanceMenu();
enhanceSearch();
enhanceReading();
enhanceArticleTools();
