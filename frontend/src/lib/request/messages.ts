// The messages visitors see, by HTTP status or envelope code: `messages.json`, the one table the
// gateway's envelopes read too (its Chinese at the top, its English under `en`), and the request
// layer's own, in the page's language.
import table from './messages.json';
import { messages } from '../locale';

interface RequestMessages {
  /** By HTTP status or envelope code. */
  byStatus: Readonly<Record<string, string>>;
  /** For a status the table has no message for. */
  unknown: string;
  empty: string;
  duplicate: string;
  download: string;
  network: string;
  cancelled: string;
}

/** The request layer's messages in the page's language (read per call, never at a module's top level). */
export const requestMessages = messages<RequestMessages>({
  zh: {
    byStatus: table.byStatus,
    unknown: table.unknown,
    empty: '响应为空',
    duplicate: '重复请求',
    download: '下载失败',
    network: '网络连接失败，请检查网络后重试。',
    cancelled: '请求已取消',
  },
  en: {
    byStatus: table.en.byStatus,
    unknown: table.en.unknown,
    empty: 'The response was empty.',
    duplicate: 'Duplicate request.',
    download: 'Download failed.',
    network: 'Network connection failed. Please check your connection and try again.',
    cancelled: 'Request cancelled.',
  },
});

/** The message for an HTTP status or envelope code, in the page's language. */
export function messageForStatus(status: number): string {
  const t = requestMessages();
  return t.byStatus[String(status)] ?? t.unknown;
}
