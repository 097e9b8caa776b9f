// Starts the real ddbd (DDBD_BIN) on a free port, or uses DDBD_ENDPOINT, for node:test suites.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export async function startDdbd(...args) {
  if (process.env.DDBD_ENDPOINT) return { endpoint: process.env.DDBD_ENDPOINT, stop: async () => {} };
  const binary = process.env.DDBD_BIN;
  if (!binary) throw new Error('set DDBD_BIN to the ddbd binary (ctest does)');
  const directory = mkdtempSync(join(tmpdir(), 'ddbd-js-'));
  const portFile = join(directory, 'port');
  const child = spawn(binary, ['--port', '0', '--port-file', portFile, '--log-level', 'warn', ...args],
    { stdio: 'inherit' });
  const deadline = Date.now() + 10000;
  while (!existsSync(portFile)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('ddbd did not start');
    await sleep(5);
  }
  const endpoint = `http://127.0.0.1:${readFileSync(portFile, 'utf8').trim()}`;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(directory, { recursive: true, force: true });
  };
  return { endpoint, stop };
}

// Any SDK v3 client's settings for ddbd at `endpoint`: test credentials, no retries.
export const clientConfig = (endpoint) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
  maxAttempts: 1,
});

export function clientFor(endpoint) {
  return new DynamoDBClient(clientConfig(endpoint));
}

let counter = 0;
export const uniqueName = (prefix = 'js') => `${prefix}-${process.pid}-${++counter}`;

export const hashTable = (TableName, extra = {}) => ({
  TableName,
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  BillingMode: 'PAY_PER_REQUEST',
  ...extra,
});

// Runs `promise` and checks DynamoDB's error name and exact message.
export async function expectError(assert, promise, name, message) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.name, name);
    assert.equal(error.message, message);
    return true;
  });
}
