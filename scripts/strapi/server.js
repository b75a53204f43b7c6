'use strict';

// Entry point used by scripts/strapi.sh (equivalent to `strapi start` for a
// JavaScript project, without loading the CLI): no admin build, no TypeScript.
const fs = require('fs');
const path = require('path');
const { runDir } = require('./config/paths');

// The local upload provider refuses to start without its folder.
fs.mkdirSync(path.join(runDir, 'public', 'uploads'), { recursive: true });

const { createStrapi } = require('@strapi/strapi');

createStrapi({ appDir: __dirname, distDir: __dirname })
  .start()
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
