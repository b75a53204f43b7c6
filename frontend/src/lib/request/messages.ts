// The Chinese messages visitors see, by HTTP status or envelope code.
export const STATUS_MESSAGES: Record<number, string> = {
  200: '服务器已成功返回请求的数据。',
  201: '数据已成功新建或修改。',
  202: '请求已进入后台排队，等待异步处理。',
  204: '数据已成功删除。',
  400: '请求有误，服务器未做任何新建或修改。',
  401: '没有访问权限（令牌、用户名或密码错误）。',
  403: '已通过身份验证，但无权访问该资源。',
  404: '请求的记录不存在，服务器未做任何操作。',
  406: '无法提供请求所要求的格式。',
  408: '请求超时，请稍后再试。',
  410: '请求的资源已被永久删除，不会再提供。',
  422: '提交的数据未通过校验。',
  429: '请求过于频繁，请稍后再试。',
  500: '服务器内部错误，请稍后再试。',
  502: '网关错误，请稍后再试。',
  503: '服务暂不可用，请稍后再试。',
  504: '网关超时。',
};

export const EMPTY_RESPONSE = '响应为空';
export const DUPLICATE_REQUEST = '重复请求';
export const DOWNLOAD_FAILED = '下载失败';
export const NETWORK_FAILED = '网络连接失败，请检查网络后重试。';
export const UNKNOWN_FAILURE = '请求失败，请稍后再试。';

export function messageForStatus(status: number): string {
  return STATUS_MESSAGES[status] ?? UNKNOWN_FAILURE;
}
