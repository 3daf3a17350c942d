/**
 * The Fastify content-type parsers of the toolkit's routes, installed in the router's own
 * encapsulated context so that an app's other routes keep Fastify's defaults.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { APISettings } from '../settings/api-settings.ts';
import { UNPARSED_BODY } from './parser.ts';

/** Matches `application/json` and `application/<anything>+json`. */
const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json(?:\s*;|$)/i;

/**
 * JSON and url-encoded bodies are read into a `Buffer` here (decoded by the parser, in the
 * charset the request names), within `MAX_BODY_SIZE` (413
 * above), and parsed by the view's parser class, so that parse errors are answered by the
 * view like any other error. Multipart bodies are left unread for the multipart parser, which
 * streams them; so is any other type, and the view answers 415 when no parser takes it.
 */
export function installBodyParsers(instance: FastifyInstance, settings: APISettings): void {
  instance.removeAllContentTypeParsers();
  for (const type of [JSON_TYPES, 'application/x-www-form-urlencoded']) {
    instance.addContentTypeParser(
      type,
      { parseAs: 'buffer', bodyLimit: settings.MAX_BODY_SIZE },
      (_request, body, done) => done(null, body),
    );
  }
  instance.addContentTypeParser('*', (_request, _payload, done) => done(null, UNPARSED_BODY));
}
