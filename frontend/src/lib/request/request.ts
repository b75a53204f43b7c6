// The request layer (spec §7–9): every call to the gateway goes through `request`.
import type { BaseQueryFn } from '@reduxjs/toolkit/query';

import { onServer } from '../environment';
import { notify } from '../notify';
import { validToken } from '../storage';
import { heldAnswer } from './server-answers';
import { messageForStatus, requestMessages } from './messages';
import { pageHref } from '../page-href';
import { locale } from '../locale';

export const API_PREFIX = '/portal/api';
export const REQUEST_TIMEOUT_MS = 12000;
export const DUPLICATE_WINDOW_MS = 1000;
/** The app's 登录 page, in the page's language. */
export const loginRoute = (): string => pageHref('/login');

/** Where calls go and how long they may take; tests point them at a local server. */
export const requestSettings = {
  /** Empty: the page's own origin (the gateway). */
  origin: '',
  timeoutMs: REQUEST_TIMEOUT_MS,
};

export type RequestMode = 'json' | 'form' | 'blob' | 'upload';

export interface RequestArgs {
  /** Path under /portal/api, e.g. `/article/list`. */
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  params?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** json (default), form (urlencoded), blob (download), upload (multipart). */
  mode?: RequestMode;
  /** Whether an empty answer is acceptable (the spec allows nulls by default). */
  allowNull?: boolean;
  /** No notification for this call's failure (the caller shows it itself). */
  silent?: boolean;
  /**
   * No notification for failures with these codes, which the caller shows itself: an article's
   * page says 文章不存在 for a 404, and a red notice over the header saying it too was noise.
   */
  quietOn?: readonly number[];
}

export interface RequestError {
  code: number;
  msg: string;
}

export type RequestResult<T = unknown> = { data: T; error?: undefined } | { error: RequestError; data?: undefined };

const SUCCESS_CODES = new Set([0, 200]);
const lastSent = new Map<string, number>();

/** For tests: forget the duplicate-request history. */
export function resetDuplicateGuard(): void {
  lastSent.clear();
}

function buildUrl(url: string, params: RequestArgs['params']): string {
  const query = new URLSearchParams();
  Object.entries(params ?? {}).forEach(([key, value]) => {
    if (value !== undefined && value !== null) query.append(key, String(value));
  });
  // The page's language, last: the gateway answers in it, from the CMS's content in it (the
  // site's own needs no parameter, so its URLs are those of a portal in one language).
  if (locale() !== 'zh' && !query.has('lang')) query.append('lang', locale());
  const qs = query.toString();
  const path = url.startsWith(`${API_PREFIX}/`) ? url : `${API_PREFIX}${url.startsWith('/') ? url : `/${url}`}`;
  return `${requestSettings.origin}${path}${qs ? `?${qs}` : ''}`;
}

function encodeBody(mode: RequestMode, body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (mode === 'upload') return body as FormData;
  if (mode === 'form') {
    headers.set('Content-Type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return new URLSearchParams(body as Record<string, string>).toString();
  }
  headers.set('Content-Type', 'application/json;charset=UTF-8');
  return JSON.stringify(body);
}

/** Chinese (and full-width) characters: a message in them is none an English page shows. */
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

function messageOf(body: Record<string, unknown> | null, status: number): string {
  for (const key of ['msg', 'message', 'error_description']) {
    const value = body?.[key];
    // On an English page a Chinese message (a CMS's, or an envelope written in the site's own
    // language) gives way to the English for its status.
    if (typeof value === 'string' && value.trim() && !(locale() === 'en' && CJK.test(value))) return value;
  }
  return messageForStatus(status);
}

/**
 * How the page leaves for another document (on a 401, the login page the gateway renders). An
 * object, so tests (jsdom loads no other document) can watch where it goes.
 */
export const pageLoad = {
  assign: (href: string): void => window.location.assign(href),
};

function fail(error: RequestError, args: Pick<RequestArgs, 'silent' | 'quietOn'>): RequestResult<never> {
  if (onServer) return { error };
  if (error.code === 401) {
    // Not again from the login page itself (its own calls refused too): that would reload it forever.
    if (window.location.pathname !== loginRoute()) pageLoad.assign(loginRoute());
  } else if (!args.silent && !args.quietOn?.includes(error.code)) {
    notify(error.msg);
  }
  return { error };
}

/** What an answer's parsed body says: its result, or the error it carries. */
function answerOf<T>(body: Record<string, unknown> | null, status: number, ok: boolean, args: RequestArgs): RequestResult<T> {
  if (!body) {
    const failed = ok ? 502 : status;
    return fail({ code: failed, msg: messageForStatus(failed) }, args);
  }
  const code = typeof body.code === 'number' ? body.code : Number(body.code ?? status);
  if (SUCCESS_CODES.has(code) && ok) {
    const result = (body.result ?? body.data ?? null) as T;
    if (result === null && args.allowNull === false) return fail({ code: -2, msg: requestMessages().empty }, args);
    return { data: result };
  }
  const failedCode = SUCCESS_CODES.has(code) ? status : code;
  return fail({ code: failedCode, msg: messageOf(body, failedCode) }, args);
}

/**
 * In the gateway's render: what `request(args)` answers from the answers the gateway gave, at
 * once, or undefined after noting that its URL is needed (`server-answers.ts`).
 */
export function heldResult<T = unknown>(args: string | RequestArgs): RequestResult<T> | undefined {
  const call = typeof args === 'string' ? { url: args } : args;
  const held = heldAnswer(buildUrl(call.url, call.params));
  if (!held) return undefined;
  const body = held.body && typeof held.body === 'object' ? (held.body as Record<string, unknown>) : null;
  return answerOf<T>(body, held.status, held.status >= 200 && held.status < 300, { ...call, silent: true });
}

/** One call to the gateway, answered as `{data}` or `{error: {code, msg}}`; never throws. */
export async function request<T = unknown>(args: RequestArgs, outer?: AbortSignal): Promise<RequestResult<T>> {
  const method = args.method ?? 'GET';
  const mode = args.mode ?? 'json';
  const allowNull = args.allowNull ?? true;
  const url = buildUrl(args.url, args.params);

  // In the gateway's render: the answer it fetched, or a note that this URL is needed (and no
  // answer: the render is repeated once the gateway has it).
  if (onServer) return heldResult<T>(args) ?? new Promise<never>(() => undefined);

  if (method !== 'GET') {
    const key = `${method} ${url} ${mode === 'upload' ? '' : JSON.stringify(args.body ?? null)}`;
    const now = Date.now();
    const previous = lastSent.get(key);
    if (previous !== undefined && now - previous < DUPLICATE_WINDOW_MS) {
      return fail({ code: -1, msg: requestMessages().duplicate }, args);
    }
    lastSent.set(key, now);
  }

  const headers = new Headers({ Accept: mode === 'blob' ? '*/*' : 'application/json' });
  const token = validToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, requestSettings.timeoutMs);
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener('abort', onOuterAbort);

  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: encodeBody(mode, args.body, headers),
        credentials: 'include',
        signal: controller.signal,
      });
    } catch {
      if (timedOut) return fail({ code: 408, msg: messageForStatus(408) }, args);
      if (outer?.aborted) return { error: { code: -3, msg: requestMessages().cancelled } };
      return fail({ code: 503, msg: requestMessages().network }, args);
    }

    const contentType = response.headers.get('Content-Type') ?? '';
    if (mode === 'blob' && response.ok && !contentType.includes('json')) {
      const blob = await response.blob();
      return { data: blob as T };
    }

    const text = await response.text();
    if (!text.trim()) {
      if (response.status === 401) return fail({ code: 401, msg: messageForStatus(401) }, args);
      if (!response.ok) return fail({ code: response.status, msg: messageForStatus(response.status) }, args);
      if (allowNull) return { data: null as T };
      return fail({ code: -2, msg: requestMessages().empty }, args);
    }

    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    if (mode === 'blob') {
      return fail({ code: Number(body?.code) || response.status, msg: requestMessages().download }, args);
    }
    return answerOf<T>(body, response.status, response.ok, args);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** Downloads a file through the gateway and hands it to the browser under `filename`. */
export async function download(url: string, filename: string): Promise<RequestResult<Blob>> {
  const result = await request<Blob>({ url, mode: 'blob' });
  if (result.data) {
    const href = URL.createObjectURL(result.data);
    const link = document.createElement('a');
    link.href = href;
    link.download = filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), 0);
  }
  return result;
}

/** RTK Query's base query: a string is a GET path, an object is the full `RequestArgs`. */
export const portalBaseQuery: BaseQueryFn<string | RequestArgs, unknown, RequestError> = (args, api) =>
  request(typeof args === 'string' ? { url: args } : args, api.signal);
