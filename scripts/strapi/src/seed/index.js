'use strict';

// Seeds an empty database from reference-cms/content (see ../../README.md).
// Deterministic: same insertion order (hence same numeric ids) and same upload
// file names on every fresh database.

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { htmlToMarkdown, htmlToBlocks } = require('./html');
const { ARCHIVE, HOSTILE } = require('./extra');

// Reference article ids whose body is stored as Strapi blocks instead of Markdown.
const BLOCKS_ARTICLES = new Set([2102, 4201, 1013, 1031]);

const MIME = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.vtt': 'text/vtt',
};

// "/news_center/company_announcement/1" -> "/news_center/company_announcement/"
// (the portal's list routes carry a page number; the CMS path does not).
const cmsPath = (url) => {
  const segs = url.split('/').filter(Boolean);
  if (segs.length > 1 && /^\d+$/.test(segs[segs.length - 1])) segs.pop();
  return '/' + segs.join('/') + '/';
};

// Reference times are Beijing time without an offset.
const toIso = (t) => new Date(t.replace(' ', 'T') + '+08:00').toISOString();

const isLocalRef = (u) => u && !/^[a-z][a-z0-9+.-]*:/i.test(u) && !u.startsWith('/') && !u.startsWith('#');

// Base name for the next upload's file name (the reference file's basename, so
// that attachments with Chinese display names still get readable URLs).
let nextFileBase = null;

function makeDeterministicFileNames(strapi) {
  // The upload plugin names files "<slug>_<10 random hex>"; make the suffix a
  // hash of the name and its occurrence count so URLs are stable across runs.
  const imageManipulation = strapi.plugin('upload').service('image-manipulation');
  const { nameToSlug } = require('@strapi/utils').strings;
  const seen = new Map();
  imageManipulation.generateFileName = (displayName) => {
    const name = nextFileBase || displayName;
    let base = nameToSlug(name, { separator: '_', lowercase: false });
    if (!/^[A-Za-z0-9_.~-]+$/.test(base)) base = 'file';
    const n = (seen.get(name) || 0) + 1;
    seen.set(name, n);
    const suffix = crypto.createHash('sha1').update(`${name}#${n}`).digest('hex').slice(0, 10);
    return `${base}_${suffix}`;
  };
}

// The content's locales (Strapi's i18n plugin): Chinese, the default (what every call without
// `locale` reads, as before the content types were localized), and English.
const DEFAULT_LOCALE = { code: 'zh', name: 'Chinese (zh)' };
const LOCALES = [DEFAULT_LOCALE, { code: 'en', name: 'English (en)' }];

/**
 * Every locale of LOCALES exists and `zh` is the default. On a fresh database the i18n plugin has
 * just made its own initial locale (`en`, the default); this runs before anything is created.
 */
async function ensureLocales(strapi) {
  const locales = strapi.plugin('i18n').service('locales');
  for (const locale of LOCALES) {
    if (!(await locales.findByCode(locale.code))) {
      await locales.create(locale);
      strapi.log.info(`[seed] locale ${locale.code} created`);
    }
  }
  if ((await locales.getDefaultLocale()) !== DEFAULT_LOCALE.code) {
    await locales.setDefaultLocale({ code: DEFAULT_LOCALE.code });
    strapi.log.info(`[seed] default locale set to ${DEFAULT_LOCALE.code}`);
  }
}

async function seed(strapi, { contentDir, runDir }) {
  const log = (msg) => strapi.log.info(`[seed] ${msg}`);
  const t0 = Date.now();

  const uploadService = strapi.plugin('upload').service('upload');
  await uploadService.setSettings({
    sizeOptimization: false,
    responsiveDimensions: false,
    autoOrientation: false,
    aiMetadata: false,
  });
  makeDeterministicFileNames(strapi);

  // ---- files
  const files = new Map(); // reference path -> upload file entity
  async function uploadRef(rel, info = {}) {
    if (files.has(rel)) return files.get(rel);
    const filepath = path.join(contentDir, 'files', rel);
    if (!fs.existsSync(filepath)) throw new Error(`seed: missing file ${filepath}`);
    const ext = path.extname(rel).toLowerCase();
    nextFileBase = path.basename(rel, path.extname(rel));
    const [file] = await uploadService.upload({
      data: {
        fileInfo: {
          name: info.name || path.basename(rel),
          alternativeText: info.alternativeText ?? null,
          caption: info.caption ?? null,
        },
      },
      files: {
        filepath,
        originalFilename: path.basename(rel),
        mimetype: MIME[ext] || 'application/octet-stream',
        size: fs.statSync(filepath).size,
      },
    });
    nextFileBase = null;
    files.set(rel, file);
    return file;
  }

  // ---- categories (parents before children, in reference order)
  const categories = JSON.parse(fs.readFileSync(path.join(contentDir, 'categories.json'), 'utf8'));
  const catMap = new Map(); // reference id -> { id, documentId }
  const pending = [...categories];
  while (pending.length) {
    const before = pending.length;
    for (let i = 0; i < pending.length; i++) {
      const c = pending[i];
      if (c.parentId && !catMap.has(c.parentId)) continue;
      const p = cmsPath(c.url);
      const doc = await strapi.documents('api::category.category').create({
        data: {
          name: c.name,
          slug: p.split('/').filter(Boolean).pop(),
          path: p,
          sort: c.sort ?? 0,
          kind: c.type,
          description: c.description ?? null,
          hidden: Boolean(c.hidden),
          icon: c.icon ?? null,
          parent: c.parentId ? catMap.get(c.parentId).documentId : null,
        },
      });
      catMap.set(c.id, { id: doc.id, documentId: doc.documentId, path: p, name: c.name });
      pending.splice(i--, 1);
    }
    if (pending.length === before) throw new Error('seed: category tree has dangling parents');
  }
  log(`${catMap.size} categories`);

  // ---- articles
  const refArticles = fs
    .readdirSync(path.join(contentDir, 'articles'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => JSON.parse(fs.readFileSync(path.join(contentDir, 'articles', f), 'utf8')));

  const artMap = new Map();
  const imageBlock = (img, caption) => {
    const f = files.get(img.attrs.src);
    return {
      type: 'image',
      image: {
        id: f.id,
        documentId: f.documentId,
        name: f.name,
        alternativeText: img.attrs.alt || f.alternativeText || null,
        url: f.url,
        caption: caption || f.caption || null,
        width: f.width || Number(img.attrs.width) || 0,
        height: f.height || Number(img.attrs.height) || 0,
        formats: f.formats || null,
        hash: f.hash,
        ext: f.ext,
        mime: f.mime,
        size: f.size,
        previewUrl: f.previewUrl || null,
        provider: f.provider,
        provider_metadata: f.provider_metadata || null,
        createdAt: new Date(f.createdAt).toISOString(),
        updatedAt: new Date(f.updatedAt).toISOString(),
      },
      children: [{ type: 'text', text: '' }],
    };
  };

  // The texts of an article as Strapi stores them (localized, in every locale): inline images
  // uploaded first, so that the converters can map paths synchronously.
  async function articleTexts(a) {
    const html = a.content || '';
    for (const m of html.matchAll(/<img\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) {
      if (isLocalRef(m[1])) {
        const alt = (m[0].match(/\balt="([^"]*)"/) || [])[1];
        await uploadRef(m[1], { alternativeText: alt });
      }
    }
    const url = (u) => (isLocalRef(u) && files.has(u) ? files.get(u).url : u);
    const texts = {
      title: a.title,
      summary: a.summary ?? null,
      author: a.author ?? null,
      source: a.source ?? null,
      body: null,
      bodyBlocks: null,
    };
    if (a.markdown) texts.body = a.markdown;
    else if (BLOCKS_ARTICLES.has(a.id)) texts.bodyBlocks = htmlToBlocks(html, { url, image: imageBlock });
    else texts.body = htmlToMarkdown(html, { url });
    return texts;
  }

  async function createArticle(a, key) {
    const data = {
      ...(await articleTexts(a)),
      publishTime: a.publishTime ? toIso(a.publishTime) : null,
      views: a.views ?? null,
      category: catMap.get(a.categoryId).documentId,
      // The home page's lead story (头条), as reference-cms flags it.
      lead: a.lead === true,
    };
    if (a.cover) data.cover = (await uploadRef(a.cover, { alternativeText: a.title })).id;
    if (a.video) data.video = (await uploadRef(a.video, { alternativeText: a.title })).id;
    // The video's WebVTT captions: a plain file (text/vtt), served from /uploads like the video.
    if (a.captions) data.captions = (await uploadRef(a.captions)).id;
    if (a.attachments && a.attachments.length) {
      data.attachments = [];
      for (const att of a.attachments) data.attachments.push((await uploadRef(att.url, { name: att.name })).id);
    }
    const doc = await strapi.documents('api::article.article').create({ data });
    artMap.set(key, {
      id: doc.id,
      documentId: doc.documentId,
      title: a.title,
      format: data.bodyBlocks ? 'blocks' : 'markdown',
      ...(data.lead ? { lead: true } : {}),
    });
  }

  for (const a of refArticles) await createArticle(a, String(a.id));
  for (let i = 0; i < ARCHIVE.length; i++) await createArticle(ARCHIVE[i], `archive-${i + 1}`);
  await createArticle(HOSTILE, 'hostile');
  log(`${artMap.size} articles, ${files.size} files (${Date.now() - t0} ms)`);

  // ---- English (content/en/, when the content has it): each English category and article is the
  // `en` localization of the Chinese document with the same reference id (same documentId), made
  // after every Chinese one so that the Chinese ids and upload names stay what they were. Only the
  // localized fields are given: Strapi copies the shared ones (path, kind, sort, times, views, lead,
  // cover, video, attachments) from the Chinese entry; relations (a category's parent, an
  // article's category) name the same documents, which Strapi links in `en`.
  const enDir = path.join(contentDir, 'en');
  let enCategories = 0;
  let enArticles = 0;
  if (fs.existsSync(path.join(enDir, 'categories.json'))) {
    const t1 = Date.now();
    const english = JSON.parse(fs.readFileSync(path.join(enDir, 'categories.json'), 'utf8'));
    const done = new Set();
    const waiting = [...english];
    while (waiting.length) {
      const before = waiting.length;
      for (let i = 0; i < waiting.length; i++) {
        const c = waiting[i];
        if (c.parentId && !done.has(c.parentId)) continue;
        const zh = catMap.get(c.id);
        if (!zh) throw new Error(`seed: English category ${c.id} has no Chinese one`);
        if (cmsPath(c.url) !== zh.path) {
          throw new Error(`seed: English category ${c.id} is at ${c.url}, the Chinese one at ${zh.path}`);
        }
        await strapi.documents('api::category.category').update({
          documentId: zh.documentId,
          locale: 'en',
          data: {
            name: c.name,
            description: c.description ?? null,
            parent: c.parentId ? catMap.get(c.parentId).documentId : null,
          },
        });
        zh.en = c.name;
        done.add(c.id);
        waiting.splice(i--, 1);
      }
      if (waiting.length === before) throw new Error('seed: English category tree has dangling parents');
    }
    enCategories = done.size;

    const articlesDir = path.join(enDir, 'articles');
    const englishArticles = fs.existsSync(articlesDir)
      ? fs
          .readdirSync(articlesDir)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .flatMap((f) => JSON.parse(fs.readFileSync(path.join(articlesDir, f), 'utf8')))
      : [];
    for (const a of englishArticles) {
      const zh = artMap.get(String(a.id));
      if (!zh) throw new Error(`seed: English article ${a.id} has no Chinese one`);
      if (!done.has(a.categoryId)) throw new Error(`seed: English article ${a.id}: no English category ${a.categoryId}`);
      const data = {
        ...(await articleTexts(a)),
        category: catMap.get(a.categoryId).documentId,
        // Captions are per language (the English track of the same video).
        captions: a.captions ? (await uploadRef(a.captions)).id : null,
      };
      await strapi.documents('api::article.article').update({ documentId: zh.documentId, locale: 'en', data });
      zh.en = a.title;
      enArticles++;
    }
    log(`en: ${enCategories} categories, ${enArticles} articles (${Date.now() - t1} ms)`);
  }

  const idMap = {
    note: 'reference-cms id -> Strapi id/documentId (ids are deterministic on a fresh database); `en`: the name or title of its English localization (locale en, same documentId), where the content has one',
    categories: Object.fromEntries(catMap),
    articles: Object.fromEntries(artMap),
    files: Object.fromEntries([...files].map(([k, f]) => [k, { id: f.id, url: f.url }])),
  };
  fs.writeFileSync(path.join(runDir, 'id-map.json'), JSON.stringify(idMap, null, 2) + '\n');
}

/**
 * A content-API token of `type`, written to `runDir/file` (mode 600) once per database: the
 * file and the token are made again together when either is missing.
 */
async function ensureToken(strapi, { runDir, file, name, type, description }) {
  const tokenFile = path.join(runDir, file);
  const apiTokens = strapi.service('admin::api-token');
  const existing = await strapi.db.query('admin::api-token').findOne({ where: { name } });
  if (existing && fs.existsSync(tokenFile)) return tokenFile;
  if (existing) await apiTokens.revoke(existing.id);
  const token = await apiTokens.create({ name, description, type, kind: 'content-api', lifespan: null });
  fs.writeFileSync(tokenFile, token.accessKey + '\n', { mode: 0o600 });
  fs.chmodSync(tokenFile, 0o600);
  strapi.log.info(`[seed] ${type} API token written to ${tokenFile}`);
  return tokenFile;
}

/** The read-only token the gateway reads Strapi with. */
function ensureApiToken(strapi, { runDir }) {
  return ensureToken(strapi, {
    runDir,
    file: 'api-token.txt',
    name: 'gateway-tests (read-only)',
    type: 'read-only',
    description: 'Read-only content API token for the gateway tests (created by src/index.js bootstrap)',
  });
}

/**
 * A full-access token the tests edit content with, as an editor would in the admin panel, so that
 * Strapi's own webhook fires (the gateway never sees it).
 */
function ensureEditorToken(strapi, { runDir }) {
  return ensureToken(strapi, {
    runDir,
    file: 'editor-token.txt',
    name: 'gateway-tests (editor)',
    type: 'full-access',
    description: 'Full-access token the gateway tests edit articles with (created by src/index.js bootstrap)',
  });
}

const WEBHOOK_NAME = 'portal gateway';

/**
 * The webhook an integrator creates in Settings → Webhooks (docs/operations.md): the gateway's
 * webhook URL, the shared secret in the `x-portal-webhook-secret` header, entry events. Created
 * when STRAPI_WEBHOOK_URL and STRAPI_WEBHOOK_SECRET are set (`make test-strapi` sets them).
 */
async function ensureWebhook(strapi) {
  const url = process.env.STRAPI_WEBHOOK_URL;
  const secret = process.env.STRAPI_WEBHOOK_SECRET;
  if (!url || !secret) return;
  const store = strapi.get('webhookStore');
  const existing = (await store.findWebhooks()).find((w) => w.name === WEBHOOK_NAME);
  if (existing) return;
  const webhook = await store.createWebhook({
    name: WEBHOOK_NAME,
    url,
    headers: { 'x-portal-webhook-secret': secret },
    events: ['entry.create', 'entry.update', 'entry.delete'],
    isEnabled: true,
  });
  strapi.get('webhookRunner').add(webhook);
  strapi.log.info(`[seed] webhook to ${url} created`);
}

module.exports = { seed, ensureLocales, ensureApiToken, ensureEditorToken, ensureWebhook, cmsPath };
