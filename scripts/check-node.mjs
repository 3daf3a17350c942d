// Fails early, with the fix, when the project's scripts run on a Node.js older than it needs.
//
// The npm scripts normally run on the Node.js 24 that `npm ci` installs as a devDependency
// (`node_modules/.bin/node` comes first on the PATH of every npm script), so this only fires when
// that install was skipped (`--ignore-scripts`, `--omit=dev`) or a script is started another way.
// Plain JavaScript on purpose: it must run on the old Node.js it complains about.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `Node.js ${process.versions.node} is too old: this project needs 22.18 or newer (24 preferred).\n` +
      'Run `npm ci` (it installs Node.js 24 from the npm registry as a devDependency) and start\n' +
      'everything through npm (`npm start`, `npm test`), or install Node.js 24 yourself.',
  );
  process.exit(1);
}
