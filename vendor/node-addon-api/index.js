// node-addon-api 8.9.2's index.js with one change: `include` is the header directory relative to
// the directory the build runs in, not `"${__dirname}"`. sqlite3's binding.gyp reads `include`
// through `<!@(node -p ...)`; gyp's make generator writes the resulting -I flag unquoted, so an
// absolute path with a space in it (a checkout under "My Projects/") split in two and the build
// could not find napi.h. A relative path from node_modules/sqlite3 to here never holds a space
// unless the project's own folder names below the checkout do. See README.md.
const path = require('path');
const { version } = require('./package.json');

const includeDir = path.relative('.', __dirname);

module.exports = {
  include: includeDir,
  include_dir: includeDir,
  gyp: path.join(includeDir, 'node_api.gyp:nothing'), // deprecated.
  targets: path.join(includeDir, 'node_addon_api.gyp'),
  version: version.replace(/-gcscope\.\d+$/, ''),
  isNodeApiBuiltin: true,
  needsFlag: false
};
