import type { ArticleSummary } from '../../../features/articles';
import { pickLead } from './lead-story';

const article = (id: number, lead?: boolean): ArticleSummary => ({ id, categoryId: 21, title: `第 ${id} 篇`, lead });

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
