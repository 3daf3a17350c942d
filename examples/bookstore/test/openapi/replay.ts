/**
 * Replays requests over every operation of an app's OpenAPI document (valid ones and invalid
 * ones: bad filter values, bad and null bodies, unknown rows, refused media types, missing
 * and wrong credentials) and validates each answer against the document with a third-party
 * validator (openapi-backend, on ajv with ajv-formats): its status must be listed for the
 * operation, its media type under that status, and its JSON body must match the schema.
 */
import assert from 'node:assert/strict';
import addFormats from 'ajv-formats';
import type { InjectOptions } from 'fastify';
import { OpenAPIBackend } from 'openapi-backend';
import { request as sendTo, type Target } from '../target.ts';

type Json = Record<string, any>;

/** A minimal valid value of a JSON schema of the document (required keys only). */
export function sample(schema: Json, document: Json, depth = 0): unknown {
  if (schema.$ref) return sample(resolve(document, schema.$ref), document, depth);
  if (schema.anyOf) return sample(schema.anyOf[0], document, depth);
  if (schema.enum) return schema.enum.find((v: unknown) => v !== null) ?? null;
  const type = Array.isArray(schema.type)
    ? schema.type.find((t: string) => t !== 'null')
    : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Json = {};
    for (const name of schema.required ?? []) {
      const property = schema.properties?.[name];
      if (property && !property.readOnly) out[name] = sample(property, document, depth + 1);
    }
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer') return schema.minimum ?? 1;
  if (type === 'number') return 1;
  if (type === 'boolean') return true;
  const format = schema.format ?? schema.anyOf?.[0]?.format;
  if (format === 'date') return '2020-02-29';
  if (format === 'date-time') return '2020-02-29T10:20:30.000000Z';
  if (format === 'email') return 'ada@example.com';
  if (format === 'uri' || format === 'iri') return 'https://example.com/';
  if (format === 'decimal') return '9.99';
  const text = `v${Math.random().toString(36).slice(2, 10)}`;
  return schema.maxLength !== undefined ? text.slice(0, schema.maxLength) : text;
}

function resolve(document: Json, ref: string): Json {
  return ref
    .slice(2)
    .split('/')
    .reduce((node: Json, key: string) => node[key], document);
}

export interface ReplayOptions {
  /** Headers that authenticate, per path (a token for the management routes). */
  readonly credentials?: (path: string) => Record<string, string> | undefined;
  /** A detail path parameter value of an existing row, per path. */
  readonly existing?: (path: string) => string;
}

export interface ReplayResult {
  readonly exchanges: number;
  readonly operations: number;
  readonly statuses: ReadonlySet<string>;
}

/**
 * Replays the requests at `target` (the app, or the base URL of a running one) and validates
 * every answer; fails with every mismatch at once.
 */
export async function replay(
  target: Target,
  document: Json,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as never,
    strict: true,
    validate: true,
    // The document is checked as OpenAPI 3.1 by schema.test.ts and Redocly; this validator
    // knows only 3.0 documents, so its own check is skipped.
    quick: true,
    customizeAjv: (ajv) => {
      // ajv-formats is CommonJS: its default import is the plugin function itself.
      (addFormats as unknown as (instance: unknown) => void)(ajv);
      // Formats ajv-formats does not know (an IRI, a decimal text) are checked by their patterns.
      ajv.addFormat('iri', /^[a-z][a-z0-9+.-]*:\S+$/i);
      ajv.addFormat('decimal', true);
      ajv.addFormat('binary', true);
      return ajv;
    },
  });
  await api.init();
  const problems: string[] = [];
  const statuses = new Set<string>();
  let exchanges = 0;
  let operations = 0;
  for (const [template, item] of Object.entries(document.paths as Json)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      operations++;
      for (const request of requestsFor(template, method, operation, document, options)) {
        exchanges++;
        const response = await sendTo(target, request);
        const status = String(response.statusCode);
        statuses.add(status);
        const where = `${request.method} ${request.url} (${request.headers?.accept ?? 'json'}) → ${status}`;
        const declared = operation.responses[status] ?? operation.responses.default;
        if (!declared) {
          problems.push(`${where}: status not in the document: ${response.body.slice(0, 200)}`);
          continue;
        }
        const answer = declared.$ref ? resolve(document, declared.$ref) : declared;
        const type = String(response.headers['content-type'] ?? '').split(';')[0] as string;
        if (!response.body) continue;
        if (!answer.content?.[type]) {
          problems.push(`${where}: ${type} not declared (${Object.keys(answer.content ?? {})})`);
          continue;
        }
        if (type !== 'application/json') continue;
        const result = api.validateResponse(
          response.json(),
          operation.operationId,
          response.statusCode,
        );
        if (result.errors?.length)
          problems.push(
            `${where}: ${JSON.stringify(result.errors).slice(0, 400)} body ${response.body.slice(0, 300)}`,
          );
      }
    }
  }
  assert.deepEqual(problems, [], `${problems.length} answers disagree with the document`);
  return { exchanges, operations, statuses };
}

/** The requests replayed for one operation: valid first, then invalid ones. */
function requestsFor(
  template: string,
  method: string,
  operation: Json,
  document: Json,
  options: ReplayOptions,
): InjectOptions[] {
  const auth = options.credentials?.(template) ?? {};
  const host = { host: '127.0.0.1' };
  const existing = options.existing?.(template) ?? '1';
  const path = template.replace(/\{\w+\}/g, existing);
  const missing = template.replace(/\{\w+\}/g, '99999999');
  const upper = method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const out: InjectOptions[] = [];
  const headers = { ...host, ...auth };
  const jsonBody = operation.requestBody?.content?.['application/json']?.schema;
  const body = jsonBody ? sample(jsonBody, document) : undefined;
  // Valid, with and without credentials, JSON and the browsable API's HTML.
  for (const h of [headers, host]) {
    out.push({ method: upper, url: path, headers: h, ...(body ? { payload: body as Json } : {}) });
  }
  out.push({
    method: upper,
    url: path,
    headers: { ...headers, accept: 'text/html' },
    ...(body ? { payload: body as Json } : {}),
  });
  out.push({ method: upper, url: path, headers: { ...headers, accept: 'application/xml' } });
  out.push({
    method: upper,
    url: path,
    headers: { ...headers, authorization: 'Token 0123456789abcdef' },
  });
  if (template.includes('{')) out.push({ method: upper, url: missing, headers });
  // Every query parameter with a value of the wrong type, and list parameters repeated.
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue;
    out.push({ method: upper, url: `${path}?${parameter.name}=%20not%20valid%20`, headers });
    out.push({ method: upper, url: `${path}?${parameter.name}=1&${parameter.name}=2`, headers });
  }
  if (operation.requestBody) {
    out.push({ method: upper, url: path, headers, payload: {} });
    out.push({
      method: upper,
      url: path,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"broken',
    });
    out.push({
      method: upper,
      url: path,
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    // Each group (and each value) null: the list of messages of a group, not its object.
    const schema = jsonBody
      ? jsonBody.$ref
        ? resolve(document, jsonBody.$ref)
        : jsonBody
      : undefined;
    const nulls = Object.fromEntries(Object.keys(schema?.properties ?? {}).map((k) => [k, null]));
    out.push({ method: upper, url: path, headers, payload: nulls });
    const wrong = Object.fromEntries(Object.keys(schema?.properties ?? {}).map((k) => [k, [1]]));
    out.push({ method: upper, url: path, headers, payload: wrong });
  }
  return out;
}
