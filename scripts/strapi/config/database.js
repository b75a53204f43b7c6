'use strict';

const path = require('path');
const { runDir } = require('./paths');

module.exports = ({ env }) => ({
  connection: {
    client: 'sqlite',
    connection: {
      filename: path.resolve(runDir, env('DATABASE_FILENAME', 'data.db')),
    },
    useNullAsDefault: true,
    pool: {
      // Throw-away test database, recreated on every start: trade durability for
      // speed (schema sync + seed do hundreds of small writes, each an fsync by default).
      afterCreate: (conn, done) => {
        try {
          if (env.bool('DATABASE_SQLITE_FAST', true)) {
            conn.pragma('journal_mode = WAL');
            conn.pragma('synchronous = OFF');
          }
          done(null, conn);
        } catch (err) {
          done(err, conn);
        }
      },
    },
  },
});
