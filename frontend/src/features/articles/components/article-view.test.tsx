import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';

import type { Article } from '../api';
import { partyDetailHref } from '../pages/party-page';
import { ArticleView, enhanceBody } from './article-view';

const ARTICLE: Article = {
  id: 7,
  categoryId: 21,
  title: '回程班列',
  content:
    '<p>详见<a href="/portal/article/6">上一篇</a>、<a href="/portal/api/files/a.pdf">附件</a>与<a href="https://example.com/">外部</a>。</p>',
};

const SHARE = 'https://www.example.com/portal/article/7';

describe('article view', () => {
  it('keeps links to another article on its real URL, and other links as they are', () => {
    render(<ArticleView article={ARTICLE} withHeader={false} shareUrl={SHARE} />);
    expect(screen.getByRole('link', { name: '上一篇' })).toHaveAttribute('href', '/portal/article/6');
    expect(screen.getByRole('link', { name: '附件' })).toHaveAttribute('href', '/portal/api/files/a.pdf');
    expect(screen.getByRole('link', { name: '外部' })).toHaveAttribute('href', 'https://example.com/');
  });

  it('uses the page’s own article addresses where it has them (党建风采)', () => {
    render(<ArticleView article={ARTICLE} withHeader={false} shareUrl={SHARE} hrefOf={partyDetailHref} />);
    expect(screen.getByRole('link', { name: '上一篇' })).toHaveAttribute('href', '/portal/party/detail?id=6');
  });

  it('gives each scrolling table region a name of its own: its caption, else its number', () => {
    const tables = '<table><caption>股东</caption><tr><td>1</td></tr></table><table><tr><td>2</td></tr></table>';
    render(<ArticleView article={{ ...ARTICLE, content: tables }} withHeader={false} shareUrl={SHARE} />);
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual(['表格：股东', '表格 2']);
    const one = render(<ArticleView article={{ ...ARTICLE, id: 8, content: '<table><tr><td>3</td></tr></table>' }} withHeader={false} shareUrl={SHARE} />);
    expect(one.container.querySelector('.table-scroll')).toHaveAttribute('aria-label', '表格');
  });

  it('copies and prints the address it is given (the public one), not the address bar’s', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    window.history.pushState(null, '', '/portal/article/7?listPage=2');
    render(<ArticleView article={ARTICLE} withHeader={false} shareUrl={SHARE} />);
    await userEvent.click(screen.getByRole('button', { name: '复制链接' }));
    expect(writeText).toHaveBeenCalledWith(SHARE);
    expect(await screen.findByRole('status')).toHaveTextContent('链接已复制');
    expect(screen.getByText(`本文链接：${SHARE}`)).toBeInTheDocument();
    Reflect.deleteProperty(navigator, 'clipboard');
    window.history.pushState(null, '', '/');
  });

  it('draws the same wide-content markup on the server, where no effect runs: a reader without JavaScript gets the boxes too', () => {
    const content = '<h2>出资人</h2><table><tr><td>1</td></tr></table><div class="org-chart"><ul><li><span>股东会</span></li></ul></div>';
    const html = renderToString(<ArticleView article={{ ...ARTICLE, content }} withHeader={false} shareUrl={SHARE} />);
    expect(html).toMatch(/<div class="table-scroll" role="region" tabindex="0" aria-label="表格：出资人" data-scroll-hint="[^"]+"><table>/);
    expect(html).toMatch(/<div role="region" tabindex="0" aria-label="组织架构图" data-scroll-hint="[^"]+" class="org-chart">|<div class="org-chart" role="region" tabindex="0" aria-label="组织架构图"/);
    expect(html).toContain('左右滑动查看完整表格');
  });

  it('shows a box’s cue, makes it a keyboard stop and describes it by the cue only while it scrolls', () => {
    const content = '<table><caption>出资人</caption><tr><td>1</td></tr></table>';
    const wide = jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(640);
    const narrow = jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(300);
    try {
      render(<ArticleView article={{ ...ARTICLE, content }} withHeader={false} shareUrl={SHARE} />);
      const box = screen.getByRole('region', { name: '表格：出资人' });
      const hint = document.getElementById(box.dataset.scrollHint ?? '');
      expect(box).toHaveClass('is-scrolling');
      expect(box).toHaveAttribute('tabindex', '0');
      expect(box).toHaveAccessibleDescription('左右滑动查看完整表格');
      expect(hint).toHaveClass('is-shown');
      expect(hint).toHaveAttribute('aria-hidden', 'true');
    } finally {
      wide.mockRestore();
      narrow.mockRestore();
    }
    // A table that fits: no stop, no description, the cue's line kept but hidden.
    const fits = render(<ArticleView article={{ ...ARTICLE, id: 9, content }} withHeader={false} shareUrl={SHARE} />);
    const box = within(fits.container).getByRole('region', { name: '表格：出资人' });
    expect(box).not.toHaveAttribute('tabindex');
    expect(box).not.toHaveAttribute('aria-describedby');
    expect(fits.container.querySelector('.scroll-hint')).not.toHaveClass('is-shown');
  });

  it('opens a certificate in the 大图 view with its caption’s lines apart, and a chart alone without 上一张 and 下一张', () => {
    const gallery =
      '<ul class="gallery"><li><figure><img src="honors/a.svg" alt="2025年证书" width="480" height="340"><figcaption>2025年 省级多式联运示范工程<br>颁发单位：省交通运输厅</figcaption></figure></li>' +
      '<li><figure><img src="honors/b.svg" alt="2024年证书" width="480" height="340"><figcaption>2024年 国家AAAA级物流企业</figcaption></figure></li></ul>';
    const { unmount } = render(<ArticleView article={{ ...ARTICLE, content: gallery }} withHeader={false} shareUrl={SHARE} />);
    fireEvent.click(screen.getByRole('button', { name: '查看大图：2025年证书' }));
    const dialog = document.querySelector('dialog.lightbox') as HTMLDialogElement;
    const lines = Array.from(dialog.querySelectorAll('.lightbox__line')).map((l) => l.textContent);
    expect(lines).toEqual(['2025年 省级多式联运示范工程', '颁发单位：省交通运输厅']);
    expect(dialog).toHaveTextContent('第 1 张，共 2 张');
    // Wider than tall: a phone held upright turns it along its length (CSS).
    expect(dialog.querySelector('figure')).toHaveClass('lightbox__figure--landscape');
    unmount();
    const chart = '<figure><img src="figures/t.svg" alt="吞吐量" width="720" height="400"><figcaption>单位：万标箱</figcaption></figure>';
    render(<ArticleView article={{ ...ARTICLE, content: chart }} withHeader={false} shareUrl={SHARE} />);
    fireEvent.keyDown(screen.getByRole('button', { name: '查看大图：吞吐量' }), { key: 'Enter' });
    const alone = document.querySelector('dialog.lightbox') as HTMLDialogElement;
    expect(alone.querySelector('.lightbox__line')).toHaveTextContent('单位：万标箱');
    expect(within(alone).queryByRole('button', { name: '上一张', hidden: true })).toBeNull();
    expect(within(alone).getByRole('button', { name: '关闭', hidden: true })).toBeInTheDocument();
  });
});

describe('enhanceBody', () => {
  it('wraps each table in a named region after its cue, naming it by its caption, else the heading before it, else its number', () => {
    const html = '<h2>出资人 &amp; 股权</h2><table><tr><td>1</td></tr></table><p>x</p><table><caption>“主要” 指标 "2025"</caption><tr><td>2</td></tr></table><table><tr><td>3</td></tr></table>';
    const out = enhanceBody(html, 'b1');
    expect(out).toBe(
      '<h2>出资人 &amp; 股权</h2>' +
        '<p class="scroll-hint" id="b1-scroll-1" aria-hidden="true">左右滑动查看完整表格</p><div class="table-scroll" role="region" tabindex="0" aria-label="表格：出资人 &amp; 股权" data-scroll-hint="b1-scroll-1"><table><tr><td>1</td></tr></table></div>' +
        '<p>x</p>' +
        '<p class="scroll-hint" id="b1-scroll-2" aria-hidden="true">左右滑动查看完整表格</p><div class="table-scroll" role="region" tabindex="0" aria-label="表格：“主要” 指标 &quot;2025&quot;" data-scroll-hint="b1-scroll-2"><table><caption>“主要” 指标 "2025"</caption><tr><td>2</td></tr></table></div>' +
        '<p class="scroll-hint" id="b1-scroll-3" aria-hidden="true">左右滑动查看完整表格</p><div class="table-scroll" role="region" tabindex="0" aria-label="表格 3：出资人 &amp; 股权" data-scroll-hint="b1-scroll-3"><table><tr><td>3</td></tr></table></div>',
    );
  });

  it('keeps a table inside a table inside its outer box, and an attribute holding ">" whole', () => {
    const html = '<table title="a > b"><tr><td><table><tr><td>内</td></tr></table></td></tr></table><p>后</p>';
    const out = enhanceBody(html, 'b');
    expect(out.match(/class="table-scroll"/g)).toHaveLength(1);
    expect(out).toContain('<table title="a > b"><tr><td><table><tr><td>内</td></tr></table></td></tr></table></div><p>后</p>');
  });

  it('makes the organisation chart a named region with its cue, and marks a chart’s figure, keeping its classes', () => {
    const html =
      '<div class="org-chart"><ul><li><span>股东会</span></li></ul></div>' +
      '<figure class="wide"><img src="/portal/api/files/figures/t.svg?v=2" alt="图" width="900" height="260"></figure>' +
      '<figure><img src="/portal/api/files/figures/small.svg" alt="小图" width="320" height="200"></figure>';
    expect(enhanceBody(html, 'p')).toBe(
      '<p class="scroll-hint" id="p-scroll-1" aria-hidden="true">左右滑动查看完整架构图</p>' +
        '<div role="region" tabindex="0" aria-label="组织架构图" data-scroll-hint="p-scroll-1" class="org-chart"><ul><li><span>股东会</span></li></ul></div>' +
        '<figure class="wide chart"><img src="/portal/api/files/figures/t.svg?v=2" alt="图" width="900" height="260"></figure>' +
        '<figure><img src="/portal/api/files/figures/small.svg" alt="小图" width="320" height="200"></figure>',
    );
  });

  it('names each body cell by its column where the table can be read a row at a time, and leaves any other table alone', () => {
    const timetable =
      '<table><caption>去程</caption><thead><tr><th scope="col">线路</th><th scope="col">车次</th><th scope="col">发车日</th><th scope="col">集港截止</th><th scope="col">口岸</th><th scope="col">全程 &amp; 天数</th></tr></thead>' +
      '<tbody><tr><th scope="row">云川—汉堡</th><td>X9301</td><td>每日</td><td>前一日</td><td>阿拉山口</td><td>16天</td></tr></tbody></table>';
    const out = enhanceBody(timetable, 't');
    expect(out).toContain('<div class="table-scroll table-scroll--stack table-scroll--wide" role="region"');
    expect(out).toContain('<th data-label="线路" scope="row">云川—汉堡</th><td data-label="车次">X9301</td>');
    expect(out).toContain('<td data-label="全程 &amp; 天数">16天</td></tr></tbody></table></div>');
    // The header row itself is not labelled (it is hidden when rows stand alone).
    expect(out).toContain('<thead><tr><th scope="col">线路</th>');
    const four = timetable.replace(/<th scope="col">口岸<\/th><th scope="col">全程 &amp; 天数<\/th>/, '').replace('<td>阿拉山口</td><td>16天</td>', '');
    expect(enhanceBody(four, 't')).toContain('table-scroll--stack table-scroll--mid"');
    // Merged cells, no header row, or a row of another length: its columns are kept (it scrolls).
    for (const other of [
      timetable.replace('<td>每日</td>', '<td colspan="2">每日</td>'),
      timetable.replace(/<thead>[\s\S]*<\/thead>/, ''),
      timetable.replace('<td>16天</td>', ''),
    ]) {
      expect(enhanceBody(other, 't')).toContain('<div class="table-scroll" role="region"');
      expect(enhanceBody(other, 't')).not.toContain('data-label');
    }
  });

  it('leaves a body without wide content as it is', () => {
    const html = '<p>正文<!-- <table> --></p><ul class="gallery"><li><figure><img src="a.svg" width="720" height="500" alt=""></figure></li></ul>';
    expect(enhanceBody(html, 'x')).toBe(html);
  });
});
