import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

let t: TestApp;
describe('framework errors', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  function assertErrorResponse(
    status: number,
    code: number,
    headers: Record<string, unknown>,
    body: string,
    message: string,
  ) {
    const parsed = JSON.parse(body);
    assert.deepEqual(Object.keys(parsed).sort(), ['additionalData', 'code', 'message', 'requestId', 'timestamp'], body);
    assert.equal(parsed.code, code, body);
    assert.equal(parsed.message, message, body);
    assert.equal(parsed.requestId, headers['x-request-id'], body);
    assert.match(String(headers['content-type']), /^application\/json/);
    void status;
  }

  describe('errors Fastify raises before a route runs', () => {
    test('a malformed percent-encoding in the path is 400 / 40015', async () => {
      for (const url of [`${api}/leads/%zz`, `${api}/leads/%E0%A4%A`, '/admin/credentials/%']) {
        const res = await t.app.inject({ method: 'GET', url, headers: t.partner.headers });
        assert.equal(res.statusCode, 400, show(res));
        assertErrorResponse(400, 40015, res.headers, res.body, 'Bad Request');
        assert.deepEqual(
          res.json().additionalData.errors.map((e: { field: string }) => e.field),
          ['path'],
        );
      }
    });

    test('a path parameter over 100 characters is 414 / 4140 and does not echo the URL', async () => {
      const long = 'a'.repeat(150);
      const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${long}`, headers: t.partner.headers });
      assert.equal(res.statusCode, 414, show(res));
      assertErrorResponse(414, 4140, res.headers, res.body, 'URI Too Long');
      assert.ok(!res.body.includes(long), res.body);
    });
  });

  describe('what Node’s HTTP parser refuses', () => {
    let port: number;
    before(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });

    /** Writes raw bytes and reads until the server closes the connection (an end, not a reset). */
    function raw(
      request: string,
    ): Promise<{ status: number; headers: Record<string, string>; body: string; text: string }> {
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let data = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => (data += chunk));
        socket.on('error', reject);
        socket.on('end', () => {
          const [head, body] = data.split('\r\n\r\n');
          const [statusLine, ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(
            lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          );
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body, text: data });
        });
        socket.write(request);
      });
    }

    test('a malformed request line or header is 400 / 40015 with Connection: close', async () => {
      for (const request of [
        'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
        'NOT HTTP AT ALL\r\n\r\n',
        `GET /${'\u0000'} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ]) {
        const res = await raw(request);
        assert.equal(res.status, 400, JSON.stringify(res));
        assert.equal(res.headers.connection, 'close');
        assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
        assertErrorResponse(400, 40015, res.headers, res.body, 'Bad Request');
      }
    });

    test('headers over the size limit are 431 / 4310 with Connection: close', async () => {
      const res = await raw(`GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.equal(res.status, 431, JSON.stringify(res).slice(0, 300));
      assert.equal(res.headers.connection, 'close');
      assertErrorResponse(431, 4310, res.headers, res.body, 'Request Header Fields Too Large');
    });

    test('a keep-alive client gets the answer of a good request, then the error, then the close', async () => {
      const res = await raw('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nBad Header\r\n\r\n');
      assert.equal(res.status, 200);
      const second = res.text.slice(res.text.indexOf('{"status":"ok"}') + '{"status":"ok"}'.length);
      assert.match(second, /^HTTP\/1\.1 400 Bad Request\r\n/, res.text);
      assert.match(second, /\r\nConnection: close\r\n/, res.text);
      assert.match(second, /"code":40015/, res.text);
    });
  });
});
