// The npm packages (issue 36), from the tarballs scripts/packaging/npm/build left in dist/npm/:
// installed into an empty folder with npm --offline (nothing fetched), `npx ddbd` serves, and a
// Vitest file in that folder starts and stops ddbd through startDdbd() with the AWS SDK v3.
// Run on its own (`node --test npm_package.check.mjs`), not with the suites that take DDBD_BIN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync,
         writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const packages = join(process.env.DDBD_DIST ?? join(root, 'dist'), 'npm');
const version = /project\(ddbd VERSION ([0-9.]+)/.exec(
  readFileSync(join(root, 'CMakeLists.txt'), 'utf8'))[1];

function tarball(name) {
  const file = join(packages, `${name}-${version}.tgz`);
  assert.ok(existsSync(file), `${file} is missing: run scripts/release, then scripts/packaging/npm/build`);
  return file;
}

function healthy(port) {
  return new Promise((done) => {
    get({ host: '127.0.0.1', port, path: '/_ddbd/health' }, (answer) => {
      answer.resume();
      done(answer.statusCode === 200);
    }).on('error', () => done(false));
  });
}

const project = mkdtempSync(join(tmpdir(), 'ddbd-npm-'));
process.on('exit', () => rmSync(project, { recursive: true, force: true }));

test('installed offline from the tarballs, npx ddbd serves within seconds', async () => {
  writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
  const started = Date.now();
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error',
                       tarball('ddbd'), tarball('ddbd-linux-x64')], { cwd: project });
  const installed = Date.now();
  assert.equal(readdirSync(join(project, 'node_modules', 'ddbd-linux-x64', 'bin')).join(), 'ddbd');
  const portFile = join(project, 'port');
  // Its own process group: npx runs the package's bin through a shell and does not pass a
  // signal on, so the group is what gets stopped (as a terminal's Ctrl-C stops it).
  const server = spawn('npx', ['--offline', 'ddbd', '--port', '0', '--port-file', portFile,
                               '--log-level', 'warn'], { cwd: project, stdio: 'ignore', detached: true });
  try {
    let port = 0;
    while (!(port && (await healthy(port)))) {
      assert.equal(server.exitCode, null, 'npx ddbd exited');
      assert.ok(Date.now() - started < 60000, 'not serving after a minute');
      if (!port && existsSync(portFile)) port = Number(readFileSync(portFile, 'utf8'));
      await sleep(5);
    }
    console.log(`npm install (offline, from the tarballs): ${installed - started} ms; ` +
                `install to serving: ${Date.now() - started} ms`);
  } finally {
    const exited = new Promise((done) => server.once('exit', done));
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  const printed = execFileSync('npx', ['--offline', 'ddbd', '--version'], { cwd: project });
  assert.match(printed.toString(), new RegExp(`^ddbd ${version.replaceAll('.', '\\.')} \\(git `));
});

test('a Vitest file starts and stops ddbd through startDdbd() and the AWS SDK v3', () => {
  // The SDK and Vitest come from the black-box suite's own pinned install.
  mkdirSync(join(project, 'node_modules', '@aws-sdk'), { recursive: true });
  for (const name of ['client-dynamodb']) {
    symlinkSync(join(here, 'node_modules', '@aws-sdk', name),
                join(project, 'node_modules', '@aws-sdk', name));
  }
  symlinkSync(join(here, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));
  mkdirSync(join(project, 'fixtures'));
  writeFileSync(join(project, 'fixtures', 'Music.table.json'), JSON.stringify({
    TableName: 'Music', BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'Artist', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'Artist', KeyType: 'HASH' }],
  }));
  writeFileSync(join(project, 'fixtures', 'Music.items.jsonl'), '{"Artist": {"S": "Nina"}}\n');
  writeFileSync(join(project, 'ddbd.test.js'), `
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startDdbd } from 'ddbd';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';

let db;
let client;
beforeAll(async () => {
  db = await startDdbd({ seed: 'fixtures/' });
  client = new DynamoDBClient({ endpoint: db.endpoint, region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});
afterAll(async () => {
  await db.stop();
  expect(db.process.exitCode).toBe(0);
});

test('the seeded table answers', async () => {
  expect(db.endpoint).toMatch(/^http:\\/\\/127\\.0\\.0\\.1:\\d+$/);
  await client.send(new PutItemCommand({ TableName: 'Music',
    Item: { Artist: { S: 'Ella' }, Songs: { N: '3' } } }));
  const ella = await client.send(new GetItemCommand({ TableName: 'Music', Key: { Artist: { S: 'Ella' } } }));
  expect(ella.Item).toEqual({ Artist: { S: 'Ella' }, Songs: { N: '3' } });
  const nina = await client.send(new GetItemCommand({ TableName: 'Music', Key: { Artist: { S: 'Nina' } } }));
  expect(nina.Item).toEqual({ Artist: { S: 'Nina' } });
});
`);
  const run = spawnSync(join(here, 'node_modules', '.bin', 'vitest'), ['run', '--root', project],
                        { cwd: project, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /1 passed/);
});

test('ddbd stops when the process that started it is killed', async () => {
  const script = `
    import { startDdbd } from 'ddbd';
    const db = await startDdbd();
    console.log(db.process.pid);
    setInterval(() => {}, 1000);
  `;
  writeFileSync(join(project, 'runner.mjs'), script);
  const runner = spawn(process.execPath, ['runner.mjs'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise((done) => runner.stdout.once('data', (data) => done(Number(data))));
  assert.ok(pid > 0);
  runner.kill('SIGKILL');
  const deadline = Date.now() + 10000;
  const alive = () => existsSync(`/proc/${pid}`) &&
    !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  while (alive()) {
    assert.ok(Date.now() < deadline, 'ddbd outlived the runner that started it');
    await sleep(20);
  }
});
