import { makeStore } from '../../app/store';
import { listHref, listPageFromSearch, pageFor, pageFromSearch, setListPage, withListPage } from './list-page-slice';

describe('the news page number', () => {
  it('starts at 1 and is kept for the list shown last', () => {
    const store = makeStore();
    expect(pageFor(store.getState(), '/news_center/notice')).toBe(1);
    store.dispatch(setListPage({ list: '/news_center/notice', page: 2 }));
    expect(pageFor(store.getState(), '/news_center/notice')).toBe(2);
    expect(pageFor(store.getState(), '/news_center/media_coverage/2')).toBe(1);
    store.dispatch(setListPage({ list: '/x', page: 0 }));
    expect(pageFor(store.getState(), '/x')).toBe(1);
  });

  it('lives in the store under its own key once the feature is loaded', () => {
    const store = makeStore();
    store.dispatch(setListPage({ list: '/news_center/notice', page: 4 }));
    expect(store.getState()).toHaveProperty('listPage', { list: '/news_center/notice', page: 4 });
  });

  it('reads the page from the hash query', () => {
    expect(pageFromSearch('page=3')).toBe(3);
    expect(pageFromSearch('id=9&page=12')).toBe(12);
    expect(pageFromSearch('')).toBeNull();
    expect(pageFromSearch('page=0')).toBeNull();
    expect(pageFromSearch('page=-1')).toBeNull();
    expect(pageFromSearch('page=abc')).toBeNull();
    expect(pageFromSearch('page=99999999')).toBeNull();
  });

  it('carries the list page in an article’s address, and back to the list', () => {
    expect(withListPage('/portal/article/7', 2)).toBe('/portal/article/7?listPage=2');
    expect(withListPage('/portal/party/detail?id=7', 3)).toBe('/portal/party/detail?id=7&listPage=3');
    expect(withListPage('/portal/article/7', 1)).toBe('/portal/article/7');
    expect(listPageFromSearch('listPage=2')).toBe(2);
    expect(listPageFromSearch('id=7&listPage=3')).toBe(3);
    expect(listPageFromSearch('page=2')).toBeNull();
    expect(listPageFromSearch('listPage=x')).toBeNull();
    expect(listHref('/news_center/notice', 2)).toBe('/portal/news_center/notice?page=2');
    expect(listHref('/news_center/notice', 1)).toBe('/portal/news_center/notice');
    expect(listHref('/news_center/notice', null)).toBe('/portal/news_center/notice');
  });
});
