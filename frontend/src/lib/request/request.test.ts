import { subscribe, type Notice } from '../notify';
import { STORAGE_KEYS, saveToken } from '../storage';
import { startServer, type TestServer } from '../../test/server';
import { setLocale } from '../locale';
import { messageForStatus, requestMessages } from './messages';
import table from './messages.json';
import { loginRoute, REQUEST_TIMEOUT_MS, download, pageLoad, request, requestSettings, resetDuplicateGuard } from './request';

let server: TestServer;
let notices: Notice[];
let unsubscribe: () => void;

beforeAll(async () => {
  server = await startServer();
  requestSettings.origin = server.origin;
});
afterAll(() => server.close());

beforeEach(() => {
  server.seen.length = 0;
  window.localStorage.clear();
  resetDuplicateGuard();
  requestSettings.timeoutMs = REQUEST_TIMEOUT_MS;
  notices = [];
  unsubscribe = subscribe((n) => notices.push(n));
});
afterEach(() => unsubscribe());

const json = (value: unknown, status = 200) => ({ status, body: JSON.stringify(value) });

describe('envelope', () => {
  it('unwraps result on code 200 and 0, and data as well', async () => {
    server.answer(json({ code: 200, msg: 'ok', result: { a: 1 } }));
    expect(await request({ url: '/x' })).toEqual({ data: { a: 1 } });
    server.answer(json({ code: 0, data: [1] }));
    expect(await request({ url: '/x' })).toEqual({ data: [1] });
    expect(notices).toHaveLength(0);
  });

  it('puts calls under /portal/api with their query', async () => {
    server.answer(json({ code: 200, result: null }));
    await request({ url: '/article/list', params: { categoryId: 21, page: 2, skip: undefined } });
    expect(server.seen[0].url).toBe('/portal/api/article/list?categoryId=21&page=2');
  });

  it('shows msg, then message, then error_description for other codes', async () => {
    server.answer(json({ code: 1001, msg: '栏目已停用' }));
    expect(await request({ url: '/x' })).toEqual({ error: { code: 1001, msg: '栏目已停用' } });
    server.answer(json({ code: 500, message: '服务异常' }, 500));
    expect((await request({ url: '/x' })).error?.msg).toBe('服务异常');
    server.answer(json({ code: 403, error_description: '禁止访问' }, 403));
    expect((await request({ url: '/x' })).error?.msg).toBe('禁止访问');
    expect(notices.map((n) => n.message)).toEqual(['栏目已停用', '服务异常', '禁止访问']);
  });

  it('falls back to the Chinese default message of the status', async () => {
    server.answer({ status: 503, contentType: 'text/html', body: '<h1>down</h1>' });
    expect((await request({ url: '/x' })).error).toEqual({ code: 503, msg: messageForStatus(503) });
    server.answer(json({ code: 404 }, 404));
    expect((await request({ url: '/x' })).error).toEqual({ code: 404, msg: messageForStatus(404) });
  });

  it('stays silent when asked', async () => {
    server.answer(json({ code: 500, msg: 'x' }, 500));
    await request({ url: '/x', silent: true });
    expect(notices).toHaveLength(0);
  });

  it('stays silent on the codes its caller shows itself, and speaks on the others', async () => {
    server.answer(json({ code: 404, msg: '文章不存在。' }, 404));
    expect((await request({ url: '/x', quietOn: [404] })).error?.code).toBe(404);
    expect(notices).toHaveLength(0);
    server.answer(json({ code: 502, msg: '网关错误' }, 502));
    await request({ url: '/x', quietOn: [404] });
    expect(notices.map((n) => n.message)).toEqual(['网关错误']);
  });
});

describe('401', () => {
  let assign: jest.SpyInstance;
  beforeEach(() => {
    assign = jest.spyOn(pageLoad, 'assign').mockImplementation(() => {});
  });
  afterEach(() => {
    assign.mockRestore();
    window.history.replaceState(null, '', '/');
  });

  it('loads the login page (/portal/login) without a notification', async () => {
    window.history.replaceState(null, '', '/portal/news_center/notice');
    server.answer(json({ code: 401, msg: '未授权' }, 401));
    const result = await request({ url: '/x' });
    expect(result.error?.code).toBe(401);
    expect(loginRoute()).toBe('/portal/login');
    expect(assign).toHaveBeenCalledWith('/portal/login');
    expect(notices).toHaveLength(0);
  });

  it('also for an empty 401', async () => {
    server.answer({ status: 401, body: '' });
    await request({ url: '/x' });
    expect(assign).toHaveBeenCalledWith('/portal/login');
  });

  it('does not load the login page again from the login page itself', async () => {
    window.history.replaceState(null, '', '/portal/login');
    server.answer(json({ code: 401, msg: '未授权' }, 401));
    expect((await request({ url: '/x' })).error?.code).toBe(401);
    expect(assign).not.toHaveBeenCalled();
    expect(notices).toHaveLength(0);
  });
});

describe('authorization', () => {
  it('sends the stored token while it is valid, and nothing otherwise', async () => {
    server.answer(json({ code: 200, result: null }));
    await request({ url: '/x' });
    expect(server.seen[0].headers.authorization).toBeUndefined();

    saveToken('tok-123', Date.now() + 60_000);
    await request({ url: '/x' });
    expect(server.seen[1].headers.authorization).toBe('Bearer tok-123');

    saveToken('tok-old', Date.now() - 1);
    await request({ url: '/x' });
    expect(server.seen[2].headers.authorization).toBeUndefined();
    expect(window.localStorage.getItem(STORAGE_KEYS.systemToken)).toBe('tok-old');
  });
});

describe('time-out', () => {
  it('answers code 408 when the gateway is too slow', async () => {
    requestSettings.timeoutMs = 100;
    server.answer({ ...json({ code: 200, result: 1 }), delayMs: 600 });
    const result = await request({ url: '/slow' });
    expect(result.error).toEqual({ code: 408, msg: messageForStatus(408) });
    expect(notices[0].message).toBe(messageForStatus(408));
  });

  it('is 12 seconds by default', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(12000);
  });
});

describe('empty responses', () => {
  it('are null unless nulls are refused', async () => {
    server.answer({ status: 200, body: '' });
    expect(await request({ url: '/x' })).toEqual({ data: null });
    expect((await request({ url: '/x', allowNull: false })).error).toEqual({ code: -2, msg: requestMessages().empty });
    server.answer(json({ code: 200, result: null }));
    expect((await request({ url: '/x', allowNull: false })).error).toEqual({ code: -2, msg: requestMessages().empty });
  });
});

describe('duplicate guard', () => {
  it('rejects an identical non-GET request within 1000 ms', async () => {
    const now = jest.spyOn(Date, 'now');
    now.mockReturnValue(1_000_000);
    server.answer(json({ code: 200, result: 'ok' }));
    expect(await request({ url: '/form', method: 'POST', body: { a: 1 } })).toEqual({ data: 'ok' });
    now.mockReturnValue(1_000_999);
    expect(await request({ url: '/form', method: 'POST', body: { a: 1 } })).toEqual({
      error: { code: -1, msg: requestMessages().duplicate },
    });
    // A different body is a different request.
    expect((await request({ url: '/form', method: 'POST', body: { a: 2 } })).data).toBe('ok');
    now.mockReturnValue(1_002_000);
    expect((await request({ url: '/form', method: 'POST', body: { a: 1 } })).data).toBe('ok');
    // GETs are never held back.
    expect((await request({ url: '/form' })).data).toBe('ok');
    expect((await request({ url: '/form' })).data).toBe('ok');
    now.mockRestore();
    expect(server.seen).toHaveLength(5);
    expect(notices.map((n) => n.message)).toEqual([requestMessages().duplicate]);
  });
});

describe('modes', () => {
  it('sends JSON by default and urlencoded in form mode', async () => {
    server.answer(json({ code: 200, result: null }));
    await request({ url: '/j', method: 'POST', body: { name: '云川' } });
    expect(server.seen[0].headers['content-type']).toContain('application/json');
    expect(JSON.parse(server.seen[0].body)).toEqual({ name: '云川' });
    await request({ url: '/f', method: 'POST', mode: 'form', body: { name: '云川', n: '1' } });
    expect(server.seen[1].headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(new URLSearchParams(server.seen[1].body).get('name')).toBe('云川');
  });

  it('uploads multipart form data', async () => {
    server.answer(json({ code: 200, result: 'stored' }));
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'a.txt');
    expect((await request({ url: '/u', method: 'POST', mode: 'upload', body: form })).data).toBe('stored');
    expect(server.seen[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.seen[0].body).toContain('hello');
  });

  it('downloads a blob, and says 下载失败 when it cannot', async () => {
    server.answer({ status: 200, contentType: 'application/pdf', body: '%PDF-1.4 demo' });
    const ok = await request<Blob>({ url: '/files/a.pdf', mode: 'blob' });
    expect(await (ok.data as Blob).text()).toBe('%PDF-1.4 demo');

    server.answer(json({ code: 404, msg: '文件不存在' }, 404));
    const failed = await request({ url: '/files/missing.pdf', mode: 'blob' });
    expect(failed.error?.msg).toBe(requestMessages().download);
    expect(notices.at(-1)?.message).toBe(requestMessages().download);
  });

  it('download() hands the file to the browser', async () => {
    server.answer({ status: 200, contentType: 'application/pdf', body: '%PDF' });
    const created: string[] = [];
    URL.createObjectURL = jest.fn(() => 'blob:demo');
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      created.push(this.download);
    });
    await download('/portal/api/files/report.pdf', '年报.pdf');
    expect(server.seen[0].url).toBe('/portal/api/files/report.pdf');
    expect(created).toEqual(['年报.pdf']);
    click.mockRestore();
  });
});

describe('network failure', () => {
  it('is reported in Chinese, never thrown', async () => {
    const saved = requestSettings.origin;
    requestSettings.origin = 'http://127.0.0.1:9';
    const result = await request({ url: '/x' });
    requestSettings.origin = saved;
    expect(result.error?.code).toBe(503);
    expect(notices[0].message).toMatch(/网络/);
  });
});

describe('an English page', () => {
  const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
  beforeEach(() => setLocale('en'));
  afterEach(() => setLocale('zh'));

  it('has an English message for every status the Chinese table has, and no Chinese in them', () => {
    expect(Object.keys(table.en.byStatus)).toEqual(Object.keys(table.byStatus));
    expect([...Object.values(table.en.byStatus), table.en.unknown].filter((m) => CJK.test(m))).toEqual([]);
    expect(messageForStatus(503)).toBe('The service is temporarily unavailable. Please try again later.');
    expect(messageForStatus(599)).toBe('The request failed. Please try again later.');
  });

  it('shows an English message of its own, and the English for the status in place of a Chinese one', async () => {
    server.answer(json({ code: 1001, msg: 'Category disabled' }));
    expect((await request({ url: '/x' })).error).toEqual({ code: 1001, msg: 'Category disabled' });
    server.answer(json({ code: 404, msg: '文章不存在。' }, 404));
    expect((await request({ url: '/x' })).error).toEqual({ code: 404, msg: messageForStatus(404) });
    server.answer(json({ code: 200, result: null }));
    expect((await request({ url: '/x', allowNull: false })).error?.msg).toBe('The response was empty.');
    expect(notices.map((n) => n.message).filter((m) => CJK.test(m))).toEqual([]);
  });

  it('reports a network failure in English', async () => {
    const saved = requestSettings.origin;
    requestSettings.origin = 'http://127.0.0.1:9';
    const result = await request({ url: '/x' });
    requestSettings.origin = saved;
    expect(result.error).toEqual({ code: 503, msg: 'Network connection failed. Please check your connection and try again.' });
  });
});
