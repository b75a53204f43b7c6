// The server bundle's entry: what the gateway's JavaScript engine calls to render a page
// (crates/render runs this bundle; crates/web/src/pages calls `portalRender`). The page is the
// app's own tree (`app/app.tsx`), rendered with React's `renderToString` at the page's address.
//
// The engine fetches nothing: the gateway passes the API's answers for the URLs the page asks for.
// A render that asks for a URL it was not given answers `{needs}` at once, and the gateway renders
// again with those answers too (a list page first needs the category tree, then the list of the
// category found in it). Once every query the page started is answered, the page is rendered once
// more with the data in place and sent with the store's API state, which the browser hydrates from.
// The engine is bare ECMAScript: the web's URL and URLSearchParams, which the app reads its
// addresses with, come from core-js (the browser has its own).
import 'core-js/actual/url';
import 'core-js/actual/url-search-params';

import { renderToString } from 'react-dom/server.browser';

import { api } from './app/api';
import { App } from './app/app';
import { ResponseStatusContext } from './lib/response-status';
import { preloadAllPages } from './app/router';
import { splitHead } from './app/split-head';
import { makeStore, type AppStore } from './app/store';
import { holdAnswers, neededUrls, type HeldAnswer } from './lib/request';

/** What the gateway passes: the address to render and the answers it has so far, by API URL. */
interface RenderInput {
  url: string;
  answers: Record<string, HeldAnswer>;
}

/** The rounds of asking within one call: each adds the queries the answers of the last made possible. */
const MAX_PASSES = 8;

/**
 * The store as the page's components see it: while `frozen`, it starts nothing new (a query
 * hook's request is a thunk), so a render finds what is there.
 */
function guarded(store: AppStore, frozen: () => boolean): AppStore {
  const dispatch = ((action: Parameters<AppStore['dispatch']>[0]) =>
    frozen() && typeof action === 'function' ? undefined : store.dispatch(action)) as AppStore['dispatch'];
  return { ...store, dispatch };
}

// Every page's code is in this bundle: loaded once, before the first render.
const pagesReady = preloadAllPages();

async function render(input: string): Promise<string> {
  await pagesReady;
  const { url, answers } = JSON.parse(input) as RenderInput;
  holdAnswers(answers ?? {});
  const store = makeStore();
  let frozen = false;
  const seen = guarded(store, () => frozen);
  try {
    // Queries whose answers were in: asked again only as a refetch of an error (RTK Query
    // refetches an error for each new subscriber, and each pass subscribes anew).
    const settled = new Set<string>();
    const renderPage = () => {
      const status = { status: 200 };
      const html = renderToString(
        <ResponseStatusContext value={status}>
          <App store={seen} ssrPath={url} />
        </ResponseStatusContext>,
      );
      return { status: status.status, html };
    };
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      let page = renderPage();
      const needs = neededUrls();
      if (needs.length > 0) return JSON.stringify({ needs });
      const running = store.dispatch(api.util.getRunningQueriesThunk());
      if (running.some((query) => !settled.has(query.queryCacheKey))) {
        await Promise.all(running);
        running.forEach((query) => settled.add(query.queryCacheKey));
        continue;
      }
      if (running.length > 0) {
        // Only errors asked again: once they are back, the page is rendered with nothing new
        // started, so it shows the error (an article that does not exist), not a loading state.
        await Promise.all(running);
        frozen = true;
        try {
          page = renderPage();
        } finally {
          frozen = false;
        }
      }
      const { head, body } = splitHead(page.html);
      return JSON.stringify({ status: page.status, head, html: body, state: { [api.reducerPath]: store.getState()[api.reducerPath] } });
    }
    throw new Error(`the page at ${url} kept asking for more after ${MAX_PASSES} rounds`);
  } finally {
    holdAnswers({});
  }
}

(globalThis as { portalRender?: (input: string) => Promise<string> }).portalRender = render;
