import { heldAnswer, holdAnswers, neededUrls, readUrls, type HeldAnswer } from './server-answers';

const SITE: HeldAnswer = { status: 200, body: { code: 200, result: { companyName: '云川陆港国际物流集团有限公司' } } };
const TREE: HeldAnswer = { status: 200, body: { code: 200, result: { content: [] } } };

afterEach(() => holdAnswers({}));

describe('the answers a server render is given', () => {
  it('answers the URLs it holds, exactly as the request layer builds them', () => {
    holdAnswers({ '/portal/api/site': SITE, '/portal/api/category/list': TREE });
    expect(heldAnswer('/portal/api/site')).toBe(SITE);
    expect(heldAnswer('/portal/api/category/list')).toBe(TREE);
    expect(neededUrls()).toEqual([]);
  });

  it('notes each URL it does not hold, once, in the order asked', () => {
    holdAnswers({ '/portal/api/site': SITE });
    expect(heldAnswer('/portal/api/category/list')).toBeUndefined();
    expect(heldAnswer('/portal/api/article/list?categoryId=23&page=1&size=10')).toBeUndefined();
    expect(heldAnswer('/portal/api/category/list')).toBeUndefined();
    // Another query is another URL.
    expect(heldAnswer('/portal/api/site?x=1')).toBeUndefined();
    expect(neededUrls()).toEqual(['/portal/api/category/list', '/portal/api/article/list?categoryId=23&page=1&size=10', '/portal/api/site?x=1']);
  });

  it('lists every URL read, held or not, once each, and starts afresh with each render', () => {
    holdAnswers({ '/portal/api/site': SITE, '/portal/api/category/list': TREE });
    heldAnswer('/portal/api/site');
    heldAnswer('/portal/api/article/detail?id=2101');
    heldAnswer('/portal/api/site');
    expect(readUrls()).toEqual(['/portal/api/site', '/portal/api/article/detail?id=2101']);
    holdAnswers({});
    expect(readUrls()).toEqual([]);
  });

  it('starts each render afresh: the answers replaced, nothing needed yet', () => {
    holdAnswers({ '/portal/api/site': SITE });
    heldAnswer('/portal/api/category/list');
    holdAnswers({ '/portal/api/category/list': TREE });
    expect(neededUrls()).toEqual([]);
    expect(heldAnswer('/portal/api/category/list')).toBe(TREE);
    expect(heldAnswer('/portal/api/site')).toBeUndefined();
    expect(neededUrls()).toEqual(['/portal/api/site']);
  });
});

describe('the request layer in a server render', () => {
  // The gateway's engine has no document: `onServer` is true there (the module reads it once).
  let serverSide: {
    request: typeof import('./request').request;
    pageLoad: typeof import('./request').pageLoad;
    subscribe: typeof import('../notify').subscribe;
    holdAnswers: typeof holdAnswers;
    neededUrls: typeof neededUrls;
  };
  let fetchSpy: jest.SpyInstance;
  beforeAll(() => {
    jest.isolateModules(() => {
      jest.doMock('../environment', () => ({ onServer: true }));
      const { request, pageLoad } = require('./request');
      serverSide = { request, pageLoad, subscribe: require('../notify').subscribe, ...require('./server-answers') };
    });
    jest.dontMock('../environment');
  });
  beforeEach(() => {
    fetchSpy = jest.spyOn(globalThis, 'fetch');
  });
  afterEach(() => {
    fetchSpy.mockRestore();
    serverSide.holdAnswers({});
  });

  it('answers from the held answers, fetching nothing', async () => {
    serverSide.holdAnswers({ '/portal/api/site': SITE });
    expect(await serverSide.request({ url: '/site' })).toEqual({ data: { companyName: '云川陆港国际物流集团有限公司' } });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(serverSide.neededUrls()).toEqual([]);
  });

  it('passes on an error answer as the error, without a notification or a move to the login page', async () => {
    serverSide.holdAnswers({
      '/portal/api/article/detail?id=99': { status: 404, body: { code: 404, msg: '文章不存在' } },
      '/portal/api/article/detail?id=98': { status: 401, body: { code: 401, msg: '未授权' } },
    });
    const assign = jest.spyOn(serverSide.pageLoad, 'assign').mockImplementation(() => {});
    const notices: unknown[] = [];
    const unsubscribe = serverSide.subscribe((notice) => notices.push(notice));
    expect(await serverSide.request({ url: '/article/detail', params: { id: 99 } })).toEqual({ error: { code: 404, msg: '文章不存在' } });
    expect(await serverSide.request({ url: '/article/detail', params: { id: 98 } })).toEqual({ error: { code: 401, msg: '未授权' } });
    expect(notices).toEqual([]);
    expect(assign).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('leaves a URL it was not given unanswered, and notes that the page needs it', async () => {
    serverSide.holdAnswers({});
    const pending = serverSide.request({ url: '/article/list', params: { categoryId: 23, page: 1, size: 10 } });
    const settled = await Promise.race([pending.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 20))]);
    expect(settled).toBe('waiting');
    expect(serverSide.neededUrls()).toEqual(['/portal/api/article/list?categoryId=23&page=1&size=10']);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
