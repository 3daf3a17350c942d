/**
 * {@link S3StorageOptions} from environment variables, under django-storages' names.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { S3StorageOptions } from './s3-storage.ts';

/**
 * The options of an {@link S3Storage} from the environment, with django-storages' names:
 *
 * | variable | option |
 * | --- | --- |
 * | `AWS_STORAGE_BUCKET_NAME` (required) | `bucket` |
 * | `AWS_S3_REGION_NAME`, else `AWS_REGION` | `region` |
 * | `AWS_S3_ENDPOINT_URL` | `endpoint` |
 * | `AWS_LOCATION` | `keyPrefix` |
 * | `AWS_QUERYSTRING_AUTH` (`true`/`false`) | `presignedUrls` |
 * | `AWS_QUERYSTRING_EXPIRE` (seconds) | `presignedUrlExpires` |
 * | `MEDIA_URL` | `baseUrl` |
 *
 * The access keys are not read here: the SDK reads `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` (or a profile, or a role) itself, so they
 * never pass through the app's options, settings or logs.
 *
 * @example
 * ```ts
 * // AWS_STORAGE_BUCKET_NAME=media AWS_S3_REGION_NAME=eu-west-1 AWS_QUERYSTRING_AUTH=true
 * const storage = new S3Storage(s3StorageOptionsFromEnv());
 * ```
 */
export function s3StorageOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): S3StorageOptions {
  const bucket = env.AWS_STORAGE_BUCKET_NAME;
  if (!bucket) {
    throw new ImproperlyConfigured(
      'REST_ERR_STORAGE',
      's3StorageOptionsFromEnv: set AWS_STORAGE_BUCKET_NAME to the bucket of the files.',
    );
  }
  const region = env.AWS_S3_REGION_NAME || env.AWS_REGION;
  const expires = env.AWS_QUERYSTRING_EXPIRE;
  return {
    bucket,
    ...(region ? { region } : {}),
    ...(env.AWS_S3_ENDPOINT_URL ? { endpoint: env.AWS_S3_ENDPOINT_URL } : {}),
    ...(env.AWS_LOCATION ? { keyPrefix: env.AWS_LOCATION } : {}),
    ...(env.MEDIA_URL ? { baseUrl: env.MEDIA_URL } : {}),
    presignedUrls: flag('AWS_QUERYSTRING_AUTH', env.AWS_QUERYSTRING_AUTH),
    ...(expires ? { presignedUrlExpires: seconds(expires) } : {}),
  };
}

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  const lower = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  throw new ImproperlyConfigured(
    'REST_ERR_STORAGE',
    `s3StorageOptionsFromEnv: ${name} must be true or false, got "${value}".`,
  );
}

function seconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
    throw new ImproperlyConfigured(
      'REST_ERR_STORAGE',
      `s3StorageOptionsFromEnv: AWS_QUERYSTRING_EXPIRE must be whole seconds, got "${value}".`,
    );
  }
  return n;
}
