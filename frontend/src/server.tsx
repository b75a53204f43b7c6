// The server bundle's entry: what the gateway's JavaScript engine calls to render a page
// (crates/render runs this bundle; crates/web/src/pages calls `portalRender`). The page is the
// app's own tree (`app/app.tsx`), rendered with React's `renderToString` at the page's address.
//
// The engine fetches nothing: the gateway passes the API's answers for the URLs the page reads.
// A call first runs the page's loader (`app/page-loads.ts`: the queries the page's components
// make, named by route), pass after pass as answers make more of them nameable, over those answers
// alone: no store, no query started; a URL it names that the gateway has not given is answered at
// once as `{needs}`, and the gateway calls again with those answers too (a list page: the tree,
// then the list of the category found in it). With every answer in, they go into a store in one
// action, the page is rendered once with its data in place, and sent with the store's API state,
// which the browser hydrates from, and the URLs it read (the gateway hands a page's next render
// all of them at once, with no round of asking). Should a component ask for something its loader did not name,
// the render is repeated as before loaders (counted in `renders`; `hydration.test.tsx` keeps that
// from happening on any kind of page).
// The engine is bare ECMAScript: the web's URL and URLSearchParams, which the app reads its
// addresses with, come from core-js (the browser has its own).
import 'core-js/actual/url';
import 'core-js/actual/url-search-params';

import type { Middleware } from '@reduxjs/toolkit';
import { setAutoFreeze } from 'immer';
import { renderToString } from 'react-dom/server.browser';

import { api } from './app/api';
import { App } from './app/app';
import { queryKey, type PageQuery, type Reader } from './app/loader';
import { pageLoads } from './app/page-loads';
import { localeOfLang, setLocale } from './lib/locale';
import { ResponseStatusContext } from './lib/response-status';
import { preloadAllPages } from './app/router';
import { splitHead } from './app/split-head';
import { makeStore } from './app/store';
import { heldResult, holdAnswers, neededUrls, readUrls, type HeldAnswer, type RequestResult } from './lib/request';

/** What the gateway passes: the address to render, its language and the answers it has so far, by API URL. */
interface RenderInput {
  url: string;
  /** `en` for a page at `/portal/en/…` when the portal is in English; else the site's own. */
  lang?: string;
  answers: Record<string, HeldAnswer>;
}

/** Passes of the loader, and of renders should a component ask for more, within one call. */
const MAX_PASSES = 8;

/** A query's start, as RTK Query dispatches it once it has decided to ask. */
interface QueryPending {
  type: string;
  meta?: { arg?: { queryCacheKey?: string } };
}

/**
 * A middleware that drops the start of a query already in `settled` (its `queryCacheKey`): a
 * render's hooks then show what is in the store, where RTK Query would ask again for an error
 * (it refetches a failed query for each new subscriber) and draw the page while that is pending.
 * Dropping the start drops its end too (RTK Query takes an answer only for the request it started).
 */
function askingNothingSettled(settled: ReadonlySet<string>): Middleware {
  return () => (next) => (action) => {
    const { type, meta } = action as QueryPending;
    const key = meta?.arg?.queryCacheKey;
    if (key !== undefined && type === `${api.reducerPath}/executeQuery/pending` && settled.has(key)) return undefined;
    return next(action);
  };
}

// Immer freezes every state it produces, deeply, to catch a mutation in development: here that
// walked every answer a page holds, each time it entered the store (a fifth of a list page's
// render call in QuickJS, 2026-12-02). A store lives for one call and nothing mutates it.
setAutoFreeze(false);

// Every page's code is in this bundle: loaded once, before the first render.
const pagesReady = preloadAllPages();

/** A query the loader named and the answer the gateway gave for it, read as the query reads it. */
interface Loaded {
  query: PageQuery;
  result: RequestResult;
}

/**
 * The page's loader, pass after pass, over the gateway's answers alone (no store, no query
 * started): what it names, each read as its query would read it. `needs`: the URLs it named that
 * the gateway has not given.
 */
function load(url: string): { loaded: Map<string, Loaded>; needs: string[] } {
  const loaded = new Map<string, Loaded>();
  const read: Reader = (endpoint, arg) => loaded.get(queryKey(endpoint.name, arg))?.result.data as never;
  for (let pass = 0; ; pass += 1) {
    if (pass === MAX_PASSES) throw new Error(`the loader of ${url} kept naming queries after ${MAX_PASSES} passes`);
    const fresh = pageLoads(url, read).filter((query) => !loaded.has(query.key));
    if (fresh.length === 0) return { loaded, needs: [] };
    for (const query of fresh) {
      const result = heldResult(query.request);
      if (result) loaded.set(query.key, { query, result: result.error ? result : { data: query.transform(result.data) } });
    }
    const needs = neededUrls();
    if (needs.length > 0) return { loaded, needs };
  }
}

async function render(input: string): Promise<string> {
  await pagesReady;
  const { url, lang, answers } = JSON.parse(input) as RenderInput;
  // Before anything reads it: the loader's URLs and every string of the page are in this language.
  setLocale(localeOfLang(lang));
  holdAnswers(answers ?? {});
  try {
    const { loaded, needs } = load(url);
    if (needs.length > 0) return JSON.stringify({ needs, renders: 0 });
    const settled = new Set<string>();
    const store = makeStore(undefined, askingNothingSettled(settled));
    // The loader's answers into the store: what came back, in one action; what failed (a missing
    // article), by starting its query, which reads the same answer and keeps its error.
    const values = [...loaded.values()];
    store.dispatch(
      api.util.upsertQueryEntries(
        values
          .filter(({ result }) => !result.error)
          .map(({ query, result }) => ({ endpointName: query.endpointName, arg: query.arg, value: result.data })) as never,
      ),
    );
    await Promise.all(values.filter(({ result }) => result.error).map(({ query }) => query.start(store.dispatch)));
    for (let renders = 1; renders <= MAX_PASSES; renders += 1) {
      Object.keys(store.getState()[api.reducerPath].queries).forEach((key) => settled.add(key));
      const status = { status: 200 };
      const html = renderToString(
        <ResponseStatusContext value={status}>
          <App store={store} ssrPath={url} />
        </ResponseStatusContext>,
      );
      const asked = neededUrls();
      if (asked.length > 0) return JSON.stringify({ needs: asked, renders });
      // A query the loader did not name, answered from what the gateway gave: rendered again
      // once it is in, as the page showed it loading.
      const running = store.dispatch(api.util.getRunningQueriesThunk());
      if (running.length > 0) {
        await Promise.all(running);
        continue;
      }
      const { head, body } = splitHead(html);
      return JSON.stringify({
        status: status.status,
        head,
        html: body,
        state: { [api.reducerPath]: store.getState()[api.reducerPath] },
        renders,
        reads: readUrls(),
      });
    }
    throw new Error(`the page at ${url} kept asking for more after ${MAX_PASSES} renders`);
  } finally {
    holdAnswers({});
  }
}

(globalThis as { portalRender?: (input: string) => Promise<string> }).portalRender = render;
