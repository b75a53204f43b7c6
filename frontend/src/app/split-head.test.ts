import { splitHead } from './split-head';

describe('splitHead', () => {
  it('takes the title, metas and links React put before the markup into the head', () => {
    const head =
      '<title>通知公告 - 新闻中心 - 云川陆港国际物流集团有限公司</title>' +
      '<link rel="canonical" href="https://www.example.com/portal/news_center/notice"/>' +
      '<meta property="og:url" content="https://www.example.com/portal/news_center/notice"/>';
    const body = '<a class="skip-link" href="#main-content">跳到主要内容</a><header class="site-header"></header>';
    expect(splitHead(`${head}${body}`)).toEqual({ head, body });
  });

  it('leaves markup without any as it is, and keeps the same elements inside the page in the page', () => {
    const body = '<main id="main-content"><h1>通知公告</h1><link rel="alternate" href="/portal/feed/23.xml"/></main>';
    expect(splitHead(body)).toEqual({ head: '', body });
    expect(splitHead('')).toEqual({ head: '', body: '' });
  });
});
