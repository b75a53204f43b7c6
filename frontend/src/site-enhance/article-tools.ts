import { dismissible, find } from './dom';
import { copyText } from '../lib/clipboard';

/** The page's canonical address (its crawlable URL at the site's public address). */
const canonical = (): string => find<HTMLLinkElement>('link[rel="canonical"]')?.href ?? window.location.href;

/** 复制链接, 二维码 (the QR encoder a chunk loaded when first asked for) and 打印 under an article. */
export function enhanceArticleTools(): void {
  const root = find('[data-article-tools]');
  const status = root && find('[role="status"]', root);
  const qrButton = root && find<HTMLButtonElement>('[data-tool="qr"]', root);
  const qr = root && find('.article-tools__qr', root);
  if (!root || !status || !qrButton || !qr) return;

  const setQr = (open: boolean) => {
    qr.hidden = !open;
    qrButton.setAttribute('aria-expanded', String(open));
  };
  const showQr = async () => {
    if (!qr.firstChild) {
      qr.textContent = '二维码生成中…';
      try {
        const { qrSvg } = await import(/* webpackChunkName: "site-qr" */ './qr');
        const note = document.createElement('p');
        note.textContent = '手机扫码阅读或分享本文';
        qr.replaceChildren(qrSvg(canonical(), '本文链接的二维码'), note);
      } catch {
        qr.textContent = '二维码加载失败，请稍后再试。';
      }
    }
    setQr(true);
  };

  root.addEventListener('click', (event) => {
    const tool = (event.target as Element).closest<HTMLElement>('[data-tool]')?.dataset.tool;
    if (tool === 'print') window.print();
    if (tool === 'qr') {
      if (qr.hidden) void showQr();
      else setQr(false);
    }
    if (tool === 'copy') {
      void copyText(canonical()).then((copied) => {
        status.textContent = copied ? '链接已复制，可粘贴分享。' : '复制失败，请手动复制地址栏中的链接。';
      });
    }
  });
  dismissible(
    root,
    () => !qr.hidden,
    (refocus) => {
      setQr(false);
      if (refocus) qrButton.focus();
    },
  );
  root.removeAttribute('data-pending');
}
