import { makeStore } from './store';
import { saveScroll, scrollFor } from './ui-slice';

describe('ui state', () => {
  it('remembers scroll positions by list', () => {
    const store = makeStore();
    store.dispatch(saveScroll({ key: '/news_center/notice', y: 840 }));
    expect(scrollFor(store.getState(), '/news_center/notice')).toBe(840);
    expect(scrollFor(store.getState(), '/other')).toBe(0);
  });
});
