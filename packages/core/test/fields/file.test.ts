import {
  EMPTY,
  FileField,
  type RequestLike,
  type Storage,
  UploadedFile,
} from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';

const upload = (filename: string, size = 10) =>
  new UploadedFile(filename, 'text/plain', size, `/tmp/upload-${filename || 'unnamed'}`);

const resume = upload('resume.txt');
const empty = upload('empty.txt', 0);

const storage = { url: (name: string) => `/media/${name}` } as Storage;
const request: RequestLike = {
  reverse: () => {
    throw new Error('not used');
  },
  buildAbsoluteUri: (path) => `http://testserver${path}`,
};

fieldValues('FileField', {
  field: () => new FileField(),
  validInputs: [[resume, resume]],
  invalidInputs: [
    ['resume.txt', ['The submitted data was not a file. Check the encoding type on the form.']],
    ['', ['The submitted data was not a file. Check the encoding type on the form.']],
    [
      { filename: 'a.txt', size: 3 },
      ['The submitted data was not a file. Check the encoding type on the form.'],
    ],
    [42, ['The submitted data was not a file. Check the encoding type on the form.']],
    [empty, ['The submitted file is empty.']],
    [upload(''), ['No filename could be determined.']],
    [EMPTY, ['No file was submitted.']],
    [null, ['This field may not be null.']],
  ],
  outputs: [
    // Without a storage the stored name is the URL.
    ['uploads/resume.txt', 'uploads/resume.txt'],
    [resume, 'resume.txt'],
    ['', null],
  ],
});

fieldValues('FileField with allowEmptyFile and maxLength', {
  field: () => new FileField({ allowEmptyFile: true, maxLength: 10 }),
  validInputs: [
    [empty, empty],
    [upload('😀😀😀😀😀.txt'), upload('😀😀😀😀😀.txt')],
  ],
  invalidInputs: [
    [upload('a-long-name.txt'), ['Ensure this filename has at most 10 characters (it has 15).']],
  ],
});

fieldValues('FileField with maxLength, refusing an empty file first', {
  field: () => new FileField({ maxLength: 5 }),
  // DRF checks emptiness before the name's length.
  invalidInputs: [[upload('long-name.txt', 0), ['The submitted file is empty.']]],
});

fieldValues('FileField with allowNull', {
  field: () => new FileField({ allowNull: true, required: false }),
  validInputs: [[null, null]],
});

fieldValues('FileField rendering through storage and request', {
  field: () => new FileField(),
  runContext: { context: { storage, request } },
  outputs: [
    ['uploads/resume.txt', 'http://testserver/media/uploads/resume.txt'],
    [resume, 'http://testserver/media/resume.txt'],
  ],
});

fieldValues('FileField rendering through storage, without a request', {
  field: () => new FileField(),
  runContext: { context: { storage } },
  outputs: [['uploads/resume.txt', '/media/uploads/resume.txt']],
});

fieldValues('FileField with useUrl: false', {
  field: () => new FileField({ useUrl: false }),
  runContext: { context: { storage, request } },
  outputs: [['uploads/resume.txt', 'uploads/resume.txt']],
});
