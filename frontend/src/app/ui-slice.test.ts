import { makeStore } from './store';
import { newsPageFor, saveScroll, scrollFor, setNewsPage } from './ui-slice';

describe('ui state', () => {
  it('starts the news page at 1 and keeps it per list', () => {
    const store = makeStore();
    expect(newsPageFor(store.getState(), '/news_center/notice')).toBe(1);
    store.dispatch(setNewsPage({ list: '/news_center/notice', page: 2 }));
    expect(newsPageFor(store.getState(), '/news_center/notice')).toBe(2);
    expect(newsPageFor(store.getState(), '/news_center/media_coverage/2')).toBe(1);
    store.dispatch(setNewsPage({ list: '/x', page: 0 }));
    expect(newsPageFor(store.getState(), '/x')).toBe(1);
  });

  it('remembers scroll positions by list', () => {
    const store = makeStore();
    store.dispatch(saveScroll({ key: '/news_center/notice', y: 840 }));
    expect(scrollFor(store.getState(), '/news_center/notice')).toBe(840);
    expect(scrollFor(store.getState(), '/other')).toBe(0);
  });
});
