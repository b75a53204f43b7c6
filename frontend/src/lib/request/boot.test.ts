import { startServer, type TestServer } from '../../test/server';
import { bootedUrls, resetBoot } from './boot';
import { saveToken } from '../storage';
import { request, requestSettings, resetDuplicateGuard } from './request';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  requestSettings.origin = server.origin;
});
afterAll(() => server.close());

function drawPage(answers: Record<string, unknown> | string) {
  document.head.innerHTML = `<script type="application/json" id="portal-boot">${
    typeof answers === 'string' ? answers : JSON.stringify(answers)
  }</script>`;
  resetBoot();
}

beforeEach(() => {
  server.seen.length = 0;
  window.localStorage.clear();
  resetDuplicateGuard();
});

describe('the answers the gateway drew into the page', () => {
  it('answer the first request for their URL, once; the next one asks the gateway', async () => {
    drawPage({ '/portal/api/site': { code: 200, msg: '成功', result: { companyName: '甲公司' } } });
    expect(bootedUrls()).toEqual(['/portal/api/site']);
    expect(await request({ url: '/site' })).toEqual({ data: { companyName: '甲公司' } });
    expect(server.seen).toHaveLength(0);

    server.answer({ status: 200, body: JSON.stringify({ code: 200, result: { companyName: '乙公司' } }) });
    expect(await request({ url: '/site' })).toEqual({ data: { companyName: '乙公司' } });
    expect(server.seen).toHaveLength(1);
  });

  it('match the request URL exactly, query and all', async () => {
    drawPage({ '/portal/api/article/list?categoryId=21&page=1&size=12': { code: 200, result: { content: [] } } });
    server.answer({ status: 200, body: JSON.stringify({ code: 200, result: { content: [{ id: 1 }] } }) });
    expect(await request({ url: '/article/list', params: { categoryId: 21, page: 1, size: 8 } })).toEqual({
      data: { content: [{ id: 1 }] },
    });
    expect(await request({ url: '/article/list', params: { categoryId: 21, page: 1, size: 12 } })).toEqual({
      data: { content: [] },
    });
    expect(server.seen).toHaveLength(1);
  });

  it('are not used for a visitor signed in with their own token', async () => {
    drawPage({ '/portal/api/site': { code: 200, result: { companyName: '甲公司' } } });
    saveToken('visitor-token', Date.now() + 60_000);
    server.answer({ status: 200, body: JSON.stringify({ code: 200, result: { companyName: '乙公司' } }) });
    expect(await request({ url: '/site' })).toEqual({ data: { companyName: '乙公司' } });
    expect(server.seen).toHaveLength(1);
  });

  it('a block that does not parse is no answer: the app asks the gateway', async () => {
    drawPage('{"/portal/api/site": ');
    expect(bootedUrls()).toEqual([]);
    server.answer({ status: 200, body: JSON.stringify({ code: 200, result: { companyName: '乙公司' } }) });
    expect(await request({ url: '/site' })).toEqual({ data: { companyName: '乙公司' } });
  });
});
