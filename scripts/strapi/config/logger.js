'use strict';

// Plain log lines (no ANSI colours): the log goes to a file.
const { formats } = require('@strapi/logger');

module.exports = {
  format: formats.prettyPrint({ colors: false }),
};
