// The Chinese messages visitors see, by HTTP status or envelope code: `messages.json`, the one
// table the gateway's envelopes read too.
import table from './messages.json';

export const STATUS_MESSAGES: Readonly<Record<number, string>> = table.byStatus;

export const EMPTY_RESPONSE = '响应为空';
export const DUPLICATE_REQUEST = '重复请求';
export const DOWNLOAD_FAILED = '下载失败';
export const NETWORK_FAILED = '网络连接失败，请检查网络后重试。';
export const UNKNOWN_FAILURE: string = table.unknown;

export function messageForStatus(status: number): string {
  return STATUS_MESSAGES[status] ?? UNKNOWN_FAILURE;
}
