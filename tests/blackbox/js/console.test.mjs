// The web console (/console) in a real browser: Debian's headless Chromium driven by Playwright
// (playwright-core, pointed at /usr/bin/chromium; scripts/install-deps --test installs both).
// Each test takes a screenshot when it fails (printed path, under the system's temp directory).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  BatchWriteItemCommand, CreateTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient,
  GetItemCommand, PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { chromium } from 'playwright-core';
import { clientConfig, clientFor, hashTable, startDdbd, uniqueName } from './harness.mjs';

const kChromium = process.env.DDBD_CHROMIUM || '/usr/bin/chromium';
// Without the background-networking flags Chromium keeps reaching for Google's hosts, which a
// closed network refuses; a new empty profile each run.
const kFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const screenshots = mkdtempSync(join(tmpdir(), 'ddbd-console-'));

let browser;
before(async () => {
  assert.ok(existsSync(kChromium), `${kChromium} is missing: run scripts/install-deps --test`);
  browser = await chromium.launch({ executablePath: kChromium, args: kFlags });
});
after(async () => { if (browser) await browser.close(); });

// Runs `body(page)` on a fresh page; on failure saves a screenshot and says where.
async function inPage(name, endpoint, body, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Its own Content-Security-Policy must not block any of its own styles or scripts, and every
  // file it asks for (the favicon included) must be there.
  page.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && response.status() >= 400) {
      errors.push(`GET ${response.url()}: ${response.status()}`);
    }
  });
  try {
    await page.goto(`${endpoint}/console/`);
    await body(page);
    assert.deepEqual(errors, [], 'the page threw');
  } catch (error) {
    const file = join(screenshots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    console.error(`console test ${name} failed; screenshot: ${file}`);
    throw error;
  } finally {
    await context.close();
  }
}

describe('console', () => {
  let server;
  let client;
  before(async () => {
    server = await startDdbd();
    client = clientFor(server.endpoint);
  });
  after(async () => { await server.stop(); });

  test('creates a table, adds, queries, edits and deletes an item', async () => {
    const table = uniqueName('console');
    await inPage('item-round-trip', server.endpoint, async (page) => {
      await page.getByRole('button', { name: 'Create table' }).click();
      const form = page.locator('#create-table-form');
      await form.getByLabel('Table name').fill(table);
      await form.getByLabel('Partition key name', { exact: true }).fill('pk');
      await form.getByLabel('Sort key name (optional)', { exact: true }).fill('sk');
      // Indexes made with the table: a local one (only possible now) and a global one.
      await form.getByLabel('Global index name').fill('by-kind');
      await form.getByLabel('Its partition key name (optional)').fill('kind');
      await form.getByLabel('Local index name').fill('by-n');
      await form.getByLabel('Its own sort key name (optional)').fill('n');
      await form.locator('select[name=lskType]').selectOption('N');
      await form.getByLabel('Stream').selectOption('NEW_IMAGE');
      await form.getByRole('button', { name: 'Create' }).click();
      await page.locator('h1', { hasText: table }).waitFor();
      assert.equal(await page.locator('#table-status').textContent(), 'ACTIVE');
      const { Table: made } = await client.send(new DescribeTableCommand({ TableName: table }));
      assert.deepEqual(made.GlobalSecondaryIndexes.map((i) => [i.IndexName, i.KeySchema]),
        [['by-kind', [{ AttributeName: 'kind', KeyType: 'HASH' }]]]);
      assert.deepEqual(made.LocalSecondaryIndexes.map((i) => [i.IndexName, i.KeySchema]),
        [['by-n', [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'n', KeyType: 'RANGE' }]]]);
      assert.deepEqual(made.AttributeDefinitions.map((d) => `${d.AttributeName}:${d.AttributeType}`).sort(),
        ['kind:S', 'n:N', 'pk:S', 'sk:S']);

      // A new item, in plain JSON: a number beyond a double's precision stays exact.
      await page.getByRole('button', { name: 'New item' }).click();
      assert.equal(await page.locator('#item-format').inputValue(), 'plain');
      await page.locator('#item-text').fill(
        '{"pk": "user#1", "sk": "2026", "n": 12345678901234567890123, "tags": ["a", true, null]}');
      await page.locator('#save-item').click();
      await page.locator('#items tbody tr').first().waitFor();
      const stored = await client.send(new GetItemCommand({ TableName: table,
        Key: { pk: { S: 'user#1' }, sk: { S: '2026' } } }));
      assert.deepEqual(stored.Item, { pk: { S: 'user#1' }, sk: { S: '2026' },
        n: { N: '12345678901234567890123' }, tags: { L: [{ S: 'a' }, { BOOL: true }, { NULL: true }] } });

      // A second partition, so the Query has something to leave out.
      await client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'user#2' }, sk: { S: '1' } } }));
      await page.locator('#mode').selectOption('Query');
      await page.locator('#pk').fill('user#1');
      await page.locator('#sk-op').selectOption('begins_with');
      await page.locator('#sk1').fill('20');
      await page.locator('#run').click();
      await page.locator('#result-count', { hasText: 'Items 1–1 (1 read)' }).waitFor();
      assert.match(await page.locator('#items tbody').textContent(), /user#1/);

      // Edit as DynamoDB JSON: a string set, which plain JSON cannot hold.
      await page.locator('#items tbody tr').first().click();
      await page.locator('#item-format').selectOption('dynamodb');
      const text = await page.locator('#item-text').inputValue();
      const item = JSON.parse(text);
      item.colours = { SS: ['red', 'blue'] };
      await page.locator('#item-text').fill(JSON.stringify(item));
      await page.locator('#item-text').press('Control+Enter');
      await page.locator('#dialog').waitFor({ state: 'hidden' });
      const edited = await client.send(new GetItemCommand({ TableName: table,
        Key: { pk: { S: 'user#1' }, sk: { S: '2026' } } }));
      assert.deepEqual(edited.Item.colours.SS.sort(), ['blue', 'red']);
      assert.equal(edited.Item.n.N, '12345678901234567890123');

      // The editor refuses plain JSON for it now, and says why.
      await page.locator('#items tbody tr').first().click();
      assert.equal(await page.locator('#item-format').inputValue(), 'dynamodb');
      await page.locator('#item-format').selectOption('plain');
      assert.match(await page.locator('#item-error').textContent(), /sets or binary/);

      // The stream shows what happened.
      await page.keyboard.press('Escape');
      await page.locator('#stream-records').click();
      await page.locator('#records-table').waitFor();
      const events = await page.locator('#records-table tbody').textContent();
      assert.match(events, /INSERT/);
      assert.match(events, /MODIFY/);

      // Delete it.
      await page.locator('#items tbody tr').first().click();
      await page.locator('#delete-item').click();
      await page.locator('#result-count', { hasText: 'No items on this page' }).waitFor();
      const gone = await client.send(new GetItemCommand({ TableName: table,
        Key: { pk: { S: 'user#1' }, sk: { S: '2026' } } }));
      assert.equal(gone.Item, undefined);
    });
  });

  test('every table, query and item has an address; back and forward; get by key; the description', async () => {
    const table = uniqueName('console-links');
    await client.send(new CreateTableCommand({ TableName: table, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }] }));
    // A long item: its editor must open at its top, not where focus would scroll it.
    const long = { pk: { S: 'a' }, sk: { S: '1' } };
    for (let i = 0; i < 200; i++) long[`attribute${String(i).padStart(3, '0')}`] = { S: `value ${i}` };
    await client.send(new PutItemCommand({ TableName: table, Item: long }));
    await client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'a' }, sk: { S: '2' } } }));
    await client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'b' }, sk: { S: '1' } } }));
    const tableUrl = `${server.endpoint}/console/#/table/${table}`;
    await inPage('addresses', server.endpoint, async (page) => {
      // A query's address fills the form and runs it.
      await page.goto(`${tableUrl}?mode=Query&pk=a`);
      await page.locator('#result-count', { hasText: 'Items 1–2 (2 read)' }).waitFor();
      assert.equal(await page.locator('#mode').inputValue(), 'Query');
      assert.equal(await page.locator('#pk').inputValue(), 'a');
      // Running another query is a new address.
      await page.locator('#sk-op').selectOption('=');
      await page.locator('#sk1').fill('2');
      await page.locator('#run').click();
      await page.locator('#result-count', { hasText: 'Items 1–1 (1 read)' }).waitFor();
      assert.match(page.url(), /\?mode=Query&pk=a&skOp=%3D&sk1=2$/);
      await page.goBack();
      await page.locator('#result-count', { hasText: 'Items 1–2 (2 read)' }).waitFor();

      // An item's address; the editor opens at the top.
      await page.locator('#items tbody tr', { hasText: 'value 0' }).click();
      await page.locator('#item-text').waitFor();
      assert.match(page.url(), /#\/table\/[^/]+\/item\/%7B.*\?mode=Query&pk=a$/);
      assert.deepEqual(await page.locator('#item-text').evaluate((t) => [t.scrollTop, t.selectionStart]), [0, 0]);
      assert.ok(await page.locator('#item-text').evaluate((t) => t.scrollHeight > t.clientHeight));
      // Back closes it, the list as it was; forward opens it again.
      await page.goBack();
      await page.locator('#dialog').waitFor({ state: 'hidden' });
      assert.equal(await page.locator('#result-count').textContent(), 'Items 1–2 (2 read)');
      await page.goForward();
      await page.locator('#item-text').waitFor();
      const itemUrl = page.url();
      await page.keyboard.press('Escape');
      await page.locator('#dialog').waitFor({ state: 'hidden' });
      // The address goes back to the list's (as the editor closes: waited for, not assumed).
      await page.waitForURL(/#\/table\/[^/?]+\?mode=Query&pk=a$/);

      // The item's address on its own, as a bookmark: read fresh, closed to its table.
      await page.goto('about:blank');
      await page.goto(itemUrl);
      await page.locator('#item-text').waitFor();
      assert.match(await page.locator('#item-text').inputValue(), /attribute199/);
      await page.locator('#dialog').getByRole('button', { name: 'Close' }).click();
      await page.locator('#dialog').waitFor({ state: 'hidden' });
      await page.waitForURL(/#\/table\/[^/?]+\?mode=Query&pk=a$/);

      // Get by key.
      await page.locator('#get-pk').fill('b');
      await page.locator('#get-sk').fill('1');
      await page.locator('#get-item').click();
      await page.locator('#item-text').waitFor();
      assert.deepEqual(JSON.parse(await page.locator('#item-text').inputValue()), { pk: 'b', sk: '1' });
      await page.keyboard.press('Escape');
      await page.locator('#dialog').waitFor({ state: 'hidden' });
      await page.locator('#get-sk').fill('9');
      await page.locator('#get-item').click();
      await page.locator('#get-item-result', { hasText: 'No item has this key.' }).waitFor();

      // The description tab: DescribeTable and its kin as JSON, at an address of its own.
      await page.locator('#tab-description').click();
      await page.locator('#describe-table').waitFor();
      assert.match(page.url(), /\/description$/);
      const described = JSON.parse(await page.locator('#describe-table').textContent());
      assert.equal(described.TableName, table);
      assert.equal(described.ItemCount, 3);
      assert.deepEqual(JSON.parse(await page.locator('#describe-ttl').textContent()), { TimeToLiveStatus: 'DISABLED' });
      assert.equal(JSON.parse(await page.locator('#describe-backups').textContent()).ContinuousBackupsStatus, 'ENABLED');
      await page.goBack();
      await page.locator('#query-form').waitFor();
      // The tables list is an address too.
      await page.locator('header').getByRole('link', { name: 'Tables' }).click();
      await page.locator('#tables', { hasText: table }).waitFor();
    });
  });

  test('pages through a table without reading it whole, and lists it with its counts', async () => {
    const table = uniqueName('console-pages');
    await client.send(new CreateTableCommand(hashTable(table)));
    for (let start = 0; start < 60; start += 25) {
      const puts = [];
      for (let i = start; i < Math.min(start + 25, 60); i++) {
        puts.push({ PutRequest: { Item: { pk: { S: `k${String(i).padStart(3, '0')}` } } } });
      }
      await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: puts } }));
    }
    await inPage('paging', server.endpoint, async (page) => {
      const row = page.locator('#tables tr', { hasText: table });
      await row.waitFor();
      assert.match(await row.textContent(), /60/);  // the item count
      await row.getByRole('link', { name: table }).click();
      await page.locator('#result-count', { hasText: 'Items 1–25 (25 read)' }).waitFor();
      assert.equal(await page.locator('#items tbody tr').count(), 25);
      await page.locator('#next-page').click();
      await page.locator('#result-count', { hasText: 'Items 26–50' }).waitFor();
      await page.locator('#next-page').click();
      await page.locator('#result-count', { hasText: 'Items 51–60' }).waitFor();
      assert.equal(await page.locator('#items tbody tr').count(), 10);
      assert.equal(await page.locator('#next-page').isDisabled(), true);
      // Keyboard: 'r' reloads the table's first page.
      await page.locator('body').press('r');
      await page.locator('#result-count', { hasText: 'Items 1–25' }).waitFor();
    });
  });

  test('creates and deletes a global index and turns Time to Live on', async () => {
    const table = uniqueName('console-index');
    await client.send(new CreateTableCommand(hashTable(table)));
    await inPage('index-ttl', server.endpoint, async (page) => {
      await page.goto(`${server.endpoint}/console/#/table/${table}`);
      await page.locator('h1', { hasText: table }).waitFor();
      const form = page.locator('#create-index-form');
      await form.getByLabel('New global index name').fill('by-email');
      await form.getByLabel('Partition key name').fill('email');
      await form.getByRole('button', { name: 'Create index' }).click();
      await page.locator('#indexes', { hasText: 'by-email' }).waitFor();
      await page.locator('#index').selectOption('by-email');
      await page.locator('#ttl input[name=attribute]').fill('expires');
      await page.locator('#ttl').getByRole('button', { name: 'Enable' }).click();
      await page.locator('#ttl-status', { hasText: 'ENABLED' }).waitFor();
      await page.locator('#indexes').getByRole('button', { name: 'Delete' }).click();
      await page.getByLabel('Type by-email to confirm').fill('by-email');
      await page.locator('#dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No secondary indexes.').waitFor();
    });
    const described = await client.send(new DescribeTableCommand({ TableName: table }));
    assert.equal(described.Table.GlobalSecondaryIndexes, undefined);
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: table }));
    assert.deepEqual(ttl.TimeToLiveDescription, { TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });
  });

  test('shows a table\'s vector indexes and searches one', async () => {
    const table = uniqueName('console-vectors');
    await client.send(new CreateTableCommand(hashTable(table, {
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'tenant', AttributeType: 'S' }],
      VectorIndexes: [{ IndexName: 'embedding', VectorAttribute: { AttributeName: 'v' }, Dimensions: 2,
        DistanceFunction: 'EUCLIDEAN', Projection: { ProjectionType: 'ALL' },
        SearchSchema: [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' }] }],
    })));
    for (const [pk, tenant, x, y] of [['near', 'a', 1, 1], ['far', 'a', 9, 9], ['other', 'b', 1, 1]]) {
      await client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: pk }, tenant: { S: tenant },
        v: { L: [{ N: String(x) }, { N: String(y) }] } } }));
    }
    await inPage('vectors', server.endpoint, async (page) => {
      await page.goto(`${server.endpoint}/console/#/table/${table}`);
      const row = page.locator('#vector-indexes tbody tr');
      await row.waitFor();
      assert.deepEqual(await row.locator('td').allInnerTexts(),
        ['embedding', 'ACTIVE', 'v', '2', 'EUCLIDEAN', 'tenant (HASH)', 'ALL', '3']);
      const form = page.locator('#vector-search-form');
      await form.getByLabel('Search vector').fill('[0, 0]');
      await form.getByLabel('tenant =').fill('a');
      await form.getByRole('button', { name: 'Search' }).click();
      const matches = page.locator('#vector-matches tbody tr');
      await matches.nth(1).waitFor();
      assert.equal(await matches.count(), 2);
      assert.match(await matches.nth(0).innerText(), /^1\.414\d*\s+\{pk: near/);
      assert.match(await matches.nth(1).innerText(), /far/);
      await matches.nth(0).click();
      await page.waitForURL(/\/item\//);
    });
  });

  test('asks for a key and signs in the browser when the server verifies signatures', async () => {
    const verified = await startDdbd('--auth-keys', 'AKIDCONSOLE:s3cret');
    try {
      const table = uniqueName('console-signed');
      const signed = new DynamoDBClient({ ...clientConfig(verified.endpoint),
        credentials: { accessKeyId: 'AKIDCONSOLE', secretAccessKey: 's3cret' } });
      await signed.send(new CreateTableCommand(hashTable(table)));
      await inPage('signed', verified.endpoint, async (page) => {
        await page.getByText('This server verifies signatures').waitFor();
        await page.getByLabel('Access key id').fill('AKIDCONSOLE');
        await page.getByLabel('Secret access key').fill('s3cret');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.locator('#tables', { hasText: table }).waitFor();
        // Contributor Insights turned on here; its hot keys read by a GET the page signs.
        await signed.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'early' } } }));
        await page.goto(`${verified.endpoint}/console/#/table/${table}`);
        await page.locator('#insights-toggle', { hasText: 'Enable' }).click();
        await page.locator('#insights-status', { hasText: 'ENABLED' }).waitFor();
        await signed.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'hot' } } }));
        await page.locator('#insights').getByRole('button', { name: 'Refresh' }).click();
        const rows = page.locator('#insights table.insights tbody tr');
        await rows.first().waitFor();
        // One put of 1 unit: 3 ConsumedThroughputUnits; the put before the enabling not counted.
        assert.deepEqual(await rows.allTextContents(), ['1hot33']);
      });
    } finally {
      await verified.stop();
    }
  });

  test('works over HTTPS, its 32 KB script included (issue 34: answers over one TLS record)', async () => {
    const certs = mkdtempSync(join(tmpdir(), 'ddbd-console-tls-'));
    const [cert, key] = [join(certs, 'cert.pem'), join(certs, 'key.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
      '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const tls = await startDdbd('--tls-cert', cert, '--tls-key', key);
    try {
      const endpoint = tls.endpoint.replace('http://', 'https://');
      const table = uniqueName('console-tls');
      await inPage('https', endpoint, async (page) => {
        await page.getByRole('button', { name: 'Create table' }).click();
        const form = page.locator('#create-table-form');
        await form.getByLabel('Table name').fill(table);
        await form.getByLabel('Partition key name', { exact: true }).fill('pk');
        await form.getByRole('button', { name: 'Create' }).click();
        await page.locator('h1', { hasText: table }).waitFor();
      }, { ignoreHTTPSErrors: true });
    } finally {
      await tls.stop();
      rmSync(certs, { recursive: true, force: true });
    }
  });

  test('is served with its own files only, and not at all with --console off', async () => {
    const page = await fetch(`${server.endpoint}/console/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type'), /^text\/html/);
    assert.match(page.headers.get('content-security-policy'), /default-src 'self'/);
    assert.equal((await fetch(`${server.endpoint}/console`, { redirect: 'manual' })).headers.get('location'),
      '/console/');
    assert.equal((await fetch(`${server.endpoint}/console/console.js`)).headers.get('content-type'),
      'text/javascript; charset=utf-8');
    assert.equal((await fetch(`${server.endpoint}/console/../metrics`)).status, 200);  // fetch normalises
    assert.equal((await fetch(`${server.endpoint}/console/missing.js`)).status, 404);
    const icon = await fetch(`${server.endpoint}/console/favicon.svg`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
    const off = await startDdbd('--console', 'off');
    try {
      assert.equal((await fetch(`${off.endpoint}/console/`)).status, 404);
    } finally {
      await off.stop();
    }
  });
});
