/**
 * S3Storage against an S3-protocol server on loopback (moto_server): names as on disk, streaming
 * multipart uploads within a size limit (aborted past it, nothing left in the bucket, memory
 * bounded by the parts in flight), reads, deletes, presigned URLs, a server that cannot be
 * reached or fails (StorageUnavailable), options from the environment, and credentials never
 * shown.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { after, before, beforeEach, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  FileTooLarge,
  ImproperlyConfigured,
  S3Storage,
  type S3StorageOptions,
  StorageUnavailable,
  SuspiciousFileOperation,
  s3StorageOptionsFromEnv,
} from '@restframework/core';
import fc from 'fast-check';
import {
  BucketInspector,
  closedPortEndpoint,
  openGate,
  type RecordingHandler,
  type S3TestServer,
  startS3Server,
  TEST_CREDENTIALS,
  testStorage,
} from '../fixtures/s3-server.ts';

const MiB = 1024 * 1024;
const BUCKET = 'restframework-media';

/**
 * `bytes` bytes of `fill`, made a MiB at a time as they are read (never all in memory);
 * `produced` counts the bytes handed out so far.
 */
function generated(bytes: number, fill = 0x61): Readable & { produced: () => number } {
  let left = bytes;
  const stream = new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(MiB, left);
      left -= n;
      this.push(Buffer.alloc(n, fill));
    },
  });
  return Object.assign(stream, { produced: () => bytes - left });
}

const server: S3TestServer | null = await startS3Server([BUCKET]);

describe('S3Storage', {
  skip: !server && 'no S3 server (moto_server) could start: see above',
}, () => {
  let handler: RecordingHandler;
  let storage: S3Storage;
  const made: S3Storage[] = [];

  function makeStorage(options: Partial<S3StorageOptions> = {}): S3Storage {
    const test = testStorage(server as S3TestServer, BUCKET, options);
    handler = test.handler;
    made.push(test.storage);
    return test.storage;
  }

  let inspector: BucketInspector;
  const bucketContents = () => inspector.contents();
  const keys = () => inspector.keys();
  before(() => {
    inspector = new BucketInspector(server as S3TestServer, BUCKET);
  });
  beforeEach(async () => {
    await inspector.empty();
    storage = makeStorage();
  });
  after(async () => {
    for (const s of made) s.close();
    inspector?.close();
    await server?.close();
  });

  it('saves, reads, tells and deletes a file, under the key prefix', async () => {
    const name = await storage.save('resumes/CV (final).txt', Readable.from(['hello']));
    assert.equal(name, 'resumes/CV_final_.txt');
    assert.deepEqual(await keys(), ['media/resumes/CV_final_.txt']);
    assert.equal((await buffer(storage.open(name))).toString(), 'hello');
    assert.equal(await storage.exists(name), true);
    assert.equal(storage.url(name), '/media/resumes/CV_final_.txt');
    await storage.delete(name);
    assert.equal(await storage.exists(name), false);
    assert.deepEqual(await keys(), []);
    // Deleting what is gone is no error, as on disk.
    await storage.delete(name);
  });

  it('never overwrites: a name taken gets a random suffix, within maxLength', async () => {
    const first = await storage.save('a/report.pdf', Readable.from(['1']));
    const second = await storage.save('a/report.pdf', Readable.from(['2']), { maxLength: 20 });
    assert.equal(first, 'a/report.pdf');
    assert.match(second, /^a\/report_[A-Za-z0-9]{7}\.pdf$/);
    assert.ok(second.length <= 20);
    assert.equal((await buffer(storage.open(first))).toString(), '1');
    assert.equal((await buffer(storage.open(second))).toString(), '2');
  });

  it('makes any client name safe, as on disk (generated names)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }).map((s) => s.replaceAll('/', '')),
        async (client) => {
          const name = await storage.save(`up/${client}`, Readable.from(['x']));
          assert.match(name, /^up\/[^/\\]+$/);
          assert.ok(!name.slice(3).startsWith('.'));
          assert.equal(await storage.exists(name), true);
          await storage.delete(name);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('refuses names that would leave the prefix or are not stored names', () => {
    for (const name of ['../x', 'a/../../x', '/x', 'a//b', 'a\\b', 'a/./b', '', 'x\0']) {
      assert.throws(() => storage.key(name), SuspiciousFileOperation, name);
    }
    assert.throws(() => storage.url('x') && storage.key('..'), SuspiciousFileOperation);
  });

  it('streams a large file as a multipart upload', async () => {
    const name = await storage.save('big.bin', generated(12 * MiB), { maxSize: 12 * MiB });
    assert.ok(
      handler.sent.some((line) => line.endsWith('?uploads')),
      handler.sent.join('\n'),
    );
    assert.ok(handler.sent.filter((line) => line.includes('partNumber')).length >= 3);
    const object = await storage.getObject(name);
    assert.equal(object?.size, 12 * MiB);
    object?.body.destroy();
  });

  it('aborts the multipart upload past maxSize: FileTooLarge, nothing left, memory bounded', async () => {
    const limited = makeStorage({ queueSize: 1 });
    const total = 160 * MiB;
    const maxSize = 128 * MiB;
    const source = generated(total);
    // What the upload holds, not what the collector has yet to free: the raw figure depends on
    // when V8 collects the 5 MiB chunks already sent (it measured 63 to 85 MiB on two machines),
    // so each sample is taken after a full collection.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 20);
    try {
      await assert.rejects(limited.save('huge.bin', source, { maxSize }), (error) => {
        assert.ok(error instanceof FileTooLarge, String(error));
        assert.equal(error.maxSize, maxSize);
        assert.ok(error.receivedBytes > maxSize);
        return true;
      });
    } finally {
      clearInterval(sampler);
    }
    // The upload was started, parts sent, then aborted (DELETE ?uploadId), never completed.
    assert.ok(handler.sent.some((line) => line.endsWith('?uploads')));
    assert.ok(
      handler.sent.some((line) => /^DELETE .*\?uploadId(&x-id)?$/.test(line)),
      handler.sent.join('\n'),
    );
    assert.ok(!handler.sent.some((line) => /^POST .*\?uploadId(&x-id)?$/.test(line)));
    // The source was not read to its end.
    assert.ok(source.produced() < total, `read ${source.produced()} of ${total}`);
    assert.deepEqual(await bucketContents(), { keys: [], uploads: [] });
    // A few 5 MiB parts at once (and garbage not yet collected), never the 128 MiB read.
    assert.ok(peak - baseline < 64 * MiB, `peak ${((peak - baseline) / MiB).toFixed(1)} MiB`);
    console.log(`# peak ${((peak - baseline) / MiB).toFixed(1)} MiB of array buffers`);
  });

  it('refuses an upload larger than maxSize before sending anything', async () => {
    const { UploadedFile } = await import('@restframework/core');
    const file = new UploadedFile('cv.pdf', 'application/pdf', 11, '/nonexistent');
    await assert.rejects(storage.save('cv.pdf', file, { maxSize: 10 }), FileTooLarge);
    assert.deepEqual(handler.sent, []);
  });

  it('presigns GET URLs that S3 answers with the given headers', async () => {
    const signed = makeStorage({ presignedUrls: true, presignedUrlExpires: 60 });
    const name = await signed.save('doc.html', Readable.from(['<script>1</script>']));
    const url = await signed.presignedUrl(name, {
      contentType: 'application/octet-stream',
      contentDisposition: 'attachment; filename="doc.html"',
    });
    assert.match(url, /X-Amz-Expires=60/);
    assert.ok(!url.includes(TEST_CREDENTIALS.secretAccessKey));
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    // S3 answers with response-content-disposition too; moto ignores it.
    assert.match(url, /response-content-disposition=attachment/);
    assert.equal(await res.text(), '<script>1</script>');
    // Without the signature, the object is not readable.
    const unsigned = await fetch(url.slice(0, url.indexOf('?')));
    assert.notEqual(unsigned.status, 200);
  });

  it('a missing object: exists false, getObject null, open fails', async () => {
    assert.equal(await storage.exists('nothing.txt'), false);
    assert.equal(await storage.getObject('nothing.txt'), null);
    await assert.rejects(buffer(storage.open('nothing.txt')), /No file "nothing.txt"/);
  });

  it('a server that cannot be reached: StorageUnavailable from every call, the cause kept', async () => {
    const down = makeStorage({
      endpoint: await closedPortEndpoint(),
      clientOptions: { maxAttempts: 1 },
    });
    const refused = (error: unknown) => {
      assert.ok(error instanceof StorageUnavailable, String(error));
      assert.equal(error.statusCode, 503);
      assert.equal(error.code, 'storage_unavailable');
      assert.equal((error.cause as { code?: string }).code, 'ECONNREFUSED');
      return true;
    };
    await assert.rejects(down.save('a.txt', Readable.from(['x'])), refused);
    await assert.rejects(down.getObject('a.txt'), refused);
    await assert.rejects(down.exists('a.txt'), refused);
    await assert.rejects(down.delete('a.txt'), refused);
    await assert.rejects(buffer(down.open('a.txt')), refused);
  });

  it('a server gone mid-upload: StorageUnavailable, no object, the source not read to its end', async () => {
    const gate = await openGate(server as S3TestServer);
    const gated = makeStorage({ endpoint: gate.endpoint, clientOptions: { maxAttempts: 1 } });
    // The server goes away when the second part is sent.
    handler.beforeSend = (line) =>
      line.includes('partNumber') &&
      handler.sent.filter((l) => l.includes('partNumber')).length === 2
        ? gate.close()
        : undefined;
    const source = generated(40 * MiB);
    await assert.rejects(gated.save('big.bin', source), StorageUnavailable);
    assert.ok(source.produced() < 40 * MiB, `read ${source.produced()}`);
    assert.deepEqual((await bucketContents()).keys, []);
  });

  it('a server answering 5xx or timing out is unavailable; a refusal of the request is not', async () => {
    const answers: Record<string, [number, string]> = {
      '/restframework-media/media/down.txt': [503, 'SlowDown'],
      '/restframework-media/media/denied.txt': [403, 'AccessDenied'],
    };
    const fake = createHttpServer((request, response) => {
      // A server that stops answering: the request times out.
      if (request.url?.includes('/silent.txt')) return;
      const [status, code] = answers[request.url?.split('?')[0] ?? ''] ?? [500, 'InternalError'];
      response.writeHead(status, { 'content-type': 'application/xml' });
      response.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>m</Message></Error>`);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = fake.address() as AddressInfo;
      const s = makeStorage({
        endpoint: `http://127.0.0.1:${port}`,
        clientOptions: { maxAttempts: 1 },
      });
      await assert.rejects(s.getObject('down.txt'), StorageUnavailable);
      await assert.rejects(s.delete('other.txt'), StorageUnavailable);
      await assert.rejects(s.getObject('denied.txt'), (error) => {
        assert.ok(!(error instanceof StorageUnavailable), String(error));
        assert.equal((error as { name?: string }).name, 'AccessDenied');
        return true;
      });
      // The timeout docs/deploying.md recommends, given as the SDK's handler options.
      const timed = new S3Storage({
        bucket: BUCKET,
        endpoint: `http://127.0.0.1:${port}`,
        credentials: TEST_CREDENTIALS,
        clientOptions: {
          requestHandler: { requestTimeout: 300, throwOnRequestTimeout: true },
          maxAttempts: 1,
        },
      });
      made.push(timed);
      await assert.rejects(timed.getObject('silent.txt'), (error) => {
        assert.ok(error instanceof StorageUnavailable, String(error));
        assert.equal((error.cause as { name?: string }).name, 'TimeoutError');
        return true;
      });
    } finally {
      fake.closeAllConnections();
      await new Promise((resolve) => fake.close(resolve));
    }
  });

  it('never shows its credentials', () => {
    const secret = 'wJalrXUtnFEMI-not-a-real-secret';
    const s = new S3Storage({
      bucket: BUCKET,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: secret },
    });
    made.push(s);
    assert.ok(!inspect(s, { depth: 10, showHidden: true }).includes(secret));
    assert.ok(!JSON.stringify(s).includes(secret));
  });
});

describe('S3Storage options', () => {
  it('fails at start-up on a bad bucket, region, endpoint, prefix or size', () => {
    const bad: Partial<S3StorageOptions>[] = [
      { bucket: '' },
      { bucket: 'Upper_Case' },
      { bucket: 'ok-bucket' },
      { bucket: 'ok-bucket', endpoint: 'ftp://x' },
      { bucket: 'ok-bucket', endpoint: 'not a url' },
      { bucket: 'ok-bucket', region: 'x', keyPrefix: 'a/../b' },
      { bucket: 'ok-bucket', region: 'x', partSize: MiB },
      { bucket: 'ok-bucket', region: 'x', queueSize: 0 },
      { bucket: 'ok-bucket', region: 'x', presignedUrlExpires: 8 * 24 * 3600 },
    ];
    for (const options of bad) {
      assert.throws(
        () => new S3Storage(options as S3StorageOptions),
        (error) => error instanceof ImproperlyConfigured && error.code === 'REST_ERR_STORAGE',
        JSON.stringify(options),
      );
    }
  });

  it("reads django-storages' variable names, and never the access keys", () => {
    const options = s3StorageOptionsFromEnv({
      AWS_STORAGE_BUCKET_NAME: 'media',
      AWS_S3_REGION_NAME: 'eu-west-1',
      AWS_S3_ENDPOINT_URL: 'http://127.0.0.1:9000',
      AWS_LOCATION: 'uploads/',
      AWS_QUERYSTRING_AUTH: 'true',
      AWS_QUERYSTRING_EXPIRE: '600',
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret-value',
    });
    assert.deepEqual(options, {
      bucket: 'media',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      keyPrefix: 'uploads/',
      presignedUrls: true,
      presignedUrlExpires: 600,
    });
    assert.equal(
      s3StorageOptionsFromEnv({ AWS_STORAGE_BUCKET_NAME: 'm', AWS_REGION: 'x' }).region,
      'x',
    );
    for (const env of [
      {},
      { AWS_STORAGE_BUCKET_NAME: 'm', AWS_QUERYSTRING_AUTH: 'maybe' },
      { AWS_STORAGE_BUCKET_NAME: 'm', AWS_QUERYSTRING_EXPIRE: '1.5' },
    ]) {
      assert.throws(
        () => s3StorageOptionsFromEnv(env),
        (error) => error instanceof ImproperlyConfigured && error.code === 'REST_ERR_STORAGE',
      );
    }
  });
});
