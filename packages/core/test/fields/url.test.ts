import { EMPTY, URLField } from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';

fieldValues('URLField', {
  field: () => new URLField(),
  validInputs: [
    ['http://example.com', 'http://example.com'],
    ['https://example.com/path?q=1#frag', 'https://example.com/path?q=1#frag'],
    ['http://localhost', 'http://localhost'],
    ['http://localhost:8000/books/', 'http://localhost:8000/books/'],
    ['http://127.0.0.1:8000/', 'http://127.0.0.1:8000/'],
    ['ftp://files.example.org/a.txt', 'ftp://files.example.org/a.txt'],
    ['  https://example.com  ', 'https://example.com'],
  ],
  invalidInputs: [
    ['example.com', ['Enter a valid URL.']],
    ['www.example.com/path', ['Enter a valid URL.']],
    ['http://', ['Enter a valid URL.']],
    ['http://exa mple.com', ['Enter a valid URL.']],
    ['mailto:someone@example.com', ['Enter a valid URL.']],
    ['javascript:alert(1)', ['Enter a valid URL.']],
    ['file:///etc/passwd', ['Enter a valid URL.']],
    ['http://example', ['Enter a valid URL.']],
    ['', ['This field may not be blank.']],
    [EMPTY, ['This field is required.']],
    [null, ['This field may not be null.']],
    // Numbers are text to a CharField; its 'invalid' message is URLField's own, as in DRF.
    [12, ['Enter a valid URL.']],
    [true, ['Enter a valid URL.']],
  ],
  outputs: [['http://example.com', 'http://example.com']],
});

fieldValues('URLField with maxLength', {
  field: () => new URLField({ maxLength: 20 }),
  invalidInputs: [
    ['http://example.com/long/path', ['Ensure this field has no more than 20 characters.']],
    [
      'this is not a url at all',
      ['Ensure this field has no more than 20 characters.', 'Enter a valid URL.'],
    ],
  ],
});
