// The page loader's protocol: what a page reads, as the queries its components make, declared
// once per page (`page-loads.ts`, from each feature's own `loads`). The gateway's render runs a
// page's loader before it renders, so a page is rendered once with its data in place
// (`src/server.tsx`); the browser runs the same loader when a visitor is about to open a page
// (`link-navigation.ts`), so the page's data is on its way before the click.
//
// A loader is a pure function of the address and what is already loaded: it lists the queries it
// can name now (an article's related list only once the article is in), and is asked again after
// those have settled, until it names nothing new.
import type { RequestArgs } from '../lib/request';

/** An RTK Query endpoint as a loader uses it: what starts a query and what reads its data. */
export interface QueryEndpoint<Arg, Result> {
  name: string;
  initiate(arg: Arg, options?: { subscribe?: boolean }): unknown;
  select(arg: Arg): (state: never) => { data?: Result };
}

/**
 * An endpoint's request, written once: its definition's `query` and `transformResponse` are
 * these, and the server's loader reads an answer with them without starting the query.
 */
export interface QuerySpec<Arg, Result> {
  request(arg: Arg): string | RequestArgs;
  /** The endpoint's `transformResponse`, if it has one. */
  transform?(raw: never): Result;
}

/** One query a page makes: its endpoint and argument, named by `key`. */
export interface PageQuery {
  key: string;
  endpointName: string;
  arg: unknown;
  /** The call the query makes, and how its answer becomes the query's data. */
  request: string | RequestArgs;
  transform(raw: unknown): unknown;
  /**
   * Starts it (nothing new when its answer is in). `subscribe: false`, a prefetch: the answer is
   * kept as long as an unused one is, unless the page that reads it opens.
   */
  start(dispatch: (action: never) => unknown, options?: { subscribe?: boolean }): PromiseLike<unknown>;
}

/** What a loader reads: an endpoint's data for an argument, if it is in. */
export type Reader = <Arg, Result>(endpoint: QueryEndpoint<Arg, Result>, arg: Arg) => Result | undefined;

/** A query's name: its endpoint and argument. */
export const queryKey = (endpointName: string, arg: unknown): string => `${endpointName}(${JSON.stringify(arg ?? null)})`;

/** The query of `endpoint` with `arg`, exactly as a component's hook with `arg` makes it. */
export function queryOf<Arg, Result>(endpoint: QueryEndpoint<Arg, Result>, spec: QuerySpec<Arg, Result>, arg: Arg): PageQuery {
  return {
    key: queryKey(endpoint.name, arg),
    endpointName: endpoint.name,
    arg,
    request: spec.request(arg),
    transform: (raw) => (spec.transform ? spec.transform(raw as never) : raw),
    start: (dispatch, options) => dispatch(endpoint.initiate(arg, options) as never) as PromiseLike<unknown>,
  };
}

/** A reader of the store's `state`. */
export function readerOf(state: unknown): Reader {
  return (endpoint, arg) => endpoint.select(arg)(state as never).data;
}
