'use strict';

const fs = require('fs');
const { runDir, contentDir } = require('../config/paths');
const { seed, ensureLocales, ensureApiToken, ensureEditorToken, ensureWebhook } = require('./seed');

module.exports = {
  register() {},

  // Runs before the HTTP server listens: once /api/categories answers, the
  // seed and the token file are in place.
  async bootstrap({ strapi }) {
    fs.mkdirSync(runDir, { recursive: true });
    // Chinese the default locale before anything is created (calls without `locale` read it).
    await ensureLocales(strapi);
    const count = await strapi.db.query('api::category.category').count();
    if (count === 0) {
      await seed(strapi, { contentDir, runDir });
    } else {
      strapi.log.info(`[seed] database not empty (${count} categories), not seeding`);
    }
    await ensureApiToken(strapi, { runDir });
    await ensureEditorToken(strapi, { runDir });
    await ensureWebhook(strapi);
  },
};
