#!/usr/bin/env node
// The registry this project installs from does not carry every platform's prebuilt binary (the
// darwin/win32/... builds of nx, unrs-resolver and msgpackr-extract), so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock. This adds each missing optional platform package
// with its os and cpu, so `npm ci` sees a complete lock and skips them as built for another platform.
// Run it after changing dependencies: `npm install && node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'wasm32'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasi'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((token) => OS.includes(token));
  const cpu = tokens.find((token) => CPU.includes(token));
  if (!os || !cpu) return undefined;
  const platform = os === 'wasm32' ? { cpu: ['wasm32'] } : { os: [os], cpu: [cpu] };
  if (tokens.includes('musl')) platform.libc = ['musl'];
  if (tokens.includes('gnu') || tokens.includes('gnueabihf')) platform.libc = ['glibc'];
  return platform;
}

function parentOf(path) {
  const index = path.lastIndexOf('/node_modules/');
  return index === -1 ? '' : path.slice(0, index);
}

function resolves(packages, from, name, version) {
  for (let base = from; ; base = parentOf(base)) {
    const entry = packages[(base ? `${base}/` : '') + `node_modules/${name}`];
    if (entry) return entry.version === version || !/^\d+\.\d+\.\d+/.test(version);
    if (!base) return false;
  }
}

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolves(lock.packages, path, name, version)) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    const target = lock.packages[`node_modules/${name}`] ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    lock.packages[target] = { version, license: entry.license, optional: true, ...platform };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} platform package entries\n`);
