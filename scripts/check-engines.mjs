#!/usr/bin/env node
// Checks that every installed package's own `engines.node` admits every Node.js line the project's
// `engines.node` names (so `npm install` on a supported Node prints no engine warning), and prints
// the Node.js this check ran on. Exits 1, listing the packages, when one does not.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = new URL('../', import.meta.url);
const ours = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).engines.node;
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));

const refusing = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  const theirs = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
  if (path === '' || typeof theirs !== 'string') continue;
  if (semver.subset(ours, theirs)) continue;
  refusing.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${theirs}`);
}
console.log(`engines: the project names node ${ours}; checked on node ${process.version}`);
if (refusing.length > 0) {
  console.error(`packages that do not admit every supported line:\n  ${refusing.join('\n  ')}`);
  process.exit(1);
}
console.log('engines: every package admits every supported line');
