import type { ArticleSummary } from '../../../features/articles';
import { photoNews, pickLead } from './lead-story';

const article = (id: number, lead?: boolean): ArticleSummary => ({ id, categoryId: 21, title: `第 ${id} 篇`, lead });
const pictured = (id: number, lead?: boolean): ArticleSummary => ({ ...article(id, lead), cover: `/portal/api/files/${id}.jpg` });

describe('图片新闻', () => {
  it('is the pictured articles, newest first, less the 头条, up to the number asked', () => {
    const list = [pictured(6, true), article(5), pictured(4), pictured(3), pictured(2)];
    expect(photoNews(list, list[0], 2).map((a) => a.id)).toEqual([4, 3]);
  });

  it('is the 头条 when it is the only pictured one (not a page without a picture)', () => {
    const list = [pictured(3, true), article(2), article(1)];
    expect(photoNews(list, list[0], 5).map((a) => a.id)).toEqual([3]);
  });

  it('is nothing when no article has a cover', () => {
    expect(photoNews([article(2), article(1)], undefined, 5)).toEqual([]);
  });
});

describe('头条', () => {
  it('is the newest article the CMS flags as the lead', () => {
    expect(pickLead([article(3), article(2, true), article(1, true)])?.id).toBe(2);
  });

  it('is the newest article when the CMS flags none (a CMS without the flag)', () => {
    expect(pickLead([article(3), article(2, false), article(1)])?.id).toBe(3);
  });

  it('is nothing when the list is empty', () => {
    expect(pickLead([])).toBeUndefined();
  });
});
