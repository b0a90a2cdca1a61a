import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, createManualClock, show, type Partner, type TestApp } from '../../test/helper.ts';

const clock = createManualClock(new Date('2026-01-15T12:00:00Z'));
let t: TestApp;

/** A lead with contact info (so it is listed by default), created at the clock's time. */
async function newCard(partner: Partner, body: object = {}): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: `${api}/leads`,
    headers: partner.headers,
    payload: JSON.stringify(body),
  });
  assert.equal(created.statusCode, 201, show(created));
  const id = created.json().id as string;
  const saved = await t.app.inject({
    method: 'PUT',
    url: `${api}/leads/${id}/contact-info`,
    headers: partner.headers,
    payload: { phone: '5512345678', email: 'ana@example.mx' },
  });
  assert.equal(saved.statusCode, 204, show(saved));
  return id;
}
/** Tokens last an hour of the manual clock: get a new one after moving it by days. */
async function renewToken(partner: Partner) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/token',
    payload: { consumer_key: partner.consumerKey, consumer_secret: partner.consumerSecret },
  });
  assert.equal(res.statusCode, 200, show(res));
  partner.headers.authorization = `Bearer ${res.json().access_token}`;
}
const list = (partner: Partner, query: string) =>
  t.app.inject({ method: 'GET', url: `${api}/leads?${query}`, headers: partner.headers });
async function page(
  partner: Partner,
  query: string,
): Promise<{ items: { id: string; createdAt: string; status: string }[]; nextCursor: string | null }> {
  const res = await list(partner, query);
  assert.equal(res.statusCode, 200, show(res));
  return res.json();
}
/** Reads every page; `between` runs after each page, before the next one is read. */
async function walk(
  partner: Partner,
  query: string,
  between: (pageNo: number) => Promise<void> = async () => {},
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let n = 1; n < 100; n++) {
    const { items, nextCursor } = await page(
      partner,
      `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    ids.push(...items.map((i) => i.id));
    if (!nextCursor) return ids;
    cursor = nextCursor;
    await between(n);
  }
  throw new Error('the cursor never ended');
}

function leadListTests1() {
  test('lists the company’s leads newest first, as summaries without personal data', async () => {
    const partner = await t.newPartner();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      ids.push(await newCard(partner, { autoFinB2BLeadCreatePayload: { externalAutoId: `STOCK-${i}` } }));
    }
    const res = await list(partner, '');
    assert.equal(res.statusCode, 200, show(res));
    const { items, nextCursor } = res.json();
    assert.deepEqual(
      items.map((i: { id: string }) => i.id),
      [...ids].reverse(),
    );
    assert.equal(nextCursor, null);
    assert.deepEqual(Object.keys(items[0]).sort(), [
      'affiliate',
      'createdAt',
      'decision',
      'externalAutoId',
      'id',
      'outcomeStatus',
      'status',
      'updatedAt',
    ]);
    assert.equal(items[0].externalAutoId, 'STOCK-3');
    assert.equal(items[0].status, 'IN_PROGRESS');
    assert.equal(items[0].createdAt, clock.now().toISOString());
    assert.ok(!res.body.includes('5512345678') && !res.body.includes('ana@example.mx'), 'no contact data in the list');
  });

  test('limit and cursor walk every lead exactly once, also across leads created in the same millisecond', async () => {
    const partner = await t.newPartner();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      if (i % 4 === 0) clock.advance(1000); // groups of leads sharing one created_at
      ids.push(await newCard(partner));
    }
    const all = await page(partner, 'limit=100');
    assert.equal(all.items.length, 23);
    assert.equal(all.nextCursor, null);
    const times = all.items.map((i) => i.createdAt);
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    assert.deepEqual([...all.items.map((i) => i.id)].sort(), [...ids].sort());
    for (const limit of [1, 3, 4, 5, 22, 23]) {
      const walked = await walk(partner, `limit=${limit}`);
      assert.deepEqual(
        walked,
        all.items.map((i) => i.id),
        `limit=${limit}: same order, no duplicate, no gap`,
      );
    }
    const first = await page(partner, 'limit=5');
    assert.equal(first.items.length, 5);
    assert.equal(typeof first.nextCursor, 'string');
    assert.equal((await page(partner, '')).items.length, 20, 'the default page size is 20');
  });

  test('leads created between page reads do not shift the later pages', async () => {
    const partner = await t.newPartner();
    for (let i = 0; i < 12; i++) {
      clock.advance(i % 2 ? 0 : 1000);
      await newCard(partner);
    }
    const before = await walk(partner, 'limit=100');
    const added: string[] = [];
    const walked = await walk(partner, 'limit=4', async () => {
      // One lead in the same millisecond as the newest, one later.
      added.push(await newCard(partner));
      clock.advance(1000);
      added.push(await newCard(partner));
    });
    assert.deepEqual(walked, before, 'the walk sees exactly the leads that existed when it started');
    const fresh = await walk(partner, 'limit=100');
    assert.deepEqual(
      fresh.filter((id) => !added.includes(id)),
      before,
      'a new walk keeps the old order',
    );
    assert.deepEqual([...fresh].sort(), [...before, ...added].sort(), 'and shows the new leads too');
    assert.ok(added.includes(fresh[0]), 'the newest lead is on top');
  });
}

function leadListTests2() {
  test('status filters the list; CREATED leads are only listed when asked for', async () => {
    const partner = await t.newPartner();
    clock.advance(1000);
    const empty = (await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: partner.headers })).json().id;
    clock.advance(1000);
    const card = await newCard(partner);
    clock.advance(1000);
    const verified = await newCard(partner);
    await t.leads.repository.update(verified, { status: 'VERIFIED' }, clock.now());
    const ids = async (query: string) => (await page(partner, query)).items.map((i) => i.id);
    assert.deepEqual(await ids(''), [verified, card]);
    assert.deepEqual(await ids('status=CREATED'), [empty]);
    assert.deepEqual(await ids('status=IN_PROGRESS'), [card]);
    assert.deepEqual(await ids('status=VERIFIED'), [verified]);
    assert.deepEqual(await ids('status=PREQUALIFIED'), []);
    for (const item of (await page(partner, 'status=IN_PROGRESS')).items) assert.equal(item.status, 'IN_PROGRESS');
  });

  test('createdFrom is inclusive and createdTo exclusive, as date-times or dates', async () => {
    clock.set(new Date('2026-03-01T10:00:00Z'));
    const partner = await t.newPartner();
    const times: string[] = [];
    const ids: string[] = [];
    for (let day = 0; day < 4; day++) {
      ids.push(await newCard(partner));
      times.push(clock.now().toISOString());
      clock.advance(24 * 3600 * 1000);
      await renewToken(partner);
    }
    const ids_ = async (query: string) => (await page(partner, query)).items.map((i) => i.id);
    assert.deepEqual(await ids_(`createdFrom=${times[1]}`), [ids[3], ids[2], ids[1]]);
    assert.deepEqual(await ids_(`createdTo=${times[2]}`), [ids[1], ids[0]]);
    assert.deepEqual(await ids_(`createdFrom=${times[1]}&createdTo=${times[3]}`), [ids[2], ids[1]]);
    assert.deepEqual(await ids_('createdFrom=2026-03-02&createdTo=2026-03-04'), [ids[2], ids[1]]);
    assert.deepEqual(await ids_('createdFrom=2026-04-01'), []);
    assert.deepEqual(
      await walk(partner, 'limit=1&createdFrom=2026-03-02'),
      [ids[3], ids[2], ids[1]],
      'filters hold across pages',
    );
  });

  test('an invalid cursor, limit, status, date or parameter answers 400 / 40015 naming it', async () => {
    const partner = await t.newPartner();
    await newCard(partner);
    const cases: [string, string][] = [
      ['cursor=garbage', 'cursor'],
      [`cursor=${Buffer.from('yesterday|not-an-id').toString('base64url')}`, 'cursor'],
      [`cursor=${'A'.repeat(201)}`, 'cursor'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=-1', 'limit'],
      ['status=DONE', 'status'],
      ['status=created', 'status'],
      ['createdFrom=yesterday', 'createdFrom'],
      ['createdTo=2026-13-45', 'createdTo'],
      ['createdFrom=1', 'createdFrom'],
      ['cursor=', 'cursor'],
      ['sort=asc', 'sort'],
    ];
    for (const [query, field] of cases) {
      const res = await list(partner, query);
      assert.equal(res.statusCode, 400, `${query}: ${show(res)}`);
      assert.equal(res.json().code, 40015, show(res));
      assert.equal(res.json().message, 'Bad Request');
      const fields = res.json().additionalData.errors.map((e: { field: string }) => e.field);
      assert.ok(fields.includes(field), `${query}: ${field} in ${show(res)}`);
    }
  });
}

describe('the lead list (GET /leads)', () => {
  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());
  leadListTests1();
  leadListTests2();
});
