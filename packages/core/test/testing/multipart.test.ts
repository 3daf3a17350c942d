/** `multipartBody`: the object form of a text-only form is the list form, byte for byte. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MULTIPART_BOUNDARY, multipartBody } from '@restframework/core/testing';

describe('multipartBody', () => {
  it('writes an object of text fields as the list of the same parts, in order', () => {
    const fromObject = multipartBody({ title: 'Dune', 'stock.price': '9.99' });
    const fromList = multipartBody([
      { name: 'title', value: 'Dune' },
      { name: 'stock.price', value: '9.99' },
    ]);
    assert.deepEqual(fromObject.headers, {
      'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
    });
    assert.equal(
      fromObject.payload.toString(),
      `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nDune\r\n` +
        `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="stock.price"\r\n\r\n9.99\r\n` +
        `--${MULTIPART_BOUNDARY}--\r\n`,
    );
    assert.deepEqual(fromObject.payload, fromList.payload);
  });
});
