/**
 * Where a replay sends its requests: the app itself (`inject`, in process) or a base URL
 * (`http://127.0.0.1:PORT`, over HTTP: a server, or a load balancer in front of several, as the
 * scale-out test does). The answer has the shape of `inject`'s either way.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { type HttpAnswer, send } from './scale/http.ts';

/** The app, or the base URL of a running one. */
export type Target = FastifyInstance | string;

/** Sends `request` to `target`. */
export async function request(target: Target, request: InjectOptions): Promise<HttpAnswer> {
  if (typeof target !== 'string') return (await target.inject(request)) as unknown as HttpAnswer;
  return send(target, {
    method: request.method ?? 'GET',
    url: request.url as string,
    headers: request.headers as Record<string, string>,
    ...(request.payload === undefined ? {} : { payload: request.payload as string | object }),
  });
}
