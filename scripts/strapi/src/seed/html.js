'use strict';

// A small HTML parser and two converters (HTML -> Markdown, HTML -> Strapi
// blocks) for the well-formed HTML of reference-cms/content/articles. Not a
// general-purpose sanitizer or parser: it only has to handle p, h1-h6, ul/ol/li,
// strong/b, em/i, a, img, br, span, div, figure/figcaption and tables.

const VOID = new Set(['img', 'br', 'hr', 'input', 'meta', 'link', 'source', 'wbr']);
const BLOCK = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'div', 'figure',
  'figcaption', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'blockquote', 'hr', 'section',
]);

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decode = (s) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });

function parseAttrs(src) {
  const attrs = {};
  const re = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  let m;
  while ((m = re.exec(src))) attrs[m[1].toLowerCase()] = decode(m[2] ?? m[3] ?? m[4] ?? '');
  return attrs;
}

/** Parse HTML into a tree of { tag, attrs, children } and { text } nodes. */
function parse(html) {
  const root = { tag: '#root', attrs: {}, children: [] };
  const stack = [root];
  const re = /<!--[\s\S]*?-->|<\/([a-zA-Z][a-zA-Z0-9]*)\s*>|<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^>]*?)?)\s*(\/?)>|([^<]+|<)/g;
  let m;
  while ((m = re.exec(html))) {
    const top = stack[stack.length - 1];
    if (m[1]) {
      const tag = m[1].toLowerCase();
      const idx = stack.map((n) => n.tag).lastIndexOf(tag);
      if (idx > 0) stack.length = idx;
    } else if (m[2]) {
      const node = { tag: m[2].toLowerCase(), attrs: parseAttrs(m[3] || ''), children: [] };
      top.children.push(node);
      if (!VOID.has(node.tag) && !m[4]) stack.push(node);
    } else if (m[5] !== undefined) {
      top.children.push({ text: decode(m[5]) });
    }
  }
  return root;
}

const isBlock = (n) => n.tag && BLOCK.has(n.tag);
const textOf = (n) => (n.text !== undefined ? n.text : (n.children || []).map(textOf).join(''));

// ---------------------------------------------------------------- Markdown

const escapeMd = (s) => s.replace(/([\\`*_[\]])/g, '\\$1');
const PUNCT = /[\p{P}\p{S}]/u;

function wrapEmphasis(inner, mark, htmlTag, before, after) {
  if (!inner.trim()) return inner;
  // CommonMark flanking rules: "**“一单制”**全程" would not close, because the
  // closing run follows punctuation and precedes a letter. Fall back to HTML then.
  const first = inner[0];
  const last = inner[inner.length - 1];
  const bad =
    /\s/.test(first) || /\s/.test(last) ||
    (PUNCT.test(first) && before && !/\s/.test(before) && !PUNCT.test(before)) ||
    (PUNCT.test(last) && after && !/\s/.test(after) && !PUNCT.test(after));
  return bad ? `<${htmlTag}>${inner}</${htmlTag}>` : `${mark}${inner}${mark}`;
}

function mdInline(nodes, ctx) {
  // Render each node, then fix emphasis with knowledge of its neighbours.
  const parts = nodes.map((n) => {
    if (n.text !== undefined) return { s: escapeMd(n.text.replace(/\s+/g, ' ')) };
    switch (n.tag) {
      case 'strong':
      case 'b':
        return { emph: ['**', 'strong'], s: mdInline(n.children, ctx) };
      case 'em':
      case 'i':
        return { emph: ['*', 'em'], s: mdInline(n.children, ctx) };
      case 'br':
        return { s: '  \n' };
      case 'a':
        return { s: `[${mdInline(n.children, ctx)}](${ctx.url(n.attrs.href || '')})` };
      case 'img':
        return { s: mdImage(n, ctx) };
      case 'code':
        return { s: '`' + textOf(n) + '`' };
      default:
        return { s: mdInline(n.children || [], ctx) };
    }
  });
  let out = '';
  parts.forEach((p, i) => {
    if (!p.emph) {
      out += p.s;
      return;
    }
    const next = parts[i + 1] ? parts[i + 1].s : '';
    out += wrapEmphasis(p.s, p.emph[0], p.emph[1], out.slice(-1), next.slice(0, 1));
  });
  return out;
}

function mdImage(n, ctx) {
  const alt = (n.attrs.alt || '').replace(/[[\]]/g, '');
  return `![${alt}](${ctx.url(n.attrs.src || '')})`;
}

const indent = (s, pad) => s.split('\n').map((l, i) => (i === 0 || l === '' ? l : pad + l)).join('\n');

// Group a mixed list of children into blocks (runs of inline nodes become one paragraph).
function mdBlocks(children, ctx) {
  const out = [];
  let run = [];
  const flush = () => {
    const s = mdInline(run, ctx).trim();
    if (s) out.push(s);
    run = [];
  };
  for (const n of children) {
    if (isBlock(n)) {
      flush();
      const s = mdBlock(n, ctx);
      if (s) out.push(s);
    } else run.push(n);
  }
  flush();
  return out;
}

function mdList(n, ctx) {
  const ordered = n.tag === 'ol';
  const items = n.children.filter((c) => c.tag === 'li');
  let loose = false;
  const rendered = items.map((li, i) => {
    const marker = ordered ? `${i + 1}. ` : '- ';
    // Inside a list item a heading reads better as a bold line.
    const kids = li.children.map((c) =>
      /^h[1-6]$/.test(c.tag || '') ? { tag: 'p', attrs: {}, children: [{ tag: 'strong', attrs: {}, children: c.children }] } : c,
    );
    const parts = [];
    let run = [];
    const flush = () => {
      if (run.length) parts.push({ list: false, s: mdBlocks(run, ctx).join('\n\n') });
      run = [];
    };
    for (const c of kids) {
      if (c.tag === 'ul' || c.tag === 'ol') {
        flush();
        parts.push({ list: true, s: mdList(c, ctx) });
      } else run.push(c);
    }
    flush();
    if (parts.filter((p) => !p.list).some((p) => p.s.includes('\n\n'))) loose = true;
    // A nested list follows its parent's text on the next line (tight).
    const body = parts.map((p) => p.s).filter(Boolean).join('\n');
    return marker + indent(body, ' '.repeat(marker.length));
  });
  return rendered.join(loose ? '\n\n' : '\n');
}

function mdTable(n, ctx) {
  const rows = [];
  const walk = (node) => {
    for (const c of node.children || []) {
      if (c.tag === 'tr') rows.push(c.children.filter((x) => x.tag === 'td' || x.tag === 'th'));
      else if (c.tag) walk(c);
    }
  };
  walk(n);
  if (!rows.length) return '';
  const cell = (c) => mdInline(c.children, ctx).replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r) => '| ' + Array.from({ length: width }, (_, i) => (r[i] ? cell(r[i]) : '')).join(' | ') + ' |';
  return [line(rows[0]), '| ' + Array(width).fill('---').join(' | ') + ' |', ...rows.slice(1).map(line)].join('\n');
}

function mdBlock(n, ctx) {
  switch (n.tag) {
    case 'p':
      return mdInline(n.children, ctx).trim();
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return '#'.repeat(Number(n.tag[1])) + ' ' + mdInline(n.children, ctx).trim();
    case 'ul':
    case 'ol':
      return mdList(n, ctx);
    case 'figure': {
      const img = n.children.find((c) => c.tag === 'img');
      const cap = n.children.find((c) => c.tag === 'figcaption');
      const lines = [];
      if (img) lines.push(mdImage(img, ctx));
      if (cap) {
        const capText = mdInline(cap.children, ctx).trim();
        if (capText) lines.push(capText.split('  \n').map((l) => `*${l.trim()}*`).join('  \n'));
      }
      return lines.join('  \n');
    }
    case 'table':
      return mdTable(n, ctx);
    case 'blockquote':
      return mdBlocks(n.children, ctx).join('\n\n').split('\n').map((l) => '> ' + l).join('\n');
    case 'hr':
      return '---';
    default:
      // div, section, figcaption outside a figure, ...
      return mdBlocks(n.children || [], ctx).join('\n\n');
  }
}

/**
 * HTML -> Markdown. `url(src)` maps a reference path (e.g. "figures/x.svg") to
 * the URL to use in the output (e.g. "/uploads/x_ab12.svg").
 */
function htmlToMarkdown(html, { url = (u) => u } = {}) {
  const root = parse(html);
  return mdBlocks(root.children, { url }).join('\n\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}

// ------------------------------------------------------------------ Blocks

function blkInline(nodes, marks = {}, ctx) {
  const out = [];
  for (const n of nodes) {
    if (n.text !== undefined) {
      const text = n.text.replace(/\s+/g, ' ');
      if (text) out.push({ type: 'text', text, ...marks });
      continue;
    }
    switch (n.tag) {
      case 'strong':
      case 'b':
        out.push(...blkInline(n.children, { ...marks, bold: true }, ctx));
        break;
      case 'em':
      case 'i':
        out.push(...blkInline(n.children, { ...marks, italic: true }, ctx));
        break;
      case 'u':
        out.push(...blkInline(n.children, { ...marks, underline: true }, ctx));
        break;
      case 'code':
        out.push({ type: 'text', text: textOf(n), ...marks, code: true });
        break;
      case 'br':
        out.push({ type: 'text', text: '\n', ...marks });
        break;
      case 'a': {
        const children = blkInline(n.children, marks, ctx).filter((c) => c.type === 'text');
        out.push({ type: 'link', url: ctx.url(n.attrs.href || ''), children: children.length ? children : [{ type: 'text', text: '' }] });
        break;
      }
      default:
        out.push(...blkInline(n.children || [], marks, ctx));
    }
  }
  // Trim the outer whitespace of the run.
  if (out.length && out[0].type === 'text') out[0].text = out[0].text.replace(/^\s+/, '');
  const last = out[out.length - 1];
  if (last && last.type === 'text') last.text = last.text.replace(/\s+$/, '');
  return out.filter((c, i) => c.type !== 'text' || c.text !== '' || out.length === 1 || i === 0);
}

const nonEmpty = (children) => (children.length ? children : [{ type: 'text', text: '' }]);

function blkList(n, ctx) {
  const children = [];
  for (const li of n.children.filter((c) => c.tag === 'li')) {
    const inline = li.children.filter((c) => !(c.tag === 'ul' || c.tag === 'ol'));
    const blocks = inline.some(isBlock)
      ? inline.map((c) => (isBlock(c) ? blkInline(c.children || [], /^h[1-6]$/.test(c.tag) ? { bold: true } : {}, ctx) : blkInline([c], {}, ctx)))
      : [blkInline(inline, {}, ctx)];
    const merged = [];
    blocks.filter((b) => b.length).forEach((b, i) => {
      if (i > 0) merged.push({ type: 'text', text: '\n' });
      merged.push(...b);
    });
    children.push({ type: 'list-item', children: nonEmpty(merged) });
    for (const sub of li.children.filter((c) => c.tag === 'ul' || c.tag === 'ol')) children.push(blkList(sub, ctx));
  }
  return { type: 'list', format: n.tag === 'ol' ? 'ordered' : 'unordered', children };
}

function blkBlocks(children, ctx) {
  const out = [];
  let run = [];
  const flush = () => {
    const inl = blkInline(run, {}, ctx);
    if (inl.some((c) => c.type !== 'text' || c.text.trim())) out.push({ type: 'paragraph', children: inl });
    run = [];
  };
  for (const n of children) {
    if (!isBlock(n)) {
      if (n.tag === 'img') {
        flush();
        out.push(ctx.image(n));
      } else run.push(n);
      continue;
    }
    flush();
    switch (n.tag) {
      case 'p':
        out.push({ type: 'paragraph', children: nonEmpty(blkInline(n.children, {}, ctx)) });
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        out.push({ type: 'heading', level: Number(n.tag[1]), children: nonEmpty(blkInline(n.children, {}, ctx)) });
        break;
      case 'ul':
      case 'ol':
        out.push(blkList(n, ctx));
        break;
      case 'blockquote':
        out.push({ type: 'quote', children: nonEmpty(blkInline(n.children, {}, ctx)) });
        break;
      case 'figure': {
        const img = n.children.find((c) => c.tag === 'img');
        const cap = n.children.find((c) => c.tag === 'figcaption');
        if (img) out.push(ctx.image(img, cap ? textOf(cap).trim() : null));
        if (cap) out.push({ type: 'paragraph', children: nonEmpty(blkInline(cap.children, { italic: true }, ctx)) });
        break;
      }
      case 'table':
        throw new Error('tables cannot be represented as Strapi blocks');
      default:
        out.push(...blkBlocks(n.children || [], ctx));
    }
  }
  flush();
  return out;
}

/**
 * HTML -> Strapi blocks (the `blocks` attribute type). `image(imgNode, caption)`
 * must return an image block ({ type: 'image', image: <upload file>, children }).
 */
function htmlToBlocks(html, { url = (u) => u, image } = {}) {
  return blkBlocks(parse(html).children, { url, image });
}

module.exports = { parse, htmlToMarkdown, htmlToBlocks, textOf };
