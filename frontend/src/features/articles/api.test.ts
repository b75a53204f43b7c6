import { articleSpec } from './api';

describe('the article endpoint', () => {
  it('leaves a missing article to its page (文章不存在) rather than a notice over the header too', () => {
    // The review found both: the page's own message and a red notice saying the same.
    expect(articleSpec.request(7)).toMatchObject({ url: '/article/detail', params: { id: 7 }, quietOn: [404] });
  });
});
