'use strict';

// Where the per-run state lives (SQLite db, uploads, api-token.txt, id-map.json).
// scripts/strapi.sh sets STRAPI_RUN_DIR to an absolute path; the fallback is
// <repo root>/target/strapi-run, the repo root being given by STRAPI_REPO_ROOT
// (or guessed from the template location scripts/strapi/ or target/strapi/).
const path = require('path');

const repoRoot = process.env.STRAPI_REPO_ROOT
  ? path.resolve(process.env.STRAPI_REPO_ROOT)
  : path.resolve(__dirname, '..', '..', '..');

const runDir = process.env.STRAPI_RUN_DIR
  ? path.resolve(repoRoot, process.env.STRAPI_RUN_DIR)
  : path.join(repoRoot, 'target', 'strapi-run');

const contentDir = process.env.STRAPI_SEED_CONTENT
  ? path.resolve(repoRoot, process.env.STRAPI_SEED_CONTENT)
  : path.join(repoRoot, 'reference-cms', 'content');

module.exports = { repoRoot, runDir, contentDir };
